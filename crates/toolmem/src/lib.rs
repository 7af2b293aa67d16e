//! The `toolmem` program as a library: [`main`] is the whole binary, so the end-to-end tests
//! can start the very same entry point as an OS process. `toolmem serve` runs the JSON-RPC
//! server (HTTP or stdio); the other subcommands are the command line for people. Both speak to
//! the facade alone.

mod cli;
mod db_path;
mod doctor;
mod hook;
mod install;
mod limits;
mod mcp;
mod output;
mod process_limits;
mod serve;

use std::process::ExitCode;

/// Parses the command line, runs the command and returns the process exit code.
pub fn main() -> ExitCode {
    // Usage errors exit 64 (EX_USAGE), not clap's 2: `toolmem check` uses 2 for "confirm", and
    // a mistyped check must never read as a verdict.
    let args = match cli::Args::parse_command_line() {
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
    // A server serves many calls at once, on every core. Any other command is one call and
    // exit, often many times a minute (an agent runs `toolmem hook` before every tool call):
    // worker threads would only be started, parked and joined, so it runs on this thread.
    let mut builder = if args.serves() {
        tokio::runtime::Builder::new_multi_thread()
    } else {
        tokio::runtime::Builder::new_current_thread()
    };
    let runtime = match builder.enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: could not start the async runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    // One place for every command: a write past the file-size limit fails like a full disk
    // instead of killing the process.
    runtime.block_on(async { process_limits::survive_file_size_limit() });
    match runtime.block_on(cli::run(args)) {
        Ok(code) => code,
        // The reader of stdout went away (`toolmem export | head -1`): nothing is left to say
        // to anyone, so end quietly, as a program killed by SIGPIPE does (128 + 13). Never 0:
        // a `check` whose verdict was not delivered must not read as "allow".
        Err(err) if err.is::<output::ReaderGone>() => ExitCode::from(BROKEN_PIPE_EXIT),
        Err(err) => {
            // The error may quote what a rule's writer put in it.
            eprintln!("error: {}", output::terminal_safe(&error_chain(&err)));
            ExitCode::FAILURE
        }
    }
}

/// The exit status of a command whose output's reader went away: what a shell reports for a
/// program SIGPIPE killed.
const BROKEN_PIPE_EXIT: u8 = 141;

/// The error and its causes on one line, like anyhow's `{:#}`, but without a cause that the
/// message before it already ends with: the storage errors include their cause in their own
/// message.
fn error_chain(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

#[cfg(test)]
mod tests {
    /// A storage error as the store crates write them: its message includes its cause, and it
    /// also exposes the cause as its source.
    #[derive(Debug)]
    struct WithCause(std::io::Error);

    impl std::fmt::Display for WithCause {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "sqlite write rule: {}", self.0)
        }
    }

    impl std::error::Error for WithCause {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn error_chain_names_each_cause_once() {
        let err = anyhow::Error::new(WithCause(std::io::Error::other("disk full")))
            .context("opening rules.sqlite3");
        assert_eq!(
            super::error_chain(&err),
            "opening rules.sqlite3: sqlite write rule: disk full"
        );
        let err = anyhow::anyhow!("disk full").context("write rule");
        assert_eq!(super::error_chain(&err), "write rule: disk full");
        // A cause is dropped only when it repeats the end of the line, not when it merely
        // occurs in it.
        let err = anyhow::anyhow!("rule").context("could not write rule 7");
        assert_eq!(super::error_chain(&err), "could not write rule 7: rule");
    }
}
