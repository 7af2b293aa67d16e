//! PostgreSQL storage for toolmem: [`PostgresRuleStore`] keeps one set of rules that servers on
//! many machines share, behind the same [`RuleStore`](tool_memory_store::RuleStore) trait and
//! conformance suite as the SQLite default. A crate of its own so that rusqlite and
//! tokio-postgres never meet in one crate; only this crate knows PostgreSQL.

mod schema;
mod store;

pub use crate::schema::SCHEMA_VERSION;
pub use crate::store::{PostgresOptions, PostgresRuleStore, is_postgres_url};
