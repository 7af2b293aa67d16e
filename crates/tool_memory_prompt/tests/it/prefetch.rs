//! The blocking prefetch: works outside a runtime and inside both runtime flavours, keeps
//! only eager rules, and turns errors, timeouts and panics into an empty list.

use std::time::Duration;

use tool_memory_core::ToolMemoryRule;
use tool_memory_prompt::prefetch_rules_blocking;

use crate::{critical, high, ids, normal};

/// Generous, so a slow machine never turns a success into a timeout.
const PATIENT: Duration = Duration::from_secs(30);

fn stored_rules() -> Vec<ToolMemoryRule> {
    vec![
        normal("n", "email", "we use BCC for newsletters"),
        critical("c", "email", "never email Sarah"),
        high("h", "shell", "avoid sudo"),
    ]
}

/// A fetch that needs a runtime: it awaits a timer and a blocking-pool task, as a store
/// query over SQLite would.
async fn fetch_from_store() -> Result<Vec<ToolMemoryRule>, String> {
    tokio::time::sleep(Duration::from_millis(1)).await;
    tokio::task::spawn_blocking(stored_rules)
        .await
        .map_err(|err| err.to_string())
}

fn prefetch() -> Vec<ToolMemoryRule> {
    prefetch_rules_blocking(fetch_from_store, PATIENT)
}

#[test]
fn prefetches_eager_rules_outside_a_runtime() {
    assert_eq!(ids(&prefetch()), ["c", "h"]);
}

#[tokio::test(flavor = "current_thread")]
async fn prefetches_inside_a_current_thread_runtime() {
    assert_eq!(ids(&prefetch()), ["c", "h"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prefetches_inside_a_multi_thread_runtime() {
    assert_eq!(ids(&prefetch()), ["c", "h"]);
}

#[test]
fn prefetch_error_gives_no_rules() {
    let rules = prefetch_rules_blocking(
        || async { Err::<Vec<ToolMemoryRule>, _>("database is locked") },
        PATIENT,
    );
    assert!(rules.is_empty());
}

#[tokio::test(flavor = "current_thread")]
async fn prefetch_error_inside_a_runtime_gives_no_rules() {
    let rules = prefetch_rules_blocking(
        || async { Err::<Vec<ToolMemoryRule>, _>(String::from("no such table")) },
        PATIENT,
    );
    assert!(rules.is_empty());
}

/// If the timeout did not work, this fetch would return its rules after a while and the
/// assertion would fail (it never hangs forever).
#[test]
fn prefetch_timeout_gives_no_rules() {
    let rules = prefetch_rules_blocking(
        || async {
            tokio::time::sleep(Duration::from_secs(20)).await;
            Ok::<_, String>(stored_rules())
        },
        Duration::from_millis(50),
    );
    assert!(rules.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prefetch_timeout_inside_a_runtime_gives_no_rules() {
    let rules = prefetch_rules_blocking(
        || async {
            tokio::time::sleep(Duration::from_secs(20)).await;
            Ok::<_, String>(stored_rules())
        },
        Duration::from_millis(50),
    );
    assert!(rules.is_empty());
}

#[test]
fn prefetch_panic_gives_no_rules() {
    let rules = prefetch_rules_blocking(
        || async {
            if stored_rules().len() == 3 {
                panic!("the store fell over");
            }
            Ok::<_, String>(stored_rules())
        },
        PATIENT,
    );
    assert!(rules.is_empty());
}
