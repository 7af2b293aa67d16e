//! `toolmem serve`: JSON-RPC over HTTP (`POST /rpc` and `POST /`, `GET /healthz`) or over
//! stdin/stdout, one request per line.
//!
//! Safety choices: the server refuses a non-loopback address unless a bearer token is set, and
//! then requires the token on every request; request bodies are capped; SIGINT/SIGTERM stop
//! accepting, let in-flight requests finish, and only then exit. A write is acknowledged only
//! after its transaction committed, so shutdown never loses an acknowledged write.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use memory_rpc::RpcHandler;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

struct AppState {
    rpc: RpcHandler,
    token: Option<String>,
}

/// Runs the HTTP server until SIGINT or SIGTERM.
pub(crate) async fn http(
    rpc: RpcHandler,
    addr: SocketAddr,
    token: Option<String>,
    max_body: usize,
) -> Result<()> {
    if token
        .as_deref()
        .is_some_and(|token| token.trim().is_empty())
    {
        bail!("the bearer token must not be empty");
    }
    if !addr.ip().is_loopback() && token.is_none() {
        bail!(
            "refusing to listen on non-loopback address {addr} without a bearer token; \
             set --token or TOOLMEM_TOKEN"
        );
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("binding {addr}"))?;
    let local = listener.local_addr()?;
    // The handlers go in before the address is announced: a SIGTERM sent as soon as the
    // address is read must stop the server cleanly, not kill it with the default action.
    let shutdown = shutdown_signal();
    // Tests and scripts bind port 0 and read the real address from this line.
    println!("toolmem listening on http://{local}");
    serve_on(listener, rpc, token, max_body, shutdown).await?;
    eprintln!("toolmem: shut down cleanly");
    Ok(())
}

/// Serves HTTP JSON-RPC on an already bound listener until `shutdown` completes, then lets
/// in-flight requests finish.
pub(crate) async fn serve_on(
    listener: tokio::net::TcpListener,
    rpc: RpcHandler,
    token: Option<String>,
    max_body: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let state = Arc::new(AppState { rpc, token });
    let app = Router::new()
        .route("/rpc", post(rpc_endpoint))
        .route("/", post(rpc_endpoint))
        .route("/healthz", get(|| async { "ok" }))
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .context("serving HTTP")
}

async fn rpc_endpoint(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if let Some(token) = &state.token {
        let presented = headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, presented)| presented.trim());
        if !presented
            .is_some_and(|presented| constant_time_eq(presented.as_bytes(), token.as_bytes()))
        {
            return (StatusCode::UNAUTHORIZED, "missing or wrong bearer token\n").into_response();
        }
    }
    // Bytes, not `String`: a body that is not UTF-8 gets a JSON-RPC parse error like any other
    // body that is not JSON, instead of axum's plain-text 400.
    match state.rpc.handle_bytes(&body).await {
        Some(response) => ([(header::CONTENT_TYPE, "application/json")], response).into_response(),
        // Only notifications: JSON-RPC sends nothing back.
        None => StatusCode::NO_CONTENT.into_response(),
    }
}

/// Compares without stopping at the first differing byte, so response time says nothing about
/// how much of a guessed token was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// Installs the SIGINT and SIGTERM handlers now and returns a future that completes on either.
/// (An `async fn` would install them only when first polled.)
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let handlers = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            // A handler that could not be installed waits forever rather than stop at once.
            let wait = |handler: Option<tokio::signal::unix::Signal>| async move {
                match handler {
                    Some(mut handler) => {
                        handler.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            let (interrupt, terminate) = handlers;
            tokio::select! {
                () = wait(interrupt) => {},
                () = wait(terminate) => {},
            }
        }
        #[cfg(not(unix))]
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Serves line-delimited JSON-RPC on stdin/stdout until stdin closes.
pub(crate) async fn stdio(rpc: RpcHandler) -> Result<()> {
    let mut stdin = BufReader::new(tokio::io::stdin());
    let mut stdout = tokio::io::stdout();
    // Lines are read as bytes: a line that is not UTF-8 gets a parse error reply like any other
    // line that is not JSON, instead of ending the server.
    let mut line = Vec::new();
    loop {
        line.clear();
        if stdin
            .read_until(b'\n', &mut line)
            .await
            .context("reading stdin")?
            == 0
        {
            return Ok(());
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        if let Some(response) = rpc.handle_bytes(&line).await {
            stdout.write_all(response.as_bytes()).await?;
            stdout.write_all(b"\n").await?;
            stdout.flush().await?;
        }
    }
}
