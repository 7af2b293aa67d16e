//! Integration tests of the storage crate, as one test binary.

mod conformance;
mod kv;
