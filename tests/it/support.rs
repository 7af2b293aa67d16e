//! Starting and talking to the real `toolmem` program in tests.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

pub(crate) const TOOLMEM: &str = env!("CARGO_BIN_EXE_toolmem_e2e");

/// A running `toolmem serve` on a port the OS chose.
pub(crate) struct Server {
    child: Child,
    pub(crate) url: String,
    http: reqwest::Client,
}

impl Server {
    /// Starts `toolmem serve` on `db` with extra arguments and waits until it listens.
    pub(crate) fn start(db: &Path, extra: &[&str]) -> Result<Server> {
        let mut command = Command::new(TOOLMEM);
        command
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(extra);
        Server::spawn(command)
    }

    /// Starts a server from a command of the caller's (another environment, or the program
    /// under a wrapper such as `prlimit`) and waits until it listens.
    pub(crate) fn spawn(mut command: Command) -> Result<Server> {
        let mut child = command
            .env_remove("TOOLMEM_TOKEN")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().context("stdout")?;
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line)?;
        let Some(url) = line.trim().strip_prefix("toolmem listening on ") else {
            let _ = child.kill();
            bail!("server did not start: {line:?}");
        };
        Ok(Server {
            child,
            url: url.to_owned(),
            http: reqwest::Client::new(),
        })
    }

    /// One JSON-RPC call on `/rpc`; returns the whole response object.
    pub(crate) async fn call(&self, method: &str, params: Value) -> Result<Value> {
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let response = self
            .http
            .post(format!("{}/rpc", self.url))
            .json(&request)
            .send()
            .await?;
        Ok(response.error_for_status()?.json().await?)
    }

    /// The `result` of a call that must succeed.
    pub(crate) async fn result(&self, method: &str, params: Value) -> Result<Value> {
        let response = self.call(method, params).await?;
        match response.get("result") {
            Some(result) => Ok(result.clone()),
            None => bail!("{method} failed: {response}"),
        }
    }

    pub(crate) fn client(&self) -> &reqwest::Client {
        &self.http
    }

    /// The server's address, `127.0.0.1:PORT`.
    pub(crate) fn addr(&self) -> &str {
        self.url.strip_prefix("http://").unwrap_or(&self.url)
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGTERM, then waits: the server finishes in-flight requests and exits cleanly.
    pub(crate) fn stop(mut self) -> Result<()> {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()?;
        assert!(status.success());
        let exit = self.child.wait()?;
        assert!(exit.success(), "server exited with {exit:?} after SIGTERM");
        Ok(())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the CLI with `args` on `db`, feeding `stdin`; returns (exit code, stdout, stderr).
pub(crate) fn cli(db: &Path, args: &[&str], stdin: &str) -> Result<(i32, String, String)> {
    use std::io::Write;
    let mut child = Command::new(TOOLMEM)
        .arg("--db")
        .arg(db)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    child
        .stdin
        .take()
        .context("stdin")?
        .write_all(stdin.as_bytes())?;
    let output = child.wait_with_output()?;
    Ok((
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout)?,
        String::from_utf8(output.stderr)?,
    ))
}

/// Opens the database at `db`, checks its integrity, and returns the acknowledged ids that are
/// not among `tool`'s rules: what a writer said it stored and the file lost.
pub(crate) async fn lost_acknowledged(
    db: &Path,
    tool: &str,
    acknowledged: &[String],
) -> Result<Vec<String>> {
    use tool_memory_store::RuleStore;
    use tool_memory_store_sqlite::{SqliteOptions, SqliteRuleStore};
    let store = SqliteRuleStore::open(db, SqliteOptions::default())?;
    anyhow::ensure!(store.integrity_check()? == "ok", "integrity check failed");
    let stored: std::collections::BTreeSet<String> = store
        .list(tool)
        .await?
        .iter()
        .map(|rule| rule.id.clone())
        .collect();
    Ok(acknowledged
        .iter()
        .filter(|id| !stored.contains(*id))
        .cloned()
        .collect())
}

/// A raw HTTP/1.1 connection: the test writes every byte itself, so it controls every header
/// (and can stop half-way). Reads give up after 10 s so that a server that never answers fails
/// the test instead of hanging it; no test asserts on that time.
pub(crate) struct RawHttp {
    stream: std::net::TcpStream,
    buffer: Vec<u8>,
}

/// One response read by [`RawHttp::response`].
#[derive(Debug)]
pub(crate) struct RawResponse {
    pub(crate) status: u16,
    /// Names lower-cased.
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl RawResponse {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    pub(crate) fn json(&self) -> Result<Value> {
        Ok(serde_json::from_str(&self.body)?)
    }
}

impl RawHttp {
    pub(crate) fn connect(addr: &str) -> Result<RawHttp> {
        let stream = std::net::TcpStream::connect(addr)?;
        stream.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
        Ok(RawHttp {
            stream,
            buffer: Vec::new(),
        })
    }

    pub(crate) fn send(&mut self, bytes: &[u8]) -> Result<()> {
        use std::io::Write;
        self.stream.write_all(bytes)?;
        Ok(())
    }

    /// Reads more bytes into the buffer; false at end of stream.
    fn fill(&mut self) -> Result<bool> {
        use std::io::Read;
        let mut chunk = [0u8; 16 * 1024];
        let read = self
            .stream
            .read(&mut chunk)
            .context("reading the response")?;
        self.buffer.extend_from_slice(&chunk[..read]);
        Ok(read > 0)
    }

    /// Reads one response: its head, and a body of its `content-length`.
    pub(crate) fn response(&mut self) -> Result<RawResponse> {
        let head_end = loop {
            if let Some(at) = self
                .buffer
                .windows(4)
                .position(|window| window == b"\r\n\r\n")
            {
                break at;
            }
            if !self.fill()? {
                bail!(
                    "the connection closed before a response head: {:?}",
                    String::from_utf8_lossy(&self.buffer)
                );
            }
        };
        let head = String::from_utf8(self.buffer[..head_end].to_vec())?;
        let mut lines = head.split("\r\n");
        let status_line = lines.next().context("status line")?;
        let status = status_line
            .split(' ')
            .nth(1)
            .context("status code")?
            .parse()?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
            .collect();
        let length: usize = headers
            .iter()
            .find(|(name, _)| name == "content-length")
            .map_or(Ok(0), |(_, value)| value.parse())?;
        let body_start = head_end + 4;
        while self.buffer.len() < body_start + length {
            if !self.fill()? {
                bail!("the connection closed inside a response body");
            }
        }
        let body = String::from_utf8(self.buffer[body_start..body_start + length].to_vec())?;
        self.buffer.drain(..body_start + length);
        Ok(RawResponse {
            status,
            headers,
            body,
        })
    }

    /// Reads until the server closes the connection and returns what came before the end (a
    /// reset counts as closed too). An error if the read gave up instead: the server kept the
    /// connection open.
    pub(crate) fn until_closed(&mut self) -> Result<Vec<u8>> {
        loop {
            match self.fill() {
                Ok(true) => {}
                Ok(false) => return Ok(std::mem::take(&mut self.buffer)),
                Err(err) => {
                    let reset = err
                        .downcast_ref::<std::io::Error>()
                        .is_some_and(|io| io.kind() == std::io::ErrorKind::ConnectionReset);
                    if reset {
                        return Ok(std::mem::take(&mut self.buffer));
                    }
                    return Err(err.context("the server did not close the connection"));
                }
            }
        }
    }
}

/// The bytes of an HTTP/1.1 request with these header lines and this body (its
/// `content-length` added when there is a body).
pub(crate) fn raw_request(method: &str, path: &str, headers: &[&str], body: &str) -> Vec<u8> {
    let mut text = format!("{method} {path} HTTP/1.1\r\n");
    for header in headers {
        text.push_str(header);
        text.push_str("\r\n");
    }
    if !body.is_empty() {
        text.push_str(&format!("content-length: {}\r\n", body.len()));
    }
    text.push_str("\r\n");
    text.push_str(body);
    text.into_bytes()
}
