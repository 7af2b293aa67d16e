//! Adversarial class: hostile imports: a line that would weaken a stored rule is refused, an identical line is a no-op.
