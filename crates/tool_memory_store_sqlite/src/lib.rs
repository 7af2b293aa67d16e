//! `SqliteRuleStore`: the embedded default backend of the storage contract
//! ([`tool_memory_store::RuleStore`]), one typed row per rule. The only crate that knows
//! rusqlite (besides the benchmark's bare-SQLite baseline).
//!
//! Choices, and why:
//! - One writer connection and a few reader connections, each behind a `parking_lot::Mutex`.
//!   In WAL mode readers never wait for the writer, so a slow write (or another process holding
//!   the write lock for the busy timeout) never delays a read.
//! - A process that makes one call and exits (an agent's hook, a CLI command) opens the file
//!   with [`Footprint::OneShot`] instead: the writer connection alone, no checkpoint thread,
//!   every call on the calling thread, and no migration transaction (which takes the write
//!   lock) when the schema is already current. A spawn of `toolmem hook` spent most of its
//!   time starting and stopping the server's threads and connections for one check.
//! - SQLite runs on the calling thread, without blocking the async runtime: on a multi-thread
//!   tokio runtime through `tokio::task::block_in_place` (the worker hands its other tasks to
//!   another thread first), on a current-thread runtime through `spawn_blocking`, and outside a
//!   runtime inline. `spawn_blocking` on every call cost about 30 us per point read in the
//!   benchmark (a thread hop each way). What cannot wait runs inline even on a worker, without
//!   the handoff `block_in_place` makes (most of an RPC `get`): a point read on a connection
//!   that is free, and the version read and cache hits while the writer is free, in WAL mode
//!   (where a read never waits for a lock) or in memory. Each then spends a unit of the task's
//!   cooperative budget, so a task looping over them still yields.
//! - WAL journal with `synchronous = NORMAL` by default ([`Durability::Normal`]): a write that
//!   returned survives the process being killed, because the WAL frame is in the OS before
//!   `COMMIT` returns; on power loss or an OS crash the last transactions before the crash may
//!   roll back, but the file is never corrupt. [`Durability::Full`] fsyncs every commit and
//!   survives power loss too, at the cost of one fsync per write.
//! - Every write is one `BEGIN IMMEDIATE` transaction (read the old row, unless a put makes a
//!   new id, then write the new one), so
//!   several processes sharing a file never lose an update or reset `created_at`; the busy
//!   timeout makes them queue instead of failing.
//!
//! Rooms: [`store`] (the type, its runner and the `RuleStore` impl), `open` (opening a file,
//! read-only or in memory, and `inspect`), `connections` (the writer, the readers, their caches
//! and the write transaction), `codec` (rows to rules and back), `index` (catching up the lazy
//! search and history indexes), `schema` (migrations), `turn` (a whole turn in one transaction)
//! and `checkpoint` (the log checkpointer).

mod checkpoint;
mod codec;
mod connections;
mod counts;
mod error;
mod index;
mod open;
mod schema;
mod store;
mod turn;

pub use crate::store::{Durability, Footprint, SqliteOptions, SqliteRuleStore};
