//! Tests of the PostgreSQL store, as one test binary: the shared conformance suite, and what
//! only a shared database has (several stores at once, migrations raced, connections lost).
//! They need a database: set `TOOLMEM_TEST_PG_URL` (`cargo xtask pg start` prints one).

mod conformance;
mod shared;
mod support;
