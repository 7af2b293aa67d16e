//! Cross-crate and end-to-end tests, as one test binary.

mod adversarial;
mod bench;
mod cli;
mod dashboard;
mod faults;
mod fuzz;
mod hooks;
mod install;
mod mcp;
mod module_cycles;
mod postgres;
mod processes;
mod real_text;
mod security;
mod server;
mod support;
