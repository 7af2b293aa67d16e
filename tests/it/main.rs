//! Cross-crate and end-to-end tests, as one test binary.

mod bench;
mod cli;
mod postgres;
mod processes;
mod server;
mod support;
