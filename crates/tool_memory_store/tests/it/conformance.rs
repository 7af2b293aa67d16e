//! The conformance suite (`tool_memory_store::conformance`) run against the stores of this
//! crate: in-memory and the key/value adapter (SQLite runs it in its own crate).

use std::sync::Arc;

use tool_memory_core::{ManualClock, SequentialIds, Timestamp};
use tool_memory_store::conformance::Harness;
use tool_memory_store::{
    InMemoryKv, InMemoryRuleStore, KvBackend, KvRuleStore, Services, UnreadableRow,
};

fn services() -> (Services, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::starting_at(
        Timestamp::parse("2026-01-01T00:00:00+00:00").unwrap(),
    ));
    let services = Services {
        clock: clock.clone(),
        ids: Arc::new(SequentialIds::new("id")),
    };
    (services, clock)
}

pub(crate) async fn in_memory() -> Harness {
    let (services, clock) = services();
    let store = Arc::new(InMemoryRuleStore::with_services(services));
    let held = Arc::clone(&store);
    // What a host that fills the store from elsewhere records for an entry it cannot parse.
    let corrupt = move |tool: &str, id: &str| {
        held.hold_unreadable(UnreadableRow {
            tool_name: tool.to_owned(),
            id: id.to_owned(),
            reason: "priority: a value this version does not know".to_owned(),
        });
    };
    Harness {
        store,
        clock,
        corrupt: Some(Box::new(corrupt)),
        keep_alive: None,
    }
}

pub(crate) async fn kv() -> Harness {
    let (services, clock) = services();
    let store = Arc::new(KvRuleStore::with_services(InMemoryKv::new(), services));
    let backend = store.clone();
    let corrupt = move |tool: &str, id: &str| {
        let namespace = format!("tool-{tool}");
        let key = format!("rule/{id}");
        futures_block_on(backend.backend().store(
            &namespace,
            &key,
            "{not-valid-json",
            "tool_memory",
        ))
        .unwrap();
    };
    Harness {
        store,
        clock,
        corrupt: Some(Box::new(corrupt)),
        keep_alive: None,
    }
}

/// The in-memory key/value backend never awaits, so a no-op waker drives it to completion.
fn futures_block_on<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut context) {
        std::task::Poll::Ready(output) => output,
        std::task::Poll::Pending => panic!("in-memory backend should never be pending"),
    }
}

mod in_memory {
    tool_memory_store::conformance_suite!(super::in_memory);
}

mod kv {
    tool_memory_store::conformance_suite!(super::kv);
}
