//! The fail-safe reading of a rule the grammar could not read: a critical or high rule whose
//! words order a ban or an ask but from which derivation took no constraint. It is about its
//! salient literals (code spans, commands and programs, paths, hosts, URLs, addresses, ids,
//! quoted text), so a call that carries one of them is asked about rather than silently allowed
//! (issue 21, fourth round). It never denies: the reading is a guess at what the rule is about,
//! not at what it orders.

use std::borrow::Cow;

use tool_memory_core::{ToolMemoryPriority, ToolMemoryRule};

use super::lexicon::{AMBIGUOUS_PROGRAM, COMMON_WORD, Cues, PROGRAM};
use super::tokens::{TokenKind, tokenize};
use super::whole_tool::{own_words, says_read_only};
use super::{asks_about_a_rule, gives_an_order, is_program, spelling};
use crate::normalize::WordRuns;
use crate::rule_text::ordering_clauses;
use crate::{Access, Constraint, MAX_MATCHERS, Matcher, MatcherKind};

/// The longest text the fallback reads whole: a few sentences, as a rule and its reason are
/// written (the fourth round's cases are under 100 bytes); past it only the clauses that give
/// an order are read.
const MAX_WHOLE_TEXT_BYTES: usize = 400;

/// The shortest id the fallback takes from prose (`OPS-22`, `vm-07`): shorter mixes of
/// letters and digits (`s3`, `2fa`, `v2`) are words people use about many things.
const MIN_ID_CHARS: usize = 5;

/// The fallback constraint of a rule whose text derives none (see the module's doc), or
/// `None` when the rule is of normal priority, gives no order of a ban or an ask, or names
/// nothing a call could carry: it then stays advice.
pub(crate) fn fallback_constraint(rule: &ToolMemoryRule) -> Option<Constraint> {
    if rule.priority == ToolMemoryPriority::Normal {
        return None;
    }
    fallback_from_text(&rule.rule, &rule.tool_name)
}

/// [`fallback_constraint`] on the text and tool name alone, whatever the priority.
pub(crate) fn fallback_from_text(text: &str, tool_name: &str) -> Option<Constraint> {
    let text = text.replace('’', "'");
    let text = match spelling::plain_rule_text(&text) {
        Cow::Borrowed(_) => text.clone(),
        Cow::Owned(plain) => plain,
    };
    if asks_about_a_rule(&text) {
        return None;
    }
    let lower = text.to_lowercase();
    let cues = Cues::of(&WordRuns::new(&lower));
    let read_only = says_read_only(&lower);
    // "Only X" names what is allowed: a call carrying X is the harmless one, so the literals of
    // an allowlist without a ban or an ask of its own say nothing the fallback could use.
    if cues.ask.is_none() && cues.forbid.is_none() && !read_only {
        return None;
    }
    // The rule's own tool named in its text ("Don't use `google_web_search` for ..."): every
    // call of it carries it, as the command the tool is.
    let tool = tool_name.trim().to_lowercase();
    let own_tool = tool.rsplit("__").next().unwrap_or(&tool).to_owned();
    // A long text (a pasted section of a CLAUDE.md) names many things beside its orders: only
    // its ordering clauses' literals are read, so that one "never" in it does not make every
    // path and command it mentions ask. A short one is read whole: "`ledger-prod` belongs to
    // the SREs. Hands off." names in one sentence what the other orders.
    let read: Cow<'_, str> = if text.len() <= MAX_WHOLE_TEXT_BYTES {
        Cow::Borrowed(&text)
    } else {
        ordering_clauses(&text, gives_an_order, is_program)
    };
    let read_lower = read.to_lowercase();
    let mut matchers: Vec<Matcher> = Vec::new();
    for token in tokenize(&read, &read_lower) {
        let names_the_tool = own_tool.contains('_')
            && (token.lower == own_tool.as_str() || token.lower == tool.as_str());
        let matcher = match &token.kind {
            _ if names_the_tool => match own_words(&tool) {
                Some(words) => Matcher::new(MatcherKind::Command, words.join(" ")),
                None => continue,
            },
            TokenKind::Entity(
                kind @ (MatcherKind::Email
                | MatcherKind::Domain
                | MatcherKind::Url
                | MatcherKind::Path
                | MatcherKind::Host
                | MatcherKind::Flag
                | MatcherKind::Literal),
                value,
            ) => Matcher::new(*kind, value.clone()),
            TokenKind::Entity(..) => continue,
            TokenKind::QuotedCommand(command) => {
                Matcher::new(MatcherKind::Command, command.clone())
            }
            TokenKind::Word
                if token.class & PROGRAM != 0
                    && token.class & (AMBIGUOUS_PROGRAM | COMMON_WORD) == 0 =>
            {
                Matcher::new(MatcherKind::Command, token.lower.clone().into_owned())
            }
            TokenKind::Word if is_id(token.text) => {
                Matcher::new(MatcherKind::Literal, token.lower.clone().into_owned())
            }
            TokenKind::Word => continue,
        };
        if !matchers.contains(&matcher)
            && Constraint::forbid(vec![matcher.clone()]).validate().is_ok()
        {
            matchers.push(matcher);
        }
        if matchers.len() == MAX_MATCHERS {
            break;
        }
    }
    if matchers.is_empty() {
        return None;
    }
    let access = read_only.then_some(Access::Write);
    Some(
        Constraint::forbid(matchers)
            .with_ask_first(true)
            .with_access(access),
    )
}

/// Whether a word of prose is an id: letters and digits mixed, joined by `-`, `_` or `.`
/// (`OPS-2291`, `vm-ledger-07`, `i-0a1b2c3d`, `pr-1879-preview`).
fn is_id(word: &str) -> bool {
    word.chars().count() >= MIN_ID_CHARS
        && word.chars().any(|ch| ch.is_ascii_digit())
        && word.chars().any(|ch| ch.is_alphabetic())
        && word
            .chars()
            .all(|ch| ch.is_alphanumeric() || "-_.".contains(ch))
        && word.contains(['-', '_'])
}

#[cfg(test)]
mod tests {
    use super::fallback_from_text;

    /// The fallback of `text` on `tool` in its JSON form (`None`: the rule stays advice).
    fn check(tool: &str, text: &str, expected: Option<&str>) {
        let fallback = fallback_from_text(text, tool).map(|constraint| constraint.to_json());
        assert_eq!(fallback.as_deref(), expected, "{tool}: {text}");
    }

    #[test]
    fn a_ban_or_an_ask_asks_about_its_salient_literals() {
        check(
            "bash",
            "The `ledger-prod` cluster belongs to the finance SREs. Hands off.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"literal","value":"ledger-prod"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "jira",
            "Please keep your hands off ticket OPS-2291 - legal is reviewing it.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"literal","value":"ops-2291"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "bash",
            "Under no circumstances should anything reach 10.20.0.15 - that box is the HSM.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"host","value":"10.20.0.15"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "google_web_search",
            "Don't use `google_web_search` for error messages that contain hostnames.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"command","value":"google web search"}],"polarity":"forbid"}"#,
            ),
        );
    }

    #[test]
    fn read_only_asks_about_writes() {
        check(
            "bash",
            "`analytics-db` is read-only for you.",
            Some(
                r#"{"access":"write","ask_first":true,"matchers":[{"kind":"literal","value":"analytics-db"}],"polarity":"forbid"}"#,
            ),
        );
    }

    #[test]
    fn a_long_text_is_read_in_its_orders_only() {
        let padding =
            "The project is a web shop written in TypeScript with a Postgres database. ".repeat(6);
        check(
            "bash",
            &format!(
                "{padding}Tests live in `tests/` and run with `npm test`. Never touch `db-prod-1`."
            ),
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"literal","value":"db-prod-1"}],"polarity":"forbid"}"#,
            ),
        );
    }

    #[test]
    fn no_order_or_no_literal_stays_advice() {
        // No cue of a ban or an ask: a description.
        check(
            "bash",
            "The `ledger-prod` cluster belongs to finance.",
            None,
        );
        // An allowlist names what is allowed.
        check("bash", "Only deploy to `staging`.", None);
        // An order that names nothing a call could carry.
        check("send_email", "Don't email my landlord.", None);
        // A question about a rule is no order.
        check(
            "bash",
            "The README says never to run `./scripts/seed.sh` twice. Is that still true?",
            None,
        );
        // Short mixes of letters and digits are words, not ids.
        check("bash", "Never touch s3 or v2 without a reason.", None);
    }
}
