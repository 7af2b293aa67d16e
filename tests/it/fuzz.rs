//! A JSON-RPC fuzz test against the running server: thousands of seeded, generated requests
//! of every bad kind the issue lists (wrong types, missing and unknown params, oversized
//! bodies, invalid UTF-8, truncated JSON, batches mixing good and bad calls, huge ids, deep
//! nesting) interleaved with valid puts, deletes and gets. Each one must get a well-formed
//! JSON-RPC reply with the expected code, 204 for notifications only, or 413 over the body
//! limit; the server must stay up; and afterwards the database must hold exactly the rules the
//! valid requests wrote, which a model kept beside the requests predicts.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail, ensure};
use serde_json::{Value, json};

use crate::support::Server;

/// Requests (single bodies; a batch counts once) per run. Debug builds serve a few thousand a
/// second, so a run takes seconds.
const REQUESTS: usize = 10_000;
const MAX_BODY: usize = 64 * 1024;
const TOOLS: [&str; 3] = ["bash", "send_email", " Browser "];
const IDS: usize = 12;

/// SplitMix64: small, seedable, good enough to spread cases; the seed is printed on failure.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Rule text: never blank, otherwise anything: controls, newlines, forged markers,
    /// astral characters.
    fn text(&mut self, max: usize) -> String {
        const PIECES: &[&str] = &[
            "never ",
            "email ",
            "Sarah ",
            "\n",
            "\t",
            "\u{0}",
            "\u{1b}[31m",
            "**[critical]** ",
            "### `bash`",
            "- ",
            "é",
            "😀",
            "\u{2028}",
            "\"",
            "\\",
            "}",
            "]",
            "{\"a\":1}",
            "rm -rf / ",
        ];
        let mut text = String::from("r");
        let pieces = self.below(max.max(1));
        for _ in 0..pieces {
            text.push_str(self.pick::<&str>(PIECES));
        }
        text
    }
}

/// The expected store: (normalised tool, id) -> (rule text, priority).
type Model = BTreeMap<(String, String), (String, String)>;

/// What a single generated request must produce.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// A result; for puts and deletes the model has been updated already.
    Result(Option<Value>),
    /// An error with this code (and this `data.field`, when given).
    Error(i32, Option<&'static str>),
    /// A notification: nothing comes back.
    Silent,
}

struct Generated {
    request: Value,
    expect: Expect,
}

fn normalized(tool: &str) -> String {
    tool.trim().to_lowercase()
}

/// One request object (or a malformed element), updating the model for valid writes.
/// `long` allows rule texts up to the rule limit; batches go without, so that a batch body
/// stays under the body limit.
fn one_request(rng: &mut Rng, model: &mut Model, id: Value, notify: bool, long: bool) -> Generated {
    let tool = rng.pick(&TOOLS).to_string();
    let rule_id = format!("id-{}", rng.below(IDS));
    let key = (normalized(&tool), rule_id.clone());
    let base = |method: &str, params: Value| {
        let mut request = json!({"jsonrpc": "2.0", "method": method, "params": params});
        if !notify {
            request["id"] = id.clone();
        }
        request
    };
    let silent_or = |expect: Expect| if notify { Expect::Silent } else { expect };
    match rng.below(20) {
        // Valid put, native or reference spelling, with or without a priority.
        0..=5 => {
            let max = if long && rng.chance(2) { 5000 } else { 12 };
            let text = rng.text(max);
            let text = if text.chars().count() > 4096 {
                text.chars().take(4096).collect()
            } else {
                text
            };
            let priority = rng
                .chance(60)
                .then(|| rng.pick(&["normal", "high", "critical"]).to_string());
            let reference = rng.chance(25);
            let mut params = json!({"tool_name": tool, "rule": text, "id": rule_id});
            if let Some(priority) = &priority {
                params["priority"] = json!(priority);
            }
            let kept = model.get(&key).map(|(_, priority)| priority.clone());
            let stored_priority = priority.or(kept).unwrap_or_else(|| "normal".to_owned());
            model.insert(key, (text, stored_priority));
            let method = if reference {
                "openhuman.memory_tool_rule_put"
            } else {
                "memory.tool_rule_put"
            };
            Generated {
                request: base(method, params),
                expect: silent_or(Expect::Result(None)),
            }
        }
        6..=7 => {
            let existed = model.remove(&key).is_some();
            Generated {
                request: base(
                    "memory.tool_rule_delete",
                    json!({"tool_name": tool, "id": rule_id}),
                ),
                expect: silent_or(Expect::Result(Some(json!(existed)))),
            }
        }
        8..=9 => {
            let stored = model.get(&key).map(|(text, _)| json!(text));
            Generated {
                request: base(
                    "memory.tool_rule_get",
                    json!({"tool_name": tool, "id": rule_id}),
                ),
                expect: silent_or(Expect::Result(Some(stored.unwrap_or(Value::Null)))),
            }
        }
        // Bad params: each must be refused before anything is written.
        10..=14 => {
            let (params, field): (Value, Option<&'static str>) = match rng.below(10) {
                0 => (json!({"tool_name": tool}), Some("rule")),
                1 => (json!({"tool_name": 5, "rule": "x"}), Some("tool_name")),
                2 => (json!({"tool_name": tool, "rule": ["x"]}), Some("rule")),
                3 => (
                    json!({"tool_name": tool, "rule": "x", "colour": "red"}),
                    Some("colour"),
                ),
                4 => (
                    json!({"tool_name": tool, "rule": "x", "priority": "urgent"}),
                    Some("priority"),
                ),
                5 => (
                    json!({"tool_name": tool, "rule": "x".repeat(4097)}),
                    Some("rule"),
                ),
                6 => (
                    json!({"tool_name": tool, "rule": "x", "tags": vec!["t"; 33]}),
                    Some("tags"),
                ),
                7 => (json!({"tool_name": "  ", "rule": "x"}), Some("tool_name")),
                8 => (
                    json!({"tool_name": "a\u{7}b", "rule": "x"}),
                    Some("tool_name"),
                ),
                _ => (json!(["bash", "x"]), None),
            };
            Generated {
                request: base("memory.tool_rule_put", params),
                expect: silent_or(Expect::Error(-32602, field)),
            }
        }
        15 => Generated {
            request: base(
                rng.pick::<&str>(&["memory.nope", "tool_rule_put", "", "memory.tool_rule_put "]),
                json!({}),
            ),
            expect: silent_or(Expect::Error(-32601, None)),
        },
        // Malformed envelopes: always answered with -32600, even without an id.
        _ => {
            let request = match rng.below(6) {
                0 => json!({"jsonrpc": "1.0", "id": id, "method": "memory.tool_rule_list"}),
                1 => json!({"jsonrpc": "2.0", "id": id}),
                2 => json!({"jsonrpc": "2.0", "id": id, "method": 42}),
                3 => {
                    json!({"jsonrpc": "2.0", "id": {"nested": id}, "method": "memory.tool_rule_put", "params": {"tool_name": "bash", "rule": "must not be stored"}})
                }
                4 => json!("memory.tool_rule_put"),
                _ => json!(null),
            };
            Generated {
                request,
                expect: Expect::Error(-32600, None),
            }
        }
    }
}

/// Checks one reply object against what was expected of its request.
fn check_reply(reply: &Value, expect: &Expect, sent_id: &Value) -> Result<()> {
    let object = reply.as_object().context("a reply is an object")?;
    ensure!(object.get("jsonrpc") == Some(&json!("2.0")), "{reply}");
    ensure!(object.contains_key("id"), "{reply}");
    ensure!(
        object.contains_key("result") != object.contains_key("error"),
        "exactly one of result and error: {reply}"
    );
    match expect {
        Expect::Silent => bail!("a notification was answered: {reply}"),
        Expect::Result(value) => {
            ensure!(
                &object["id"] == sent_id,
                "id not echoed: sent {sent_id}, got {reply}"
            );
            let result = object
                .get("result")
                .with_context(|| format!("expected a result: {reply}"))?;
            if let Some(value) = value {
                // Gets are compared by rule text; deletes by their boolean.
                let actual = if value.is_string() {
                    &result["rule"]
                } else {
                    result
                };
                ensure!(actual == value, "expected {value}, got {reply}");
            }
        }
        Expect::Error(code, field) => {
            let error = object
                .get("error")
                .with_context(|| format!("expected an error: {reply}"))?;
            ensure!(error["code"] == json!(code), "expected {code}: {reply}");
            ensure!(error["message"].is_string(), "{reply}");
            if let Some(field) = field {
                ensure!(
                    error["data"]["field"] == json!(field),
                    "expected field {field}: {reply}"
                );
            }
        }
    }
    Ok(())
}

/// A huge id of some kind; what comes back must be what serde_json reads from the same text.
fn huge_id(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => format!("\"{}\"", "i".repeat(20_000)),
        1 => "18446744073709551617".to_owned(),
        2 => "-9223372036854775809".to_owned(),
        _ => format!("1{}", "0".repeat(300)),
    }
}

#[tokio::test]
async fn thousands_of_generated_requests_leave_exactly_the_valid_writes() -> Result<()> {
    let seed = std::env::var("TOOLMEM_FUZZ_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(0x7001_u64);
    let result = run(seed).await;
    result.with_context(|| format!("fuzz seed {seed} (rerun with TOOLMEM_FUZZ_SEED={seed})"))
}

async fn run(seed: u64) -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let server = Server::start(&db, &["--max-body", &MAX_BODY.to_string()])?;
    let url = format!("{}/rpc", server.url);
    let http = server.client().clone();
    let mut rng = Rng(seed);
    let mut model = Model::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let post = |body: Vec<u8>| {
        let http = http.clone();
        let url = url.clone();
        async move {
            let response = http
                .post(url)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await?;
            let status = response.status().as_u16();
            let bytes = response.bytes().await?;
            anyhow::Ok((status, bytes))
        }
    };

    for index in 0..REQUESTS {
        let id = json!(index);
        let kind = rng.below(100);
        match kind {
            // A single request, maybe a notification.
            0..=54 => {
                let notify = rng.chance(10);
                let generated = one_request(&mut rng, &mut model, id.clone(), notify, true);
                let (status, body) = post(serde_json::to_vec(&generated.request)?).await?;
                if generated.expect == Expect::Silent {
                    ensure!(
                        status == 204 && body.is_empty(),
                        "notification got {status}"
                    );
                } else {
                    ensure!(status == 200, "status {status} for {}", generated.request);
                    let sent_id = generated.request.get("id").cloned().unwrap_or(Value::Null);
                    let sent_id = if generated.expect == Expect::Error(-32600, None)
                        && !sent_id.is_string()
                        && !sent_id.is_number()
                    {
                        Value::Null
                    } else {
                        sent_id
                    };
                    check_reply(&serde_json::from_slice(&body)?, &generated.expect, &sent_id)
                        .with_context(|| format!("request {}", generated.request))?;
                }
                *counts.entry("single").or_default() += 1;
            }
            // A batch mixing good and bad calls and notifications; replies matched by id.
            55..=69 => {
                let len = 1 + rng.below(12);
                let mut requests = Vec::new();
                let mut expects = Vec::new();
                for element in 0..len {
                    let element_id = json!(format!("{index}-{element}"));
                    let notify = rng.chance(20);
                    let generated =
                        one_request(&mut rng, &mut model, element_id.clone(), notify, false);
                    requests.push(generated.request);
                    expects.push((element_id, generated.expect));
                }
                let (status, body) = post(serde_json::to_vec(&requests)?).await?;
                let answered: Vec<&(Value, Expect)> = expects
                    .iter()
                    .filter(|(_, expect)| *expect != Expect::Silent)
                    .collect();
                if answered.is_empty() {
                    ensure!(status == 204, "a batch of notifications got {status}");
                    continue;
                }
                ensure!(status == 200, "batch status {status}");
                let replies: Vec<Value> = serde_json::from_slice(&body)?;
                ensure!(
                    replies.len() == answered.len(),
                    "batch replies {} for {}",
                    replies.len(),
                    answered.len()
                );
                // Malformed elements reply with a null id, in order; the rest carry their id.
                let mut replies = replies.into_iter();
                for (element_id, expect) in answered {
                    let reply = replies.next().context("reply")?;
                    let sent = if reply["id"].is_null() {
                        Value::Null
                    } else {
                        element_id.clone()
                    };
                    check_reply(&reply, expect, &sent)
                        .with_context(|| format!("batch element {element_id}"))?;
                }
                *counts.entry("batch").or_default() += 1;
            }
            // Bodies that are not JSON: truncated, not UTF-8, deeply nested, empty batch.
            70..=84 => {
                let mut scratch = Rng(rng.next());
                let valid = serde_json::to_vec(
                    &one_request(&mut scratch, &mut Model::new(), id.clone(), false, true).request,
                )?;
                let body = match rng.below(5) {
                    0 | 1 => valid[..rng.below(valid.len())].to_vec(),
                    2 => {
                        let mut bytes = valid.clone();
                        let at = rng.below(bytes.len());
                        bytes.insert(at, *rng.pick(&[0xff_u8, 0xc0, 0x80, 0xfe]));
                        bytes
                    }
                    3 => format!("{}1{}", "[".repeat(200 + rng.below(2000)), "]".repeat(10))
                        .into_bytes(),
                    _ => b"[]".to_vec(),
                };
                let expected_code = if body == b"[]" { -32600 } else { -32700 };
                let (status, reply) = post(body).await?;
                ensure!(status == 200, "status {status}");
                let reply: Value = serde_json::from_slice(&reply)?;
                check_reply(&reply, &Expect::Error(expected_code, None), &Value::Null)?;
                *counts.entry("not json").or_default() += 1;
            }
            // Huge ids, echoed exactly as serde_json reads them (or a parse error when out of
            // any number's range).
            85..=92 => {
                let id_text = huge_id(&mut rng);
                let body = format!(
                    r#"{{"jsonrpc":"2.0","id":{id_text},"method":"memory.tool_rule_list","params":{{"tool_name":"bash"}}}}"#
                );
                let (status, reply) = post(body.into_bytes()).await?;
                ensure!(status == 200, "status {status}");
                let reply: Value = serde_json::from_slice(&reply)?;
                match serde_json::from_str::<Value>(&id_text) {
                    Ok(sent) => check_reply(&reply, &Expect::Result(None), &sent)?,
                    Err(_) => check_reply(&reply, &Expect::Error(-32700, None), &Value::Null)?,
                }
                *counts.entry("huge id").or_default() += 1;
            }
            // Over the body limit: 413 and nothing stored, even for a valid put.
            _ => {
                let rule = "o".repeat(MAX_BODY + rng.below(MAX_BODY));
                let body = serde_json::to_vec(
                    &json!({"jsonrpc": "2.0", "id": id, "method": "memory.tool_rule_put", "params": {"tool_name": "bash", "rule": rule, "id": "oversized"}}),
                )?;
                // The server answers 413 as soon as the body passes the limit and may close the
                // connection before the client has sent the rest; the client then sees either
                // the 413 or the connection closed. Either way the server must still be up.
                // A client of its own without a connection pool: the server closes the
                // connection after a 413, and a pooled client could pick that dead connection
                // for the next, valid request.
                let once = reqwest::Client::builder()
                    .pool_max_idle_per_host(0)
                    .build()?;
                let sent = once
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await;
                match sent {
                    Ok(response) => {
                        let status = response.status().as_u16();
                        ensure!(status == 413, "oversized body got {status}");
                    }
                    Err(err) => {
                        let health = http.get(format!("{}/healthz", server.url)).send().await;
                        ensure!(
                            health.is_ok_and(|health| health.status() == 200),
                            "the server is down after an oversized body: {err:#}"
                        );
                    }
                }
                *counts.entry("oversized").or_default() += 1;
            }
        }
    }

    // Still up, and the database holds exactly the model.
    let health = http.get(format!("{}/healthz", server.url)).send().await?;
    ensure!(health.status() == 200);
    let mut stored = Model::new();
    for tool in TOOLS {
        let listed = server
            .result(
                "memory.tool_rule_list",
                json!({"tool_name": tool, "include_revoked": true}),
            )
            .await?;
        for rule in listed.as_array().context("list")? {
            let key = (
                normalized(tool),
                rule["id"].as_str().context("id")?.to_owned(),
            );
            let value = (
                rule["rule"].as_str().context("rule")?.to_owned(),
                rule["priority"].as_str().context("priority")?.to_owned(),
            );
            ensure!(stored.insert(key, value).is_none(), "duplicate rule {rule}");
        }
    }
    let tools = server
        .result("memory.tool_rules_for_prompt", json!({}))
        .await?;
    ensure!(tools["rendered"].is_string());
    ensure!(
        stored == model,
        "store and model differ:\nstore {stored:?}\nmodel {model:?}"
    );
    eprintln!(
        "fuzz seed {seed}: {counts:?}, {} rules at the end",
        stored.len()
    );
    server.stop()
}

/// Over stdio a line that is not UTF-8 gets a parse error reply and the server reads on
/// (it used to stop with "reading stdin").
#[test]
fn stdio_answers_a_line_that_is_not_utf8_and_goes_on() -> Result<()> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir()?;
    let mut child = Command::new(crate::support::TOOLMEM)
        .args(["serve", "--stdio", "--db"])
        .arg(dir.path().join("rules.sqlite3"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().context("stdin")?;
    stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"memory.tool_rule_put\",\"params\":{\"tool_name\":\"bash\",\"rule\":\"\xff\xfe\"}}\n")?;
    stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"memory.tool_rule_list\",\"params\":{\"tool_name\":\"bash\"}}\n")?;
    drop(stdin);
    let lines: Vec<Value> = BufReader::new(child.stdout.take().context("stdout")?)
        .lines()
        .map(|line| Ok(serde_json::from_str(&line?)?))
        .collect::<Result<_>>()?;
    ensure!(child.wait()?.success());
    ensure!(lines.len() == 2, "{lines:?}");
    ensure!(lines[0]["error"]["code"] == -32700, "{}", lines[0]);
    ensure!(lines[1]["result"] == json!([]), "{}", lines[1]);
    Ok(())
}
