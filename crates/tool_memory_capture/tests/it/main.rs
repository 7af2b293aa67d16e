//! Integration tests of `tool_memory_capture`, one binary: the labelled corpora and the wire
//! shapes other crates rely on.

mod api;
mod bad_input;
mod corpus;
mod properties;
mod real_text;
