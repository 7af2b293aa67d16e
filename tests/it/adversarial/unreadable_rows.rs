//! Adversarial class: a row this version cannot read makes its tool's checks confirm and shows in the prompt, never fails open.
