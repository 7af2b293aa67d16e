//! Every limit of `toolmem serve`'s HTTP transport and of `toolmem hook`, in one place: the
//! defaults of their flags and the fixed bounds, each with the reason for its number. docs/rpc.md and docs/reliability.md
//! list them; the tests in `tests/it/adversarial/slow_clients.rs` and `cross_origin.rs` drive
//! each one at its bound and one past it.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The most bytes `toolmem hook` reads from stdin; past it the hook fails closed. An agent's
/// hook payload is one tool call (a `Write` of a whole file is the largest) or one prompt, with
/// a few ids and paths: Claude Code's own tool inputs rarely pass a megabyte, and 16 MiB holds
/// a generated file of any reasonable size while bounding what one misbehaving agent can make
/// the hook hold in memory.
pub(crate) const MAX_HOOK_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// The most characters of context a hook hands an agent (the pinned block at session start).
/// Claude Code writes a longer `additionalContext` to a file and gives the model only its path,
/// so the rules would no longer be in front of it: 10,000 characters is that limit, and the
/// hook stays under it.
pub(crate) const MAX_HOOK_CONTEXT_CHARS: usize = 9_999;

/// The largest request body by default (`--max-body`). The biggest legitimate body is a batch of
/// 1000 puts (`memory_rpc::MAX_BATCH_LEN`) of short rules, or one turn record for capture;
/// 1 MiB holds either with room, and a body this size is read in milliseconds over loopback.
pub(crate) const DEFAULT_MAX_BODY: usize = 1024 * 1024;

/// The largest request head (request line and header fields), in bytes; over it hyper answers
/// 431. A JSON-RPC request's head is a few hundred bytes, but a browser on `localhost` sends every
/// cookie that other local development servers set for that name, which can reach tens of
/// kilobytes; 64 KiB is twice nginx's default (4 × 8 KiB) and bounds what a stalled half-sent
/// head can make the server hold: 64 MiB at the default connection limit.
pub(crate) const MAX_HEAD_BYTES: usize = 64 * 1024;

/// How long the server waits for a complete request head by default (`--header-timeout`).
/// hyper starts this timer as soon as the connection waits for a request: right after the
/// accept, and on a kept-alive connection right after the previous response, so it is also the
/// keep-alive idle time. A head arrives in microseconds over loopback; 10 s leaves room for a
/// loaded machine or a remote client (with `--token`) on a slow link, and still closes a
/// half-sent head (the finding: one was open after 40 s) or an idle connection well before
/// they pile up. A client's connection pool sees the close and opens a new connection.
pub(crate) const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the server waits for the rest of a body once the head is complete, by default
/// (`--body-timeout`); over it the request gets 408 and the connection is closed. A 1 MiB body
/// takes milliseconds over loopback and 10 s at 100 KB/s; 30 s covers both with room.
pub(crate) const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// Most requests served on one kept-alive connection by default
/// (`--max-requests-per-connection`); the last response says `Connection: close`. nginx's
/// default (`keepalive_requests`) too: a new loopback connection costs tens of microseconds,
/// under 0.1 % of the requests it then serves, and a connection's buffers and state never grow
/// for ever.
pub(crate) const DEFAULT_MAX_REQUESTS_PER_CONNECTION: u64 = 1000;

/// Most open HTTP connections by default (`--max-connections`), when the descriptor limit allows
/// that many (see [`RESERVED_DESCRIPTORS`]). Agents on one machine hold a handful of connections
/// each; 1024 serves hundreds of them, and bounds what stalled heads hold (see
/// [`MAX_HEAD_BYTES`]).
pub(crate) const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// Descriptors kept out of the connection limit for everything else the server opens: stdin,
/// stdout and stderr, the listener, the runtime's poller and wakers (about 8), SQLite's writer
/// and four readers with their log files (about 12), the PostgreSQL pool (`--pg-pool-size`, 16
/// by default), and the sockets of connections that were just evicted and are still being
/// closed. 128 covers these about twice over; a pool above about 80 connections should come with
/// a lower `--max-connections`.
pub(crate) const RESERVED_DESCRIPTORS: u64 = 128;

/// The fewest connections the server agrees to run with: below this the descriptor limit is too
/// low to serve anyone reliably (one slow client could hold a quarter of the slots), and the
/// server says so at start instead of failing later.
pub(crate) const MIN_CONNECTIONS: usize = 4;

/// How long the accept loop pauses after an accept error other than a failed handshake (for
/// example `EMFILE`, should something else have used the descriptors): long enough not to spin
/// on a condition that persists, short enough that a freed descriptor is used at once.
pub(crate) const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(100);

/// The HTTP limits `toolmem serve` runs with: the flags' values.
#[derive(Debug, Clone)]
pub(crate) struct HttpLimits {
    pub(crate) max_body: usize,
    /// `None`: as many as the descriptor limit allows, at most [`DEFAULT_MAX_CONNECTIONS`].
    pub(crate) max_connections: Option<usize>,
    pub(crate) header_timeout: Duration,
    pub(crate) body_timeout: Duration,
    pub(crate) max_requests_per_connection: u64,
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            max_body: DEFAULT_MAX_BODY,
            max_connections: None,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            max_requests_per_connection: DEFAULT_MAX_REQUESTS_PER_CONNECTION,
        }
    }
}

/// The connection limit for a descriptor limit of `descriptors` (the soft `RLIMIT_NOFILE`,
/// `None` for unlimited): the requested number if it fits below the limit with
/// [`RESERVED_DESCRIPTORS`] kept aside, otherwise an error naming the flag; without a request,
/// [`DEFAULT_MAX_CONNECTIONS`] or as many as fit.
pub(crate) fn connection_limit(
    requested: Option<usize>,
    descriptors: Option<u64>,
) -> Result<usize, String> {
    let available =
        descriptors.map_or(u64::MAX, |limit| limit.saturating_sub(RESERVED_DESCRIPTORS));
    let available = usize::try_from(available).unwrap_or(usize::MAX);
    let limit_text = descriptors.map_or_else(|| "unlimited".to_owned(), |limit| limit.to_string());
    match requested {
        Some(requested) if requested < MIN_CONNECTIONS => Err(format!(
            "--max-connections must be at least {MIN_CONNECTIONS}, got {requested}"
        )),
        Some(requested) if requested > available => Err(format!(
            "--max-connections {requested} needs {} file descriptors, but the limit is \
             {limit_text} (ulimit -n); lower --max-connections or raise the limit",
            requested as u64 + RESERVED_DESCRIPTORS
        )),
        Some(requested) => Ok(requested),
        None if available < MIN_CONNECTIONS => Err(format!(
            "the file descriptor limit {limit_text} (ulimit -n) is too low to serve HTTP: it \
             needs at least {}",
            MIN_CONNECTIONS as u64 + RESERVED_DESCRIPTORS
        )),
        None => Ok(available.min(DEFAULT_MAX_CONNECTIONS)),
    }
}

/// A duration given on the command line: a whole number with the unit `ms`, `s` or `m`
/// (`250ms`, `10s`, `2m`), or a bare number of seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FlagDuration(pub(crate) Duration);

impl FromStr for FlagDuration {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let split = text
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len());
        let (number, unit) = text.split_at(split);
        let number: u64 = number
            .parse()
            .map_err(|_| format!("expected a duration such as 250ms, 10s or 2m, got {text:?}"))?;
        let duration = match unit {
            "ms" => Duration::from_millis(number),
            "" | "s" => Duration::from_secs(number),
            "m" => Duration::from_secs(number.saturating_mul(60)),
            _ => return Err(format!("unknown unit {unit:?} in {text:?}: use ms, s or m")),
        };
        if duration.is_zero() {
            return Err("a timeout must be longer than zero".to_owned());
        }
        Ok(FlagDuration(duration))
    }
}

impl fmt::Display for FlagDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let millis = self.0.as_millis();
        if millis.is_multiple_of(1000) {
            write!(f, "{}s", millis / 1000)
        } else {
            write!(f, "{millis}ms")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_units_and_print_back() {
        for (text, millis) in [
            ("250ms", 250),
            ("10s", 10_000),
            ("10", 10_000),
            ("2m", 120_000),
        ] {
            let parsed: FlagDuration = text.parse().unwrap();
            assert_eq!(parsed.0, Duration::from_millis(millis), "{text}");
            assert_eq!(parsed.to_string().parse::<FlagDuration>().unwrap(), parsed);
        }
        for bad in ["", "ms", "1h", "-1s", "1.5s", "0s", "ten"] {
            assert!(bad.parse::<FlagDuration>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn the_connection_limit_keeps_the_reserve_below_the_descriptor_limit() {
        // The common Linux default of 1024 descriptors leaves 896 connections.
        assert_eq!(connection_limit(None, Some(1024)), Ok(896));
        // Plenty of descriptors: the default cap.
        assert_eq!(
            connection_limit(None, Some(65536)),
            Ok(DEFAULT_MAX_CONNECTIONS)
        );
        assert_eq!(connection_limit(None, None), Ok(DEFAULT_MAX_CONNECTIONS));
        // A requested limit exactly at what fits is taken; one more is refused, naming the flag.
        assert_eq!(connection_limit(Some(72), Some(200)), Ok(72));
        let refused = connection_limit(Some(73), Some(200)).unwrap_err();
        assert!(
            refused.contains("--max-connections 73 needs 201"),
            "{refused}"
        );
        // The floor, at and past it.
        assert_eq!(
            connection_limit(Some(MIN_CONNECTIONS), None),
            Ok(MIN_CONNECTIONS)
        );
        assert!(connection_limit(Some(MIN_CONNECTIONS - 1), None).is_err());
        assert_eq!(connection_limit(None, Some(132)), Ok(4));
        assert!(
            connection_limit(None, Some(131))
                .unwrap_err()
                .contains("too low")
        );
    }
}
