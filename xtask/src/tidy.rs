//! Repository hygiene: every Rust file says what it is for, crates depend only along the
//! allowed edges of ARCHITECTURE.md, each database driver is a dependency of its backend crate
//! alone, and no snapshot is pending or orphaned.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Workspace crates each crate may depend on (`[dependencies]` only). Keep in step with the
/// "Allowed dependency edges" table of ARCHITECTURE.md.
const ALLOWED_EDGES: &[(&str, &[&str])] = &[
    ("tool_memory_core", &[]),
    ("tool_memory_store", &["tool_memory_core"]),
    (
        "tool_memory_store_sqlite",
        &["tool_memory_core", "tool_memory_store"],
    ),
    (
        "tool_memory_store_postgres",
        &["tool_memory_core", "tool_memory_store"],
    ),
    ("tool_memory_capture", &["tool_memory_core"]),
    ("tool_memory_prompt", &["tool_memory_core"]),
    ("tool_memory_guard", &["tool_memory_core"]),
    (
        "active_memory_client",
        &[
            "tool_memory_core",
            "tool_memory_store",
            "tool_memory_store_sqlite",
            "tool_memory_store_postgres",
            "tool_memory_capture",
            "tool_memory_prompt",
            "tool_memory_guard",
        ],
    ),
    ("memory_rpc", &["tool_memory_core", "active_memory_client"]),
    (
        "toolmem",
        &["tool_memory_core", "active_memory_client", "memory_rpc"],
    ),
    (
        "toolmem_bench",
        &["tool_memory_core", "active_memory_client"],
    ),
];

/// Database drivers and the only crates whose builds may pull them in: rusqlite and
/// tokio-postgres never meet, and a build without a backend carries none of its driver. The
/// benchmark's bare-SQLite baseline is the one exception. Dev-dependencies do not count: they
/// reach no product build (the `tests` crate opens SQLite files to damage them).
const DRIVERS: &[(&str, &[&str])] = &[
    ("rusqlite", &["tool_memory_store_sqlite", "toolmem_bench"]),
    ("tokio-postgres", &["tool_memory_store_postgres"]),
    ("deadpool-postgres", &["tool_memory_store_postgres"]),
];

pub(crate) fn run(root: &Path) -> Result<()> {
    let mut problems = Vec::new();
    check_module_docs(root, &mut problems)?;
    check_dependency_edges(root, &mut problems)?;
    problems.extend(check_drivers(&manifests(root)?));
    if let Err(err) = check_snapshots(root, None) {
        problems.push(err.to_string());
    }
    if !problems.is_empty() {
        bail!(
            "tidy found {} problem(s):\n  {}",
            problems.len(),
            problems.join("\n  ")
        );
    }
    Ok(())
}

fn rust_files(root: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for top in ["crates", "xtask", "tests"] {
        walk(&root.join(top), &mut |path| {
            if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path.to_owned());
            }
        })?;
    }
    Ok(files)
}

fn walk(dir: &Path, visit: &mut dyn FnMut(&Path)) -> Result<()> {
    if !dir.exists() {
        return Ok(());
    }
    for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        if name == "target" || name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            walk(&path, visit)?;
        } else {
            visit(&path);
        }
    }
    Ok(())
}

fn check_module_docs(root: &Path, problems: &mut Vec<String>) -> Result<()> {
    for file in rust_files(root)? {
        let text = fs::read_to_string(&file)?;
        if !text.starts_with("//!") {
            problems.push(format!(
                "{} does not start with a `//!` line saying what it is for",
                file.strip_prefix(root).unwrap_or(&file).display()
            ));
        }
    }
    Ok(())
}

fn check_dependency_edges(root: &Path, problems: &mut Vec<String>) -> Result<()> {
    let workspace: BTreeSet<&str> = ALLOWED_EDGES.iter().map(|(name, _)| *name).collect();
    for entry in fs::read_dir(root.join("crates"))? {
        let dir = entry?.path();
        let Some(name) = dir
            .file_name()
            .and_then(|name| name.to_str())
            .map(str::to_owned)
        else {
            continue;
        };
        let manifest = fs::read_to_string(dir.join("Cargo.toml"))
            .with_context(|| format!("reading the manifest of {name}"))?;
        let Some((_, allowed)) = ALLOWED_EDGES
            .iter()
            .find(|(crate_name, _)| *crate_name == name)
        else {
            problems.push(format!(
                "crate `{name}` has no row in xtask's ALLOWED_EDGES"
            ));
            continue;
        };
        for dependency in dependencies_section(&manifest) {
            if workspace.contains(dependency.as_str()) && !allowed.contains(&dependency.as_str()) {
                problems.push(format!(
                    "`{name}` depends on `{dependency}`, which ARCHITECTURE.md does not allow"
                ));
            }
        }
    }
    Ok(())
}

/// Every member's manifest under `crates/` and `tests/`, with the member's name (its folder).
fn manifests(root: &Path) -> Result<Vec<(String, String)>> {
    let mut found = Vec::new();
    let mut dirs = vec![root.join("tests")];
    for entry in fs::read_dir(root.join("crates"))? {
        dirs.push(entry?.path());
    }
    for dir in dirs {
        let manifest = dir.join("Cargo.toml");
        if let (Some(name), Ok(text)) = (
            dir.file_name().and_then(|name| name.to_str()),
            fs::read_to_string(&manifest),
        ) {
            found.push((name.to_owned(), text));
        }
    }
    Ok(found)
}

/// A problem for each manifest (crate name, text) that depends on a driver of [`DRIVERS`]
/// it is not listed for, in any table but a dev-dependencies one.
fn check_drivers(manifests: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, manifest) in manifests {
        for dependency in non_dev_dependencies(manifest) {
            if let Some((driver, allowed)) =
                DRIVERS.iter().find(|(driver, _)| *driver == dependency)
                && !allowed.contains(&name.as_str())
            {
                problems.push(format!(
                    "`{name}` depends on `{driver}`, which only {} may (see DRIVERS in xtask/src/tidy.rs)",
                    allowed.join(" and ")
                ));
            }
        }
    }
    problems
}

/// The package names of every dependency table of a manifest except the dev-dependencies ones:
/// `[dependencies]`, `[build-dependencies]`, `[target.'cfg(..)'.dependencies]`, and tables of
/// one dependency (`[dependencies.rusqlite]`).
fn non_dev_dependencies(manifest: &str) -> Vec<String> {
    let mut in_section = false;
    let mut names = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_end_matches(']');
            let (table, single) = match header.rsplit_once("dependencies.") {
                Some((before, name)) => (format!("{before}dependencies"), Some(name)),
                None => (header.to_owned(), None),
            };
            let dependencies =
                table.ends_with("dependencies") && !table.ends_with("dev-dependencies");
            in_section = dependencies && single.is_none();
            if dependencies && let Some(name) = single {
                names.push(name.trim_matches('"').to_owned());
            }
            continue;
        }
        if in_section
            && !line.is_empty()
            && !line.starts_with('#')
            && let Some(name) = line.split(['.', '=', ' ']).next()
        {
            names.push(name.trim().to_owned());
        }
    }
    names
}

/// The package names in a manifest's `[dependencies]` table (not dev- or build-).
fn dependencies_section(manifest: &str) -> Vec<String> {
    let mut in_section = false;
    let mut names = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_section = line == "[dependencies]";
            continue;
        }
        if in_section
            && !line.is_empty()
            && !line.starts_with('#')
            && let Some(name) = line.split(['.', '=', ' ']).next()
        {
            names.push(name.trim().to_owned());
        }
    }
    names
}

pub(crate) fn pending_snapshots(root: &Path) -> Result<Vec<PathBuf>> {
    let mut pending = Vec::new();
    for top in ["crates", "tests"] {
        walk(&root.join(top), &mut |path| {
            let name = path.to_string_lossy();
            if name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
                pending.push(path.to_owned());
            }
        })?;
    }
    Ok(pending)
}

/// Fails on pending snapshots, and, given insta's reference file from a full test run, on
/// committed snapshots that no test touched.
pub(crate) fn check_snapshots(root: &Path, references: Option<&Path>) -> Result<()> {
    let pending = pending_snapshots(root)?;
    if !pending.is_empty() {
        bail!("pending snapshots must be reviewed: {pending:?}");
    }
    let Some(references) = references else {
        return Ok(());
    };
    let touched: BTreeSet<PathBuf> = fs::read_to_string(references)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| fs::canonicalize(line).ok())
        .collect();
    let mut orphaned = Vec::new();
    for top in ["crates", "tests"] {
        walk(&root.join(top), &mut |path| {
            if path.extension().is_some_and(|ext| ext == "snap") {
                let canonical = fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
                if !touched.contains(&canonical) {
                    orphaned.push(path.to_owned());
                }
            }
        })?;
    }
    if !orphaned.is_empty() {
        bail!("orphaned snapshots (no test uses them; delete them): {orphaned:?}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_is_tidy() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        run(root).unwrap();
    }

    /// A driver outside its crate is found in every non-dev table form, and allowed in its
    /// own crate and in dev-dependencies.
    #[test]
    fn a_driver_outside_its_backend_crate_is_a_problem() {
        let manifest = |name: &str, text: &str| (name.to_owned(), text.to_owned());
        let problems = check_drivers(&[
            manifest(
                "tool_memory_store",
                "[dependencies]\nrusqlite.workspace = true\n",
            ),
            manifest(
                "active_memory_client",
                "[target.'cfg(unix)'.dependencies]\ntokio-postgres = \"0.7\"\n",
            ),
            manifest(
                "toolmem",
                "[dependencies.deadpool-postgres]\nversion = \"0.14\"\n",
            ),
            manifest(
                "tool_memory_store_sqlite",
                "[dependencies]\nrusqlite.workspace = true\n",
            ),
            manifest("tests", "[dev-dependencies]\nrusqlite.workspace = true\n"),
            manifest(
                "tool_memory_store_postgres",
                "[dependencies]\ntokio-postgres = \"0.7\"\n",
            ),
        ]);
        assert_eq!(problems.len(), 3, "{problems:#?}");
        assert!(problems[0].starts_with("`tool_memory_store` depends on `rusqlite`"));
        assert!(problems[1].starts_with("`active_memory_client` depends on `tokio-postgres`"));
        assert!(problems[2].starts_with("`toolmem` depends on `deadpool-postgres`"));
    }

    #[test]
    fn reads_only_the_dependencies_table() {
        let manifest = "[package]\nname = \"x\"\n[dependencies]\ntool_memory_core.workspace = true\nserde = \"1\"\n[dev-dependencies]\ntool_memory_store.workspace = true\n";
        assert_eq!(
            dependencies_section(manifest),
            ["tool_memory_core", "serde"]
        );
    }
}
