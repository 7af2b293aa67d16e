//! Two `toolmem serve` processes against one PostgreSQL database, as on two machines: writes
//! and revocations through both at once lose nothing, and a rule put through one server is
//! enforced by the other's guard on its very next check. Needs `TOOLMEM_TEST_PG_URL` (see
//! `cargo xtask pg`); without it the tests skip, except under `CI`, where they fail.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result};
use serde_json::{Value, json};

use crate::support::{Server, cli};

const URL_ENV: &str = "TOOLMEM_TEST_PG_URL";

/// The server's URL, or `None` (with a note) when the tests may skip; see the module docs.
fn database_url() -> Option<String> {
    if let Some(url) = std::env::var(URL_ENV)
        .ok()
        .filter(|url| !url.trim().is_empty())
    {
        return Some(url);
    }
    let in_ci = std::env::var_os("CI").is_some();
    let optional = std::env::var_os("TOOLMEM_TEST_PG_OPTIONAL").is_some();
    assert!(
        !in_ci || optional,
        "CI is set but {URL_ENV} is not: the PostgreSQL tests must run in CI (.ci/run starts a cluster)"
    );
    eprintln!("skipping a PostgreSQL test: set {URL_ENV} (`cargo xtask pg start` prints one)");
    None
}

/// A database of its own for one test, dropped (connections and all) when the test ends.
struct TestDatabase {
    admin_url: String,
    name: String,
    url: String,
}

impl TestDatabase {
    fn create(admin_url: &str) -> Result<TestDatabase> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "toolmem_e2e_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        run_sql(admin_url, &format!("CREATE DATABASE {name}"))?;
        Ok(TestDatabase {
            url: with_database(admin_url, &name)?,
            admin_url: admin_url.to_owned(),
            name,
        })
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let _ = run_sql(
            &self.admin_url,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

/// `url` with its database name replaced (query parameters kept).
fn with_database(url: &str, database: &str) -> Result<String> {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let (scheme, rest) = base.split_once("://").context("URL without a scheme")?;
    let authority = rest.split('/').next().unwrap_or(rest);
    let mut replaced = format!("{scheme}://{authority}/{database}");
    if let Some(query) = query {
        replaced.push('?');
        replaced.push_str(query);
    }
    Ok(replaced)
}

/// Runs SQL on a connection of its own, on a thread of its own (usable from `Drop`).
fn run_sql(url: &str, sql: &str) -> Result<()> {
    let (url, sql) = (url.to_owned(), sql.to_owned());
    std::thread::spawn(move || -> Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        runtime.block_on(async move {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
            let connection = tokio::spawn(connection);
            client.batch_execute(&sql).await?;
            drop(client);
            let _ = connection.await;
            anyhow::Ok(())
        })
    })
    .join()
    .map_err(|_| anyhow::anyhow!("SQL thread panicked"))?
}

/// Two servers on one database.
fn two_servers(database: &TestDatabase) -> Result<(Server, Server)> {
    let first = Server::start(Path::new(&database.url), &[])?;
    let second = Server::start(Path::new(&database.url), &[])?;
    Ok((first, second))
}

fn ids(rules: &Value) -> BTreeSet<String> {
    rules
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|rule| rule["id"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_writing_and_revoking_at_once_lose_nothing() -> Result<()> {
    let Some(admin_url) = database_url() else {
        return Ok(());
    };
    let database = TestDatabase::create(&admin_url)?;
    let (first, second) = two_servers(&database)?;
    let servers = Arc::new([first, second]);
    let (writers, rounds) = (4, 20);
    let mut tasks = Vec::new();
    for writer in 0..writers {
        let servers = Arc::clone(&servers);
        tasks.push(tokio::spawn(async move {
            let (mine, other) = (&servers[writer % 2], &servers[(writer + 1) % 2]);
            for round in 0..rounds {
                let id = format!("w{writer}-{round}");
                mine.result(
                    "memory.tool_rule_put",
                    json!({"tool_name": "send_email", "rule": format!("rule {id}"), "id": id}),
                )
                .await?;
                // Every other rule is revoked through the other server, right away.
                if round % 2 == 1 {
                    let revoked = other
                        .result(
                            "memory.tool_rule_revoke",
                            json!({"tool_name": "send_email", "id": id}),
                        )
                        .await?;
                    anyhow::ensure!(revoked["id"] == id.as_str(), "{revoked}");
                }
            }
            anyhow::Ok(())
        }));
    }
    for task in tasks {
        task.await??;
    }

    let expected_active: BTreeSet<String> = (0..writers)
        .flat_map(|writer| {
            (0..rounds)
                .filter(|round| round % 2 == 0)
                .map(move |round| format!("w{writer}-{round}"))
        })
        .collect();
    for server in servers.iter() {
        let active = server
            .result("memory.tool_rule_list", json!({"tool_name": "send_email"}))
            .await?;
        assert_eq!(ids(&active), expected_active);
        let every = server
            .result(
                "memory.tool_rule_list",
                json!({"tool_name": "send_email", "include_revoked": true}),
            )
            .await?;
        assert_eq!(ids(&every).len(), writers * rounds);
    }
    let history = servers[0]
        .result(
            "memory.tool_rule_history",
            json!({"tool_name": "send_email", "limit": 1000}),
        )
        .await?;
    let lines = history.as_array().context("history array")?;
    let count = |action: &str| lines.iter().filter(|line| line["action"] == action).count();
    assert_eq!(count("create"), writers * rounds);
    assert_eq!(count("revoke"), writers * (rounds / 2));
    assert_eq!(lines.len(), writers * rounds + writers * (rounds / 2));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_put_through_one_server_is_enforced_by_the_other_at_once() -> Result<()> {
    let Some(admin_url) = database_url() else {
        return Ok(());
    };
    let database = TestDatabase::create(&admin_url)?;
    let (first, second) = two_servers(&database)?;
    let call = json!({"tool_name": "send_email", "arguments": {"to": "sarah@example.com"}});

    // The second server builds (and caches) its guard for the tool while it has no rules.
    let verdict = second
        .result("memory.tool_call_check", call.clone())
        .await?;
    assert_eq!(verdict["decision"], "allow", "{verdict}");

    let rule = first
        .result(
            "memory.tool_rule_put",
            json!({
                "tool_name": "send_email",
                "rule": "Never email Sarah at sarah@example.com.",
                "priority": "critical",
                "id": "sarah"
            }),
        )
        .await?;
    assert_eq!(rule["id"], "sarah");
    // Its very next check sees the rule: the cache is keyed by the shared version.
    let verdict = second
        .result("memory.tool_call_check", call.clone())
        .await?;
    assert_eq!(verdict["decision"], "deny", "{verdict}");
    assert_eq!(verdict["rules"][0]["id"], "sarah");

    // Lifted through the first server, the second allows the call again on its next check.
    first
        .result(
            "memory.tool_rule_revoke",
            json!({"tool_name": "send_email", "id": "sarah"}),
        )
        .await?;
    let verdict = second.result("memory.tool_call_check", call).await?;
    assert_eq!(verdict["decision"], "allow", "{verdict}");

    // The deny the second server made is in the history the first server reads.
    let history = first
        .result(
            "memory.tool_rule_history",
            json!({"tool_name": "send_email", "id": "sarah"}),
        )
        .await?;
    let actions: Vec<&str> = history
        .as_array()
        .context("history array")?
        .iter()
        .filter_map(|line| line["action"].as_str())
        .collect();
    assert_eq!(actions, ["revoke", "deny", "create"]);
    first.stop()?;
    second.stop()?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_benchmark_runs_against_postgres_and_leaves_nothing_behind() -> Result<()> {
    let Some(admin_url) = database_url() else {
        return Ok(());
    };
    let database = TestDatabase::create(&admin_url)?;
    let options = toolmem_bench::BenchOptions {
        tools: 10,
        per_tool: 3,
        runs: 1,
        capture_turns: 10,
        rpc_requests: 20,
        // The RPC rows' server, on the run's schema.
        server_exe: Some(crate::support::TOOLMEM.into()),
        // SQLite runs only: PostgreSQL leaves the hook row out.
        hook_spawns: 3,
        peak_rss: true,
        postgres: Some(database.url.clone()),
        baseline: true,
    };
    let rows = toolmem_bench::run(&options).await?;
    let ops: Vec<&str> = rows.iter().map(|row| row.op.as_str()).collect();
    for op in [
        "put",
        "get",
        "list",
        "prompt",
        "rpc_get",
        "delete",
        "check_1000",
    ] {
        assert!(ops.contains(&op), "{op} missing from {ops:?}");
    }
    assert!(rows.iter().all(|row| row.us_per_op.is_some()), "{rows:?}");
    // The baseline is SQLite's floor, so a PostgreSQL run leaves it out.
    assert!(
        rows.iter().all(|row| row.implementation == "toolmem"),
        "{rows:?}"
    );
    let (client, connection) =
        tokio_postgres::connect(&database.url, tokio_postgres::NoTls).await?;
    let connection = tokio::spawn(connection);
    let left: i64 = client
        .query_one(
            "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'toolmem_bench%'",
            &[],
        )
        .await?
        .get(0);
    assert_eq!(left, 0, "the benchmark's schema was dropped");
    drop(client);
    let _ = connection.await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_and_a_server_share_one_database() -> Result<()> {
    let Some(admin_url) = database_url() else {
        return Ok(());
    };
    let database = TestDatabase::create(&admin_url)?;
    let db = Path::new(&database.url);
    let (code, _, stderr) = cli(
        db,
        &[
            "rule",
            "add",
            "send_email",
            "Never email Sarah at sarah@example.com.",
            "--priority",
            "critical",
            "--id",
            "sarah",
        ],
        "",
    )?;
    assert_eq!(code, 0, "{stderr}");
    let server = Server::start(db, &[])?;
    let call = json!({"tool_name": "send_email", "arguments": {"to": "sarah@example.com"}});
    let verdict = server
        .result("memory.tool_call_check", call.clone())
        .await?;
    assert_eq!(verdict["decision"], "deny", "{verdict}");
    // The CLI's own check agrees (exit 3: deny), then lifts the rule for the server too.
    let (code, _, _) = cli(
        db,
        &["check", "send_email", r#"{"to":"sarah@example.com"}"#],
        "",
    )?;
    assert_eq!(code, 3);
    let (code, _, stderr) = cli(db, &["rule", "revoke", "send_email", "sarah"], "")?;
    assert_eq!(code, 0, "{stderr}");
    let verdict = server.result("memory.tool_call_check", call).await?;
    assert_eq!(verdict["decision"], "allow", "{verdict}");
    // Export and import round-trip through the same database: importing again changes nothing.
    let (code, exported, stderr) = cli(db, &["export"], "")?;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(exported.lines().count(), 1, "{exported}");
    let (code, _, stderr) = cli(db, &["import"], &exported)?;
    assert_eq!(code, 0, "{stderr}");
    let (_, again, _) = cli(db, &["export"], "")?;
    assert_eq!(again, exported);
    server.stop()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_loses_its_database_fails_clearly_and_recovers() -> Result<()> {
    let Some(admin_url) = database_url() else {
        return Ok(());
    };
    let database = TestDatabase::create(&admin_url)?;
    let name = database.name.clone();
    let server = Server::start(Path::new(&database.url), &[])?;
    let put = |id: &str| json!({"tool_name": "bash", "rule": format!("never run {id}"), "id": id, "priority": "critical"});
    server.result("memory.tool_rule_put", put("before")).await?;

    // The database goes away for this server: no new connections, and the open ones ended
    // (with a timeout, the call returns once the backends are gone).
    run_sql(
        &admin_url,
        &format!(
            "ALTER DATABASE {name} ALLOW_CONNECTIONS false;
             SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '{name}'"
        ),
    )?;
    for _ in 0..3 {
        let response = server.call("memory.tool_rule_put", put("during")).await?;
        assert_eq!(response["error"]["code"], -32002, "{response}");
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("storage error: postgres: "),
            "{message}"
        );
    }
    let health = server
        .client()
        .get(format!("{}/healthz", server.url))
        .send()
        .await?;
    assert!(
        health.status().is_success(),
        "the server itself keeps running"
    );

    // The database returns; within one failure per pooled connection (16 at most) the server
    // answers again, and keeps doing so.
    run_sql(
        &admin_url,
        &format!("ALTER DATABASE {name} ALLOW_CONNECTIONS true"),
    )?;
    let mut failures = 0;
    loop {
        let response = server.call("memory.tool_rule_put", put("after")).await?;
        if response.get("result").is_some() {
            break;
        }
        assert_eq!(response["error"]["code"], -32002, "{response}");
        failures += 1;
        assert!(
            failures <= 16,
            "still failing after every pooled connection was replaced"
        );
    }
    for _ in 0..5 {
        server
            .result("memory.tool_rule_list", json!({"tool_name": "bash"}))
            .await?;
    }
    // Nothing half-written: the puts that failed left no rule and no history line.
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "bash"}))
        .await?;
    assert_eq!(
        ids(&listed),
        BTreeSet::from(["after".to_owned(), "before".to_owned()])
    );
    let history = server
        .result("memory.tool_rule_history", json!({"tool_name": "bash"}))
        .await?;
    let lines = history.as_array().context("history array")?;
    assert_eq!(lines.len(), 2, "{history}");
    assert!(
        lines.iter().all(|line| line["action"] == "create"),
        "{history}"
    );
    server.stop()
}

#[test]
fn database_name_is_replaced_and_parameters_kept() -> Result<()> {
    assert_eq!(
        with_database("postgres://postgres@127.0.0.1:5432/postgres", "t1")?,
        "postgres://postgres@127.0.0.1:5432/t1"
    );
    assert_eq!(
        with_database("postgres://u:p@h/db?connect_timeout=3", "t2")?,
        "postgres://u:p@h/t2?connect_timeout=3"
    );
    Ok(())
}
