//! `toolmem install AGENT` / `uninstall AGENT` on a temporary home and project: the hook
//! entries and the MCP server are written for the chosen scope, a second run changes nothing,
//! the user's other settings (in their own key order) and a backup are kept, `--dry-run`
//! writes nothing, and uninstall removes exactly what install added.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::Result;
use serde_json::{Value, json};

use crate::support::TOOLMEM;

/// Runs toolmem with HOME at `home`, in `cwd`; (exit code, stdout, stderr).
fn run(home: &Path, cwd: &Path, args: &[&str]) -> Result<(i32, String, String)> {
    let output = Command::new(TOOLMEM)
        .args(args)
        .env("HOME", home)
        .env_remove("TOOLMEM_DB")
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()?;
    Ok((
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout)?,
        String::from_utf8(output.stderr)?,
    ))
}

fn read_json(path: &Path) -> Result<Value> {
    Ok(serde_json::from_str(&std::fs::read_to_string(path)?)?)
}

#[test]
fn claude_code_install_is_idempotent_keeps_settings_and_uninstalls_exactly() -> Result<()> {
    let home = tempfile::tempdir()?;
    let project = tempfile::tempdir()?;
    let settings = home.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap_or(home.path()))?;
    let original = json!({
        "model": "opus",
        "permissions": {"deny": ["Bash(rm -rf:*)"]},
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-own-check"}]}]},
    });
    let original_text = serde_json::to_string_pretty(&original)?;
    std::fs::write(&settings, &original_text)?;

    // A dry run shows the diff and writes nothing.
    let (code, out, err) = run(
        home.path(),
        project.path(),
        &["install", "claude-code", "--dry-run"],
    )?;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("+ ") && out.contains("hook claude-code"),
        "{out}"
    );
    assert!(out.contains("dry run"), "{out}");
    assert!(
        out.contains(".claude.json") && out.contains("+ ") && out.contains("mcpServers"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&settings)?, original_text);
    assert!(
        !home.path().join(".claude.json").exists(),
        "a dry run writes no MCP file"
    );

    let db = home.path().join("rules.sqlite3");
    let db_arg = db.to_string_lossy().into_owned();
    let (code, out, err) = run(
        home.path(),
        project.path(),
        &["--db", &db_arg, "install", "claude-code"],
    )?;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("installed"), "{out}");
    let installed = read_json(&settings)?;
    assert_eq!(installed["model"], "opus");
    assert_eq!(installed["permissions"], original["permissions"]);
    let pre = installed["hooks"]["PreToolUse"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        pre[0], original["hooks"]["PreToolUse"][0],
        "the user's own hook stays"
    );
    let command = pre[1]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        command.ends_with(&format!("--db {db_arg} hook claude-code")),
        "{command}"
    );
    for event in [
        "PostToolUse",
        "PostToolUseFailure",
        "UserPromptSubmit",
        "SessionStart",
    ] {
        assert_eq!(
            installed["hooks"][event][0]["hooks"][0]["command"], command,
            "{event}"
        );
    }
    assert_eq!(
        installed["hooks"]["SessionStart"][0]["matcher"],
        "startup|resume|clear|compact"
    );
    let backup = home.path().join(".claude/settings.json.toolmem-backup");
    assert_eq!(std::fs::read_to_string(&backup)?, original_text);

    // The hook it wrote runs.
    let (code, _, err) = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .stdin(Stdio::null())
        .output()
        .map(|output| {
            (
                output.status.code().unwrap_or(-1),
                (),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            )
        })?;
    assert_eq!(code, 2, "empty stdin is refused: {err}");

    // The MCP server it registered answers the handshake.
    let claude_json = read_json(&home.path().join(".claude.json"))?;
    let server = &claude_json["mcpServers"]["toolmem"];
    assert_eq!(server["type"], "stdio", "{claude_json}");
    assert_eq!(
        server["args"],
        json!(["--db", db_arg, "mcp"]),
        "{claude_json}"
    );
    let program = server["command"].as_str().unwrap_or_default();
    let args: Vec<&str> = server["args"]
        .as_array()
        .map(|args| args.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut child = Command::new(program)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    if let Some(mut stdin) = child.stdin.take() {
        writeln!(stdin, "{initialize}")?;
    }
    let reply = String::from_utf8(child.wait_with_output()?.stdout)?;
    assert!(
        reply.contains(r#""protocolVersion":"2025-11-25""#),
        "{reply}"
    );

    // A second run changes nothing, in either file.
    let written = std::fs::read_to_string(&settings)?;
    let registered = std::fs::read_to_string(home.path().join(".claude.json"))?;
    let (code, out, _) = run(
        home.path(),
        project.path(),
        &["--db", &db_arg, "install", "claude-code"],
    )?;
    assert_eq!(code, 0);
    assert_eq!(out.matches("nothing changed").count(), 2, "{out}");
    assert_eq!(std::fs::read_to_string(&settings)?, written);
    assert_eq!(
        std::fs::read_to_string(home.path().join(".claude.json"))?,
        registered
    );

    let (code, out, err) = run(home.path(), project.path(), &["uninstall", "claude-code"])?;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("removed"), "{out}");
    assert_eq!(
        read_json(&settings)?,
        original,
        "exactly what install added is gone"
    );
    assert!(
        !home.path().join(".claude.json").exists(),
        "the MCP file install created is gone"
    );
    let (_, out, _) = run(home.path(), project.path(), &["uninstall", "claude-code"])?;
    assert!(out.contains("nothing changed"), "{out}");
    Ok(())
}

#[test]
fn each_agent_installs_into_its_own_file_at_either_scope() -> Result<()> {
    for (agent, file, event) in [
        ("claude-code", ".claude/settings.json", "PreToolUse"),
        ("codex", ".codex/hooks.json", "PreToolUse"),
        ("gemini", ".gemini/settings.json", "BeforeTool"),
        ("cursor", ".cursor/hooks.json", "beforeShellExecution"),
    ] {
        for scope in ["--user", "--project"] {
            let mcp_file = match (agent, scope) {
                ("claude-code", "--user") => ".claude.json",
                ("claude-code", _) => ".mcp.json",
                ("codex", _) => ".codex/config.toml",
                ("gemini", _) => ".gemini/settings.json",
                _ => ".cursor/mcp.json",
            };
            let home = tempfile::tempdir()?;
            let project = tempfile::tempdir()?;
            let (code, _, err) = run(home.path(), project.path(), &["install", agent, scope])?;
            assert_eq!(code, 0, "{agent} {scope}: {err}");
            let (here, other) = if scope == "--user" {
                (home.path(), project.path())
            } else {
                (project.path(), home.path())
            };
            let settings = read_json(&here.join(file))?;
            let text = settings["hooks"][event].to_string();
            assert!(
                text.contains(&format!("hook {agent}")),
                "{agent}: {settings}"
            );
            assert!(!other.join(file).exists(), "{agent} {scope}");
            if agent == "cursor" {
                // Cursor's own edits and fetches are checked before they run, and only they at
                // preToolUse: its shell and MCP calls have events that can ask.
                let pre_tool_use = &settings["hooks"]["preToolUse"];
                assert_eq!(
                    pre_tool_use[0]["matcher"], "Write|StrReplace|Edit|TabWrite|Delete|WebFetch",
                    "{settings}"
                );
                assert_eq!(pre_tool_use.as_array().map(Vec::len), Some(1), "{settings}");
            }
            let registration = std::fs::read_to_string(here.join(mcp_file))?;
            let expected = if agent == "codex" {
                "[mcp_servers.toolmem]"
            } else {
                "\"mcpServers\""
            };
            assert!(
                registration.contains(expected) && registration.contains("\"mcp\""),
                "{agent} {scope}: {registration}"
            );
            assert!(!other.join(mcp_file).exists(), "{agent} {scope}");
            // The files install created go again; their last content is the backup.
            let (code, _, err) = run(home.path(), project.path(), &["uninstall", agent, scope])?;
            assert_eq!(code, 0, "{err}");
            assert!(!here.join(file).exists(), "{agent} {scope}");
            assert!(!here.join(mcp_file).exists(), "{agent} {scope}");
        }
    }
    Ok(())
}

#[test]
fn a_settings_file_that_is_not_json_is_left_alone() -> Result<()> {
    let home = tempfile::tempdir()?;
    let settings = home.path().join(".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap_or(home.path()))?;
    std::fs::write(&settings, "{ not json")?;
    let (code, _, err) = run(home.path(), home.path(), &["install", "gemini"])?;
    assert_ne!(code, 0);
    assert!(err.contains("is not JSON"), "{err}");
    assert_eq!(std::fs::read_to_string(&settings)?, "{ not json");
    Ok(())
}

/// Asserts that each key's first occurrence in `text` comes after the one before it.
fn in_order(text: &str, keys: &[&str]) {
    let at: Vec<Option<usize>> = keys
        .iter()
        .map(|key| text.find(&format!("\"{key}\"")))
        .collect();
    assert!(
        at.iter().all(Option::is_some) && at.windows(2).all(|pair| pair[0] < pair[1]),
        "{keys:?} not in this order in {text}"
    );
}

#[test]
fn the_users_files_keep_their_key_order_and_come_back_byte_for_byte() -> Result<()> {
    let home = tempfile::tempdir()?;
    let project = tempfile::tempdir()?;
    // Keys in no sorted order, laid out as toolmem writes JSON (two-space indent).
    let settings_text = r#"{
  "theme": "dark",
  "permissions": {
    "deny": [
      "Bash(rm -rf:*)"
    ],
    "allow": []
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "my-own-check"
          }
        ]
      }
    ]
  },
  "env": {
    "Z": "1",
    "A": "2"
  }
}
"#;
    let claude_text = r#"{
  "numStartups": 3,
  "mcpServers": {
    "zeta": {
      "command": "zeta-mcp",
      "args": []
    }
  },
  "autoUpdates": false
}
"#;
    let codex_text = "model = \"o3\"\n\n[mcp_servers.github]\ncommand = \"gh-mcp\"\n";
    let files = [
        (home.path().join(".claude/settings.json"), settings_text),
        (home.path().join(".claude.json"), claude_text),
        (home.path().join(".codex/config.toml"), codex_text),
    ];
    for (path, text) in &files {
        std::fs::create_dir_all(path.parent().unwrap_or(home.path()))?;
        std::fs::write(path, text)?;
    }
    for agent in ["claude-code", "codex"] {
        let (code, _, err) = run(home.path(), project.path(), &["install", agent])?;
        assert_eq!(code, 0, "{agent}: {err}");
    }

    let installed = std::fs::read_to_string(&files[0].0)?;
    for keys in [
        &["theme", "permissions", "hooks", "env"][..],
        &["deny", "allow"],
        &["Z", "A"],
        &["matcher", "type"],
        &["PreToolUse", "PostToolUse"],
    ] {
        in_order(&installed, keys);
    }
    let claude = std::fs::read_to_string(&files[1].0)?;
    in_order(
        &claude,
        &[
            "numStartups",
            "mcpServers",
            "zeta",
            "toolmem",
            "autoUpdates",
        ],
    );
    let backup = home.path().join(".claude.json.toolmem-backup");
    assert_eq!(std::fs::read_to_string(backup)?, claude_text);
    let codex = std::fs::read_to_string(&files[2].0)?;
    assert!(
        codex.starts_with(codex_text) && codex.contains("[mcp_servers.toolmem]"),
        "{codex}"
    );

    for agent in ["claude-code", "codex"] {
        let (code, _, err) = run(home.path(), project.path(), &["uninstall", agent])?;
        assert_eq!(code, 0, "{agent}: {err}");
    }
    for (path, text) in &files {
        assert_eq!(
            std::fs::read_to_string(path)?,
            *text,
            "{} after uninstall",
            path.display()
        );
    }
    Ok(())
}

#[test]
fn a_toolmem_server_of_the_users_own_is_refused_and_nothing_is_written() -> Result<()> {
    let home = tempfile::tempdir()?;
    let project = tempfile::tempdir()?;
    let mcp = project.path().join(".mcp.json");
    let own = r#"{"mcpServers": {"toolmem": {"command": "node", "args": ["my-server.js"]}}}"#;
    std::fs::write(&mcp, own)?;
    let (code, _, err) = run(
        home.path(),
        project.path(),
        &["install", "claude-code", "--project"],
    )?;
    assert_ne!(code, 0);
    assert!(err.contains("mcpServers.toolmem"), "{err}");
    assert_eq!(std::fs::read_to_string(&mcp)?, own);
    assert!(
        !project.path().join(".claude/settings.json").exists(),
        "no half install: the hooks are not written either"
    );
    Ok(())
}
