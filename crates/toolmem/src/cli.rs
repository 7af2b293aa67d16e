//! Command-line parsing and the subcommands. Every command opens the database through the
//! facade; `--json` switches any output from tables to JSON.

use std::io::Read;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use active_memory_client::{
    ActiveMemoryClient, Decision, ImportOptions, Origin, RawJson, RulePut, ToolMemoryPriority,
    ToolMemoryRule, ToolMemorySource, TurnRecord, preview_capture,
};
use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use memory_rpc::{RpcHandler, RpcLimits};

use crate::db_path::{Database, Footprint, PostgresSettings};
use crate::output::{out, outln};
use crate::{hook, install, limits, mcp, output, serve};

/// Durable, tool-scoped rules for LLM agents.
#[derive(Debug, Parser)]
#[command(name = "toolmem", version, about)]
pub(crate) struct Args {
    #[command(flatten)]
    globals: Globals,
    #[command(subcommand)]
    command: Command,
}

/// `toolmem [OPTIONS] hook AGENT` and `toolmem [OPTIONS] check TOOL [ARGS]` alone: the lines
/// run once per tool call (an agent's hook, a script's check). clap builds every argument of
/// every subcommand before it parses a word, and a tenth of a hook's instructions went to the
/// parts of the command line it never uses. The options and arguments are the same types as
/// the full parser's ([`Globals`], [`CheckArgs`]), so a line this parser takes means the same
/// to both.
#[derive(Debug, Parser)]
#[command(name = "toolmem")]
struct CallLine {
    #[command(flatten)]
    globals: Globals,
    #[command(subcommand)]
    command: CallCommand,
}

#[derive(Debug, Subcommand)]
enum CallCommand {
    Hook {
        #[arg(value_enum)]
        agent: hook::Agent,
    },
    Check(CheckArgs),
}

/// `toolmem check`'s arguments.
#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// The tool about to be called.
    tool: String,
    /// The call's arguments as JSON.
    #[arg(default_value = "{}")]
    arguments: String,
}

impl Args {
    /// The command line of this process: a hook's or a check's through [`CallLine`], anything
    /// else (help, every error, `hook` or `check` as a word elsewhere on the line) through the
    /// full parser.
    pub(crate) fn parse_command_line() -> Result<Args, clap::Error> {
        Args::parse_line(std::env::args_os().collect())
    }

    fn parse_line(line: Vec<std::ffi::OsString>) -> Result<Args, clap::Error> {
        if line
            .iter()
            .skip(1)
            .any(|arg| arg == "hook" || arg == "check")
            && let Ok(CallLine { globals, command }) = CallLine::try_parse_from(&line)
        {
            let command = match command {
                CallCommand::Hook { agent } => Command::Hook { agent },
                CallCommand::Check(check) => Command::Check(check),
            };
            return Ok(Args { globals, command });
        }
        Args::try_parse_from(line)
    }
}

/// The options every command takes.
#[derive(Debug, clap::Args)]
struct Globals {
    /// The SQLite database file, or a PostgreSQL URL (postgres://user:password@host/db) to
    /// share rules between servers [default: the platform data directory, e.g.
    /// ~/.local/share/toolmem/rules.sqlite3]
    #[arg(long, env = "TOOLMEM_DB", global = true, hide_env_values = true)]
    db: Option<PathBuf>,
    /// PostgreSQL only: most connections this process holds open.
    #[arg(
        long,
        env = "TOOLMEM_PG_POOL_SIZE",
        global = true,
        default_value_t = 16
    )]
    pg_pool_size: usize,
    /// PostgreSQL only: seconds to wait for a connection (new or free) before a call fails.
    #[arg(long, env = "TOOLMEM_PG_TIMEOUT", global = true, default_value_t = 5)]
    pg_timeout: u64,
    /// Print JSON instead of human-readable tables.
    #[arg(long, global = true)]
    json: bool,
}

impl Args {
    /// Whether the command serves calls until it is stopped (`serve`, `mcp`), rather than
    /// making one and exiting.
    pub(crate) fn serves(&self) -> bool {
        matches!(self.command, Command::Serve { .. } | Command::Mcp)
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve JSON-RPC over HTTP (POST /rpc, GET /healthz) or over stdin/stdout.
    Serve {
        /// Address to listen on; a non-loopback address requires --token.
        #[arg(long, default_value = "127.0.0.1:7878")]
        addr: SocketAddr,
        /// Serve line-delimited JSON-RPC on stdin/stdout instead of HTTP.
        #[arg(long)]
        stdio: bool,
        /// Bearer token required on every HTTP request.
        #[arg(long, env = "TOOLMEM_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// Largest accepted request body, in bytes.
        #[arg(long, default_value_t = limits::DEFAULT_MAX_BODY)]
        max_body: usize,
        /// Also accept requests from this web origin (e.g. http://localhost:3000); repeat for
        /// several. The server's own origins are always accepted, requests without an Origin
        /// too.
        #[arg(
            long = "allow-origin",
            env = "TOOLMEM_ALLOW_ORIGIN",
            value_delimiter = ','
        )]
        allow_origins: Vec<String>,
        /// Also accept this Host name (`name` or `name:port`), e.g. behind a proxy; repeat for
        /// several. The bound address and localhost are always accepted.
        #[arg(long = "allow-host", env = "TOOLMEM_ALLOW_HOST", value_delimiter = ',')]
        allow_hosts: Vec<String>,
        /// Most open connections [default: 1024, or fewer if the descriptor limit is lower];
        /// when reached, the connection waiting longest for a complete request is closed.
        #[arg(long)]
        max_connections: Option<usize>,
        /// Longest wait for a complete request head, also between requests on a kept-alive
        /// connection (250ms, 10s, 2m).
        #[arg(long, default_value_t = limits::FlagDuration(limits::DEFAULT_HEADER_TIMEOUT))]
        header_timeout: limits::FlagDuration,
        /// Longest wait for the rest of a request body once its head is in.
        #[arg(long, default_value_t = limits::FlagDuration(limits::DEFAULT_BODY_TIMEOUT))]
        body_timeout: limits::FlagDuration,
        /// Most requests on one connection; the last response closes it.
        #[arg(long, default_value_t = limits::DEFAULT_MAX_REQUESTS_PER_CONNECTION)]
        max_requests_per_connection: u64,
        /// Most bytes of reply to one request body (single or batch), over HTTP and stdio;
        /// past it the remaining requests get -32003.
        #[arg(long, default_value_t = memory_rpc::DEFAULT_MAX_RESPONSE_BYTES)]
        max_response: usize,
        /// Most work one request body may do (1 per request, rule returned or tool named);
        /// past it the remaining requests get -32003.
        #[arg(long, default_value_t = memory_rpc::DEFAULT_MAX_BATCH_WORK)]
        max_batch_work: usize,
    },
    /// Add, show, list or remove rules.
    #[command(subcommand)]
    Rule(RuleCommand),
    /// Tools that hold rules, with counts by priority.
    Tools,
    /// Print the pinned block exactly as the model sees it.
    Prompt {
        /// Comma-separated tool names (default: every tool).
        #[arg(long, value_delimiter = ',')]
        tools: Vec<String>,
    },
    /// Run capture on one turn record (JSON on stdin).
    Capture {
        /// Print the proposed changes without storing anything.
        #[arg(long)]
        dry_run: bool,
    },
    /// Keyword search over one tool's rules.
    Recall {
        /// The tool (or its `tool-{name}` namespace).
        tool: String,
        /// Words to look for.
        query: String,
        /// Most rules to return.
        #[arg(long, default_value_t = 10)]
        limit: usize,
    },
    /// Check a proposed tool call against the rules: exit 0 allow, 2 confirm, 3 deny.
    Check(CheckArgs),
    /// A tool's history of changes and guard decisions, newest first.
    History {
        /// The tool.
        tool: String,
        /// Only this rule's history.
        #[arg(long)]
        id: Option<String>,
        /// Most entries to show.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// Only entries older than this sequence number (for paging).
        #[arg(long)]
        before: Option<i64>,
    },
    /// Check the database without changing it: its schema version against this toolmem's,
    /// its integrity, and every stored rule this version cannot read, with how to fix each.
    /// Exit 0 when healthy, 2 when it found a problem.
    Doctor,
    /// Write every rule (revoked ones too) as JSON lines to stdout.
    Export,
    /// Answer one hook event of an agent: its JSON on stdin, its answer on stdout
    /// (docs/integrations.md). Never fails into "allow": an unreadable database or malformed
    /// input is refused in the agent's own terms.
    Hook {
        /// The agent whose hook this is.
        #[arg(value_enum)]
        agent: hook::Agent,
    },
    /// Serve the Model Context Protocol on stdin/stdout: tools to check calls and keep rules,
    /// the `tool_rules` prompt and `toolmem://rules/{tool}` resources (docs/integrations.md).
    Mcp,
    /// Write the agent's settings so that it runs `toolmem hook AGENT` before every tool call,
    /// on every prompt and at every session start, and its MCP configuration so that it starts
    /// `toolmem mcp`. Idempotent; other settings and their order are kept, and the previous
    /// file is backed up to `<file>.toolmem-backup`.
    Install(InstallArgs),
    /// Remove exactly the hook entries and the MCP server `toolmem install` added.
    Uninstall(InstallArgs),
    /// Read JSON lines of rules (an export of toolmem or openhuman) and store them, with a
    /// report of what each line did. A line that would weaken a stored rule is refused; an
    /// identical line changes nothing. Exits 1 when a line was refused or is not a rule.
    Import {
        /// The file to read; `-` or nothing reads stdin.
        file: Option<PathBuf>,
        /// Also write lines that weaken a stored rule (lower its priority, revoke, unconfirm
        /// or expire it, an older copy, a looser constraint).
        #[arg(long)]
        allow_weaken: bool,
        /// Report what each line would do without writing anything.
        #[arg(long)]
        dry_run: bool,
    },
}

#[derive(Debug, clap::Args)]
struct InstallArgs {
    /// The agent.
    #[arg(value_enum)]
    agent: hook::Agent,
    /// The user's own settings, under the home directory (the default).
    #[arg(long, conflicts_with = "project")]
    user: bool,
    /// This project's settings, under the current directory.
    #[arg(long)]
    project: bool,
    /// Print the change as a diff and write nothing.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Debug, Subcommand)]
enum RuleCommand {
    /// Add a rule (or update one with --id).
    Add {
        /// The tool the rule applies to.
        tool: String,
        /// The rule text.
        rule: String,
        /// critical, high or normal [default: normal, or the stored value with --id].
        #[arg(long)]
        priority: Option<String>,
        /// user_explicit, post_turn or programmatic [default: user_explicit: a person typed it].
        #[arg(long)]
        source: Option<String>,
        /// A tag; repeat for several.
        #[arg(long = "tag")]
        tags: Vec<String>,
        /// Upsert this id instead of creating a new rule.
        #[arg(long)]
        id: Option<String>,
        /// The enforcement constraint as JSON (docs/guard.md) instead of the derived one.
        #[arg(long)]
        constraint: Option<String>,
    },
    /// Show one rule.
    Get { tool: String, id: String },
    /// List a tool's rules.
    List {
        tool: String,
        /// Also list revoked rules, marked.
        #[arg(long)]
        include_revoked: bool,
    },
    /// Remove a rule (its history stays).
    Rm { tool: String, id: String },
    /// Lift a rule without deleting it: it leaves the prompt and the guard, and stays in
    /// history.
    Revoke { tool: String, id: String },
    /// Reinstate a revoked rule.
    Restore { tool: String, id: String },
    /// Confirm a captured edict that awaits confirmation.
    Confirm { tool: String, id: String },
}

pub(crate) async fn run(args: Args) -> Result<ExitCode> {
    let json = args.globals.json;
    let footprint = if args.serves() {
        Footprint::Server
    } else {
        Footprint::OneShot
    };
    if let Command::Capture { dry_run: true } = args.command {
        // A dry run needs no database at all.
        let turn = read_turn()?;
        let proposed = preview_capture(&turn);
        output::print_json(&proposed)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Command::Hook { agent } = args.command {
        // Opened only for an event that needs it, and any failure to open is the hook's to
        // answer (it fails closed), never an error exit that an agent would read as "allow".
        let open = || async move {
            let db = Database::resolve(args.globals.db)?;
            let postgres = PostgresSettings {
                pool_size: args.globals.pg_pool_size,
                timeout: std::time::Duration::from_secs(args.globals.pg_timeout),
            };
            db.open(postgres, Footprint::OneShot).await
        };
        return Ok(hook::run(agent, open).await);
    }
    if let Command::Install(install) | Command::Uninstall(install) = &args.command {
        let remove = matches!(args.command, Command::Uninstall(_));
        return install_command(install, remove, args.globals.db.as_deref());
    }
    let db = Database::resolve(args.globals.db)?;
    let postgres = PostgresSettings {
        pool_size: args.globals.pg_pool_size,
        timeout: std::time::Duration::from_secs(args.globals.pg_timeout),
    };
    if let Command::Doctor = args.command {
        // Before the database is opened: opening migrates it, and may create it.
        return crate::doctor::run(&db, json, postgres).await;
    }
    let client = db.open(postgres, footprint).await?;
    match args.command {
        Command::Serve {
            addr,
            stdio,
            token,
            max_body,
            allow_origins,
            allow_hosts,
            max_connections,
            header_timeout,
            body_timeout,
            max_requests_per_connection,
            max_response,
            max_batch_work,
        } => {
            let rpc = RpcHandler::new(client).with_limits(
                RpcLimits::default()
                    .with_max_response_bytes(max_response)
                    .with_max_batch_work(max_batch_work),
            );
            if stdio {
                serve::stdio(rpc).await?;
            } else {
                let options = serve::HttpOptions {
                    token,
                    allow: serve::AllowList::parse(&allow_hosts, &allow_origins)?,
                    limits: limits::HttpLimits {
                        max_body,
                        max_connections,
                        header_timeout: header_timeout.0,
                        body_timeout: body_timeout.0,
                        max_requests_per_connection,
                    },
                };
                eprintln!("toolmem: database {}", db.describe());
                serve::http(rpc, addr, options).await?;
            }
        }
        Command::Mcp => mcp::run(client).await?,
        Command::Rule(command) => return rule(&client, command, json).await,
        Command::Tools => {
            // One grouped count in the store, not a listing of every rule of every tool.
            let rows: Vec<output::ToolCount> = client
                .tool_counts()
                .await?
                .into_iter()
                .map(output::ToolCount::new)
                .collect();
            output::tools(&rows, json)?;
        }
        Command::Prompt { tools } => {
            let prompt = client.rules_for_prompt(&tools).await?;
            if json {
                output::print_json(&prompt)?;
            } else {
                // Exactly the bytes the model sees, final newline included.
                out!("{}", prompt.rendered)?;
                if !prompt.left_out.is_empty() || prompt.critical_over_budget {
                    eprintln!(
                        "note: {} rule(s) left out of the block; critical rules over budget: {}",
                        prompt.left_out.len(),
                        prompt.critical_over_budget
                    );
                }
            }
        }
        Command::Capture { dry_run: _ } => {
            let report = client.after_turn(&read_turn()?).await?;
            if json {
                output::print_json(&report)?;
            } else {
                outln!(
                    "created {}, refreshed {}, changed {}",
                    report.created.len(),
                    report.refreshed.len(),
                    report.changed.len()
                )?;
                let touched: Vec<ToolMemoryRule> =
                    [report.created, report.refreshed, report.changed].concat();
                output::rules(&touched, false)?;
            }
        }
        Command::Recall { tool, query, limit } => {
            output::rules(&client.recall(&tool, &query, limit).await?, json)?;
        }
        Command::Check(CheckArgs { tool, arguments }) => {
            let arguments: serde_json::Value =
                serde_json::from_str(&arguments).context("the arguments are not JSON")?;
            let verdict = client.check(&tool, &arguments).await?;
            // Like a hook, a check is a call and exit, often from a script's loop.
            client.close_for_exit();
            output::verdict(&verdict, json)?;
            return Ok(ExitCode::from(match verdict.decision {
                Decision::Allow => 0,
                Decision::Confirm => 2,
                Decision::Deny => 3,
            }));
        }
        Command::History {
            tool,
            id,
            limit,
            before,
        } => {
            let history = client.history(&tool, id.as_deref(), limit, before).await?;
            output::history(&history, json)?;
        }
        Command::Export => {
            for rule in client.export().await? {
                outln!("{}", rule.to_compact_json())?;
            }
        }
        Command::Doctor | Command::Hook { .. } | Command::Install(_) | Command::Uninstall(_) => {
            unreachable!("handled before the database is opened")
        }
        Command::Import {
            file,
            allow_weaken,
            dry_run,
        } => {
            let text = match file.as_deref() {
                Some(path) if path != std::path::Path::new("-") => std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?,
                _ => {
                    let mut text = String::new();
                    std::io::stdin()
                        .read_to_string(&mut text)
                        .context("reading the rules from stdin")?;
                    text
                }
            };
            let options = ImportOptions {
                allow_weaken,
                dry_run,
            };
            let report = client.import_lines(&text, options, &Origin::Cli).await?;
            output::import(&report, json)?;
            if !report.is_clean() {
                return Ok(ExitCode::FAILURE);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `toolmem install` and `uninstall`: the agent's settings file, changed or shown as a diff.
fn install_command(
    args: &InstallArgs,
    remove: bool,
    db: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let scope = if args.project {
        install::Scope::Project
    } else {
        install::Scope::User
    };
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|home| home.is_absolute())
        .context("HOME is not set to an absolute path; use --project, or set HOME")?;
    let project = std::env::current_dir().context("reading the current directory")?;
    let settings = install::settings_file(args.agent, scope, &home, &project);
    let mcp_config = install::mcp_file(args.agent, scope, &home, &project);
    let changes = if remove {
        install::apply(args.agent, &settings, &mcp_config, None, args.dry_run)?
    } else {
        let program = std::env::current_exe().context("finding the toolmem program")?;
        // A relative --db would resolve against wherever the agent runs the hook. A
        // PostgreSQL URL is never written into a settings file: it may carry a password.
        let db = db
            .filter(|db| !active_memory_client::is_postgres_url(&db.to_string_lossy()))
            .map(std::path::absolute)
            .transpose()
            .context("resolving --db")?;
        let setup = install::Setup {
            program: &program,
            db: db.as_deref(),
        };
        install::apply(
            args.agent,
            &settings,
            &mcp_config,
            Some(setup),
            args.dry_run,
        )?
    };
    for (path, change) in changes {
        show_change(&path, &change, remove, args.dry_run)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What install or uninstall did to one file, or would do on a dry run.
fn show_change(
    path: &std::path::Path,
    change: &install::Change,
    remove: bool,
    dry_run: bool,
) -> Result<()> {
    let shown = output::terminal_safe(&path.display().to_string()).into_owned();
    if !change.changed() {
        outln!("{shown}: already up to date, nothing changed")?;
    } else if dry_run {
        outln!("--- {shown}\n+++ {shown} (after)")?;
        let diff = install::diff(
            change.before.as_deref().unwrap_or_default(),
            change.after.as_deref().unwrap_or_default(),
        );
        for line in diff.lines() {
            outln!("{}", output::terminal_safe(line))?;
        }
        outln!("(dry run: nothing written)")?;
    } else {
        let backup = match change.before {
            Some(_) => format!(
                "; the previous file is {}",
                output::terminal_safe(&install::backup_path(path).display().to_string())
            ),
            None => String::new(),
        };
        let verb = if remove {
            "removed toolmem's entries from"
        } else {
            "installed toolmem's entries in"
        };
        outln!("{verb} {shown}{backup}")?;
    }
    Ok(())
}

async fn rule(client: &ActiveMemoryClient, command: RuleCommand, json: bool) -> Result<ExitCode> {
    match command {
        RuleCommand::Add {
            tool,
            rule,
            priority,
            source,
            tags,
            id,
            constraint,
        } => {
            let mut put = RulePut::new(tool, rule);
            put.priority = priority
                .as_deref()
                .map(str::parse::<ToolMemoryPriority>)
                .transpose()?;
            put.source = Some(match source.as_deref() {
                Some(text) => text.parse::<ToolMemorySource>()?,
                None => ToolMemorySource::UserExplicit,
            });
            if !tags.is_empty() {
                put.tags = Some(tags);
            }
            put.id = id;
            put.origin = Origin::Cli;
            put.constraint = constraint
                .as_deref()
                .map(serde_json::from_str)
                .transpose()
                .context("--constraint is not JSON")?
                .map(|value| RawJson::from_value(&value));
            output::rule(&client.put(put).await?, json)?;
        }
        RuleCommand::Get { tool, id } => match client.get(&tool, &id).await? {
            Some(rule) => output::rule(&rule, json)?,
            None => bail!("no rule {id} on tool {tool}"),
        },
        RuleCommand::List {
            tool,
            include_revoked,
        } => {
            let rules = if include_revoked {
                client.list_including_revoked(&tool).await?
            } else {
                client.list(&tool).await?
            };
            output::rules(&rules, json)?;
        }
        RuleCommand::Revoke { tool, id } => match client.revoke(&tool, &id, &Origin::Cli).await? {
            Some(rule) => output::rule(&rule, json)?,
            None => bail!("no rule {id} on tool {tool}"),
        },
        RuleCommand::Restore { tool, id } => {
            match client.restore(&tool, &id, &Origin::Cli).await? {
                Some(rule) => output::rule(&rule, json)?,
                None => bail!("no rule {id} on tool {tool}"),
            }
        }
        RuleCommand::Confirm { tool, id } => {
            match client.confirm(&tool, &id, &Origin::Cli).await? {
                Some(rule) => output::rule(&rule, json)?,
                None => bail!("no rule {id} on tool {tool}"),
            }
        }
        RuleCommand::Rm { tool, id } => {
            let existed = client.delete(&tool, &id, &Origin::Cli).await?;
            if json {
                outln!("{existed}")?;
            } else if existed {
                outln!(
                    "deleted {} from {}",
                    output::terminal_safe(&id),
                    output::terminal_safe(&tool)
                )?;
            } else {
                eprintln!(
                    "no rule {} on tool {}",
                    output::terminal_safe(&id),
                    output::terminal_safe(&tool)
                );
                return Ok(ExitCode::FAILURE);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn read_turn() -> Result<TurnRecord> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .context("reading the turn record from stdin")?;
    serde_json::from_str(&text).context("stdin is not a turn record (see docs/capture.md)")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names people give the agents beside ours reach the same agent, through both parsers.
    #[test]
    fn an_agent_s_other_name_is_the_same_agent() {
        for (name, agent) in [
            ("claude", hook::Agent::ClaudeCode),
            ("gemini-cli", hook::Agent::Gemini),
        ] {
            let line: Vec<std::ffi::OsString> =
                ["toolmem", "hook", name].iter().map(Into::into).collect();
            let parsed = Args::parse_line(line).unwrap();
            assert!(
                matches!(parsed.command, Command::Hook { agent: found } if found == agent),
                "{name}: {:?}",
                parsed.command
            );
        }
    }

    /// The per-call parser reads every line it takes exactly as the full parser does, and
    /// leaves every other line (help, errors, `hook` or `check` as a word elsewhere) to it.
    #[test]
    fn the_per_call_parser_agrees_with_the_full_parser() {
        let lines: &[&[&str]] = &[
            &["toolmem", "hook", "claude-code"],
            &["toolmem", "--db", "/tmp/r.sqlite3", "hook", "codex"],
            &["toolmem", "hook", "--db=/tmp/r.sqlite3", "cursor"],
            &["toolmem", "--json", "--pg-timeout", "3", "hook", "gemini"],
            &["toolmem", "rule", "add", "hook", "never run hooks"],
            &["toolmem", "hook"],
            &["toolmem", "hook", "claud"],
            &["toolmem", "hook", "claude"],
            &["toolmem", "hook", "gemini-cli"],
            &["toolmem", "hook", "claude-code", "extra"],
            &["toolmem", "hook", "--help"],
            &["toolmem", "--pg-pool-size", "x", "hook", "codex"],
            &["toolmem", "check", "Bash", r#"{"command":"ls"}"#],
            &["toolmem", "--json", "check", "send_email"],
            &["toolmem", "check"],
            &["toolmem", "check", "--help"],
            &["toolmem", "rule", "add", "check", "always check twice"],
        ];
        let mut fast_lines = 0;
        for line in lines {
            let line: Vec<std::ffi::OsString> = line.iter().map(Into::into).collect();
            let full = Args::try_parse_from(&line);
            if CallLine::try_parse_from(&line).is_ok() {
                fast_lines += 1;
            }
            match (Args::parse_line(line.clone()), full) {
                (Ok(ours), Ok(full)) => assert_eq!(format!("{ours:?}"), format!("{full:?}")),
                (Err(ours), Err(full)) => assert_eq!(ours.kind(), full.kind(), "{line:?}"),
                (ours, full) => panic!("{line:?}: {ours:?} against {full:?}"),
            }
        }
        assert_eq!(
            fast_lines, 8,
            "the hook and check lines go through their own parser"
        );
    }
}
