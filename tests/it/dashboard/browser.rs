//! The dashboard in a real browser: headless Chromium, driven over the W3C WebDriver protocol
//! through `chromedriver`, against a real `toolmem serve` on a temporary database and port 0.
//! Effects are checked through the RPC and the CLI, never through the page alone.
//!
//! The driver is a few plain WebDriver calls over the tests crate's HTTP client
//! ([`WebDriver`]): the protocol is JSON over HTTP, and the five steps the tests need do not
//! justify a WebDriver crate's dependency tree. Without `chromedriver` and `chromium` the tests
//! skip with a message, except under `CI`, where they fail (`.ci/run` installs both).
//! With `TOOLMEM_DASHBOARD_SCREENSHOTS=DIR` they save a screenshot of each view there (the
//! pictures in docs/img/ are made that way).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use serde_json::{Value, json};

use crate::support::{Server, cli};

/// How long a wait for the page may take before the test fails: generous, since the machine
/// may be busy; no test asserts on the time itself.
const WAIT: Duration = Duration::from_secs(30);

/// One browser at a time: Chromium is heavy, and the tests share the machine's cores.
static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The WebDriver element key (W3C).
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver process with one headless Chromium session.
struct WebDriver {
    driver: Child,
    session: String,
    base: String,
    http: reqwest::Client,
}

fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

impl WebDriver {
    /// A session, or `None` (with a note) when the browser is missing and the tests may skip.
    async fn start() -> Result<Option<WebDriver>> {
        let (Some(driver), Some(chromium)) =
            (find_program("chromedriver"), find_program("chromium"))
        else {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but chromium or chromedriver is missing: the browser tests must run in CI \
                 (.ci/run installs Debian's chromium and chromium-driver)"
            );
            eprintln!(
                "skipping a browser test: install chromium and chromium-driver \
                 (apt-get install -y chromium chromium-driver)"
            );
            return Ok(None);
        };
        let mut child = Command::new(driver)
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().context("chromedriver stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let port = loop {
            let line = lines
                .next()
                .context("chromedriver ended before it listened")??;
            if let Some(rest) = line.split("started successfully on port ").nth(1) {
                break rest.trim_end_matches('.').trim().to_owned();
            }
        };
        // chromedriver writes more lines later; keep draining so it never blocks on the pipe.
        std::thread::spawn(move || lines.for_each(drop));
        let base = format!("http://127.0.0.1:{port}");
        let http = reqwest::Client::new();
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1000",
                         "--no-first-run", "--disable-extensions"],
            },
        }}});
        let created: Value = http
            .post(format!("{base}/session"))
            .json(&capabilities)
            .send()
            .await?
            .json()
            .await?;
        let session = created["value"]["sessionId"]
            .as_str()
            .with_context(|| format!("no session: {created}"))?
            .to_owned();
        Ok(Some(WebDriver {
            driver: child,
            session,
            base,
            http,
        }))
    }

    async fn command(&self, method: &str, path: &str, body: Value) -> Result<Value> {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        let request = match method {
            "GET" => self.http.get(url),
            _ => self.http.post(url).json(&body),
        };
        let reply: Value = request.send().await?.json().await?;
        if let Some(error) = reply["value"]["error"].as_str() {
            bail!("webdriver {path}: {error}: {}", reply["value"]["message"]);
        }
        Ok(reply["value"].clone())
    }

    async fn goto(&self, url: &str) -> Result<()> {
        self.command("POST", "/url", json!({"url": url})).await?;
        Ok(())
    }

    async fn element(&self, css: &str) -> Result<String> {
        let found = self
            .command(
                "POST",
                "/element",
                json!({"using": "css selector", "value": css}),
            )
            .await?;
        Ok(found[ELEMENT_KEY]
            .as_str()
            .with_context(|| format!("no element id in {found}"))?
            .to_owned())
    }

    /// Waits until `css` matches an element, then clicks it.
    async fn click(&self, css: &str) -> Result<()> {
        self.wait_for(css, "").await?;
        let id = self.element(css).await?;
        self.command("POST", &format!("/element/{id}/click"), json!({}))
            .await?;
        Ok(())
    }

    /// Clears the field and types `text` into it, as a person would.
    async fn type_into(&self, css: &str, text: &str) -> Result<()> {
        self.wait_for(css, "").await?;
        let id = self.element(css).await?;
        self.command("POST", &format!("/element/{id}/clear"), json!({}))
            .await?;
        self.command(
            "POST",
            &format!("/element/{id}/value"),
            json!({"text": text}),
        )
        .await?;
        Ok(())
    }

    /// Chooses `file` in a file input, as a person picking it in the file dialog would.
    async fn choose_file(&self, css: &str, file: &Path) -> Result<()> {
        self.wait_for(css, "").await?;
        let id = self.element(css).await?;
        let path = file.to_str().context("a file path that is UTF-8")?;
        self.command(
            "POST",
            &format!("/element/{id}/value"),
            json!({"text": path}),
        )
        .await?;
        Ok(())
    }

    async fn script(&self, script: &str) -> Result<Value> {
        self.command(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
        .await
    }

    /// Waits until the text of the first element matching `css` contains `needle`, and
    /// returns that text.
    async fn wait_for(&self, css: &str, needle: &str) -> Result<String> {
        let deadline = Instant::now() + WAIT;
        let probe = format!(
            "const node = document.querySelector({}); return node ? node.innerText : null;",
            serde_json::to_string(css)?
        );
        loop {
            let text = self.script(&probe).await?;
            if let Some(text) = text.as_str()
                && text.contains(needle)
            {
                return Ok(text.to_owned());
            }
            if Instant::now() > deadline {
                let page = self.script("return document.body.innerText;").await?;
                bail!("{css} never showed {needle:?}; it holds {text}; the page says: {page}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Saves a screenshot as `name.png` when `TOOLMEM_DASHBOARD_SCREENSHOTS` names a folder.
    async fn screenshot(&self, name: &str) -> Result<()> {
        let Some(folder) = std::env::var_os("TOOLMEM_DASHBOARD_SCREENSHOTS") else {
            return Ok(());
        };
        let encoded = self.command("GET", "/screenshot", Value::Null).await?;
        let png = decode_base64(encoded.as_str().context("screenshot")?)?;
        std::fs::write(Path::new(&folder).join(format!("{name}.png")), png)?;
        Ok(())
    }
}

impl Drop for WebDriver {
    fn drop(&mut self) {
        // Ending the session ends Chromium; chromedriver is ours to kill.
        let url = format!("{}/session/{}", self.base, self.session);
        let _ = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()?;
                    runtime.block_on(async {
                        reqwest::Client::new().delete(url).send().await?;
                        anyhow::Ok(())
                    })
                })
                .join()
        });
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (the screenshot's encoding), for the one place that needs it.
fn decode_base64(text: &str) -> Result<Vec<u8>> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for byte in text.bytes().filter(|byte| *byte != b'=') {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => bail!("not base64: {byte}"),
        };
        bits = (bits << 6) | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    Ok(out)
}

/// A server on a fresh database and a browser; `None` when the browser is missing.
struct Setup {
    browser: WebDriver,
    server: Server,
    db: PathBuf,
    _dir: tempfile::TempDir,
}

async fn setup() -> Result<Option<Setup>> {
    let Some(browser) = WebDriver::start().await? else {
        return Ok(None);
    };
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let server = Server::start(&db, &[])?;
    Ok(Some(Setup {
        browser,
        server,
        db,
        _dir: dir,
    }))
}

impl Setup {
    /// The dashboard at `route` (`#/...`), under the name the server prints.
    async fn open(&self, route: &str) -> Result<()> {
        let port = self.server.addr().rsplit(':').next().context("port")?;
        self.browser
            .goto(&format!("http://localhost:{port}/{route}"))
            .await
    }
}

async fn put_sarah(server: &Server) -> Result<()> {
    server
        .result(
            "memory.tool_rule_put",
            json!({"tool_name": "send_email", "id": "sarah", "rule": "Never email Sarah at sarah@example.com.", "priority": "critical", "source": "user_explicit", "tags": ["people"]}),
        )
        .await?;
    Ok(())
}

async fn check_sarah(server: &Server) -> Result<String> {
    let verdict = server
        .result(
            "memory.tool_call_check",
            json!({"tool_name": "send_email", "arguments": {"to": "sarah@example.com"}}),
        )
        .await?;
    Ok(verdict["decision"].as_str().context("decision")?.to_owned())
}

#[tokio::test]
async fn the_overview_lists_a_rule_added_through_rpc() -> Result<()> {
    let _one = ONE_BROWSER.lock().await;
    let Some(setup) = setup().await? else {
        return Ok(());
    };
    put_sarah(&setup.server).await?;
    setup
        .server
        .result(
            "memory.tool_rule_put",
            json!({"tool_name": "shell", "rule": "quote every path", "priority": "high"}),
        )
        .await?;
    setup.open("#/").await?;
    let tools = setup.browser.wait_for("table", "send_email").await?;
    ensure!(tools.contains("shell"), "{tools}");
    let block = setup
        .browser
        .wait_for("pre.prompt", "Never email Sarah at sarah@example.com.")
        .await?;
    ensure!(block.starts_with("## Tool-scoped rules"), "{block}");
    // A verdict shows among the recent ones.
    ensure!(check_sarah(&setup.server).await? == "deny");
    setup.open("#/").await?;
    setup
        .browser
        .wait_for("[aria-labelledby=verdicts-heading] .verdict", "deny")
        .await?;
    setup.browser.screenshot("overview").await?;
    Ok(())
}

#[tokio::test]
async fn revoking_on_the_page_lets_the_call_through() -> Result<()> {
    let _one = ONE_BROWSER.lock().await;
    let Some(setup) = setup().await? else {
        return Ok(());
    };
    put_sarah(&setup.server).await?;
    ensure!(check_sarah(&setup.server).await? == "deny");
    setup.open("#/tool/send_email").await?;
    setup.browser.wait_for("table.rules", "Sarah").await?;
    setup.browser.screenshot("tool").await?;
    setup
        .browser
        .click(r#"button[aria-label="Revoke rule sarah"]"#)
        .await?;
    setup.browser.wait_for("#status", "Revoked sarah").await?;
    ensure!(check_sarah(&setup.server).await? == "allow");
    // The row stays, marked revoked, with a restore button.
    setup
        .browser
        .wait_for(r#"tr[data-rule-id="sarah"]"#, "Restore")
        .await?;
    setup.open("#/history/send_email").await?;
    setup
        .browser
        .wait_for("table", "memory.tool_rule_revoke")
        .await?;
    setup.browser.screenshot("history").await?;
    Ok(())
}

#[tokio::test]
async fn a_rule_added_on_the_page_is_in_the_prompt() -> Result<()> {
    let _one = ONE_BROWSER.lock().await;
    let Some(setup) = setup().await? else {
        return Ok(());
    };
    setup.open("#/tool/shell").await?;
    setup.browser.wait_for("main", "No rules match.").await?;
    setup
        .browser
        .type_into("#new-rule", "never run rm -rf /")
        .await?;
    setup
        .browser
        .type_into("#new-tags", "safety, disks")
        .await?;
    setup.browser.click("#add-rule button[type=submit]").await?;
    setup.browser.wait_for("#status", "Added a rule").await?;
    let (code, prompt, stderr) = cli(&setup.db, &["prompt", "--tools", "shell"], "")?;
    ensure!(code == 0, "{stderr}");
    ensure!(
        prompt.contains("- **[critical]** never run rm -rf /"),
        "{prompt}"
    );
    let rules = setup
        .server
        .result("memory.tool_rule_list", json!({"tool_name": "shell"}))
        .await?;
    ensure!(
        rules[0]["tags"] == json!(["safety", "disks"]) && rules[0]["source"] == "user_explicit",
        "{rules}"
    );
    Ok(())
}

#[tokio::test]
async fn trying_a_call_shows_the_deny_and_its_reason() -> Result<()> {
    let _one = ONE_BROWSER.lock().await;
    let Some(setup) = setup().await? else {
        return Ok(());
    };
    put_sarah(&setup.server).await?;
    setup.open("#/try/send_email").await?;
    setup
        .browser
        .type_into("#try-arguments", r#"{"to": ["Sarah <sarah@example.com>"]}"#)
        .await?;
    setup.browser.click("#try-form button[type=submit]").await?;
    let shown = setup.browser.wait_for(".verdict-box", "deny").await?;
    let expected = check_sarah(&setup.server).await?;
    ensure!(expected == "deny");
    ensure!(
        shown.contains("denied by a critical rule on send_email")
            && shown.contains("Never email Sarah"),
        "{shown}"
    );
    setup.browser.screenshot("try").await?;
    Ok(())
}

#[tokio::test]
async fn a_change_made_through_the_cli_shows_without_a_reload() -> Result<()> {
    let _one = ONE_BROWSER.lock().await;
    let Some(setup) = setup().await? else {
        return Ok(());
    };
    setup.open("#/tool/git").await?;
    setup.browser.wait_for("main", "No rules match.").await?;
    // A reload would drop this mark.
    setup.browser.script("window.toolmemMark = 42;").await?;
    let (code, _, stderr) = cli(
        &setup.db,
        &[
            "rule",
            "add",
            "git",
            "never force push",
            "--priority",
            "high",
        ],
        "",
    )?;
    ensure!(code == 0, "{stderr}");
    setup
        .browser
        .wait_for("table.rules", "never force push")
        .await?;
    ensure!(
        setup.browser.script("return window.toolmemMark;").await? == json!(42),
        "the page was reloaded"
    );
    setup.browser.wait_for("#status", "Updated").await?;
    Ok(())
}

#[tokio::test]
async fn a_file_imported_on_the_page_reports_each_line_and_stores_the_rule() -> Result<()> {
    let _one = ONE_BROWSER.lock().await;
    let Some(setup) = setup().await? else {
        return Ok(());
    };
    let file = setup.db.with_file_name("rules.jsonl");
    let good = json!({"tool_name": "Deploy", "id": "no-friday", "rule": "Never deploy on a Friday.", "priority": "critical", "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"});
    // A file with a line that is not a rule is refused whole, naming the line.
    std::fs::write(&file, format!("{good}\n{{\"rule\": 3}}\n"))?;
    setup.open("#/export").await?;
    setup.browser.choose_file("#import-file", &file).await?;
    setup
        .browser
        .click("#import-form button[type=submit]")
        .await?;
    let summary = setup
        .browser
        .wait_for("#import-summary", "Nothing was written")
        .await?;
    ensure!(summary.contains("1 line(s) are not rules"), "{summary}");
    let report = setup.browser.wait_for("#import-report", "invalid").await?;
    ensure!(report.contains("2\tinvalid"), "line 2 is named: {report}");
    let counts = setup.server.result("memory.tool_list", json!({})).await?;
    ensure!(counts == json!([]), "nothing half-written: {counts}");

    std::fs::write(&file, format!("{good}\n"))?;
    setup.open("#/").await?;
    setup.open("#/export").await?;
    setup.browser.choose_file("#import-file", &file).await?;
    setup
        .browser
        .click("#import-form button[type=submit]")
        .await?;
    setup
        .browser
        .wait_for("#import-summary", "Written: 1 created")
        .await?;
    let report = setup.browser.wait_for("#import-report", "created").await?;
    ensure!(
        report.contains("deploy") && report.contains("no-friday"),
        "{report}"
    );
    setup.browser.screenshot("import").await?;
    let stored = setup
        .server
        .result(
            "memory.tool_rule_get",
            json!({"tool_name": "deploy", "id": "no-friday"}),
        )
        .await?;
    ensure!(stored["priority"] == "critical", "{stored}");
    // The overview counts it, from memory.tool_list.
    setup.open("#/").await?;
    let tools = setup.browser.wait_for("table", "deploy").await?;
    ensure!(tools.contains("deploy\t1\t0\t0\t0\t0\t1"), "{tools}");
    Ok(())
}

#[tokio::test]
async fn a_big_tool_is_shown_a_page_at_a_time() -> Result<()> {
    let _one = ONE_BROWSER.lock().await;
    let Some(setup) = setup().await? else {
        return Ok(());
    };
    let lines: Vec<String> = (0..120)
        .map(|index| {
            json!({"tool_name": "shell", "id": format!("r{index:03}"), "rule": format!("rule number {index}"), "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"}).to_string()
        })
        .collect();
    let report = setup
        .server
        .result(
            "memory.tool_rules_import",
            json!({"lines": lines.join("\n")}),
        )
        .await?;
    ensure!(report["created"] == 120, "{report}");
    setup.open("#/tool/shell").await?;
    setup
        .browser
        .wait_for("nav.pager", "Page 1 of 3 (120 rules)")
        .await?;
    let rows = setup
        .browser
        .script("return document.querySelectorAll('table.rules tbody tr').length;")
        .await?;
    ensure!(rows == json!(50), "one page of rows: {rows}");
    setup.browser.click("nav.pager button:last-child").await?;
    setup.browser.wait_for("nav.pager", "Page 2 of 3").await?;
    setup.browser.type_into("#rule-filter", "number 11").await?;
    // "rule number 11" and "rule number 110" to "119".
    setup
        .browser
        .wait_for("nav.pager", "Page 1 of 1 (11 rules)")
        .await?;
    Ok(())
}
