//! Where the database lives: `--db`, else `TOOLMEM_DB`, else the platform data directory
//! (for example `~/.local/share/toolmem/rules.sqlite3`), created owner-only.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The database file to open, creating its directory when it is the default one.
pub(crate) fn resolve(explicit: Option<PathBuf>) -> Result<PathBuf> {
    if let Some(path) = explicit {
        return Ok(path);
    }
    let dirs = directories::ProjectDirs::from("", "", "toolmem")
        .context("no home directory to keep the database in; pass --db or set TOOLMEM_DB")?;
    let dir = dirs.data_dir();
    create_private_dir(dir)?;
    Ok(dir.join("rules.sqlite3"))
}

/// Creates the directory (owner-only on Unix) and makes an existing database owner-only too:
/// rules hold personal data such as names and addresses.
fn create_private_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .with_context(|| format!("restricting {}", dir.display()))?;
    }
    Ok(())
}

/// Restricts a freshly opened database file (and its WAL companions) to the owner.
pub(crate) fn restrict_file(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for suffix in ["", "-wal", "-shm"] {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            let _ = std::fs::set_permissions(&name, std::fs::Permissions::from_mode(0o600));
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}
