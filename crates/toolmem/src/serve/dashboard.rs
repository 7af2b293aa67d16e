//! The rules dashboard: one HTML page, its stylesheet and its script, compiled into the binary
//! and served at `GET /` on the server's own address. The page is a client of `/rpc` like any
//! other; it adds no API of its own.
//!
//! The page carries a secret generated when the server starts. The policy requires it on every
//! POST from the server's own origin ([`super::policy`]), so a page that could send a request
//! looking like the dashboard's still needs to have read this page first, and reading it needs
//! a `Host` of this server (no DNS rebinding) and, in a browser, this origin (no cross-origin
//! read: the page is sent without CORS headers). The responses forbid framing (clickjacking),
//! caching (the secret would outlive the server) and any script, style or connection that is
//! not this server's.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

const PAGE: &str = include_str!("../../assets/dashboard.html");
const SCRIPT: &str = include_str!("../../assets/dashboard.js");
const STYLE: &str = include_str!("../../assets/dashboard.css");

/// Where the page puts the secret; the template holds it exactly once.
const SECRET_SLOT: &str = "{{DASHBOARD_SECRET}}";

/// The paths of the page and its assets: static text without any rule, served without the
/// bearer token so a browser can load the page that then asks for the token.
const STATIC_PATHS: [&str; 3] = ["/", "/dashboard.js", "/dashboard.css"];

/// Nothing but this server: no inline script, no other origin, no framing.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
    style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; \
    base-uri 'none'; frame-ancestors 'none'";

pub(crate) fn is_static_path(path: &str) -> bool {
    STATIC_PATHS.contains(&path)
}

/// The page with this server's secret, and the secret the policy checks.
#[derive(Debug, Clone)]
pub(crate) struct Dashboard {
    page: String,
    secret: String,
}

impl Dashboard {
    /// A new secret: two version-4 UUIDs, 244 random bits from the operating system.
    pub(crate) fn generate() -> Dashboard {
        let secret = format!(
            "{}{}",
            uuid::Uuid::new_v4().simple(),
            uuid::Uuid::new_v4().simple()
        );
        Dashboard::with_secret(secret)
    }

    fn with_secret(secret: String) -> Dashboard {
        Dashboard {
            page: PAGE.replacen(SECRET_SLOT, &secret, 1),
            secret,
        }
    }

    pub(crate) fn secret(&self) -> &str {
        &self.secret
    }

    pub(crate) fn page(&self) -> Response {
        asset("text/html; charset=utf-8", self.page.clone())
    }

    pub(crate) fn script() -> Response {
        asset("text/javascript; charset=utf-8", SCRIPT.to_owned())
    }

    pub(crate) fn style() -> Response {
        asset("text/css; charset=utf-8", STYLE.to_owned())
    }
}

fn asset(content_type: &'static str, body: String) -> Response {
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    let fixed = [
        (header::CONTENT_TYPE, content_type),
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
        (
            header::HeaderName::from_static("cross-origin-resource-policy"),
            "same-origin",
        ),
        (
            header::HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_the_secret_once_and_the_template_slot_nowhere() {
        assert_eq!(PAGE.matches(SECRET_SLOT).count(), 1);
        let dashboard = Dashboard::with_secret("s".repeat(64));
        assert_eq!(dashboard.page.matches(&"s".repeat(64)).count(), 1);
        assert!(!dashboard.page.contains(SECRET_SLOT));
    }

    #[test]
    fn every_server_gets_its_own_secret() {
        let (one, two) = (Dashboard::generate(), Dashboard::generate());
        assert_eq!(one.secret().len(), 64);
        assert_ne!(one.secret(), two.secret());
    }

    #[test]
    fn the_page_loads_nothing_from_elsewhere() {
        for text in [PAGE, SCRIPT, STYLE] {
            assert!(!text.contains("http://") && !text.contains("https://"));
        }
        // The script is a file of this server, never inline, so the policy can forbid inline.
        assert!(PAGE.contains(r#"<script src="/dashboard.js" defer></script>"#));
        assert!(!PAGE.contains("<script>"));
    }
}
