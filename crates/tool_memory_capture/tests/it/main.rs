//! Integration tests of `tool_memory_capture`, one binary: the labelled corpus and the wire
//! shapes other crates rely on.

mod api;
mod corpus;
mod properties;
