//! A writer process for the multi-process store tests: it upserts rules into one SQLite file
//! and prints one line per acknowledged write, so the parent knows exactly what was promised.
//!
//! Usage:
//!   store_writer shared DB WRITER ROUNDS   upsert ten shared ids and one own id per round
//!   store_writer stream DB WRITER          insert rules until killed
//!   store_writer churn DB WRITER ROUNDS    per round: put an own rule and a shared one, revoke,
//!                                          restore or delete an earlier own rule, read it back

use std::io::Write;

use anyhow::{Context, Result, bail};
use tool_memory_core::{Origin, RulePut, ToolMemoryPriority};
use tool_memory_store::RuleStore;
use tool_memory_store_sqlite::{SqliteOptions, SqliteRuleStore};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, db, writer, rest @ ..] = args.as_slice() else {
        bail!("usage: store_writer shared|stream DB WRITER [ROUNDS]");
    };
    let store = SqliteRuleStore::open(db, SqliteOptions::default())?;
    let mut stdout = std::io::stdout().lock();
    match mode.as_str() {
        "shared" => {
            let rounds: usize = rest.first().context("ROUNDS")?.parse()?;
            for round in 0..rounds {
                for shared in 0..10 {
                    let stored = store
                        .put(
                            RulePut::new("send_email", format!("writer {writer} round {round}"))
                                .with_id(format!("shared-{shared}"))
                                .with_priority(ToolMemoryPriority::Critical),
                        )
                        .await?;
                    writeln!(stdout, "shared {} {}", stored.id, stored.created_at)?;
                }
                let own = store
                    .put(
                        RulePut::new("send_email", "own rule").with_id(format!("{writer}-{round}")),
                    )
                    .await?;
                writeln!(stdout, "own {}", own.id)?;
            }
        }
        "stream" => {
            for index in 0..1_000_000 {
                let stored = store
                    .put(
                        RulePut::new("bash", format!("rule {index}"))
                            .with_id(format!("{writer}-{index}")),
                    )
                    .await?;
                // The line goes out only after `put` returned: an acknowledgement.
                writeln!(stdout, "ack {}", stored.id)?;
                stdout.flush()?;
            }
        }
        "churn" => {
            let rounds: usize = rest.first().context("ROUNDS")?.parse()?;
            let origin = Origin::default();
            for round in 0..rounds {
                let own = format!("{writer}-{round}");
                store
                    .put(RulePut::new("bash", format!("own {round}")).with_id(&own))
                    .await?;
                writeln!(stdout, "put {own}")?;
                stdout.flush()?;
                let shared = store
                    .put(
                        RulePut::new("browser", format!("writer {writer} round {round}"))
                            .with_id(format!("shared-{}", round % 10)),
                    )
                    .await?;
                writeln!(stdout, "shared {} {}", shared.id, shared.created_at)?;
                stdout.flush()?;
                // Each own rule is touched by its writer only, so every step below changes it
                // and must leave exactly one history line.
                if round % 3 == 1 {
                    let id = format!("{writer}-{}", round - 1);
                    store
                        .revoke("bash", &id, &origin)
                        .await?
                        .context("revoke")?;
                    writeln!(stdout, "revoke {id}")?;
                } else if round % 3 == 2 {
                    let id = format!("{writer}-{}", round - 2);
                    store
                        .restore("bash", &id, &origin)
                        .await?
                        .context("restore")?;
                    writeln!(stdout, "restore {id}")?;
                }
                stdout.flush()?;
                if round % 4 == 3 {
                    let id = format!("{writer}-{}", round - 3);
                    if !store.delete("bash", &id, &origin).await? {
                        bail!("{id} vanished before its delete");
                    }
                    writeln!(stdout, "delete {id}")?;
                    stdout.flush()?;
                }
                // Read your own writes, through a reader connection.
                if store.get("bash", &own).await?.is_none() {
                    bail!("{own} not readable after its put");
                }
            }
        }
        other => bail!("unknown mode {other}"),
    }
    Ok(())
}
