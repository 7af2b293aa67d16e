//! Integration tests of `tool_memory_guard`, one binary: the labelled corpora (the guard's own and
//! the real-text one), the public API,
//! the bounds on the work of one check and the speed report.

mod allowlists;
mod api;
mod bad_text;
mod bounds;
mod conditions;
mod corpus;
mod real_text;
mod spans;
mod speed;
mod spellings;
