//! `toolmem_bench`, the program behind `cargo xtask bench`: parses the benchmark's flags, runs
//! the workload and prints its rows (a table, or JSON lines with `--json`). The HTTP, server
//! memory and hook rows start the `toolmem` executable named by `--server`, by default the one
//! next to this program, where cargo puts both (xtask builds it in release mode first).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;
use toolmem_bench::BenchOptions;

/// The standard benchmark workload of toolmem (see docs/performance.md).
#[derive(Debug, Parser)]
#[command(name = "toolmem_bench")]
struct Args {
    /// Tools in the store.
    #[arg(long, default_value_t = 200)]
    tools: usize,
    /// Rules per tool (50: 10,000 rules; 500: 100,000 rules).
    #[arg(long, default_value_t = 50)]
    per_tool: usize,
    /// Runs of the whole workload; rows report medians.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Skip the HTTP rows.
    #[arg(long)]
    no_rpc: bool,
    /// Skip the server memory row.
    #[arg(long)]
    no_rss: bool,
    /// Skip the baseline rows (put, upsert, get and delete on a bare SQLite key/value table).
    #[arg(long)]
    no_baseline: bool,
    /// Spawns of `toolmem hook` per run for the hook row (its median); 0 skips the row.
    #[arg(long, default_value_t = 50)]
    hook_spawns: usize,
    /// Print one JSON line per row (the contract) instead of a table.
    #[arg(long)]
    json: bool,
    /// A PostgreSQL URL (postgres://user:password@host/db) to run the workload against, in a
    /// schema of its own that is dropped afterwards. Anything else is ignored: the SQLite
    /// workload always uses a temporary file, so a TOOLMEM_DB naming your own rules changes
    /// nothing.
    #[arg(long, env = "TOOLMEM_DB", hide_env_values = true)]
    db: Option<PathBuf>,
    /// The toolmem executable that serves the HTTP rows and whose memory is measured
    /// [default: `toolmem` in this program's directory].
    #[arg(long)]
    server: Option<PathBuf>,
}

fn main() -> ExitCode {
    // Usage errors exit 64 (EX_USAGE), as `toolmem`'s do.
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(err) if err.use_stderr() => {
            let _ = err.print();
            return ExitCode::from(64);
        }
        Err(err) => {
            // --help.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
    };
    // The facade's warnings go to stderr, as they did when the benchmark ran inside `toolmem`.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TOOLMEM_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<()> {
    let mut options = BenchOptions {
        tools: args.tools,
        per_tool: args.per_tool,
        runs: args.runs,
        peak_rss: !args.no_rss,
        baseline: !args.no_baseline,
        hook_spawns: args.hook_spawns,
        ..BenchOptions::default()
    };
    if args.no_rpc {
        options.rpc_requests = 0;
    }
    options.postgres = args
        .db
        .as_deref()
        .and_then(std::path::Path::to_str)
        .filter(|text| active_memory_client::is_postgres_url(text))
        .map(str::to_owned);
    if options.needs_server() || args.server.is_some() {
        options.server_exe = Some(match args.server {
            Some(path) => path,
            None => next_to_this_program()?,
        });
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let rows = runtime.block_on(toolmem_bench::run(&options))?;
    toolmem_bench::print(&rows, args.json);
    Ok(())
}

/// `toolmem` in the directory of this program: cargo writes every binary of a workspace and
/// profile to one directory, and `cargo xtask bench` builds `toolmem` there first.
fn next_to_this_program() -> Result<PathBuf> {
    let this = std::env::current_exe().context("finding this program")?;
    let server = this.with_file_name(format!("toolmem{}", std::env::consts::EXE_SUFFIX));
    anyhow::ensure!(
        server.is_file(),
        "no toolmem executable at {}: build it (cargo build --release -p toolmem), name one \
         with --server, or skip the rows that need it (--no-rpc --no-rss)",
        server.display()
    );
    Ok(server)
}
