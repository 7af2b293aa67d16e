//! Integration tests of `memory_rpc`, one binary: both envelopes of every method, every error
//! code, batches and notifications, through the public `RpcHandler` only.

mod after_turn;
mod docs;
mod limits;
mod listing;
mod native;
mod protocol;
mod reference;
mod support;
