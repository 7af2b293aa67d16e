//! PostgreSQL storage for toolmem: [`PostgresRuleStore`] keeps one set of rules that servers on
//! many machines share, behind the same [`RuleStore`](tool_memory_store::RuleStore) trait and
//! conformance suite as the SQLite default. A crate of its own, over the contract crate alone,
//! so a PostgreSQL-only build carries no SQLite; only this crate knows PostgreSQL.
//!
//! Rooms: `pool` (the type, opening it, the pooled client and the schema check every call
//! makes), `store` (the `RuleStore` impl), `turn` (a whole turn in one transaction), `counts`
//! (every tool's rule counts in one grouped query), `codec` (rows to rules and back), `schema`
//! (migrations) and `error` (driver errors as the contract's).

mod codec;
mod counts;
mod error;
mod pool;
mod schema;
mod store;
mod turn;

pub use crate::pool::{PostgresOptions, PostgresRuleStore};
pub use crate::schema::SCHEMA_VERSION;
