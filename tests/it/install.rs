//! `toolmem install AGENT` / `uninstall AGENT` on a temporary home and project: the hook
//! entries are written for the chosen scope, a second run changes nothing, the user's other
//! settings and a backup are kept, `--dry-run` writes nothing, and uninstall removes exactly
//! what install added.

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
    assert_eq!(std::fs::read_to_string(&settings)?, original_text);

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
    for event in ["PostToolUse", "UserPromptSubmit", "SessionStart"] {
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

    // A second run changes nothing.
    let written = std::fs::read_to_string(&settings)?;
    let (code, out, _) = run(
        home.path(),
        project.path(),
        &["--db", &db_arg, "install", "claude-code"],
    )?;
    assert_eq!(code, 0);
    assert!(out.contains("nothing changed"), "{out}");
    assert_eq!(std::fs::read_to_string(&settings)?, written);

    let (code, out, err) = run(home.path(), project.path(), &["uninstall", "claude-code"])?;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("removed"), "{out}");
    assert_eq!(
        read_json(&settings)?,
        original,
        "exactly what install added is gone"
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
            // The file install created goes again; its last content is the backup.
            let (code, _, err) = run(home.path(), project.path(), &["uninstall", agent, scope])?;
            assert_eq!(code, 0, "{err}");
            assert!(!here.join(file).exists(), "{agent} {scope}");
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
