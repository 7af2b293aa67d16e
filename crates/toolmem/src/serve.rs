//! `toolmem serve`: JSON-RPC over HTTP (`POST /rpc` and `POST /`, `GET /healthz`, the
//! [`dashboard`] at `GET /`) or over stdin/stdout, one request per line.
//!
//! Safety choices: the server refuses a non-loopback address unless a bearer token is set, and
//! then requires the token on every request but the health check. Every request passes the
//! [`policy`] (Host, Origin, token, content type, declared length) before a byte of its body is
//! read, so a web page cannot reach the rules and an unauthenticated upload costs nothing. The
//! server runs its own accept loop over hyper's HTTP/1 connections (axum's `serve` hides the
//! settings it needs): request heads and bodies have timeouts, connections a limit below the
//! descriptor limit and a request cap, and slow clients give way to prompt ones when the limit
//! is reached ([`connections`]). SIGINT and
//! SIGTERM stop accepting, let in-flight requests finish, and only then exit. A write is
//! acknowledged only after its transaction committed, so shutdown never loses an acknowledged
//! write. The numbers are in [`crate::limits`].

mod connections;
mod dashboard;
mod policy;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use axum::Router;
use axum::body::Body;
use axum::extract::{Extension, State};
use axum::http::{HeaderValue, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use memory_rpc::RpcHandler;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tower::ServiceExt;

use crate::limits::{self, HttpLimits};
use connections::{Admission, Connections, Slot, Stop};
pub(crate) use policy::AllowList;
use policy::{Policy, Refusal};

/// What `toolmem serve` over HTTP needs besides the handler and the address.
#[derive(Debug, Clone, Default)]
pub(crate) struct HttpOptions {
    pub(crate) token: Option<String>,
    pub(crate) allow: AllowList,
    pub(crate) limits: HttpLimits,
}

struct AppState {
    rpc: RpcHandler,
    max_body: usize,
    body_timeout: Duration,
}

/// Runs the HTTP server until SIGINT or SIGTERM.
pub(crate) async fn http(
    rpc: RpcHandler,
    addr: SocketAddr,
    mut options: HttpOptions,
) -> Result<()> {
    if options
        .token
        .as_deref()
        .is_some_and(|token| token.trim().is_empty())
    {
        bail!("the bearer token must not be empty");
    }
    if !addr.ip().is_loopback() && options.token.is_none() {
        bail!(
            "refusing to listen on non-loopback address {addr} without a bearer token; \
             set --token or TOOLMEM_TOKEN"
        );
    }
    // Before binding: a connection limit the descriptors cannot hold is a usage error.
    options.limits.max_connections = Some(connection_limit(&options.limits)?);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("binding {addr}"))?;
    let local = listener.local_addr()?;
    // The handlers go in before the address is announced: a SIGTERM sent as soon as the
    // address is read must stop the server cleanly, not kill it with the default action.
    let shutdown = shutdown_signal();
    // Tests and scripts bind port 0 and read the real address from the first line. Both lines
    // go out in one write, and a failed write is not fatal: a reader that closed the pipe after
    // the first line must not make the second one end the server.
    let announcement = format!(
        "toolmem listening on http://{local}\ntoolmem dashboard: http://{}/\n",
        dashboard_authority(local)
    );
    {
        use std::io::Write;
        let mut stdout = std::io::stdout().lock();
        let _ = stdout
            .write_all(announcement.as_bytes())
            .and_then(|()| stdout.flush());
    }
    serve_on(listener, rpc, options, shutdown).await?;
    eprintln!("toolmem: shut down cleanly");
    Ok(())
}

/// The address a browser should open: `localhost` for a loopback address (the name the
/// policy always accepts), the bound address otherwise.
fn dashboard_authority(local: SocketAddr) -> String {
    if local.ip().is_loopback() {
        format!("localhost:{}", local.port())
    } else {
        local.to_string()
    }
}

/// The connection limit: `--max-connections`, or as many as the descriptor limit holds with the
/// reserve kept aside (at most [`limits::DEFAULT_MAX_CONNECTIONS`]). The soft descriptor limit
/// is raised first, as far as that needs and the hard limit allows.
fn connection_limit(limits: &HttpLimits) -> Result<usize> {
    let wanted = limits
        .max_connections
        .unwrap_or(limits::DEFAULT_MAX_CONNECTIONS) as u64;
    let descriptors =
        crate::process_limits::raise_descriptor_limit(wanted + limits::RESERVED_DESCRIPTORS);
    limits::connection_limit(limits.max_connections, descriptors).map_err(anyhow::Error::msg)
}

/// Serves HTTP JSON-RPC on an already bound listener until `shutdown` completes, then lets
/// in-flight requests finish.
pub(crate) async fn serve_on(
    listener: tokio::net::TcpListener,
    rpc: RpcHandler,
    options: HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let limits = options.limits.clone();
    let capacity = connection_limit(&limits)?;
    let dashboard = Arc::new(dashboard::Dashboard::generate());
    let policy = Arc::new(
        Policy::new(
            listener.local_addr()?,
            options.allow,
            options.token,
            limits.max_body,
        )
        .with_dashboard_secret(dashboard.secret().to_owned()),
    );
    let state = Arc::new(AppState {
        rpc,
        max_body: limits.max_body,
        body_timeout: limits.body_timeout,
    });
    let app = Router::new()
        .route("/rpc", post(rpc_endpoint))
        .route(
            "/",
            get(move || async move { dashboard.page() }).post(rpc_endpoint),
        )
        .route(
            "/dashboard.js",
            get(|| async { dashboard::Dashboard::script() }),
        )
        .route(
            "/dashboard.css",
            get(|| async { dashboard::Dashboard::style() }),
        )
        .route("/healthz", get(|| async { "ok" }))
        .with_state(state);
    let connections = Connections::new(capacity);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(limits::MAX_HEAD_BYTES)
        .keep_alive(true);
    let mut tasks = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => stream,
                Err(err) => {
                    accept_error(&err).await;
                    continue;
                }
            },
        };
        // Reap finished connections so the set does not grow with every one ever served.
        while tasks.try_join_next().is_some() {}
        let (slot, stop) = match connections.admit() {
            Admission::Admitted(slot, stop) => (slot, stop),
            Admission::Full => {
                refuse_when_full(&stream);
                continue;
            }
        };
        let service = connection_service(
            app.clone(),
            Arc::clone(&policy),
            Arc::clone(&slot),
            limits.max_requests_per_connection,
        );
        let connection = builder.serve_connection(TokioIo::new(stream), service);
        tasks.spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let mut stop = stop;
            let result = tokio::select! {
                biased;
                result = connection.as_mut() => result,
                order = &mut stop => match order {
                    // Evicted, or waiting at shutdown: dropping the connection closes it, and
                    // no RPC of it has started.
                    Ok(Stop::Now) => return,
                    Ok(Stop::Graceful) | Err(_) => {
                        connection.as_mut().graceful_shutdown();
                        connection.await
                    }
                },
            };
            if let Err(err) = result {
                tracing::debug!("connection ended: {err}");
            }
            drop(slot);
        });
    }
    // No more connections are accepted once the listener is gone.
    drop(listener);
    connections.drain();
    while tasks.join_next().await.is_some() {}
    Ok(())
}

/// The service for one connection: the policy first, then the router; the request count and
/// the connection's place in the table.
fn connection_service(
    app: Router,
    policy: Arc<Policy>,
    slot: Arc<Slot>,
    max_requests: u64,
) -> impl hyper::service::Service<
    Request<Incoming>,
    Response = Response,
    Error = Infallible,
    Future = impl Future<Output = Result<Response, Infallible>> + Send,
> + Send {
    hyper::service::service_fn(move |request: Request<Incoming>| {
        let app = app.clone();
        let policy = Arc::clone(&policy);
        let slot = Arc::clone(&slot);
        async move {
            let served = slot.count_request();
            if let Err(refusal) = policy.check(&request) {
                tracing::debug!(status = refusal.status.as_u16(), "http request refused");
                return Ok(refusal.into_response());
            }
            let mut request = request.map(Body::new);
            request.extensions_mut().insert(Arc::clone(&slot));
            let mut response = app.oneshot(request).await?;
            slot.finish_work();
            if served >= max_requests {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            Ok(response)
        }
    })
}

/// Accept errors: a handshake the client gave up is nothing; anything else (out of descriptors,
/// out of memory) is logged and waited out briefly instead of spinning.
async fn accept_error(err: &std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::ConnectionRefused
    ) {
        return;
    }
    tracing::error!("accept error: {err}");
    tokio::time::sleep(limits::ACCEPT_ERROR_PAUSE).await;
}

/// Every slot is working on a request: say so and close, without waiting on the client.
fn refuse_when_full(stream: &TcpStream) {
    const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; \
        charset=utf-8\r\ncontent-length: 55\r\nconnection: close\r\n\r\n\
        service unavailable: every connection slot is working\n";
    tracing::debug!("connection limit reached with every connection working; refused one");
    let _ = stream.try_write(BUSY);
    // Closing a socket with unread bytes resets it, and a reset can discard the answer before
    // the client reads it: take what has already arrived (bounded, never waiting) first.
    let mut scratch = [0u8; 4096];
    for _ in 0..16 {
        match stream.try_read(&mut scratch) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

async fn rpc_endpoint(
    State(state): State<Arc<AppState>>,
    Extension(slot): Extension<Arc<Slot>>,
    body: Body,
) -> Response {
    let read = Limited::new(body, state.max_body).collect();
    let body = match tokio::time::timeout(state.body_timeout, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(err)) if err.is::<LengthLimitError>() => {
            return policy::TOO_LARGE.into_response();
        }
        Ok(Err(_)) => {
            return Refusal::new(
                StatusCode::BAD_REQUEST,
                "bad request: the body could not be read",
            )
            .into_response();
        }
        Err(_) => {
            return Refusal::new(
                StatusCode::REQUEST_TIMEOUT,
                "request timeout: the body did not arrive within --body-timeout",
            )
            .into_response();
        }
    };
    if !slot.start_work() {
        return Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "service unavailable: the connection was closed to make room for another",
        )
        .into_response();
    }
    // Bytes, not `String`: a body that is not UTF-8 gets a JSON-RPC parse error like any other
    // body that is not JSON.
    match state.rpc.handle_bytes(&body).await {
        Some(response) => ([(header::CONTENT_TYPE, "application/json")], response).into_response(),
        // Only notifications: JSON-RPC sends nothing back.
        None => StatusCode::NO_CONTENT.into_response(),
    }
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
