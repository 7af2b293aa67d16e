//! The MCP half of `toolmem install`: the entry that registers `toolmem mcp` as a server named
//! `toolmem` in the agent's MCP configuration (a JSON `mcpServers` object, or Codex's TOML
//! `[mcp_servers.toolmem]` table), and its removal. An entry is toolmem's when its command is a
//! program named `toolmem…` and its arguments include `mcp`; a `toolmem` server of the user's
//! own is never overwritten.

use std::path::Path;

use anyhow::{Result, bail};
use serde_json::{Map, Value, json};

use super::Scope;
use crate::hook::Agent;

/// The server's name in every agent's configuration; Claude Code calls its tools
/// `mcp__toolmem__check_call` and so on.
const SERVER: &str = "toolmem";

/// Where the agent reads its MCP servers at `scope`, relative to the home or project directory.
pub(crate) fn config_path(agent: Agent, scope: Scope) -> &'static str {
    match (agent, scope) {
        (Agent::ClaudeCode, Scope::User) => ".claude.json",
        (Agent::ClaudeCode, Scope::Project) => ".mcp.json",
        (Agent::Codex, _) => ".codex/config.toml",
        (Agent::Gemini, _) => ".gemini/settings.json",
        (Agent::Cursor, _) => ".cursor/mcp.json",
    }
}

/// The arguments of `toolmem mcp` with the database it was given.
fn arguments(db: Option<&Path>) -> Vec<String> {
    let mut args = Vec::new();
    if let Some(db) = db {
        args.push("--db".to_owned());
        args.push(db.to_string_lossy().into_owned());
    }
    args.push("mcp".to_owned());
    args
}

/// The JSON `mcpServers.toolmem` entry for `agent`.
pub(crate) fn json_entry(agent: Agent, program: &Path, db: Option<&Path>) -> Value {
    let mut entry = Map::new();
    if agent == Agent::ClaudeCode {
        entry.insert("type".into(), "stdio".into());
    }
    entry.insert(
        "command".into(),
        program.to_string_lossy().into_owned().into(),
    );
    entry.insert("args".into(), json!(arguments(db)));
    Value::Object(entry)
}

fn is_ours(command: &str, args: &[Value]) -> bool {
    let name = Path::new(command)
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or_default();
    name.starts_with("toolmem") && args.iter().any(|arg| arg == "mcp")
}

fn is_our_entry(entry: &Value) -> bool {
    let command = entry
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let args = entry.get("args").and_then(Value::as_array);
    is_ours(command, args.map(Vec::as_slice).unwrap_or_default())
}

/// Puts `entry` under `mcpServers` in `settings`, replacing an older toolmem entry.
pub(crate) fn add_json(settings: &mut Value, entry: Value, path: &Path) -> Result<()> {
    let object = settings.as_object_mut().expect("settings are an object");
    let servers = object
        .entry("mcpServers")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(servers) = servers else {
        bail!("`mcpServers` in {} is not an object", path.display());
    };
    if let Some(existing) = servers.get(SERVER)
        && *existing != entry
        && !is_our_entry(existing)
    {
        bail!(
            "`mcpServers.{SERVER}` in {} is a server of your own; rename or remove it first",
            path.display()
        );
    }
    servers.insert(SERVER.into(), entry);
    Ok(())
}

/// Removes toolmem's `mcpServers` entry, and `mcpServers` when it held only that; whether
/// anything was removed.
pub(crate) fn remove_json(settings: &mut Value) -> bool {
    let object = settings.as_object_mut().expect("settings are an object");
    let Some(Value::Object(servers)) = object.get_mut("mcpServers") else {
        return false;
    };
    if !servers.get(SERVER).is_some_and(is_our_entry) {
        return false;
    }
    servers.remove(SERVER);
    if servers.is_empty() {
        object.remove("mcpServers");
    }
    true
}

/// The table header of toolmem's server in Codex's config.toml.
const TOML_HEADER: &str = "[mcp_servers.toolmem]";

/// Codex's `[mcp_servers.toolmem]` table, as lines of TOML.
pub(crate) fn toml_table(program: &Path, db: Option<&Path>) -> String {
    // A JSON string is a TOML basic string: the same quotes and escapes.
    let quoted = |text: &str| Value::from(text).to_string();
    let args: Vec<String> = arguments(db).iter().map(|arg| quoted(arg)).collect();
    format!(
        "{TOML_HEADER}\ncommand = {}\nargs = [{}]\n",
        quoted(&program.to_string_lossy()),
        args.join(", ")
    )
}

/// The line range of the `[mcp_servers.toolmem]` table in `lines`: its header to the next
/// table header (or the end).
fn toml_table_range(lines: &[&str]) -> Option<std::ops::Range<usize>> {
    let start = lines.iter().position(|line| line.trim() == TOML_HEADER)?;
    let end = lines[start + 1..]
        .iter()
        .position(|line| line.trim_start().starts_with('['))
        .map_or(lines.len(), |at| start + 1 + at);
    Some(start..end)
}

/// Whether a `[mcp_servers.toolmem]` table's lines are toolmem's own.
fn is_our_table(lines: &[&str]) -> bool {
    let value = |key: &str| -> Option<Value> {
        let line = lines.iter().find_map(|line| {
            let (name, value) = line.split_once('=')?;
            (name.trim() == key).then_some(value.trim())
        })?;
        serde_json::from_str(line).ok()
    };
    let command = value("command");
    let args = value("args");
    match (command, args) {
        (Some(Value::String(command)), Some(Value::Array(args))) => is_ours(&command, &args),
        _ => false,
    }
}

/// `text` (a config.toml, maybe empty) with toolmem's table in it.
pub(crate) fn add_toml(text: &str, table: &str, path: &Path) -> Result<String> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(range) = toml_table_range(&lines) else {
        let mut out = text.to_owned();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.trim().is_empty() {
            out.push('\n');
        }
        out.push_str(table);
        return Ok(out);
    };
    if !is_our_table(&lines[range.clone()]) {
        bail!(
            "{TOML_HEADER} in {} is a server of your own; rename or remove it first",
            path.display()
        );
    }
    // Blank lines that close the old table stay where they were.
    let mut end = range.end;
    while end > range.start + 1 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    let mut out: Vec<&str> = lines[..range.start].to_vec();
    out.extend(table.lines());
    out.extend(&lines[end..]);
    Ok(out.join("\n") + "\n")
}

/// `text` without toolmem's table (and the blank line before it); `None` when it has none.
pub(crate) fn remove_toml(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let range = toml_table_range(&lines)?;
    if !is_our_table(&lines[range.clone()]) {
        return None;
    }
    let mut start = range.start;
    if start > 0 && lines[start - 1].trim().is_empty() {
        start -= 1;
    }
    let mut out: Vec<&str> = lines[..start].to_vec();
    out.extend(&lines[range.end..]);
    let mut text = out.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codex_table_goes_in_and_out_exactly() {
        let path = Path::new("config.toml");
        let user = "model = \"o3\"\n\n[mcp_servers.github]\ncommand = \"gh-mcp\"\n";
        let table = toml_table(Path::new("/bin/toolmem"), Some(Path::new("/x/r.db")));
        assert_eq!(
            table,
            "[mcp_servers.toolmem]\ncommand = \"/bin/toolmem\"\nargs = [\"--db\", \"/x/r.db\", \"mcp\"]\n"
        );
        let added = add_toml(user, &table, path).unwrap();
        assert_eq!(added, format!("{user}\n{table}"));
        assert_eq!(add_toml(&added, &table, path).unwrap(), added, "idempotent");
        let newer = toml_table(Path::new("/usr/bin/toolmem"), None);
        let replaced = add_toml(&added, &newer, path).unwrap();
        assert_eq!(replaced, format!("{user}\n{newer}"));
        assert_eq!(remove_toml(&replaced).as_deref(), Some(user));
        assert_eq!(remove_toml(user), None);

        let own = "[mcp_servers.toolmem]\ncommand = \"node\"\nargs = [\"srv.js\"]\n";
        assert!(
            add_toml(own, &table, path).is_err(),
            "a server of the user's own"
        );
        assert_eq!(remove_toml(own), None);
    }
}
