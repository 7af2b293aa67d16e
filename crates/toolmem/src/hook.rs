//! `toolmem hook AGENT`: toolmem inside an agent's own hook, run once per event as a new
//! process. It reads the agent's JSON from stdin (at most [`MAX_HOOK_INPUT_BYTES`]), turns it
//! into one [`Event`] through that agent's adapter (`hook/claude_code.rs`, `codex.rs`,
//! `gemini.rs`, `cursor.rs`), makes the one facade call the event needs, and prints the answer
//! in that agent's format. The adapters hold no policy: the verdict is the guard's, the same for
//! every agent.
//!
//! It never fails into "allow". Exit codes mean different things to each agent (in Claude
//! Code, Codex and Gemini CLI only 2 blocks, and any other failure lets the call run), so every
//! internal error (input too large or malformed, the database unreadable) becomes the agent's
//! own way of refusing, with the reason.

mod claude_code;
mod codex;
mod cursor;
mod event;
mod gemini;

use std::future::Future;
use std::io::{Read, Write};
use std::process::ExitCode;

use active_memory_client::ActiveMemoryClient;
use serde_json::Value;

use crate::limits::{MAX_HOOK_CONTEXT_CHARS, MAX_HOOK_INPUT_BYTES};

pub(crate) use self::event::{Event, Outcome};

/// The agents `toolmem hook` speaks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Agent {
    /// Claude Code (also VS Code's agent hooks, which read the same answers). `claude` is the
    /// name of its command, so people write that too.
    #[value(alias = "claude")]
    ClaudeCode,
    /// OpenAI Codex CLI.
    Codex,
    /// Gemini CLI, also spelt as its product name `gemini-cli`.
    #[value(alias = "gemini-cli")]
    Gemini,
    /// Cursor.
    Cursor,
}

/// What the hook prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Answer {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) code: u8,
}

impl Answer {
    /// Says nothing and lets the agent carry on as it would without toolmem.
    pub(crate) fn silent() -> Answer {
        Answer::default()
    }

    /// `value` as one JSON line on stdout, exit 0.
    pub(crate) fn json(value: &Value) -> Answer {
        Answer {
            stdout: format!("{value}\n"),
            ..Answer::default()
        }
    }

    /// Blocks the way Claude Code, Codex and Gemini CLI all read: exit 2, the reason on stderr.
    pub(crate) fn exit_2(reason: &str) -> Answer {
        Answer {
            stderr: format!("{reason}\n"),
            code: 2,
            ..Answer::default()
        }
    }
}

impl Agent {
    /// Reads the agent's payload into an event; the error says what is wrong with it.
    fn parse(self, payload: &Value) -> Result<Event, String> {
        match self {
            Agent::ClaudeCode => claude_code::parse(payload),
            Agent::Codex => codex::parse(payload),
            Agent::Gemini => gemini::parse(payload),
            Agent::Cursor => cursor::parse(payload),
        }
    }

    /// The answer to an event, in the agent's format.
    fn answer(self, event: &Event, outcome: &Outcome) -> Answer {
        match self {
            Agent::ClaudeCode => claude_code::answer(event, outcome),
            Agent::Codex => codex::answer(event, outcome),
            Agent::Gemini => gemini::answer(event, outcome),
            Agent::Cursor => cursor::answer(event, outcome),
        }
    }

    /// The agent's way of refusing when toolmem cannot decide.
    fn fail_closed(self, event: Option<&Event>, reason: &str) -> Answer {
        let reason = format!("toolmem could not check this, so it is refused: {reason}");
        match self {
            Agent::ClaudeCode | Agent::Codex | Agent::Gemini => Answer::exit_2(&reason),
            Agent::Cursor => cursor::fail_closed(event, &reason),
        }
    }
}

/// Runs one hook event for `agent` and returns the exit code; `open` opens the database, and
/// is called only for an event that needs it.
pub(crate) async fn run<F, Fut>(agent: Agent, open: F) -> ExitCode
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = anyhow::Result<ActiveMemoryClient>>,
{
    let answer = decide(agent, &mut std::io::stdin().lock(), open).await;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(answer.stdout.as_bytes());
    let _ = stdout.flush();
    let _ = std::io::stderr().write_all(answer.stderr.as_bytes());
    ExitCode::from(answer.code)
}

async fn decide<F, Fut>(agent: Agent, input: &mut impl Read, open: F) -> Answer
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = anyhow::Result<ActiveMemoryClient>>,
{
    let bytes = match read_bounded(input, MAX_HOOK_INPUT_BYTES) {
        Ok(bytes) => bytes,
        Err(reason) => return agent.fail_closed(None, &reason),
    };
    let payload: Value = match serde_json::from_slice(&bytes) {
        Ok(payload) => payload,
        Err(err) => return agent.fail_closed(None, &format!("stdin is not JSON: {err}")),
    };
    let event = match agent.parse(&payload) {
        Ok(event) => event,
        Err(reason) => return agent.fail_closed(None, &reason),
    };
    if let Event::Other = event {
        // Nothing toolmem decides; not even the database is opened.
        return Answer::silent();
    }
    let client = match open().await {
        Ok(client) => client,
        Err(err) => {
            return agent.fail_closed(
                Some(&event),
                &format!(
                    "the rules database cannot be opened: {}",
                    crate::error_chain(&err)
                ),
            );
        }
    };
    let answer = match event::run(&client, &event).await {
        Ok(outcome) => agent.answer(&event, &outcome),
        Err(err) => agent.fail_closed(
            Some(&event),
            &format!("the rules database cannot be read: {err}"),
        ),
    };
    // The process exits once the answer is printed.
    client.close_for_exit();
    answer
}

/// Reads all of `input` if it holds at most `limit` bytes; an error naming the limit otherwise.
fn read_bounded(input: &mut impl Read, limit: usize) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    input
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| format!("could not read stdin: {err}"))?;
    if bytes.len() > limit {
        return Err(format!(
            "the hook input is larger than {} MiB",
            limit / (1024 * 1024)
        ));
    }
    Ok(bytes)
}

/// `text` cut, at a line end, to under [`MAX_HOOK_CONTEXT_CHARS`] characters, with a last line
/// saying how many lines did not fit; unchanged when it fits.
pub(crate) fn fit_context(text: &str) -> String {
    fit_context_to(text, MAX_HOOK_CONTEXT_CHARS)
}

fn fit_context_to(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Room for the note, whose numbers have at most as many digits as the line count.
    let note = |left_out: usize| {
        format!(
            "\n**{left_out} more line(s) of rules did not fit the agent's {} character limit for context.** They still apply to every tool call; `toolmem prompt` shows them all.\n",
            limit + 1
        )
    };
    let room = limit.saturating_sub(note(lines.len()).chars().count());
    let mut kept = String::new();
    let mut used = 0;
    let mut count = 0;
    for line in &lines {
        let length = line.chars().count();
        if used + length > room {
            break;
        }
        kept.push_str(line);
        used += length;
        count += 1;
    }
    if !kept.ends_with('\n') && !kept.is_empty() {
        kept.push('\n');
    }
    kept.push_str(&note(lines.len() - count));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_read_up_to_the_limit_and_refused_past_it() {
        let at_limit = vec![b'x'; 64];
        assert_eq!(
            read_bounded(&mut at_limit.as_slice(), 64).unwrap().len(),
            64
        );
        let past = vec![b'x'; 65];
        let err = read_bounded(&mut past.as_slice(), 64).unwrap_err();
        assert!(err.contains("larger than"), "{err}");
        // The real limit, at it and one byte past it.
        let at_limit = vec![b' '; MAX_HOOK_INPUT_BYTES];
        assert!(read_bounded(&mut at_limit.as_slice(), MAX_HOOK_INPUT_BYTES).is_ok());
        let past = vec![b' '; MAX_HOOK_INPUT_BYTES + 1];
        let err = read_bounded(&mut past.as_slice(), MAX_HOOK_INPUT_BYTES).unwrap_err();
        assert!(err.contains("16 MiB"), "{err}");
    }

    #[test]
    fn context_is_cut_at_a_line_with_a_visible_note() {
        let short = "## Tool-scoped rules\n- a\n";
        assert_eq!(fit_context(short), short);
        let long: String = (0..2000).map(|n| format!("- rule number {n}\n")).collect();
        let fitted = fit_context(&long);
        assert!(fitted.chars().count() <= MAX_HOOK_CONTEXT_CHARS);
        assert!(fitted.starts_with("- rule number 0\n"));
        let kept = fitted.lines().filter(|line| line.starts_with("- ")).count();
        assert!(
            fitted.contains(&format!("**{} more line(s)", 2000 - kept)),
            "{}",
            &fitted[fitted.len() - 200..]
        );
        // Exactly at the limit it is left alone; one past it is cut.
        let exact = "x".repeat(MAX_HOOK_CONTEXT_CHARS);
        assert_eq!(fit_context(&exact), exact);
        let over = format!("{exact}y");
        assert!(fit_context(&over).chars().count() <= MAX_HOOK_CONTEXT_CHARS);
    }
}
