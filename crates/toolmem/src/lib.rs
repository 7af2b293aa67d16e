//! The `toolmem` program as a library: [`main`] is the whole binary, so the end-to-end tests
//! can start the very same entry point as an OS process. `toolmem serve` runs the JSON-RPC
//! server (HTTP or stdio); the other subcommands are the command line for people. Both speak to
//! the facade alone.

pub mod bench;
mod bench_pg;
mod cli;
mod db_path;
mod output;
mod serve;

use std::process::ExitCode;

use clap::Parser;

/// Parses the command line, runs the command and returns the process exit code.
pub fn main() -> ExitCode {
    // Usage errors exit 64 (EX_USAGE), not clap's 2: `toolmem check` uses 2 for "confirm", and
    // a mistyped check must never read as a verdict.
    let args = match cli::Args::try_parse() {
        Ok(args) => args,
        Err(err) if err.use_stderr() => {
            let _ = err.print();
            return ExitCode::from(64);
        }
        Err(err) => {
            // --help and --version.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
    };
    // Logs go to stderr in every mode: in stdio mode stdout carries JSON-RPC only.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TOOLMEM_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: could not start the async runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(cli::run(args)) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
