//! Time and id sources as parameters, so that nothing in the pure crates reads the clock or
//! a random generator. Real implementations live in the storage crate.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use crate::Timestamp;

/// Where "now" comes from.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The current instant.
    fn now(&self) -> Timestamp;
}

/// Where fresh rule ids come from.
pub trait IdSource: Send + Sync + std::fmt::Debug {
    /// A new id, unique with overwhelming probability.
    fn next_id(&self) -> String;
}

/// A clock that starts at a fixed instant and advances one microsecond per reading, so that
/// successive writes in a test get distinct, ordered timestamps.
#[derive(Debug)]
pub struct ManualClock {
    micros: AtomicI64,
}

impl ManualClock {
    /// A clock whose first reading is `start`.
    pub fn starting_at(start: Timestamp) -> ManualClock {
        ManualClock {
            micros: AtomicI64::new(start.unix_micros()),
        }
    }

    /// Moves the clock forward by `micros` microseconds.
    pub fn advance_micros(&self, micros: i64) {
        self.micros.fetch_add(micros, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        let micros = self.micros.fetch_add(1, Ordering::SeqCst);
        Timestamp::from_unix_micros(micros).expect("manual clock stays within chrono's range")
    }
}

/// Ids `{prefix}-1`, `{prefix}-2`, ... for deterministic tests.
#[derive(Debug)]
pub struct SequentialIds {
    prefix: String,
    next: AtomicU64,
}

impl SequentialIds {
    /// A source whose first id is `{prefix}-1`.
    pub fn new(prefix: impl Into<String>) -> SequentialIds {
        SequentialIds {
            prefix: prefix.into(),
            next: AtomicU64::new(1),
        }
    }
}

impl IdSource for SequentialIds {
    fn next_id(&self) -> String {
        format!(
            "{}-{}",
            self.prefix,
            self.next.fetch_add(1, Ordering::SeqCst)
        )
    }
}
