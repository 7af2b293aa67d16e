//! Which requests the HTTP server serves at all, decided from the request head alone, before any
//! of the body is read. Every route passes through [`Policy::check`] (the per-connection service
//! calls it before the router sees the request), so a page served later on the same address gets
//! the same protection.
//!
//! The threats: a web page on another origin that the user happens to visit can make the
//! browser send requests to `http://127.0.0.1:7878` (cross-site request forgery), and a page on
//! a name the attacker controls can re-point that name at 127.0.0.1 and then read the answers as
//! same-origin (DNS rebinding). The rules, in the order they are checked:
//!
//! 1. `Host` must name this server: its bound address or `localhost`, with or without the
//!    bound port, or a name given with `--allow-host`. Bound to an unspecified address
//!    (`0.0.0.0`, `::`; that needs a token), any IP literal is accepted, since rebinding needs a
//!    name. A missing or malformed `Host` is 400; a foreign one 403. This defeats rebinding: the
//!    browser sends the attacker's name.
//! 2. `Origin`, when present, must be this server's own (a page it served: `http://` with the
//!    bound port and `localhost`, the bound address, or the very host the request names) or one
//!    given with `--allow-origin`; `Origin: null` is foreign. No `Origin` at all is allowed:
//!    curl, SDKs and agents send none, and browsers always send one on a cross-origin POST.
//! 3. A POST from this server's own origin (a script on the dashboard page, or a page that
//!    pretends to be it) must carry the dashboard's per-server secret in
//!    `X-Toolmem-Dashboard` (see [`super::dashboard`]): 403. Origins given with
//!    `--allow-origin` and requests without an `Origin` do not need it.
//! 4. The bearer token, when one is set (every route but `GET /healthz` and the dashboard's
//!    static page and assets, which hold no rules): 401.
//! 5. A POST must be `Content-Type: application/json` (parameters such as `charset` allowed):
//!    415. A browser sends a cross-origin POST without asking first only for `text/plain`, a
//!    form or multipart, never for JSON.
//! 6. A declared `Content-Length` over `--max-body`: 413.
//!
//! Every refusal closes the connection, so its body is never read.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use anyhow::{Result, bail};
use axum::http::{HeaderMap, HeaderValue, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A host as it appears in `Host`, `Origin` and the allow lists, normalised: names lower-case
/// with one trailing dot removed (`localhost.` is `localhost`), addresses parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum HostName {
    Ip(IpAddr),
    Name(String),
}

impl HostName {
    fn is_localhost(&self) -> bool {
        matches!(self, HostName::Name(name) if name == "localhost")
    }
}

/// Parses `host[:port]`, `[v6]:port` or `v4:port`. Anything else (user info, a path, spaces, an
/// empty host, a zone id) is `None`.
fn parse_authority(text: &str) -> Option<(HostName, Option<u16>)> {
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let (address, after) = rest.split_once(']')?;
        let address: Ipv6Addr = address.parse().ok()?;
        let port = match after {
            "" => None,
            _ => Some(parse_port(after.strip_prefix(':')?)?),
        };
        return Some((HostName::Ip(IpAddr::V6(address)), port));
    } else {
        match text.split_once(':') {
            Some((host, port)) => (host, Some(parse_port(port)?)),
            None => (text, None),
        }
    };
    if let Ok(address) = host.parse::<Ipv4Addr>() {
        return Some((HostName::Ip(IpAddr::V4(address)), port));
    }
    let name = host.strip_suffix('.').unwrap_or(host);
    let valid = !name.is_empty()
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_'));
    valid.then(|| (HostName::Name(name.to_ascii_lowercase()), port))
}

fn parse_port(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A name given with `--allow-host`, with the port it must come with (any of none and the bound
/// port when it has none).
#[derive(Debug, Clone)]
struct AllowedHost {
    host: HostName,
    port: Option<u16>,
}

/// An origin given with `--allow-origin`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct WebOrigin {
    scheme: &'static str,
    host: HostName,
    /// The effective port: the scheme's default when the origin has none.
    port: u16,
}

/// Parses a serialised origin, `scheme://host[:port]` (a browser's `Origin` header). `None` for
/// `null` and anything else.
fn parse_origin(text: &str) -> Option<WebOrigin> {
    let (scheme, authority) = text.split_once("://")?;
    let (scheme, default_port) = if scheme.eq_ignore_ascii_case("http") {
        ("http", 80)
    } else if scheme.eq_ignore_ascii_case("https") {
        ("https", 443)
    } else {
        return None;
    };
    let (host, port) = parse_authority(authority)?;
    Some(WebOrigin {
        scheme,
        host,
        port: port.unwrap_or(default_port),
    })
}

/// The names and origins allowed besides the server's own, as given on the command line,
/// validated before the server starts.
#[derive(Debug, Clone, Default)]
pub(crate) struct AllowList {
    hosts: Vec<AllowedHost>,
    origins: Vec<WebOrigin>,
}

impl AllowList {
    /// Parses `--allow-host` (`name` or `name:port`) and `--allow-origin` (`http://name:port`,
    /// `https://name`) values; an error names the flag and the value.
    pub(crate) fn parse(hosts: &[String], origins: &[String]) -> Result<AllowList> {
        let mut list = AllowList::default();
        for text in hosts {
            let Some((host, port)) = parse_authority(text.trim()) else {
                bail!("--allow-host {text:?} is not a host name or host:port");
            };
            list.hosts.push(AllowedHost { host, port });
        }
        for text in origins {
            let trimmed = text.trim();
            let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
            let Some(origin) = parse_origin(trimmed) else {
                bail!(
                    "--allow-origin {text:?} is not an origin such as http://localhost:3000 \
                     (scheme, host and optional port, no path)"
                );
            };
            list.origins.push(origin);
        }
        Ok(list)
    }
}

/// Why a request is refused: its status and a one-line reason, sent as the whole body.
#[derive(Debug)]
pub(crate) struct Refusal {
    pub(crate) status: StatusCode,
    pub(crate) reason: &'static str,
}

impl Refusal {
    pub(crate) const fn new(status: StatusCode, reason: &'static str) -> Refusal {
        Refusal { status, reason }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut response = (self.status, format!("{}\n", self.reason)).into_response();
        // The body was not read (or not all of it): the connection cannot carry another request.
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        response
    }
}

/// What the server accepts, decided once at start: its own address, the allow lists, the token
/// and the body limit.
#[derive(Debug)]
pub(crate) struct Policy {
    bound: SocketAddr,
    allow: AllowList,
    token: Option<String>,
    max_body: usize,
    /// The dashboard's secret, required on POSTs from this server's own origin; `None` (unit
    /// tests of the other rules) requires nothing.
    dashboard_secret: Option<String>,
}

/// Which kind of `Origin` a request carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OriginKind {
    None,
    Own,
    Allowed,
}

impl Policy {
    pub(crate) fn new(
        bound: SocketAddr,
        allow: AllowList,
        token: Option<String>,
        max_body: usize,
    ) -> Policy {
        Policy {
            bound,
            allow,
            token,
            max_body,
            dashboard_secret: None,
        }
    }

    /// Requires `secret` in [`DASHBOARD_SECRET_HEADER`] on every POST that comes from this
    /// server's own origin.
    pub(crate) fn with_dashboard_secret(mut self, secret: String) -> Policy {
        self.dashboard_secret = Some(secret);
        self
    }

    /// Checks a request head; the body is untouched.
    pub(crate) fn check<B>(&self, request: &Request<B>) -> Result<(), Refusal> {
        let headers = request.headers();
        let host = self.check_host(headers)?;
        // An absolute-form target (`POST http://name/rpc`) names the host too; it must pass the
        // same rule, or a proxy-style request could carry a foreign name past the Host check.
        if let Some(authority) = request.uri().authority() {
            let named = parse_authority(authority.as_str()).ok_or(Refusal::new(
                StatusCode::BAD_REQUEST,
                "bad request: the request target's host is malformed",
            ))?;
            if !self.host_is_allowed(&named) {
                return Err(FOREIGN_HOST);
            }
        }
        let origin = self.check_origin(headers, &host)?;
        if origin == OriginKind::Own && request.method() == Method::POST {
            self.check_dashboard_secret(headers)?;
        }
        let reading = matches!(*request.method(), Method::GET | Method::HEAD);
        let public = reading
            && (request.uri().path() == "/healthz"
                || super::dashboard::is_static_path(request.uri().path()));
        if !public {
            self.check_token(headers)?;
        }
        if request.method() == Method::POST {
            check_content_type(headers)?;
        }
        self.check_length(headers)
    }

    fn check_host(&self, headers: &HeaderMap) -> Result<(HostName, Option<u16>), Refusal> {
        let mut values = headers.get_all(header::HOST).iter();
        let (Some(value), None) = (values.next(), values.next()) else {
            return Err(Refusal::new(
                StatusCode::BAD_REQUEST,
                "bad request: exactly one Host header is required",
            ));
        };
        let host = value
            .to_str()
            .ok()
            .and_then(parse_authority)
            .ok_or(Refusal::new(
                StatusCode::BAD_REQUEST,
                "bad request: the Host header is malformed",
            ))?;
        if self.host_is_allowed(&host) {
            Ok(host)
        } else {
            Err(FOREIGN_HOST)
        }
    }

    fn host_is_allowed(&self, (host, port): &(HostName, Option<u16>)) -> bool {
        let bound_port = self.bound.port();
        let own_port = port.is_none_or(|port| port == bound_port);
        let own_host = host.is_localhost()
            || match host {
                HostName::Ip(address) => {
                    *address == self.bound.ip() || self.bound.ip().is_unspecified()
                }
                HostName::Name(_) => false,
            };
        if own_host && own_port {
            return true;
        }
        self.allow.hosts.iter().any(|allowed| {
            allowed.host == *host
                && match allowed.port {
                    Some(allowed_port) => *port == Some(allowed_port),
                    None => own_port,
                }
        })
    }

    fn check_origin(
        &self,
        headers: &HeaderMap,
        (request_host, _): &(HostName, Option<u16>),
    ) -> Result<OriginKind, Refusal> {
        let mut values = headers.get_all(header::ORIGIN).iter();
        let Some(value) = values.next() else {
            return Ok(OriginKind::None);
        };
        let origin = match (value.to_str().ok().and_then(parse_origin), values.next()) {
            (Some(origin), None) => origin,
            _ => return Err(FOREIGN_ORIGIN),
        };
        let own = origin.scheme == "http"
            && origin.port == self.bound.port()
            && (origin.host.is_localhost()
                || origin.host == HostName::Ip(self.bound.ip())
                || origin.host == *request_host);
        if own {
            Ok(OriginKind::Own)
        } else if self.allow.origins.contains(&origin) {
            Ok(OriginKind::Allowed)
        } else {
            Err(FOREIGN_ORIGIN)
        }
    }

    fn check_dashboard_secret(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let Some(secret) = &self.dashboard_secret else {
            return Ok(());
        };
        let mut values = headers.get_all(DASHBOARD_SECRET_HEADER).iter();
        let presented = match (values.next(), values.next()) {
            (Some(value), None) => value.as_bytes(),
            _ => b"",
        };
        if constant_time_eq(presented, secret.as_bytes()) {
            Ok(())
        } else {
            Err(Refusal::new(
                StatusCode::FORBIDDEN,
                "forbidden: a request from this server's own origin needs the dashboard's X-Toolmem-Dashboard header",
            ))
        }
    }

    fn check_token(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let Some(token) = &self.token else {
            return Ok(());
        };
        let presented = headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, presented)| presented.trim());
        if presented
            .is_some_and(|presented| constant_time_eq(presented.as_bytes(), token.as_bytes()))
        {
            Ok(())
        } else {
            Err(Refusal::new(
                StatusCode::UNAUTHORIZED,
                "unauthorized: missing or wrong bearer token",
            ))
        }
    }

    fn check_length(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        // hyper has already refused a malformed or repeated Content-Length with 400.
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok());
        match declared {
            Some(length) if length > self.max_body as u64 => Err(TOO_LARGE),
            _ => Ok(()),
        }
    }
}

/// The header that carries the dashboard's secret (lower case, as `HeaderMap` wants it).
pub(crate) const DASHBOARD_SECRET_HEADER: &str = "x-toolmem-dashboard";

const FOREIGN_HOST: Refusal = Refusal::new(
    StatusCode::FORBIDDEN,
    "forbidden: the Host header must name this server's address or localhost (others need --allow-host)",
);

const FOREIGN_ORIGIN: Refusal = Refusal::new(
    StatusCode::FORBIDDEN,
    "forbidden: requests from another origin are refused (allow one with --allow-origin)",
);

/// The refusal of a body over `--max-body`, declared or found while reading.
pub(crate) const TOO_LARGE: Refusal = Refusal::new(
    StatusCode::PAYLOAD_TOO_LARGE,
    "payload too large: the body is over --max-body",
);

fn check_content_type(headers: &HeaderMap) -> Result<(), Refusal> {
    let mut values = headers.get_all(header::CONTENT_TYPE).iter();
    let json = match (values.next(), values.next()) {
        (Some(value), None) => value.to_str().is_ok_and(|value| {
            let essence = value.split(';').next().unwrap_or_default().trim();
            essence.eq_ignore_ascii_case("application/json")
        }),
        _ => false,
    };
    if json {
        Ok(())
    } else {
        Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported media type: JSON-RPC needs Content-Type: application/json",
        ))
    }
}

/// Compares without stopping at the first differing byte, so response time says nothing about
/// how much of a guessed token was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(bound: &str, hosts: &[&str], origins: &[&str]) -> Policy {
        let owned = |values: &[&str]| -> Vec<String> {
            values.iter().map(|value| (*value).to_owned()).collect()
        };
        Policy::new(
            bound.parse().unwrap(),
            AllowList::parse(&owned(hosts), &owned(origins)).unwrap(),
            None,
            1024,
        )
    }

    /// The status of a POST /rpc with these headers (`None`: served).
    fn check(policy: &Policy, headers: &[(&str, &str)]) -> Option<u16> {
        let mut request = Request::post("/rpc").body(()).unwrap();
        for (name, value) in headers {
            request.headers_mut().append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        policy
            .check(&request)
            .err()
            .map(|refusal| refusal.status.as_u16())
    }

    const JSON: (&str, &str) = ("content-type", "application/json");

    #[test]
    fn hosts_name_the_bound_address_or_localhost() {
        let loopback = policy("127.0.0.1:7878", &[], &[]);
        for host in [
            "127.0.0.1:7878",
            "127.0.0.1",
            "localhost",
            "LOCALHOST:7878",
            "localhost.:7878",
        ] {
            assert_eq!(check(&loopback, &[("host", host), JSON]), None, "{host}");
        }
        for (host, status) in [
            ("attacker.example:7878", 403),
            ("attacker.example", 403),
            ("localhost:7879", 403),
            ("127.0.0.2:7878", 403),
            ("[::1]:7878", 403),
            ("localhost.attacker.example", 403),
            ("127.0.0.1.", 403),
            ("", 400),
            ("user@127.0.0.1", 400),
            ("127.0.0.1:", 400),
            ("127.0.0.1:99999", 400),
            ("[::1", 400),
        ] {
            assert_eq!(
                check(&loopback, &[("host", host), JSON]),
                Some(status),
                "{host}"
            );
        }
        assert_eq!(check(&loopback, &[JSON]), Some(400), "no Host at all");
        assert_eq!(
            check(
                &loopback,
                &[("host", "localhost"), ("host", "localhost"), JSON]
            ),
            Some(400)
        );

        let v6 = policy("[::1]:7878", &[], &[]);
        assert_eq!(check(&v6, &[("host", "[::1]:7878"), JSON]), None);
        assert_eq!(check(&v6, &[("host", "[0:0::1]"), JSON]), None);
        assert_eq!(check(&v6, &[("host", "127.0.0.1:7878"), JSON]), Some(403));

        // Unspecified: any address literal, but names still need --allow-host.
        let any = policy("0.0.0.0:7878", &["memory.internal"], &[]);
        for host in [
            "10.1.2.3:7878",
            "[fe80::1]:7878",
            "localhost",
            "memory.internal:7878",
        ] {
            assert_eq!(check(&any, &[("host", host), JSON]), None, "{host}");
        }
        assert_eq!(
            check(&any, &[("host", "attacker.example:7878"), JSON]),
            Some(403)
        );
        assert_eq!(
            check(&any, &[("host", "memory.internal:80"), JSON]),
            Some(403)
        );
        let proxied = policy("127.0.0.1:7878", &["memory.example.com:443"], &[]);
        assert_eq!(
            check(&proxied, &[("host", "memory.example.com:443"), JSON]),
            None
        );
        assert_eq!(
            check(&proxied, &[("host", "memory.example.com"), JSON]),
            Some(403)
        );
    }

    #[test]
    fn origins_must_be_the_servers_own_or_allowed() {
        let loopback = policy("127.0.0.1:7878", &[], &["http://localhost:3000"]);
        let host = ("host", "127.0.0.1:7878");
        for origin in [
            "http://127.0.0.1:7878",
            "http://localhost:7878",
            "http://LOCALHOST:7878",
            "http://localhost:3000",
        ] {
            assert_eq!(
                check(&loopback, &[host, ("origin", origin), JSON]),
                None,
                "{origin}"
            );
        }
        for origin in [
            "null",
            "http://attacker.example",
            "http://attacker.example:7878",
            "https://localhost:7878",
            "http://localhost:7879",
            "http://127.0.0.1",
            "http://localhost:3001",
            "file://",
            "",
        ] {
            assert_eq!(
                check(&loopback, &[host, ("origin", origin), JSON]),
                Some(403),
                "{origin}"
            );
        }
        // Two Origin headers are not an origin.
        assert_eq!(
            check(
                &loopback,
                &[
                    host,
                    ("origin", "http://localhost:7878"),
                    ("origin", "null"),
                    JSON
                ]
            ),
            Some(403)
        );
        // Port 80: browsers leave the default port out.
        let web = policy("127.0.0.1:80", &[], &[]);
        assert_eq!(
            check(
                &web,
                &[("host", "localhost"), ("origin", "http://localhost"), JSON]
            ),
            None
        );
        // Unspecified: the page's own address is the host it was served from, not any address.
        let any = policy("0.0.0.0:7878", &[], &[]);
        let own = [
            ("host", "10.1.2.3:7878"),
            ("origin", "http://10.1.2.3:7878"),
            JSON,
        ];
        assert_eq!(check(&any, &own), None);
        let other = [
            ("host", "10.1.2.3:7878"),
            ("origin", "http://203.0.113.5:7878"),
            JSON,
        ];
        assert_eq!(check(&any, &other), Some(403));
    }

    #[test]
    fn posts_need_json_and_a_body_within_the_limit() {
        let loopback = policy("127.0.0.1:7878", &[], &[]);
        let host = ("host", "localhost:7878");
        for content_type in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON ;charset=UTF-8",
        ] {
            assert_eq!(
                check(&loopback, &[host, ("content-type", content_type)]),
                None,
                "{content_type}"
            );
        }
        for content_type in [
            "text/plain",
            "text/plain; charset=application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/json-patch+json",
            "",
        ] {
            assert_eq!(
                check(&loopback, &[host, ("content-type", content_type)]),
                Some(415),
                "{content_type}"
            );
        }
        assert_eq!(check(&loopback, &[host]), Some(415), "no content type");
        // The declared length, at the limit and one past it.
        assert_eq!(
            check(&loopback, &[host, JSON, ("content-length", "1024")]),
            None
        );
        assert_eq!(
            check(&loopback, &[host, JSON, ("content-length", "1025")]),
            Some(413)
        );
        // A GET needs no content type.
        let get = Request::get("/healthz")
            .header("host", "localhost")
            .body(())
            .unwrap();
        assert!(loopback.check(&get).is_ok());
    }

    #[test]
    fn the_token_is_checked_before_the_content_type_and_not_for_health() {
        let mut guarded = policy("127.0.0.1:7878", &[], &[]);
        guarded.token = Some("s3cret".to_owned());
        let host = ("host", "localhost:7878");
        assert_eq!(
            check(&guarded, &[host, ("content-type", "text/plain")]),
            Some(401)
        );
        assert_eq!(
            check(&guarded, &[host, JSON, ("authorization", "Bearer nope")]),
            Some(401)
        );
        assert_eq!(
            check(&guarded, &[host, JSON, ("authorization", "bearer s3cret")]),
            None
        );
        let health = Request::get("/healthz")
            .header("host", "localhost")
            .body(())
            .unwrap();
        assert!(guarded.check(&health).is_ok());
        // The host and origin come first: a foreign page learns nothing about the token.
        assert_eq!(
            check(&guarded, &[("host", "attacker.example"), JSON]),
            Some(403)
        );
    }

    #[test]
    fn own_origin_posts_need_the_dashboard_secret_and_static_gets_no_token() {
        let mut guarded = policy("127.0.0.1:7878", &[], &["http://localhost:3000"])
            .with_dashboard_secret("a".repeat(64));
        let host = ("host", "localhost:7878");
        let own = ("origin", "http://localhost:7878");
        let secret = "a".repeat(64);
        assert_eq!(check(&guarded, &[host, own, JSON]), Some(403));
        assert_eq!(
            check(&guarded, &[host, own, JSON, (DASHBOARD_SECRET_HEADER, "b")]),
            Some(403)
        );
        assert_eq!(
            check(
                &guarded,
                &[host, own, JSON, (DASHBOARD_SECRET_HEADER, &secret)]
            ),
            None
        );
        // No Origin (curl, agents) and an allowed origin never needed it.
        assert_eq!(check(&guarded, &[host, JSON]), None);
        assert_eq!(
            check(&guarded, &[host, ("origin", "http://localhost:3000"), JSON]),
            None
        );
        // The page and its assets load without the token; nothing else does.
        guarded.token = Some("s3cret".to_owned());
        for (path, served) in [
            ("/", true),
            ("/dashboard.js", true),
            ("/dashboard.css", true),
            ("/healthz", true),
            ("/rpc", false),
            ("/dashboard.js/x", false),
        ] {
            let get = Request::get(path)
                .header("host", "localhost")
                .body(())
                .unwrap();
            assert_eq!(guarded.check(&get).is_ok(), served, "GET {path}");
        }
        assert_eq!(
            check(
                &guarded,
                &[host, own, JSON, (DASHBOARD_SECRET_HEADER, &secret)]
            ),
            Some(401)
        );
    }

    #[test]
    fn allow_lists_name_the_flag_when_a_value_is_wrong() {
        let error = AllowList::parse(&["bad host/".to_owned()], &[]).unwrap_err();
        assert!(error.to_string().contains("--allow-host"), "{error}");
        for origin in [
            "localhost:3000",
            "http://localhost:3000/app",
            "ftp://x",
            "null",
        ] {
            let error = AllowList::parse(&[], &[origin.to_owned()]).unwrap_err();
            assert!(error.to_string().contains("--allow-origin"), "{error}");
        }
        assert!(AllowList::parse(&[], &["http://localhost:3000/".to_owned()]).is_ok());
    }
}
