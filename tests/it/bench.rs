//! The benchmark workload (`toolmem_bench`), run once at a tiny size so it cannot rot. It checks
//! that every row of the contract is produced with sane fields; it never asserts on time. The
//! HTTP and server memory rows start `toolmem_e2e`, the same program as `toolmem`.

use anyhow::Result;
use toolmem_bench::{BenchOptions, run};

use crate::support::{TOOLMEM, cli};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_workload_produces_every_row() -> Result<()> {
    let options = BenchOptions {
        tools: 20,
        per_tool: 3,
        runs: 1,
        capture_turns: 10,
        rpc_requests: 40,
        server_exe: Some(TOOLMEM.into()),
        hook_spawns: 3,
        peak_rss: true,
        postgres: None,
        baseline: true,
    };
    let rows = run(&options).await?;
    let ops: Vec<(&str, &str)> = rows
        .iter()
        .map(|row| (row.implementation, row.op.as_str()))
        .collect();
    let toolmem = [
        "put",
        "upsert",
        "get",
        "list",
        "prompt",
        "prompt_after_write",
        "delete",
        "capture",
        "capture_instruction_file",
        "rpc_get",
        "rpc_prompt",
        "server_peak_rss",
        "hook",
        "check_10",
        "check_100",
        "check_1000",
        "check_shell_1000",
    ]
    .map(|op| ("toolmem", op));
    let baseline = ["put", "upsert", "get", "delete"].map(|op| ("sqlite_kv", op));
    assert_eq!(ops, [&toolmem[..], &baseline[..]].concat());
    for row in &rows {
        assert_eq!(row.rules, 60, "{row:?}");
        assert!(row.n > 0, "{row:?}");
        if row.op == "server_peak_rss" {
            assert!(row.peak_rss_kib.is_some_and(|kib| kib > 0), "{row:?}");
        } else {
            assert!(
                row.us_per_op.is_some_and(|us| us.is_finite() && us >= 0.0),
                "{row:?}"
            );
        }
    }
    // The JSON line is the contract: these fields, in this order, on every row.
    let line = serde_json::to_string(&rows[0])?;
    assert!(
        line.starts_with(r#"{"impl":"toolmem","op":"put","n":60,"rules":60,"us_per_op":"#),
        "{line}"
    );
    assert!(line.ends_with(r#","peak_rss_kib":null}"#), "{line}");
    Ok(())
}

/// Without the `toolmem` executable the HTTP, memory and hook rows cannot run: the workload
/// says so before it does anything, instead of leaving the rows out.
#[tokio::test]
async fn the_server_rows_need_the_server() -> Result<()> {
    let options = BenchOptions {
        tools: 2,
        per_tool: 1,
        runs: 1,
        capture_turns: 1,
        rpc_requests: 4,
        server_exe: None,
        hook_spawns: 0,
        peak_rss: false,
        postgres: None,
        baseline: false,
    };
    let err = run(&options).await.expect_err("no server to talk to");
    assert!(err.to_string().contains("server_exe"), "{err:#}");
    // The hook row alone needs it too.
    let hook_only = BenchOptions {
        rpc_requests: 0,
        hook_spawns: 5,
        ..options
    };
    let err = run(&hook_only).await.expect_err("no toolmem to spawn");
    assert!(err.to_string().contains("server_exe"), "{err:#}");
    Ok(())
}

/// The product binary carries no benchmark: `toolmem bench` is an unknown command (a usage
/// error), not a run of the workload.
#[test]
fn the_product_binary_has_no_bench_command() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let args = [
        "bench",
        "--tools",
        "1",
        "--per-tool",
        "1",
        "--runs",
        "1",
        "--no-rpc",
        "--no-rss",
        "--no-baseline",
    ];
    let (code, stdout, stderr) = cli(&db, &args, "")?;
    assert_eq!(code, 64, "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    Ok(())
}
