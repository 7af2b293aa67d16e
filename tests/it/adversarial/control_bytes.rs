//! Adversarial class: control bytes and terminal escapes in rule text never reach a terminal raw from the CLI's human-readable output.
