//! Cross-crate and end-to-end tests, as one test binary.

mod processes;
