//! Fetches the eager rules for a new session from synchronous code, whatever runtime (if any)
//! the caller is on, and never fails the session.
//!
//! The reference ran `block_in_place` on the caller's runtime: it silently returned nothing on
//! a current-thread runtime or outside one, and it had no timeout. Here the fetch runs on a
//! dedicated OS thread with its own current-thread runtime, and the caller waits on a channel
//! with a timeout. Nothing in that depends on the caller's runtime, so the same call works
//! outside a runtime, inside a current-thread runtime and on a multi-thread worker.
//!
//! The fetch is a closure so that this crate needs no storage dependency: the facade passes
//! one that runs the store's eager-rules query.

use std::fmt::Display;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use tool_memory_core::ToolMemoryRule;

/// Why a prefetch produced nothing; only ever logged.
enum Failure {
    Fetch(String),
    TimedOut,
    Runtime(std::io::Error),
}

/// Runs `fetch` to completion, waiting at most `timeout`, and returns its high and critical
/// rules. On an error, a timeout or a panic in `fetch` it logs a warning and returns an empty
/// list, so a store problem costs the session its pinned rules, never the session itself.
///
/// While it waits, the calling thread is blocked; on a current-thread runtime that means the
/// runtime's other tasks wait too, so `fetch` must not depend on them (if it does, it times
/// out rather than deadlocks). After a timeout the fetch is cancelled at its next `.await`.
pub fn prefetch_rules_blocking<F, Fut, E>(fetch: F, timeout: Duration) -> Vec<ToolMemoryRule>
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = Result<Vec<ToolMemoryRule>, E>> + Send + 'static,
    E: Display + Send + 'static,
{
    let Some(mut rules) = prefetch_blocking(fetch, timeout) else {
        return Vec::new();
    };
    rules.retain(|rule| rule.priority.is_eager());
    tracing::info!(
        rules = rules.len(),
        "tool memory: pinning tool-scoped rules into the system prompt"
    );
    rules
}

/// [`prefetch_rules_blocking`] for a fetch of anything (the facade fetches the rules and the
/// rows it could not read together): its value, or `None`, logged, on an error, a timeout or
/// a panic.
pub fn prefetch_blocking<T, F, Fut, E>(fetch: F, timeout: Duration) -> Option<T>
where
    T: Send + 'static,
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = Result<T, E>> + Send + 'static,
    E: Display + Send + 'static,
{
    let (sender, receiver) = mpsc::sync_channel(1);
    let spawned = thread::Builder::new()
        .name("toolmem-prefetch".to_owned())
        .spawn(move || {
            let outcome = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => {
                    match runtime.block_on(async { tokio::time::timeout(timeout, fetch()).await }) {
                        Ok(Ok(value)) => Ok(value),
                        Ok(Err(err)) => Err(Failure::Fetch(err.to_string())),
                        Err(_elapsed) => Err(Failure::TimedOut),
                    }
                }
                Err(err) => Err(Failure::Runtime(err)),
            };
            // The caller may have given up already; then nobody needs the result.
            let _ = sender.send(outcome);
        });
    if let Err(err) = spawned {
        tracing::warn!("tool memory: prefetch skipped, could not start its thread: {err}");
        return None;
    }

    let outcome = match receiver.recv_timeout(timeout) {
        Ok(outcome) => outcome,
        Err(mpsc::RecvTimeoutError::Timeout) => Err(Failure::TimedOut),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            tracing::warn!("tool memory: prefetch failed, the fetch panicked");
            return None;
        }
    };
    match outcome {
        Ok(value) => Some(value),
        Err(Failure::Fetch(err)) => {
            tracing::warn!("tool memory: prefetch failed: {err}");
            None
        }
        Err(Failure::TimedOut) => {
            tracing::warn!(
                timeout_ms = timeout.as_millis(),
                "tool memory: prefetch timed out"
            );
            None
        }
        Err(Failure::Runtime(err)) => {
            tracing::warn!("tool memory: prefetch failed, could not build its runtime: {err}");
            None
        }
    }
}
