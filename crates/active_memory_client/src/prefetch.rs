//! Runs the session-start fetch of the pinned block's rules from synchronous code, whatever
//! runtime (if any) the caller is on, and never fails the session.
//!
//! The reference ran `block_in_place` on the caller's runtime: it silently returned nothing on
//! a current-thread runtime or outside one, and it had no timeout. Here the fetch runs on a
//! dedicated OS thread with its own current-thread runtime, and the caller waits on a channel
//! with a timeout. Nothing in that depends on the caller's runtime, so the same call works
//! outside a runtime, inside a current-thread runtime and on a multi-thread worker.
//!
//! It lives in the facade, not in the prompt crate, because it spawns a thread, builds a
//! runtime and waits on a timer: the prompt crate renders and does nothing else.

use std::fmt::Display;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Why a prefetch produced nothing; only ever logged.
enum Failure {
    Fetch(String),
    TimedOut,
    Runtime(std::io::Error),
}

/// Runs `fetch` to completion, waiting at most `timeout`, and returns its value. On an error,
/// a timeout or a panic in `fetch` it logs a warning and returns `None`, so a store problem
/// costs the session its pinned rules, never the session itself.
///
/// While it waits, the calling thread is blocked; on a current-thread runtime that means the
/// runtime's other tasks wait too, so `fetch` must not depend on them (if it does, it times
/// out rather than deadlocks). After a timeout the fetch is cancelled at its next `.await`.
pub(crate) fn prefetch_blocking<T, F, Fut, E>(fetch: F, timeout: Duration) -> Option<T>
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

#[cfg(test)]
mod tests {
    //! The blocking prefetch works outside a runtime and inside both runtime flavours, and
    //! turns errors, timeouts and panics into `None`.

    use super::*;

    /// Generous, so a slow machine never turns a success into a timeout.
    const PATIENT: Duration = Duration::from_secs(30);

    /// A fetch that needs a runtime: it awaits a timer and a blocking-pool task, as a store
    /// query over SQLite would.
    async fn fetch_from_store() -> Result<Vec<&'static str>, String> {
        tokio::time::sleep(Duration::from_millis(1)).await;
        tokio::task::spawn_blocking(|| vec!["c", "h"])
            .await
            .map_err(|err| err.to_string())
    }

    fn prefetch() -> Option<Vec<&'static str>> {
        prefetch_blocking(fetch_from_store, PATIENT)
    }

    #[test]
    fn prefetches_outside_a_runtime() {
        assert_eq!(prefetch(), Some(vec!["c", "h"]));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn prefetches_inside_a_current_thread_runtime() {
        assert_eq!(prefetch(), Some(vec!["c", "h"]));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn prefetches_inside_a_multi_thread_runtime() {
        assert_eq!(prefetch(), Some(vec!["c", "h"]));
    }

    #[test]
    fn an_error_gives_nothing() {
        let fetched = prefetch_blocking(|| async { Err::<u8, _>("database is locked") }, PATIENT);
        assert_eq!(fetched, None);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn an_error_inside_a_runtime_gives_nothing() {
        let fetched = prefetch_blocking(
            || async { Err::<u8, _>(String::from("no such table")) },
            PATIENT,
        );
        assert_eq!(fetched, None);
    }

    /// If the timeout did not work, this fetch would return its value after a while and the
    /// assertion would fail (it never hangs forever).
    #[test]
    fn a_timeout_gives_nothing() {
        let fetched = prefetch_blocking(
            || async {
                tokio::time::sleep(Duration::from_secs(20)).await;
                Ok::<_, String>(1)
            },
            Duration::from_millis(50),
        );
        assert_eq!(fetched, None);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_timeout_inside_a_runtime_gives_nothing() {
        let fetched = prefetch_blocking(
            || async {
                tokio::time::sleep(Duration::from_secs(20)).await;
                Ok::<_, String>(1)
            },
            Duration::from_millis(50),
        );
        assert_eq!(fetched, None);
    }

    #[test]
    fn a_panic_gives_nothing() {
        let fetched = prefetch_blocking(
            || async {
                if fetch_from_store().await.is_ok() {
                    panic!("the store fell over");
                }
                Ok::<_, String>(1)
            },
            PATIENT,
        );
        assert_eq!(fetched, None);
    }
}
