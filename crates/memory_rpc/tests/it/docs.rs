//! Replays every `→` request of `docs/rpc.md`, in page order, against one fresh deterministic
//! handler and requires the `←` reply byte for byte, so the user documentation cannot drift
//! from what the server does.

use anyhow::{Context, Result, ensure};

use crate::support::handler;

const NO_REPLY: &str = "(no reply)";

#[tokio::test]
async fn every_documented_exchange_is_what_the_server_does() -> Result<()> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rpc.md");
    let page = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let handler = handler()?;
    let mut lines = page.lines().enumerate();
    let mut replayed = 0;
    while let Some((number, line)) = lines.next() {
        let Some(body) = line.strip_prefix("→ ") else {
            continue;
        };
        let expected = lines
            .next()
            .and_then(|(_, line)| line.strip_prefix("← "))
            .with_context(|| {
                format!("docs/rpc.md:{}: a request without a reply line", number + 1)
            })?;
        let expected = (expected != NO_REPLY).then_some(expected);
        let actual = handler.handle_text(body).await;
        ensure!(
            actual.as_deref() == expected,
            "docs/rpc.md:{}\nrequest:  {body}\ndocument: {}\nserver:   {}",
            number + 1,
            expected.unwrap_or(NO_REPLY),
            actual.as_deref().unwrap_or(NO_REPLY),
        );
        replayed += 1;
    }
    ensure!(
        replayed >= 30,
        "only {replayed} exchanges found in docs/rpc.md"
    );
    Ok(())
}
