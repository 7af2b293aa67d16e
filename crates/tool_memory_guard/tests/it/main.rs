//! Integration tests of `tool_memory_guard`, one binary: the labelled corpus, the public API
//! and the speed report.

mod api;
mod corpus;
mod speed;
