//! Integration tests of the SQLite store, as one test binary.

mod conformance;
mod one_shot;
mod sqlite;
