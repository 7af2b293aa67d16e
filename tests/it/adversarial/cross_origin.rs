//! Adversarial class: cross-origin requests, DNS rebinding and non-JSON content types cannot read or change rules.
