//! Where the database lives: `--db`, else `TOOLMEM_DB`, else the platform data directory
//! (for example `~/.local/share/toolmem/rules.sqlite3`), created owner-only. A
//! `postgres://` (or `postgresql://`) URL selects PostgreSQL instead of an SQLite file.

use std::path::{Path, PathBuf};

use active_memory_client::{ActiveMemoryClient, Inspection};
use anyhow::{Context, Result, bail};

/// The database a command opens.
#[derive(Debug, Clone)]
pub(crate) enum Database {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL URL, which may hold a password: show it through [`Database::describe`].
    Postgres(String),
}

impl Database {
    /// The `--db` value (or `TOOLMEM_DB`) as a database, the default file when there is none.
    pub(crate) fn resolve(explicit: Option<PathBuf>) -> Result<Database> {
        if let Some(url) = explicit
            .as_deref()
            .and_then(Path::to_str)
            .filter(|text| active_memory_client::is_postgres_url(text))
        {
            return Ok(Database::Postgres(url.trim().to_owned()));
        }
        resolve(explicit).map(Database::Sqlite)
    }

    /// What to print about the database: the path, or the URL without its password.
    pub(crate) fn describe(&self) -> String {
        match self {
            Database::Sqlite(path) => path.display().to_string(),
            Database::Postgres(url) => redact_password(url),
        }
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`, and every
/// `password=...` parameter as `password=***`. It errs on hiding too much: the driver reads the
/// login up to the first `@` (so a password may hold `/` or `?`), and everything from the
/// login's `:` up to the last `@` is hidden.
fn redact_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let shown = match (rest.split_once('@'), rest.rfind('@')) {
        (Some((login, _)), Some(last_at)) if login.contains(':') => {
            let user_end = login.find(':').unwrap_or(login.len());
            format!("{}:***{}", &rest[..user_end], &rest[last_at..])
        }
        _ => rest.to_owned(),
    };
    // Lower-casing ASCII keeps every byte offset, so offsets found in `lower` index `shown`.
    let lower = shown.to_ascii_lowercase();
    let mut redacted = String::with_capacity(shown.len());
    let mut copied = 0;
    while let Some(found) = lower[copied..].find("password=") {
        let value = copied + found + "password=".len();
        redacted.push_str(&shown[copied..value]);
        redacted.push_str("***");
        copied = shown[value..]
            .find('&')
            .map_or(shown.len(), |end| value + end);
    }
    redacted.push_str(&shown[copied..]);
    format!("{scheme}://{redacted}")
}

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
#[cfg(feature = "sqlite")]
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

/// What a command needs of an SQLite store, whether or not this build carries SQLite: a
/// server's connections and checkpoint thread, or one connection for a call and exit (see
/// `active_memory_client::Footprint`). A PostgreSQL store is the same either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Footprint {
    Server,
    OneShot,
}

/// How `toolmem` reaches a PostgreSQL server, whether or not this build carries PostgreSQL.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PostgresSettings {
    pub(crate) pool_size: usize,
    pub(crate) timeout: std::time::Duration,
}

impl Database {
    /// A client over the database; a backend this build was compiled without (cargo features
    /// `sqlite`, `postgres`) is an error saying so.
    pub(crate) async fn open(
        &self,
        postgres: PostgresSettings,
        footprint: Footprint,
    ) -> Result<ActiveMemoryClient> {
        #[cfg(not(feature = "sqlite"))]
        let _ = footprint;
        match self {
            #[cfg(feature = "sqlite")]
            Database::Sqlite(path) => {
                let options = active_memory_client::SqliteOptions {
                    footprint: match footprint {
                        Footprint::Server => active_memory_client::Footprint::Server,
                        Footprint::OneShot => active_memory_client::Footprint::OneShot,
                    },
                    ..active_memory_client::SqliteOptions::default()
                };
                let client = ActiveMemoryClient::open_sqlite_with(path, options)
                    .with_context(|| format!("opening {}", path.display()))?;
                restrict_file(path);
                Ok(client)
            }
            #[cfg(feature = "postgres")]
            Database::Postgres(url) => {
                let options = active_memory_client::PostgresOptions {
                    pool_size: postgres.pool_size,
                    timeout: postgres.timeout,
                    ..active_memory_client::PostgresOptions::default()
                };
                ActiveMemoryClient::open_postgres_with(url, options)
                    .await
                    .with_context(|| format!("opening {}", self.describe()))
            }
            #[allow(unreachable_patterns, reason = "reached when a backend is not built")]
            _ => self.not_built(postgres),
        }
    }

    /// Looks at the database without changing it (`toolmem doctor`).
    pub(crate) async fn inspect(&self, postgres: PostgresSettings) -> Result<Inspection> {
        match self {
            #[cfg(feature = "sqlite")]
            Database::Sqlite(path) => {
                let path = path.clone();
                Ok(
                    tokio::task::spawn_blocking(move || active_memory_client::inspect_sqlite(path))
                        .await??,
                )
            }
            #[cfg(feature = "postgres")]
            Database::Postgres(url) => {
                let options = active_memory_client::PostgresOptions {
                    pool_size: 1,
                    timeout: postgres.timeout,
                    ..active_memory_client::PostgresOptions::default()
                };
                Ok(active_memory_client::inspect_postgres(url, options).await?)
            }
            #[allow(unreachable_patterns, reason = "reached when a backend is not built")]
            _ => self.not_built(postgres),
        }
    }

    /// The error for a database whose backend this build lacks.
    fn not_built<T>(&self, _postgres: PostgresSettings) -> Result<T> {
        let (backend, feature) = match self {
            Database::Sqlite(_) => ("SQLite", "sqlite"),
            Database::Postgres(_) => ("PostgreSQL", "postgres"),
        };
        bail!(
            "{} is a {backend} database, and this toolmem was built without {backend} (cargo feature `{feature}`)",
            self.describe()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_selects_postgres_and_a_path_sqlite() {
        let database =
            Database::resolve(Some(PathBuf::from("postgres://u:pw@db.example:5432/rules")))
                .unwrap();
        assert!(matches!(database, Database::Postgres(_)));
        assert_eq!(
            database.describe(),
            "postgres://u:***@db.example:5432/rules"
        );
        let database = Database::resolve(Some(PathBuf::from("/tmp/postgres.sqlite3"))).unwrap();
        assert!(matches!(database, Database::Sqlite(_)));
    }

    #[test]
    fn passwords_never_show() {
        for (url, shown) in [
            ("postgres://u@h/db", "postgres://u@h/db"),
            ("postgresql://u:p@ss@h/db", "postgresql://u:***@h/db"),
            (
                "postgres://h/db?user=u&password=p",
                "postgres://h/db?user=u&password=***",
            ),
            (
                "postgres://u@db?password=s3cret",
                "postgres://u@db?password=***",
            ),
            (
                "postgres://db?user=u&PASSWORD=s3cret&sslmode=disable",
                "postgres://db?user=u&PASSWORD=***&sslmode=disable",
            ),
            ("postgres://u:pa/ss@db/tm", "postgres://u:***@db/tm"),
            ("postgres://u:pa?ss@db/tm", "postgres://u:***@db/tm"),
            (
                "postgres://u:p@db/tm?password=x&application_name=a",
                "postgres://u:***@db/tm?password=***&application_name=a",
            ),
        ] {
            assert_eq!(redact_password(url), shown);
        }
    }
}
