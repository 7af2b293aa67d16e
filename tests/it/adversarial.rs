//! The adversarial suite (issue 19): one module per class of attack, each driving the real
//! program or the facade the way an attacker or a careless user would, and each bounded to a
//! few seconds. `cargo xtask adversarial` runs only these; `cargo xtask ci` runs them with
//! everything else.

mod batches;
mod confusables;
mod control_bytes;
mod cross_origin;
mod imports;
mod pasted_material;
mod slow_clients;
mod unreadable_rows;
mod wrappers;
