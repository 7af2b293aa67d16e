//! Adversarial class: pasted material (chat logs, web pages, e-mails to summarise) never makes or lifts a critical rule.
