//! Adversarial class: amplifying JSON-RPC batches: the reply and the work of one request are bounded.
