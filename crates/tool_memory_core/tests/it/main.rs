//! Integration tests of `tool_memory_core`, as one test binary: property tests over
//! validation and the wire forms (docs/reliability.md lists what each one proves).

mod properties;
