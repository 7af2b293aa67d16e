//! Project automation, run as `cargo xtask <verb>`: what CI runs, the regression corpora,
//! benchmarks, snapshot review and tidy checks. Needs nothing but cargo.

mod pg;
mod tidy;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, Result, bail};

const HELP: &str = "\
cargo xtask <verb>

verbs:
  ci        exactly what CI runs: fmt check, clippy -D warnings, tests (snapshot
            mismatches fail), orphaned/pending snapshot check, tidy
  regress   the labelled corpora and end-to-end scenarios, with their metrics
  adversarial
            only the adversarial suite (tests/it/adversarial: hostile web pages,
            clients, rows, imports and text), which `ci` also runs
  bench     the standard benchmark workload (see docs/performance.md)
  pg        start|stop|status a throwaway PostgreSQL cluster on loopback; `start`
            prints its URL (for TOOLMEM_TEST_PG_URL; see docs/deploy.md)
  review    list pending snapshots (uses cargo-insta when it is installed)
  tidy      repository hygiene checks (also run as a test)
";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("regress") => regress(&args[1..]),
        Some("adversarial") => adversarial(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("pg") => pg::run(&project_root(), &args[1..]),
        Some("review") => review(),
        Some("tidy") => tidy::run(&project_root()).map(|()| println!("tidy: ok")),
        Some("help" | "-h" | "--help") | None => {
            print!("{HELP}");
            Ok(())
        }
        Some(other) => Err(anyhow::anyhow!("unknown verb `{other}`\n\n{HELP}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_owned()
}

fn cargo() -> Command {
    let mut command = Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(project_root());
    command
}

fn run(mut command: Command) -> Result<()> {
    eprintln!("$ {command:?}");
    let status = command
        .status()
        .with_context(|| format!("could not start {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed with {status}");
    }
    Ok(())
}

fn ci() -> Result<()> {
    let root = project_root();
    tidy::run(&root)?;
    let mut fmt = cargo();
    fmt.args(["fmt", "--all", "--", "--check"]);
    run(fmt)?;
    let mut clippy = cargo();
    clippy.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]);
    run(clippy)?;
    // Each backend is a cargo feature: a PostgreSQL-only server must build, with no SQLite in
    // it (the tidy check on manifests keeps rusqlite out of the other crates).
    let mut postgres_only = cargo();
    postgres_only.args([
        "clippy",
        "-p",
        "toolmem",
        "--no-default-features",
        "--features",
        "postgres",
        "--",
        "-D",
        "warnings",
    ]);
    run(postgres_only)?;

    // insta records every snapshot a test touches in this file; a `.snap` that no test
    // touched is orphaned. `CI=true` makes a missing or changed snapshot fail the test.
    let references = root.join("target").join("insta-references.txt");
    std::fs::create_dir_all(root.join("target"))?;
    let _ = std::fs::remove_file(&references);
    let mut test = cargo();
    test.args(["test", "--workspace"])
        .env("CI", "true")
        .env("INSTA_UPDATE", "no")
        .env("INSTA_SNAPSHOT_REFERENCES_FILE", &references);
    // The PostgreSQL tests run when TOOLMEM_TEST_PG_URL names a database (`.ci/run` starts
    // one; locally `cargo xtask pg start`). `CI` is set above for insta, so say whether the
    // caller really is CI: there a missing database fails those tests, here they skip.
    if env::var_os("CI").is_none() {
        test.env("TOOLMEM_TEST_PG_OPTIONAL", "1");
    }
    match env::var("TOOLMEM_TEST_PG_URL") {
        Ok(url) if !url.trim().is_empty() => eprintln!("xtask ci: PostgreSQL tests enabled"),
        _ => eprintln!(
            "xtask ci: TOOLMEM_TEST_PG_URL is not set; the PostgreSQL tests {}",
            if env::var_os("CI").is_none() {
                "will skip (`cargo xtask pg start` prints a URL)"
            } else {
                "will fail"
            }
        ),
    }
    run(test)?;
    tidy::check_snapshots(&root, Some(&references))?;
    println!("xtask ci: ok");
    Ok(())
}

fn regress(args: &[String]) -> Result<()> {
    // Each corpus is an ordinary test that prints its metrics and fails below its bar, so the
    // test suite and this command can never disagree.
    let suites: &[(&str, &[&str])] = &[
        (
            "capture corpus (edicts, attribution, revocations)",
            &["-p", "tool_memory_capture", "--test", "it", "corpus"],
        ),
        (
            "capture on real instruction text (CLAUDE.md, AGENTS.md, rules files, turns)",
            &["-p", "tool_memory_capture", "--test", "it", "real_text"],
        ),
        (
            "guard corpus",
            &["-p", "tool_memory_guard", "--test", "it", "corpus"],
        ),
        (
            "guard on real instruction text (CLAUDE.md, AGENTS.md, GEMINI.md, .cursor/rules)",
            &["-p", "tool_memory_guard", "--test", "it", "real_text"],
        ),
        (
            "the shared real-text corpus (tests/fixtures/real_text) through the facade",
            &["-p", "tests", "--test", "it", "real_text"],
        ),
        (
            "never email Sarah, in-process through the facade",
            &["-p", "active_memory_client", "--test", "it", "sarah"],
        ),
        (
            "never email Sarah, over HTTP across a server restart",
            &["-p", "tests", "--test", "it", "server::never_email_sarah"],
        ),
        (
            "Sarah lifted in session 2, gone in session 3, with history",
            &["-p", "tests", "--test", "it", "server::sarah_lifted"],
        ),
        (
            "lifecycle through the facade",
            &["-p", "active_memory_client", "--test", "it", "lifecycle"],
        ),
    ];
    for (name, selector) in suites {
        eprintln!("== {name}");
        let mut test = cargo();
        test.arg("test")
            .args(*selector)
            .args(["--", "--nocapture"])
            .args(args);
        run(test)?;
    }
    Ok(())
}

fn adversarial(args: &[String]) -> Result<()> {
    let mut test = cargo();
    test.args(["test", "-p", "tests", "--test", "it", "adversarial::"])
        .args(["--", "--nocapture"])
        .args(args);
    run(test)
}

fn bench(args: &[String]) -> Result<()> {
    // Release mode, and the server the HTTP and memory rows talk to is the real `toolmem`,
    // built first on its own (as it ships, with no feature of the bench's unified into it):
    // `toolmem_bench` finds it next to itself, where cargo writes both.
    let mut server = cargo();
    server.args(["build", "--release", "--quiet", "-p", "toolmem"]);
    run(server)?;
    let mut bench = cargo();
    bench
        .args(["run", "--release", "--quiet", "-p", "toolmem_bench", "--"])
        .args(args);
    run(bench)
}

fn review() -> Result<()> {
    let has_cargo_insta = cargo()
        .args(["insta", "--version"])
        .output()
        .map(|output| output.status.success())
        .unwrap_or(false);
    if has_cargo_insta {
        let mut review = cargo();
        review.args(["insta", "review"]);
        return run(review);
    }
    let pending = tidy::pending_snapshots(&project_root())?;
    if pending.is_empty() {
        println!("no pending snapshots");
    } else {
        println!("pending snapshots (cargo-insta is not installed; compare each with its .snap,");
        println!("then move it over the .snap to accept or delete it to reject):");
        for path in pending {
            println!("  {}", path.display());
        }
    }
    Ok(())
}
