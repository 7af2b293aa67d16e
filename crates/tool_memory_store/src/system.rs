//! The real clock and id source; the pure crates only see the traits.

use tool_memory_core::{Clock, IdSource, Timestamp};

/// Reads the system clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::from_datetime(chrono::Utc::now())
    }
}

/// Generates UUID v4 ids, as the feature page promises.
#[derive(Debug, Default, Clone, Copy)]
pub struct UuidIds;

impl IdSource for UuidIds {
    fn next_id(&self) -> String {
        uuid::Uuid::new_v4().to_string()
    }
}
