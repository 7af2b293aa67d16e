//! What the program does at start about the operating system's per-process limits: a write past
//! the file-size limit must fail like a full disk instead of killing the process, and the server
//! raises its descriptor limit as far as its connection limit needs (and no further).

/// Makes a write past `RLIMIT_FSIZE` fail with `EFBIG` instead of ending the process.
///
/// The default action of `SIGXFSZ` kills the process in the middle of a SQLite write (the
/// finding: the server died after 18 puts under `ulimit -f`). With the signal handled, `write()`
/// returns `EFBIG`, SQLite reports an I/O error and rolls the transaction back, and the caller
/// gets a clear error as for a full disk; every write acknowledged before stays in the file. A
/// tokio handler needs no `unsafe` code, and once registered it stays for the life of the process
/// even after the stream is dropped (tokio never restores the default action), so the stream is
/// not kept. Must run inside the runtime.
pub(crate) fn survive_file_size_limit() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let number = rustix::process::Signal::XFSZ.as_raw();
        if let Err(err) = signal(SignalKind::from_raw(number)) {
            tracing::warn!(
                "could not handle SIGXFSZ ({err}); a write past the file-size limit ends the process"
            );
        }
    }
}

/// The soft descriptor limit after trying to raise it to `needed` (capped by the hard limit);
/// `None` means unlimited. Raising only as far as needed keeps the default for anything that
/// relies on it, and a raise that fails (a container that forbids it) just leaves the limit as
/// it was: the connection limit is then computed from what the process really has.
pub(crate) fn raise_descriptor_limit(needed: u64) -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let limit = getrlimit(Resource::Nofile);
        let soft = limit.current;
        if soft.is_some_and(|soft| soft < needed) {
            let target = limit.maximum.map_or(needed, |hard| hard.min(needed));
            let raised = Rlimit {
                current: Some(target),
                maximum: limit.maximum,
            };
            if let Err(err) = setrlimit(Resource::Nofile, raised) {
                tracing::debug!("could not raise the descriptor limit to {target}: {err}");
            }
        }
        getrlimit(Resource::Nofile).current
    }
    #[cfg(not(unix))]
    {
        let _ = needed;
        None
    }
}
