//! Adversarial class: nested command wrappers bound the guard's work and answer confirm past the bound.
