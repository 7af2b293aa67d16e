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
    // Tests and scripts bind port 0 and read the real address from this line.
    println!("toolmem listening on http://{local}");
    serve_on(listener, rpc, token, max_body, shutdown_signal()).await?;
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
    body: String,
) -> Response {
    if let Some(token) = &state.token {
        let presented = headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "));
        if presented != Some(token.as_str()) {
            return (StatusCode::UNAUTHORIZED, "missing or wrong bearer token\n").into_response();
        }
    }
    match state.rpc.handle_text(&body).await {
        Some(response) => ([(header::CONTENT_TYPE, "application/json")], response).into_response(),
        // Only notifications: JSON-RPC sends nothing back.
        None => StatusCode::NO_CONTENT.into_response(),
    }
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}

/// Serves line-delimited JSON-RPC on stdin/stdout until stdin closes.
pub(crate) async fn stdio(rpc: RpcHandler) -> Result<()> {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdout = tokio::io::stdout();
    while let Some(line) = lines.next_line().await.context("reading stdin")? {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(response) = rpc.handle_text(&line).await {
            stdout.write_all(response.as_bytes()).await?;
            stdout.write_all(b"\n").await?;
            stdout.flush().await?;
        }
    }
    Ok(())
}
