//! Cross-crate and end-to-end tests for toolmem live in `it/`; `src/bin/` holds the small
//! programs those tests start as separate OS processes.
