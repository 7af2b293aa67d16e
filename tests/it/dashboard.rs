//! The dashboard at `GET /` over raw HTTP: the page and its secret are served to this server's
//! own host only, a POST from the server's own origin needs the secret, a foreign origin cannot
//! use any of the page's calls even with the secret, and a DNS-rebinding `Host` reads nothing.
//! The browser itself is driven in `dashboard_browser`.

mod browser;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};

use crate::support::{RawHttp, RawResponse, Server, TOOLMEM, raw_request};

const SECRET_HEADER: &str = "x-toolmem-dashboard";

/// One request on a fresh connection.
fn exchange(server: &Server, request: &[u8]) -> Result<RawResponse> {
    let mut connection = RawHttp::connect(server.addr())?;
    connection.send(request)?;
    connection.response()
}

fn port(server: &Server) -> Result<String> {
    Ok(server.addr().rsplit(':').next().context("port")?.to_owned())
}

/// The secret in a served page.
pub(crate) fn secret_in(page: &str) -> Option<String> {
    let marker = r#"name="toolmem-dashboard-secret" content=""#;
    let start = page.find(marker)? + marker.len();
    let secret = &page[start..start + page[start..].find('"')?];
    (secret.len() == 64 && secret.bytes().all(|byte| byte.is_ascii_hexdigit()))
        .then(|| secret.to_owned())
}

/// The page as the server's own host gets it, and its secret.
pub(crate) fn fetch_secret(server: &Server) -> Result<String> {
    let host = format!("host: 127.0.0.1:{}", port(server)?);
    let page = exchange(server, &raw_request("GET", "/", &[&host], ""))?;
    ensure!(page.status == 200, "GET /: {page:?}");
    secret_in(&page.body).context("no secret in the page")
}

fn rpc_body(method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string()
}

/// Every call the page makes, with params that would change or read the planted rule.
fn dashboard_calls() -> Vec<String> {
    let rule = json!({"tool_name": "send_email", "id": "sarah"});
    vec![
        rpc_body(
            "memory.tool_rule_put",
            json!({"tool_name": "send_email", "id": "sarah", "rule": "Email Sarah whenever you like.", "priority": "normal"}),
        ),
        rpc_body("memory.tool_rule_revoke", rule.clone()),
        rpc_body("memory.tool_rule_delete", rule.clone()),
        rpc_body("memory.tool_rule_confirm", rule.clone()),
        rpc_body("memory.tool_rule_restore", rule),
        rpc_body(
            "memory.tool_rule_list",
            json!({"tool_name": "send_email", "include_revoked": true}),
        ),
        rpc_body(
            "memory.tool_rule_history",
            json!({"tool_name": "send_email"}),
        ),
        rpc_body(
            "memory.tool_rule_list",
            json!({"tool_name": "send_email", "include_revoked": true, "limit": 50, "offset": 0, "filter": "sarah"}),
        ),
        rpc_body("memory.tool_list", Value::Null),
        rpc_body(
            "memory.tool_rules_import",
            json!({"allow_weaken": true, "lines": json!({"tool_name": "send_email", "id": "sarah", "rule": "Email Sarah whenever you like.", "priority": "normal", "created_at": "2030-01-01T00:00:00Z", "updated_at": "2030-01-01T00:00:00Z"}).to_string()}),
        ),
        rpc_body("memory.tool_rules_for_prompt", json!({"tools": []})),
        rpc_body(
            "memory.tool_call_check",
            json!({"tool_name": "send_email", "arguments": {"to": "sarah@example.com"}}),
        ),
    ]
}

async fn plant_sarah(server: &Server) -> Result<()> {
    server
        .result(
            "memory.tool_rule_put",
            json!({"tool_name": "send_email", "id": "sarah", "rule": "Never email Sarah at sarah@example.com.", "priority": "critical"}),
        )
        .await?;
    Ok(())
}

/// The planted rule is still there, unchanged and active, and no guard verdict was recorded.
async fn sarah_untouched(server: &Server) -> Result<()> {
    let rule = server
        .result(
            "memory.tool_rule_get",
            json!({"tool_name": "send_email", "id": "sarah"}),
        )
        .await?;
    ensure!(
        rule["priority"] == "critical" && rule.get("revoked_at").is_none(),
        "{rule}"
    );
    let history = server
        .result(
            "memory.tool_rule_history",
            json!({"tool_name": "send_email"}),
        )
        .await?;
    ensure!(
        history.as_array().map(Vec::len) == Some(1),
        "only the plant: {history}"
    );
    Ok(())
}

#[tokio::test]
async fn the_page_and_its_assets_are_served_with_a_secret_and_locked_down() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(&dir.path().join("rules.sqlite3"), &[])?;
    let host = format!("host: localhost:{}", port(&server)?);
    let page = exchange(&server, &raw_request("GET", "/", &[&host], ""))?;
    ensure!(page.status == 200, "{page:?}");
    ensure!(page.header("content-type") == Some("text/html; charset=utf-8"));
    let policy = page.header("content-security-policy").unwrap_or_default();
    for directive in [
        "default-src 'none'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
    ] {
        ensure!(policy.contains(directive), "{directive} in {policy}");
    }
    ensure!(page.header("x-frame-options") == Some("DENY"));
    ensure!(page.header("cache-control") == Some("no-store"));
    ensure!(page.header("x-content-type-options") == Some("nosniff"));
    ensure!(
        page.header("access-control-allow-origin").is_none(),
        "no CORS"
    );
    let secret = secret_in(&page.body).context("no secret in the page")?;
    for (path, content_type) in [
        ("/dashboard.js", "text/javascript; charset=utf-8"),
        ("/dashboard.css", "text/css; charset=utf-8"),
    ] {
        let asset = exchange(&server, &raw_request("GET", path, &[&host], ""))?;
        ensure!(asset.status == 200, "{path}: {asset:?}");
        ensure!(asset.header("content-type") == Some(content_type), "{path}");
        ensure!(
            !asset.body.contains(&secret),
            "{path} must not hold the secret"
        );
    }
    // Each server makes its own secret.
    let other = Server::start(&dir.path().join("other.sqlite3"), &[])?;
    ensure!(fetch_secret(&other)? != secret);
    server.stop()
}

#[tokio::test]
async fn own_origin_posts_need_the_secret_and_other_clients_do_not() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(
        &dir.path().join("rules.sqlite3"),
        &["--allow-origin", "http://localhost:3000"],
    )?;
    plant_sarah(&server).await?;
    let secret = fetch_secret(&server)?;
    let port = port(&server)?;
    let host = format!("host: 127.0.0.1:{port}");
    let own = format!("origin: http://localhost:{port}");
    let right = format!("{SECRET_HEADER}: {secret}");
    let wrong = format!("{SECRET_HEADER}: {}", "0".repeat(64));
    let short = format!("{SECRET_HEADER}: {}", &secret[..63]);
    let json = "content-type: application/json";
    for call in dashboard_calls() {
        for path in ["/rpc", "/"] {
            for headers in [
                vec![host.as_str(), own.as_str(), json],
                vec![host.as_str(), own.as_str(), json, wrong.as_str()],
                vec![host.as_str(), own.as_str(), json, short.as_str()],
                vec![
                    host.as_str(),
                    own.as_str(),
                    json,
                    right.as_str(),
                    right.as_str(),
                ],
            ] {
                let response = exchange(&server, &raw_request("POST", path, &headers, &call))?;
                ensure!(
                    response.status == 403 && response.body.contains("X-Toolmem-Dashboard"),
                    "{path} {headers:?} {call}: {response:?}"
                );
            }
        }
    }
    sarah_untouched(&server).await?;
    // With the secret, the page's own calls go through; clients that send no Origin, and an
    // origin allowed with --allow-origin, never needed it.
    let list = rpc_body("memory.tool_rule_list", json!({"tool_name": "send_email"}));
    for headers in [
        vec![host.as_str(), own.as_str(), json, right.as_str()],
        vec![host.as_str(), json],
        vec![host.as_str(), "origin: http://localhost:3000", json],
    ] {
        let response = exchange(&server, &raw_request("POST", "/rpc", &headers, &list))?;
        ensure!(
            response.status == 200 && response.json()?["result"][0]["id"] == "sarah",
            "{headers:?}: {response:?}"
        );
    }
    server.stop()
}

#[tokio::test]
async fn a_foreign_origin_cannot_use_the_dashboards_calls_even_with_the_secret() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(&dir.path().join("rules.sqlite3"), &[])?;
    plant_sarah(&server).await?;
    let secret = fetch_secret(&server)?;
    let port = port(&server)?;
    let host = format!("host: 127.0.0.1:{port}");
    let right = format!("{SECRET_HEADER}: {secret}");
    for call in dashboard_calls() {
        for origin in [
            "origin: http://attacker.example".to_owned(),
            format!("origin: http://attacker.example:{port}"),
            "origin: null".to_owned(),
            format!("origin: https://localhost:{port}"),
        ] {
            for content_type in ["content-type: application/json", "content-type: text/plain"] {
                let headers = [host.as_str(), origin.as_str(), content_type, right.as_str()];
                let response = exchange(&server, &raw_request("POST", "/rpc", &headers, &call))?;
                ensure!(
                    response.status == 403,
                    "{origin} {content_type}: {response:?}"
                );
            }
        }
    }
    sarah_untouched(&server).await?;
    server.stop()
}

#[tokio::test]
async fn a_rebinding_host_cannot_read_the_page_or_its_secret() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(&dir.path().join("rules.sqlite3"), &[])?;
    let secret = fetch_secret(&server)?;
    let port = port(&server)?;
    for host in [
        format!("host: attacker.example:{port}"),
        "host: attacker.example".to_owned(),
        format!("host: localhost.attacker.example:{port}"),
    ] {
        for path in ["/", "/dashboard.js", "/dashboard.css"] {
            // The rebound page sends its own origin, or (a navigation) none.
            let origin = format!("origin: http://{}", host.trim_start_matches("host: "));
            for headers in [vec![host.as_str()], vec![host.as_str(), origin.as_str()]] {
                let response = exchange(&server, &raw_request("GET", path, &headers, ""))?;
                ensure!(response.status == 403, "{headers:?} {path}: {response:?}");
                ensure!(!response.body.contains(&secret));
            }
        }
    }
    server.stop()
}

#[tokio::test]
async fn with_a_token_the_page_loads_and_every_call_needs_the_token_too() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(&dir.path().join("rules.sqlite3"), &["--token", "s3cret"])?;
    // The page holds no rule, so a browser can load it and then ask for the token.
    let secret = fetch_secret(&server)?;
    let port = port(&server)?;
    let host = format!("host: localhost:{port}");
    let own = format!("origin: http://localhost:{port}");
    let right = format!("{SECRET_HEADER}: {secret}");
    let list = rpc_body("memory.tool_rule_list", json!({"tool_name": "shell"}));
    let json = "content-type: application/json";
    let response = exchange(
        &server,
        &raw_request("POST", "/rpc", &[&host, &own, json, &right], &list),
    )?;
    ensure!(response.status == 401, "no token: {response:?}");
    let response = exchange(
        &server,
        &raw_request(
            "POST",
            "/rpc",
            &[&host, &own, json, &right, "authorization: Bearer s3cret"],
            &list,
        ),
    )?;
    ensure!(response.status == 200, "token and secret: {response:?}");
    // Other GETs still need the token.
    let response = exchange(&server, &raw_request("GET", "/other", &[&host], ""))?;
    ensure!(response.status == 401, "{response:?}");
    server.stop()
}

#[test]
fn serve_prints_the_dashboard_url_after_the_address() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let mut child = Command::new(TOOLMEM)
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("rules.sqlite3"))
        .env_remove("TOOLMEM_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut lines = BufReader::new(child.stdout.take().context("stdout")?).lines();
    let first = lines.next().context("first line")??;
    let second = lines.next().context("second line")??;
    let _ = child.kill();
    let _ = child.wait();
    let port = first.rsplit(':').next().context("port in the first line")?;
    ensure!(
        first.starts_with("toolmem listening on http://127.0.0.1:"),
        "{first}"
    );
    ensure!(
        second == format!("toolmem dashboard: http://localhost:{port}/"),
        "{second}"
    );
    Ok(())
}
