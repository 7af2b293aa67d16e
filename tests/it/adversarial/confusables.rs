//! Adversarial class: look-alike priority markers, headings and brackets in rule text never forge a priority in the pinned block.
