//! Integration tests of the SQLite store, as one test binary.

mod conformance;
mod sqlite;
