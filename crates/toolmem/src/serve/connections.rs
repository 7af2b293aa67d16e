//! The table of open HTTP connections: the connection limit, and which connection gives way when
//! it is reached.
//!
//! Each connection is either *waiting* for a complete request (its head or body is still
//! arriving, or it is idle between requests) or *working* on one (its body is in and its RPC
//! runs). When every slot is taken, a new connection evicts the connection that has been waiting
//! longest. Why this rule:
//!
//! - Slow clients only ever hold waiting slots: a half-sent head or a stalled body never becomes
//!   working. So however many of them fill the table, a client that sends its request promptly
//!   gets a slot (it evicts the oldest of them) and stays: it is the newest waiting connection, so
//!   it is evicted last, and it stops being evictable as soon as its request is in. A guard check
//!   from a fresh connection is answered even when slow clients hold every slot.
//! - Evicting a waiting connection loses nothing: no RPC of it has started, so nothing was
//!   acknowledged or half done. A connection that is working is never evicted; when every slot is
//!   working, the new connection is refused with 503 (that is real load, not a slow client).
//! - "Longest" is counted, not timed: each time a connection starts waiting it takes the next
//!   number of a counter, and the smallest number goes first. The table needs no clock.
//! - A reserve of slots held for fast clients would need to guess what "fast" means and would
//!   still fill up; eviction needs no guess and keeps every slot usable.
//!
//! A connection that was evicted (or is closing at shutdown) can no longer start work: if its
//! request completes in the moment before its task notices, the request is refused with 503
//! rather than run on a connection that is about to be dropped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// What a connection's task is told to do.
#[derive(Debug)]
pub(crate) enum Stop {
    /// Drop the connection now: it was evicted, or it is waiting at shutdown.
    Now,
    /// Finish the request in flight, then close (shutdown).
    Graceful,
}

/// The outcome of a new connection.
#[derive(Debug)]
pub(crate) enum Admission {
    /// Serve it; its task listens on the receiver.
    Admitted(Arc<Slot>, oneshot::Receiver<Stop>),
    /// Every slot is working: refuse it.
    Full,
}

#[derive(Debug)]
pub(crate) struct Connections {
    table: Mutex<Table>,
}

#[derive(Debug)]
struct Table {
    capacity: usize,
    next_id: u64,
    /// The counter that orders waiting connections.
    next_turn: u64,
    entries: HashMap<u64, Entry>,
    draining: bool,
}

#[derive(Debug)]
struct Entry {
    state: State,
    stop: Option<oneshot::Sender<Stop>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Waiting for a complete request since this turn.
    Waiting(u64),
    Working,
    /// Told to close; may not start work.
    Closing,
}

impl Table {
    fn turn(&mut self) -> u64 {
        self.next_turn += 1;
        self.next_turn
    }
}

impl Connections {
    pub(crate) fn new(capacity: usize) -> Arc<Connections> {
        Arc::new(Connections {
            table: Mutex::new(Table {
                capacity,
                next_id: 0,
                next_turn: 0,
                entries: HashMap::new(),
                draining: false,
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        // The table holds no invariant a panicking holder could break half-way that matters
        // more than serving on: take it back from a poisoned lock.
        self.table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes a slot for a new connection, evicting the connection that has waited longest when
    /// the table is full.
    pub(crate) fn admit(self: &Arc<Self>) -> Admission {
        let mut table = self.lock();
        if table.draining {
            return Admission::Full;
        }
        if table.entries.len() >= table.capacity {
            let oldest = table
                .entries
                .iter()
                .filter_map(|(id, entry)| match entry.state {
                    State::Waiting(turn) => Some((turn, *id)),
                    State::Working | State::Closing => None,
                })
                .min();
            let Some((_, id)) = oldest else {
                return Admission::Full;
            };
            if let Some(evicted) = table.entries.remove(&id)
                && let Some(stop) = evicted.stop
            {
                let _ = stop.send(Stop::Now);
            }
            tracing::debug!("connection limit reached: evicted the longest-waiting connection");
        }
        table.next_id += 1;
        let id = table.next_id;
        let turn = table.turn();
        let (stop, stopped) = oneshot::channel();
        table.entries.insert(
            id,
            Entry {
                state: State::Waiting(turn),
                stop: Some(stop),
            },
        );
        let slot = Arc::new(Slot {
            id,
            connections: Arc::clone(self),
            requests: AtomicU64::new(0),
        });
        Admission::Admitted(slot, stopped)
    }

    /// Shutdown: no more admissions; waiting connections are dropped now, working ones finish
    /// their request and then close.
    pub(crate) fn drain(&self) {
        let mut table = self.lock();
        table.draining = true;
        for entry in table.entries.values_mut() {
            let order = match entry.state {
                State::Waiting(_) => Stop::Now,
                State::Working => Stop::Graceful,
                State::Closing => continue,
            };
            if matches!(order, Stop::Now) {
                entry.state = State::Closing;
            }
            if let Some(stop) = entry.stop.take() {
                let _ = stop.send(order);
            }
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().entries.len()
    }
}

/// One connection's place in the table; dropping it frees the slot.
#[derive(Debug)]
pub(crate) struct Slot {
    id: u64,
    connections: Arc<Connections>,
    requests: AtomicU64,
}

impl Slot {
    /// Counts a request on this connection and returns how many it has had, this one included.
    pub(crate) fn count_request(&self) -> u64 {
        self.requests.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// The request is complete and its RPC is about to run: the connection stops being
    /// evictable. False when it was evicted or is closing; then the request must not run.
    pub(crate) fn start_work(&self) -> bool {
        let mut table = self.connections.lock();
        match table.entries.get_mut(&self.id) {
            Some(entry) if matches!(entry.state, State::Waiting(_)) => {
                entry.state = State::Working;
                true
            }
            // Working already: a second request cannot overlap on one HTTP/1 connection, but
            // saying yes is the harmless answer.
            Some(entry) => entry.state == State::Working,
            None => false,
        }
    }

    /// The response is ready: the connection waits for its next request, as the newest waiter.
    pub(crate) fn finish_work(&self) {
        let mut table = self.connections.lock();
        let turn = table.turn();
        let draining = table.draining;
        if let Some(entry) = table.entries.get_mut(&self.id)
            && entry.state == State::Working
        {
            entry.state = if draining {
                State::Closing
            } else {
                State::Waiting(turn)
            };
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.connections.lock().entries.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admit(connections: &Arc<Connections>) -> (Arc<Slot>, oneshot::Receiver<Stop>) {
        match connections.admit() {
            Admission::Admitted(slot, stop) => (slot, stop),
            Admission::Full => panic!("refused"),
        }
    }

    #[test]
    fn a_full_table_evicts_the_longest_waiting_connection_and_never_a_working_one() {
        let connections = Connections::new(3);
        let (first, mut first_stop) = admit(&connections);
        let (second, mut second_stop) = admit(&connections);
        let (third, mut third_stop) = admit(&connections);
        // At the limit nobody was evicted.
        assert!(first_stop.try_recv().is_err());
        assert_eq!(connections.len(), 3);
        // The first works; the second has waited longest among the rest.
        assert!(first.start_work());
        let (fourth, _fourth_stop) = admit(&connections);
        assert!(matches!(second_stop.try_recv(), Ok(Stop::Now)));
        assert!(
            !second.start_work(),
            "an evicted connection must not start work"
        );
        assert!(first_stop.try_recv().is_err());
        // The third is next, then the fourth; the working first stays.
        let (_fifth, _) = admit(&connections);
        assert!(matches!(third_stop.try_recv(), Ok(Stop::Now)));
        assert!(fourth.start_work());
        let (sixth, _) = admit(&connections);
        assert!(sixth.start_work());
        // Every slot works: the next connection is refused, and nobody is evicted.
        assert!(matches!(connections.admit(), Admission::Full));
        assert!(first_stop.try_recv().is_err());
        // A finished request makes its connection the newest waiter, evictable again.
        first.finish_work();
        let (_seventh, _) = admit(&connections);
        assert!(matches!(first_stop.try_recv(), Ok(Stop::Now)));
        drop(third);
    }

    #[test]
    fn a_connection_that_finished_a_request_waits_behind_older_waiters() {
        let connections = Connections::new(2);
        let (slow, mut slow_stop) = admit(&connections);
        let (fast, mut fast_stop) = admit(&connections);
        assert!(fast.start_work());
        fast.finish_work();
        let _third = admit(&connections);
        assert!(matches!(slow_stop.try_recv(), Ok(Stop::Now)));
        assert!(fast_stop.try_recv().is_err());
        drop(slow);
    }

    #[test]
    fn dropping_a_slot_frees_it_and_drain_stops_everyone() {
        let connections = Connections::new(2);
        let (waiting, mut waiting_stop) = admit(&connections);
        let (working, mut working_stop) = admit(&connections);
        assert!(working.start_work());
        connections.drain();
        assert!(matches!(waiting_stop.try_recv(), Ok(Stop::Now)));
        assert!(matches!(working_stop.try_recv(), Ok(Stop::Graceful)));
        assert!(
            !waiting.start_work(),
            "a connection closing at shutdown must not start work"
        );
        assert!(matches!(connections.admit(), Admission::Full));
        drop(waiting);
        drop(working);
        assert_eq!(connections.len(), 0);
    }
}
