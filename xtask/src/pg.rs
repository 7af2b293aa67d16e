//! `cargo xtask pg start|stop|status`: a throwaway PostgreSQL cluster for the PostgreSQL
//! tests and benchmark, in a temporary directory, listening on 127.0.0.1 on a free port.
//!
//! The cluster is made with Debian's `initdb` (`/usr/lib/postgresql/*/bin`), run as the
//! `postgres` user when xtask runs as root (PostgreSQL refuses to run as root), and trusts
//! every loopback connection: it holds nothing worth a password and is deleted on `stop`.
//! Where it lives is written to `target/xtask-pg` so that `stop` and `status` find it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

const USAGE: &str = "cargo xtask pg start|stop|status";

pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let state = root.join("target").join("xtask-pg");
    match args.first().map(String::as_str) {
        Some("start") => {
            let url = start(&state)?;
            // Only the URL on stdout, so scripts can capture it.
            println!("{url}");
            Ok(())
        }
        Some("stop") => stop(&state),
        Some("status") => {
            match read_state(&state)? {
                Some(cluster) if cluster.running() => println!("{}", cluster.url()),
                Some(cluster) => println!(
                    "stopped (left over in {}; `cargo xtask pg stop` removes it)",
                    cluster.data.display()
                ),
                None => println!("no cluster"),
            }
            Ok(())
        }
        _ => bail!("usage: {USAGE}"),
    }
}

/// A cluster this xtask made: its data directory and port.
struct Cluster {
    data: PathBuf,
    port: u16,
    bin: PathBuf,
}

impl Cluster {
    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// The cluster's data directory (the temporary directory also holds the socket and log).
    fn data_dir(&self) -> PathBuf {
        self.data.join("db")
    }

    fn running(&self) -> bool {
        as_postgres(&self.bin.join("pg_ctl"))
            .args(["status", "-D"])
            .arg(self.data_dir())
            .output()
            .map(|output| output.status.success())
            .unwrap_or(false)
    }
}

fn start(state: &Path) -> Result<String> {
    if let Some(cluster) = read_state(state)? {
        if cluster.running() {
            eprintln!("xtask pg: already running in {}", cluster.data.display());
            return Ok(cluster.url());
        }
        stop(state)?;
    }
    let bin = postgres_bin()?;
    let data = std::env::temp_dir().join(format!("toolmem-pg-{}", std::process::id()));
    fs::create_dir_all(&data).with_context(|| format!("creating {}", data.display()))?;
    if is_root() {
        // initdb and the server run as `postgres`, which must own the directory.
        checked(Command::new("chown").arg("postgres:postgres").arg(&data))?;
    }
    let port = free_port()?;
    let cluster = Cluster { data, port, bin };
    // Written before initdb, so that `stop` cleans up even after a failed start.
    write_state(state, &cluster)?;
    checked(
        as_postgres(&cluster.bin.join("initdb"))
            .args([
                "--auth=trust",
                "--username=postgres",
                "--encoding=UTF8",
                "--no-locale",
                "--no-instructions",
                "-D",
            ])
            .arg(cluster.data_dir()),
    )
    .context("initdb failed (is Debian's `postgresql` package installed?)")?;
    // The socket goes into the data directory: /var/run/postgresql may not exist or not be
    // writable, and only TCP on loopback is used anyway.
    let server_options = format!(
        "-h 127.0.0.1 -p {port} -k {} -c max_connections=200",
        cluster.data.display()
    );
    checked(
        as_postgres(&cluster.bin.join("pg_ctl"))
            .args(["start", "-w", "-t", "60", "-D"])
            .arg(cluster.data_dir())
            .arg("-l")
            .arg(cluster.data.join("server.log"))
            .args(["-o", &server_options]),
    )
    .with_context(|| {
        format!(
            "pg_ctl start failed; see {}",
            cluster.data.join("server.log").display()
        )
    })?;
    eprintln!(
        "xtask pg: started in {} on port {port}",
        cluster.data.display()
    );
    Ok(cluster.url())
}

fn stop(state: &Path) -> Result<()> {
    let Some(cluster) = read_state(state)? else {
        eprintln!("xtask pg: no cluster to stop");
        return Ok(());
    };
    // A cluster whose status cannot be read is stopped anyway: removing the directory under a
    // running server would leave it running until it notices.
    if cluster.running() || cluster.data_dir().join("postmaster.pid").exists() {
        checked(
            as_postgres(&cluster.bin.join("pg_ctl"))
                .args(["stop", "-w", "-m", "fast", "-D"])
                .arg(cluster.data_dir()),
        )?;
    }
    fs::remove_dir_all(&cluster.data)
        .or_else(|err| {
            if err.kind() == std::io::ErrorKind::NotFound {
                Ok(())
            } else {
                Err(err)
            }
        })
        .with_context(|| format!("removing {}", cluster.data.display()))?;
    fs::remove_file(state).with_context(|| format!("removing {}", state.display()))?;
    eprintln!("xtask pg: stopped and removed {}", cluster.data.display());
    Ok(())
}

/// The newest installed PostgreSQL's `bin` directory.
fn postgres_bin() -> Result<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .context("no /usr/lib/postgresql: install Debian's `postgresql` package")?
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let version = path.file_name()?.to_str()?.parse().ok()?;
            let bin = path.join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    match versions.pop() {
        Some((_, bin)) => Ok(bin),
        None => bail!("no initdb under /usr/lib/postgresql/*/bin: install `postgresql`"),
    }
}

/// A command that runs as `postgres` when we are root, as ourselves otherwise.
fn as_postgres(program: &Path) -> Command {
    if is_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
        .unwrap_or(false)
}

fn free_port() -> Result<u16> {
    // The OS picks a free port; it is free again once the listener drops, and the server
    // binds it a moment later.
    let listener =
        std::net::TcpListener::bind("127.0.0.1:0").context("binding a probe port on loopback")?;
    Ok(listener.local_addr()?.port())
}

fn checked(command: &mut Command) -> Result<()> {
    let output = command
        .output()
        .with_context(|| format!("could not start {command:?}"))?;
    if !output.status.success() {
        bail!(
            "{command:?} failed with {}:\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(())
}

fn write_state(state: &Path, cluster: &Cluster) -> Result<()> {
    fs::create_dir_all(state.parent().expect("state lives in target/"))?;
    let text = format!(
        "data={}\nport={}\nbin={}\n",
        cluster.data.display(),
        cluster.port,
        cluster.bin.display()
    );
    fs::write(state, text).with_context(|| format!("writing {}", state.display()))
}

fn read_state(state: &Path) -> Result<Option<Cluster>> {
    let text = match fs::read_to_string(state) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err).with_context(|| format!("reading {}", state.display())),
    };
    let field = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix('='))
            .with_context(|| format!("{} has no `{name}` line", state.display()))
    };
    Ok(Some(Cluster {
        data: PathBuf::from(field("data")?),
        port: field("port")?
            .parse()
            .with_context(|| format!("port in {}", state.display()))?,
        bin: PathBuf::from(field("bin")?),
    }))
}
