//! Cross-crate tests live in this package.
