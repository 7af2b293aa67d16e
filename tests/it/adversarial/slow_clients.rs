//! Adversarial class: slow, half-open and stalled clients up to the connection limit never starve a guard check.
