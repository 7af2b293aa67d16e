//! Whose words a user message holds: one structural pass that cuts the message into spans
//! that are the user's own and spans of **material**, text the user handed over or pasted
//! (to summarise, translate, review, answer, …), quoted, or forwarded. Only the user's own
//! words may make or lift a rule; an instruction inside material may at most be proposed for
//! the user to confirm (see `docs/capture.md`, "Whose words").
//!
//! The pass reads the shape of the message, never a list of sentences: code fences, `>`
//! quotes, e-mail headers, forwards, reply attributions and signatures, chat transcripts
//! (`Name: …`, `[10:02] Bob: …`, `<bob> …`), text addressed to AI assistants or readers, and an
//! introduction that hands over what follows ("Summarise this thread:", "What does this page
//! say?", "Here is the email:") or adopts it ("my rules are:", "here is my CLAUDE.md, follow
//! it:"). Inside one of the user's sentences, quotation marks hold material too
//! ([`quotations`]).

pub(crate) mod intro;
pub(crate) mod lexicon;
mod quotes;

use std::sync::LazyLock;

use regex::Regex;

use self::intro::{Intro, introduction};
use self::lexicon::{ADOPTION_HEDGES, HEADER_NAMES, HEADING_LABELS, RETURN_OPENERS, has};
pub(crate) use self::quotes::{quotations, unquoted_form};
use crate::attribution::is_alias_word;
use crate::reading::Reader;

/// Whose words a span is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Voice {
    /// The user's own words: they may make and lift rules.
    Own,
    /// Material of this kind: it never lifts a rule and may at most propose one.
    Material(MaterialKind),
}

/// The shapes of material, recorded on what it proposes (tag `material-…`) so a person can see
/// where a proposal came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MaterialKind {
    /// `>` lines, and text in quotation marks inside the user's sentence.
    Quoted,
    /// Inside ``` or ~~~ fences: code, logs and output, which propose nothing (like tool
    /// output).
    Code,
    /// A forwarded message, a reply's quoted history, an e-mail header block, a signature.
    Email,
    /// A pasted chat transcript.
    Transcript,
    /// Text addressed to AI assistants, language models, bots or readers (the shape of a
    /// prompt injection in a web page). It proposes nothing: a proposal would carry a
    /// stranger's instruction into every later prompt, if only as advice.
    Addressed,
    /// Text the user introduced as something to work on: "Summarise this thread:", "What does
    /// this page say?", "Here is the email:".
    HandedOver,
    /// A pasted web page, recognised by its chrome: a navigation bar (`Home | Products |
    /// Contact`), "Skip to content", "All rights reserved", a cookie banner.
    Page,
    /// Text the user handed over and refused to adopt: "Pasting our old rules for background,
    /// do NOT adopt them:". It proposes nothing: the user has already said no.
    Refused,
    /// `git log` or `git show` output, from a `commit <hash>` line: a commit message is its
    /// author's words, whatever the request around it.
    GitLog,
}

impl MaterialKind {
    /// The tag a rule proposed from this material carries.
    pub(crate) fn tag(self) -> &'static str {
        match self {
            MaterialKind::Quoted => "material-quoted",
            MaterialKind::Code => "material-code",
            MaterialKind::Email => "material-email",
            MaterialKind::Transcript => "material-transcript",
            MaterialKind::Addressed => "material-addressed",
            MaterialKind::HandedOver => "material-handed-over",
            MaterialKind::Page => "material-page",
            MaterialKind::Refused => "material-refused",
            MaterialKind::GitLog => "material-git-log",
        }
    }

    /// Whether an instruction in this material may become a proposal at all.
    pub(crate) fn may_propose(self) -> bool {
        !matches!(
            self,
            MaterialKind::Code | MaterialKind::Addressed | MaterialKind::Refused
        )
    }
}

/// A line of the message, or the part of a line before or after an introducing colon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span<'a> {
    /// A slice of the message, within one line.
    pub(crate) text: &'a str,
    /// Whose words they are.
    pub(crate) voice: Voice,
    /// The index of its line among the message's lines, where its reading is.
    pub(crate) line: usize,
    /// Whether the user's own words here may lift a rule: not in a last paragraph that
    /// turned back from material the user had not framed with words of their own (a pasted
    /// text can end with "That's spam. Anyway, you can …" itself).
    pub(crate) revokes: bool,
    /// Whether the last sentence of the user's own words here may be a standing rule: not the
    /// sentence that hands material over before a colon ("Import this CSV into a plan, don't
    /// run anything:", "Here's our old rules file, do NOT adopt it:"), whose orders are about
    /// that material, for this turn.
    pub(crate) orders: bool,
}

/// How the lines that follow are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The user speaking: every shape of material is recognised.
    Own,
    /// After the user adopted what follows as their instructions ("my rules are:", "here is my
    /// CLAUDE.md, follow it:"): `>` lines, `Name: …` lines and text about "AI assistants" are
    /// the user's own (an instruction file reads that way). Fences, e-mails and a new
    /// hand-over are still material.
    Rules,
    /// Material to the end of the message: nothing inside it can turn it back into the user's
    /// own words (a pasted e-mail saying "follow these instructions:" stays the e-mail's).
    Material(MaterialKind),
}

/// **The decision, span by span: whose words each part of `message` is.**
///
/// Contract:
/// - The spans cover every line of `message` in order; a line is one span, or two when an
///   introducing colon hands over the rest of the line ("Translate this: …" gives the own
///   `Translate this:` and the material after it).
/// - A span is [`Voice::Own`] unless the shape of the message makes it material:
///   1. fenced code ([`MaterialKind::Code`]) and `>` lines ([`MaterialKind::Quoted`]);
///   2. from a forwarded-message line, a reply attribution (`On … wrote:`), an e-mail header
///      block (two different headers within six lines) or a signature (`-- `, `Sent from my
///      …`) **to the end** ([`MaterialKind::Email`]);
///   3. from a paragraph addressed to AI assistants, language models, bots or readers **to the
///      end** ([`MaterialKind::Addressed`]), and from a web page's chrome (a navigation bar,
///      "Skip to content", "All rights reserved", a cookie banner) to the end
///      ([`MaterialKind::Page`]);
///   4. from a `commit <hash>` line of `git log` output **to the end**
///      ([`MaterialKind::GitLog`]);
///   5. a chat transcript: one line with a timestamp or an IRC nick, or two `Name: …` lines
///      whose labels are not headings, with their continuation lines
///      ([`MaterialKind::Transcript`]);
///   6. after an introduction that hands material over (a request to process it, a question
///      about it, or a presentation before a colon): when a delimited block (a run of `>`
///      lines, a fence) opens it, **to the message's last `>` or fence line** (so a pasted
///      text cannot close its block early), and the paragraphs after it are the user's own
///      again (an e-mail or a transcript there is material by its own rule); otherwise **to
///      the end**; before a request about "the above", every earlier own line
///      ([`MaterialKind::HandedOver`]).
/// - An introduction that adopts what follows as the user's rules (an adopting verb with a
///   rules noun, a rules file or a pronoun; a rules noun before a colon) keeps the following
///   lines own even when they look like material (rule 1's `>` lines, 3 and 4), until a new
///   hand-over.
/// - Once material runs to the end, nothing inside it is own again; its kind only hardens to
///   [`MaterialKind::Addressed`].
/// - The pass reads only the message: not the tools, not the store, not the clock. The same
///   message always gives the same spans.
///
/// To teach it a new shape, add a line rule here (or a word to `material/lexicon.rs`) and a
/// labelled case to `tests/fixtures/capture/material.jsonl`.
pub(crate) fn spans<'a>(reader: &Reader<'a>) -> Vec<Span<'a>> {
    spans_counted(reader).0
}

/// [`spans`], and how many earlier spans the pass looked at again (when a line turns what came
/// before into material or into the user's rules). That count stays within the number of lines:
/// every earlier span is revisited a bounded number of times, however the message repeats "the
/// above", so the pass is linear in the message.
fn spans_counted<'a>(reader: &Reader<'a>) -> (Vec<Span<'a>>, usize) {
    let lines = reader.lines();
    let transcript = transcript_lines(lines);
    // For each line, the index of the first non-blank line after it (or the line count): one
    // pass from the end, so that a message of many blank lines is not scanned once per line.
    let mut next_non_blank = vec![lines.len(); lines.len()];
    for index in (0..lines.len().saturating_sub(1)).rev() {
        next_non_blank[index] = if lines[index + 1].trim().is_empty() {
            next_non_blank[index + 1]
        } else {
            index + 1
        };
    }
    let mut spans: Vec<Span<'a>> = Vec::with_capacity(lines.len());
    let mut mode = Mode::Own;
    // The first line of the message's last paragraph (after the last blank or separator
    // line), where the user may turn back from material or doubt an adopted list.
    let last_paragraph = last_paragraph(lines);
    // Where the user's adopted rules began.
    let mut rules_from: Option<usize> = None;
    // The line where the user turned back from material they had not framed with words of
    // their own: their words from there on add rules but lift none.
    let mut unframed_return: Option<usize> = None;
    let mut in_fence = false;
    // Whether the fence being read holds the user's own rules: it opens right after an
    // introduction that adopts what follows ("here's our CLAUDE.md, follow it:").
    let mut own_fence = false;
    // The span of the last adopting introduction, while nothing but blank lines follow it.
    let mut adopted_at: Option<usize> = None;
    let mut revisited = 0;
    // Where material the user adopted before it began ("please follow it from now on:").
    let mut adopted_from: Option<usize> = None;
    // Spans before this index were already handed over by an earlier "the above".
    let mut handed_over_until = 0;
    // After an introduction that hands over a delimited block: the material's last line (the
    // message's last `>` or fence line, so that a pasted text cannot close its block early and
    // pass what follows for the user's own).
    let mut material_until: Option<usize> = None;
    for (index, &line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if let Some(until) = material_until
            && index > until
        {
            // Past the block (and an unclosed fence keeps `in_fence`, so code to the end).
            material_until = None;
            mode = Mode::Own;
        }
        if let Some(marker) = fence_marker(trimmed) {
            // A fence that also closes on the same line (```rm -rf /```) is a one-line block.
            if !trimmed[3..].contains(marker) {
                in_fence = !in_fence;
                own_fence = in_fence
                    && mode == Mode::Rules
                    && adopted_at.is_some()
                    && RULES_FENCE_INFO
                        .contains(&trimmed[3..].trim().to_ascii_lowercase().as_str());
            }
            adopted_at = None;
            spans.push(material(index, line, MaterialKind::Code));
            continue;
        }
        if in_fence {
            if own_fence {
                spans.push(own(index, line));
            } else {
                spans.push(material(index, line, MaterialKind::Code));
            }
            continue;
        }
        if !trimmed.is_empty() {
            adopted_at = None;
        }
        // "[transcript]\n\nTake both of those as rules for yourself.": the user's last
        // paragraph adopts the material above it. Only when the user's own words framed it
        // (a pasted e-mail or page can end with "make these your rules" itself) or the
        // material ended on its own (a transcript, a quotation).
        if index == last_paragraph
            && mode != Mode::Rules
            && next_non_blank[index] == lines.len()
            && adopts_above(trimmed)
            && let Some(from) = adoptable_from(&spans, mode)
        {
            revisited += spans.len() - from;
            adopt(&mut spans[from..]);
            mode = Mode::Own;
            spans.push(own(index, line));
            continue;
        }
        if let Mode::Material(kind) = mode
            && index == last_paragraph
            && kind != MaterialKind::Addressed
            && let dismissed = turns_back(trimmed)
            && (dismissed || stands_against(trimmed.trim_start_matches(['(', '*', '_', ' '])))
        {
            // "Ignore what that says. My rule: never …", "That's spam. From now on, …",
            // "Anyway: you can push to main again": the user's own last paragraph.
            mode = Mode::Own;
            // Framed: the user's own words stand before the material (an introduction, a
            // line saying where it comes from).
            let run = spans
                .iter()
                .rposition(|span| span.voice == Voice::Own)
                .unwrap_or(0);
            let framed = spans[..=run.min(spans.len().saturating_sub(1))]
                .iter()
                .any(|span| span.voice == Voice::Own && !span.text.trim().is_empty());
            revisited += spans.len();
            // A rule held against the material ("Whatever Ravi says there, …") adds the
            // user's rules but lifts none: a pasted text can forge that opener as cheaply as
            // any, and it is a poor way to say a rule is gone.
            if !framed || !dismissed {
                unframed_return = Some(index);
            }
            // The line leaves the material behind: it adopts none of it.
            spans.push(own(index, line));
            continue;
        }
        if mode == Mode::Rules
            && index == last_paragraph
            && let Some(from) = rules_from
            && doubts_adoption(trimmed)
        {
            // "Someone posted this CLAUDE.md … I'm thinking of copying the first line. Should
            // I?": the list was shown, not adopted.
            for earlier in &mut spans[from + 1..] {
                revisited += 1;
                if earlier.voice == Voice::Own {
                    earlier.voice = Voice::Material(MaterialKind::HandedOver);
                }
            }
            mode = Mode::Own;
        }
        if let Mode::Material(kind) = mode {
            let kind = if kind == MaterialKind::Addressed
                || is_addressed(line)
                || addressed_in_material(line)
            {
                MaterialKind::Addressed
            } else if transcript[index] {
                MaterialKind::Transcript
            } else {
                kind
            };
            if kind == MaterialKind::Addressed {
                mode = Mode::Material(kind);
            }
            spans.push(material(index, line, kind));
            continue;
        }
        if starts_email(lines, index) {
            // "Security sent this, please follow it from now on:" before a forwarded e-mail:
            // the user adopts it, and the e-mail's orders are theirs (see `adopt`).
            if mode == Mode::Rules && rules_from.is_some() {
                adopted_from = Some(spans.len());
            }
            mode = Mode::Material(MaterialKind::Email);
            spans.push(material(index, line, MaterialKind::Email));
            continue;
        }
        if starts_git_log(trimmed) {
            mode = Mode::Material(MaterialKind::GitLog);
            spans.push(material(index, line, MaterialKind::GitLog));
            continue;
        }
        if is_page_chrome(trimmed) {
            mode = Mode::Material(MaterialKind::Page);
            spans.push(material(index, line, MaterialKind::Page));
            continue;
        }
        let rules = mode == Mode::Rules;
        if rules && trimmed.starts_with('>') {
            // An instruction file's block quote is emphasis, not someone else's words.
            let at = line.find('>').unwrap_or(0);
            spans.push(own(index, line[at + 1..].trim_start()));
            continue;
        }
        if !rules {
            if trimmed.starts_with('>') {
                spans.push(material(index, line, MaterialKind::Quoted));
                continue;
            }
            if is_addressed(line) {
                // The paragraph it opens or sits in is the page's, not the user's. (Once: the
                // material then runs to the end.)
                for earlier in spans.iter_mut().rev() {
                    revisited += 1;
                    if earlier.text.trim().is_empty() {
                        break;
                    }
                    if earlier.voice == Voice::Own {
                        earlier.voice = Voice::Material(MaterialKind::Addressed);
                    }
                }
                mode = Mode::Material(MaterialKind::Addressed);
                spans.push(material(index, line, MaterialKind::Addressed));
                continue;
            }
            if transcript[index] {
                spans.push(material(index, line, MaterialKind::Transcript));
                continue;
            }
        }
        let followed = next_non_blank[index] < lines.len();
        match introduction(reader, index, followed, !spans.is_empty()) {
            None => spans.push(own(index, line)),
            Some(Intro::Rules) => {
                rules_from = Some(spans.len());
                adopted_at = Some(spans.len());
                // "From now on, follow these:" orders only what follows, which is captured
                // line by line; "Remember: never push to main." still orders on its line.
                let orders = !line.trim_end().ends_with(':');
                spans.push(Span {
                    orders,
                    ..own(index, line)
                });
                mode = Mode::Rules;
            }
            Some(Intro::AdoptBackward) => {
                // "> Never commit to main.\n\nThat's our rule; follow it from now on.": the
                // block just above becomes the user's own.
                let mut at = spans.len();
                while at > 0 && spans[at - 1].text.trim().is_empty() {
                    revisited += 1;
                    at -= 1;
                }
                while at > 0 {
                    revisited += 1;
                    let earlier = &mut spans[at - 1];
                    match earlier.voice {
                        Voice::Material(MaterialKind::Quoted) => {
                            let text = earlier.text;
                            let quote = text.find('>').map_or(0, |quote| quote + 1);
                            *earlier = own(earlier.line, text[quote..].trim_start());
                        }
                        Voice::Material(MaterialKind::HandedOver) => earlier.voice = Voice::Own,
                        _ => break,
                    }
                    at -= 1;
                }
                spans.push(own(index, line));
            }
            Some(Intro::Backward) => {
                if !rules {
                    for earlier in &mut spans[handed_over_until..] {
                        revisited += 1;
                        if earlier.voice == Voice::Own {
                            earlier.voice = Voice::Material(MaterialKind::HandedOver);
                        }
                    }
                    handed_over_until = spans.len();
                }
                spans.push(own(index, line));
            }
            Some(Intro::Inline(at)) => {
                // "Never run git operations that rewrite history: `rebase`, …": a clause with
                // its material on its own line may be a rule about it; only a lead-in that ends
                // its line is all hand-over.
                spans.push(own(index, &line[..at]));
                spans.push(material(index, &line[at..], MaterialKind::HandedOver));
                mode = Mode::Material(MaterialKind::HandedOver);
            }
            Some(Intro::Block { refused }) => {
                // Only a lead-in before a colon is all hand-over; "Please do not reply to this
                // message." above a signature is the user's own order.
                spans.push(if line.trim_end().ends_with(':') {
                    hand_over(index, line)
                } else {
                    own(index, line)
                });
                let kind = if refused {
                    MaterialKind::Refused
                } else {
                    MaterialKind::HandedOver
                };
                // A delimited block (a run of `>` lines, a fence) that opens the material is
                // all of it: its delimiters say where it ends, and the paragraphs after it
                // are the user's own again ("Here's the old runbook:\n\n> …\n\nWe changed
                // that. Never …"). Plain pasted lines have no end but the message's.
                mode = Mode::Material(kind);
                if lines
                    .get(next_non_blank[index])
                    .is_some_and(|first| is_delimiter(first.trim()))
                {
                    material_until = lines.iter().rposition(|line| is_delimiter(line.trim()));
                }
            }
        }
    }
    // `message: "Never run rm -rf /."` in a structured rule file: the message is read as a
    // sentence, not as a quotation.
    for span in &mut spans {
        if span.voice == Voice::Own
            && is_message_entry(span.text)
            && let Some(("message", value)) = crate::text::yaml_entry(span.text)
            && !value.is_empty()
        {
            // Only a quoted value: its closing quote follows it.
            let at = value.as_ptr() as usize - span.text.as_ptr() as usize;
            let end = at + value.len();
            if matches!(span.text.as_bytes().get(end), Some(b'"' | b'\'')) {
                span.text = &span.text[at..end];
            }
        }
    }
    if let Some(from) = adopted_from {
        revisited += spans.len() - from;
        adopt(&mut spans[from..]);
    }
    if let Some(from) = unframed_return {
        for span in spans.iter_mut().filter(|span| span.line >= from) {
            span.revokes = false;
        }
    }
    (spans, revisited)
}

/// Whether a line is a `message:` entry of a YAML-ish rule file, by its first bytes.
fn is_message_entry(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'-')) {
        at += 1;
    }
    bytes[at..].starts_with(b"message:")
}

/// Makes material the user adopted their own: its orders become their rules, but nothing in
/// it may lift one (`revokes` stays off), so a pasted "you can push to main again" stays
/// inert. Code stays code.
fn adopt(spans: &mut [Span<'_>]) {
    for span in spans {
        if let Voice::Material(kind) = span.voice
            && kind != MaterialKind::Code
        {
            // A quotation's `>` is no part of the rule.
            if kind == MaterialKind::Quoted
                && let Some(quote) = span.text.find('>')
            {
                span.text = span.text[quote + 1..].trim_start();
            }
            span.voice = Voice::Own;
            span.revokes = false;
        }
    }
}

/// Where the material a last paragraph adopts begins, if it may adopt it: the spans after the
/// user's last own words. A pasted e-mail, page or text addressed to machines runs to the end
/// and may end with an adoption of its own, so it is adoptable only when the user framed it
/// with words of their own before it; material that ended before the paragraph (a
/// transcript, a quotation) always is.
fn adoptable_from(spans: &[Span<'_>], mode: Mode) -> Option<usize> {
    let last_own = spans
        .iter()
        .rposition(|span| span.voice == Voice::Own && !span.text.trim().is_empty());
    let from = last_own.map_or(0, |at| at + 1);
    let material = spans[from..]
        .iter()
        .any(|span| matches!(span.voice, Voice::Material(kind) if kind != MaterialKind::Code));
    if !material {
        return None;
    }
    match mode {
        Mode::Material(MaterialKind::Addressed) => None,
        Mode::Material(MaterialKind::Email | MaterialKind::Page | MaterialKind::GitLog) => {
            last_own.map(|_| from)
        }
        _ => Some(from),
    }
}

/// Whether a trimmed last paragraph (one line, the message's last) adopts the material above it: a verb of adopting, a
/// pointer back ("those", "both", "them") and rules made the agent's ("your rules", "rules
/// for yourself"), not a question and not a hedge ("Take both of those as rules for yourself.",
/// "Make those two your rules.", "Follow those from now on.").
fn adopts_above(trimmed: &str) -> bool {
    const VERBS: &[&str] = &[
        "adopt", "apply", "follow", "keep", "make", "obey", "remember", "take", "treat",
    ];
    const POINTERS: &[&str] = &["both", "it", "that", "them", "these", "those"];
    const FRAMES: &[&str] = &["rule", "rules", "instructions", "policy"];
    // An adoption is one short sentence or two; a long paragraph is someone's text.
    // A colon points at what follows ("Follow these instructions:"), not at the text above.
    if trimmed.len() > 160 || trimmed.ends_with(['?', ':']) || doubts_adoption(trimmed) {
        return false;
    }
    let lower = trimmed.to_lowercase();
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    let Some(verb) = words.iter().position(|word| VERBS.contains(word)) else {
        return false;
    };
    // Made the agent's own: "your rules", "rules for yourself". A thread or an e-mail can
    // end with "please follow it from now on" to its own readers.
    let rest = &words[verb + 1..];
    rest.iter().any(|word| POINTERS.contains(word))
        && rest.iter().any(|word| FRAMES.contains(word))
        && rest
            .iter()
            .any(|word| matches!(*word, "your" | "yourself" | "you"))
}

fn own(line: usize, text: &str) -> Span<'_> {
    Span {
        text,
        voice: Voice::Own,
        line,
        revokes: true,
        orders: true,
    }
}

/// The user's own line that hands material over: its orders are about that material.
fn hand_over(line: usize, text: &str) -> Span<'_> {
    Span {
        orders: false,
        ..own(line, text)
    }
}

/// The index of the first line of the last paragraph of `lines`: after the last blank line
/// or separator (`---`, `***`, `___`) before the final non-blank run; the line count when
/// every line is blank.
fn last_paragraph(lines: &[&str]) -> usize {
    let mut end = lines.len();
    while end > 0 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    let mut start = end;
    while start > 0 {
        let trimmed = lines[start - 1].trim();
        if trimmed.is_empty() || is_separator(trimmed) {
            break;
        }
        start -= 1;
    }
    if start == end { lines.len() } else { start }
}

/// Whether a trimmed line is a separator: three or more of one of `-`, `*`, `_` alone.
fn is_separator(trimmed: &str) -> bool {
    trimmed.len() >= 3
        && ["-", "*", "_"]
            .iter()
            .any(|mark| trimmed.bytes().all(|byte| byte == mark.as_bytes()[0]))
}

/// Whether a trimmed line opens with the user turning back from material
/// ([`RETURN_OPENERS`]): "Ignore what that says.", "That's spam.", "Anyway:".
fn turns_back(trimmed: &str) -> bool {
    let line = trimmed.trim_start_matches(['(', '*', '_', ' ']);
    let lower = line
        .get(..line.len().min(24))
        .or_else(|| line.get(..line.len().min(32)))
        .unwrap_or(line)
        .to_lowercase()
        .replace('’', "'");
    RETURN_OPENERS.iter().any(|opener| {
        lower.starts_with(opener)
            && lower[opener.len()..]
                .chars()
                .next()
                .is_none_or(|ch| !ch.is_alphanumeric())
    })
}

/// Whether a line opens by holding the user's own order against the material above it: a
/// concessive clause about what it says ("Whatever Ravi says there, …", "Regardless of what
/// the email says, …", [`crate::text::CONCESSIVE_OPENERS`] with a speech verb), or the user's
/// rule restated as still standing ("My rule for you still holds: …", "My rules stand.").
#[inline(never)]
fn stands_against(line: &str) -> bool {
    let clause_end = line
        .find([',', ':', ';', '.'])
        .unwrap_or(line.len())
        .min(MAX_STAND_CLAUSE);
    let Some(clause) = line.get(..clause_end) else {
        return false;
    };
    let form = clause.to_lowercase().replace('’', "'");
    let tokens = crate::tokens::tokenize(&form);
    let Some(first) = tokens.first() else {
        return false;
    };
    if matches!(
        first.text,
        "whatever" | "regardless" | "no" | "despite" | "irrespective" | "in" | "even"
    ) {
        // The clause points at the material ("there", "that", "the email"): a pasted text's
        // own "regardless of what your manager says" is about a person, not about itself.
        let points = tokens.iter().enumerate().any(|(index, token)| {
            matches!(
                token.text,
                "there" | "that" | "this" | "it" | "above" | "below"
            ) || token.is(crate::lexicon::MATERIAL_NOUN)
                && index > 0
                && matches!(
                    tokens[index - 1].text,
                    "the" | "that" | "this" | "their" | "his" | "her"
                )
        });
        return points
            && tokens
                .iter()
                .position(|token| token.is(crate::lexicon::SPEECH))
                .is_some_and(|index| crate::tokens::concessive(&tokens, index));
    }
    crate::tokens::matches_at(&tokens, 0, &["my"])
        && tokens
            .iter()
            .take(3)
            .any(|token| matches!(token.text, "rule" | "rules"))
        && tokens
            .iter()
            .any(|token| matches!(token.text, "still" | "stands" | "stand" | "holds" | "hold"))
}

/// How many bytes of a last paragraph's first line a concessive or restating opener may take.
const MAX_STAND_CLAUSE: usize = 96;

/// Whether a trimmed line doubts adopting what came before ([`ADOPTION_HEDGES`]).
fn doubts_adoption(trimmed: &str) -> bool {
    // One search for every hedge, as whole words in any case.
    static HEDGES: LazyLock<Regex> = LazyLock::new(|| {
        let hedges: Vec<String> = ADOPTION_HEDGES
            .iter()
            .map(|hedge| regex::escape(hedge))
            .collect();
        Regex::new(&format!(r"(?i)\b(?:{})\b", hedges.join("|"))).expect("the hedges compile")
    });
    HEDGES.is_match(trimmed)
}

/// Whether a trimmed line delimits a block of material: a `>` line or a fence.
fn is_delimiter(trimmed: &str) -> bool {
    trimmed.starts_with('>') || fence_marker(trimmed).is_some()
}

fn material(line: usize, text: &str, kind: MaterialKind) -> Span<'_> {
    Span {
        text,
        voice: Voice::Material(kind),
        revokes: false,
        orders: true,
        line,
    }
}

/// The info strings of a fence that can hold an instruction file the user adopts: none, or
/// a language of prose. A fence of code (```sh) stays code.
const RULES_FENCE_INFO: &[&str] = &["", "md", "markdown", "text", "txt", "plain", "plaintext"];

fn fence_marker(trimmed: &str) -> Option<&'static str> {
    ["```", "~~~"]
        .into_iter()
        .find(|marker| trimmed.starts_with(marker))
}

// E-mails ---------------------------------------------------------------------------------

/// Lines after which an e-mail runs to the end of the message: it has no reliable end marker.
fn starts_email(lines: &[&str], index: usize) -> bool {
    let trimmed = lines[index].trim();
    let Some(first) = trimmed.bytes().next() else {
        return false;
    };
    if first == b'-' {
        // "-- " opens a signature; the separators of a forward or of Outlook's reply.
        if trimmed == "--" {
            return lines[index].starts_with("--");
        }
        // Compared in place: no char but an ASCII letter lower-cases to one of these letters.
        return contains_ignore_case(trimmed, "forwarded message")
            || contains_ignore_case(trimmed, "original message");
    }
    if starts_with_ignore_case(trimmed, "begin forwarded message")
        || starts_with_ignore_case(trimmed, "sent from my ")
    {
        return true;
    }
    // A reply's attribution line: "On Tue, 3 May 2026 at 10:02, Bob <bob@x.org> wrote:".
    if starts_with_ignore_case(trimmed, "on ") && ends_with_ignore_case(trimmed, "wrote:") {
        return true;
    }
    // A header block: two different headers close together ("From: …" then "Subject: …").
    let Some(header) = header_name(trimmed) else {
        return false;
    };
    lines[index + 1..]
        .iter()
        .take(EMAIL_HEADER_WINDOW)
        .filter_map(|next| header_name(next.trim()))
        .any(|next| next != header)
}

/// Whether a trimmed line opens `git log` or `git show` output: `commit` and an abbreviated or
/// full hash (7 to 40 hex digits, at least one a digit, so that "commit defaced" stays a
/// sentence), then the end of the line or a space ("commit 3fa9c1e (HEAD -> main)"). Its
/// `Author:` and `Date:` lines and indented body are not needed: the hash line alone is a
/// machine's, and what follows it to the end is the log's.
fn starts_git_log(trimmed: &str) -> bool {
    let Some(rest) = trimmed.strip_prefix("commit ") else {
        return false;
    };
    let hash = rest.split(' ').next().unwrap_or_default();
    (7..=40).contains(&hash.len())
        && hash.bytes().all(|byte| byte.is_ascii_hexdigit())
        && hash.bytes().any(|byte| byte.is_ascii_digit())
}

/// Lines after a header within which another header makes a header block. Six covers the
/// usual From / Sent / To / Cc / Subject block with a wrapped recipient line.
const EMAIL_HEADER_WINDOW: usize = 6;

/// The header a line opens with (`from`, `subject`, …), if any.
fn header_name(trimmed: &str) -> Option<&'static str> {
    let (name, _) = trimmed.split_once(':')?;
    HEADER_NAMES
        .iter()
        .copied()
        .find(|header| name.eq_ignore_ascii_case(header))
}

fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text.is_char_boundary(prefix.len())
        && text[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// Whether `needle` (lower-case ASCII) stands anywhere in `text`, ASCII letters in either case.
fn contains_ignore_case(text: &str, needle: &str) -> bool {
    let needle = needle.as_bytes();
    let Some(&first) = needle.first() else {
        return true;
    };
    text.len() >= needle.len()
        && text.as_bytes().windows(needle.len()).any(|window| {
            window[0].to_ascii_lowercase() == first && window.eq_ignore_ascii_case(needle)
        })
}

fn ends_with_ignore_case(text: &str, suffix: &str) -> bool {
    text.len() >= suffix.len()
        && text.is_char_boundary(text.len() - suffix.len())
        && text[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

// Web pages ---------------------------------------------------------------------------------

/// Lines that only a web page has: "Skip to content", "© 2026 Acme. All rights reserved.",
/// "We use cookies", a navigation bar of three or more title-case items separated by `|`,
/// `·` or `•` (never a table row, which starts with `|`).
fn is_page_chrome(trimmed: &str) -> bool {
    let lower_starts = |prefix: &str| starts_with_ignore_case(trimmed, prefix);
    if lower_starts("skip to content")
        || lower_starts("skip to main content")
        || lower_starts("we use cookies")
        || lower_starts("accept all cookies")
        || (trimmed.starts_with('©') || lower_starts("(c) ") || lower_starts("copyright "))
            && trimmed.to_lowercase().contains("rights reserved")
    {
        return true;
    }
    // `|` or, beyond ASCII, `·` or `•`: a line of plain ASCII without a `|` is no bar.
    let bar_byte = |byte: &u8| *byte == b'|' || !byte.is_ascii();
    if trimmed.starts_with('|')
        || !trimmed.as_bytes().iter().any(bar_byte)
        || !trimmed.contains(['|', '·', '•'])
    {
        return false;
    }
    let items: Vec<&str> = trimmed.split(['|', '·', '•']).map(str::trim).collect();
    items.len() >= NAV_MIN_ITEMS
        && items.iter().all(|item| {
            let words: Vec<&str> = item.split_whitespace().collect();
            (1..=3).contains(&words.len())
                && words.iter().all(|word| {
                    word.chars().next().is_some_and(char::is_uppercase)
                        || matches!(*word, "&" | "and" | "of" | "us")
                })
        })
}

/// Items a navigation bar has at least; two title-case words around a `|` are as often a
/// user's "Sarah | Bob".
const NAV_MIN_ITEMS: usize = 3;

// Text addressed to machines or readers ----------------------------------------------------

/// Who a web page (or any pasted text) addresses when it speaks to the agent reading it:
/// generic plural or indefinite addressees, never "the assistant" or a name, which is how a
/// user speaks to their own agent.
const WHO_PLURAL: &str = r"(?:ai\s+(?:assistants|agents|models|systems|tools|bots)|assistants|agents|(?:large\s+)?language\s+models|llms|chatbots|bots|crawlers|scrapers|readers|visitors|ais|gpts)";
/// [`WHO_PLURAL`] as the subject of an order: bare "agents" is how an `AGENTS.md` file speaks
/// of the user's own agent ("Agents may not push to main"), so it takes a qualifier ("AI
/// agents must …").
const WHO_ORDERED: &str = r"(?:ai\s+(?:assistants|agents|models|systems|tools|bots)|(?:all|any)\s+agents|assistants|(?:large\s+)?language\s+models|llms|chatbots|bots|crawlers|scrapers|readers|visitors|ais|gpts)";
const WHO_ANY: &str = r"(?:ai|a\.i\.|llm|(?:large\s+)?language\s+model|(?:ai\s+)?assistant|(?:ai\s+)?agent|ai\s+(?:model|system|tool|bot)|chatbot|bot|crawler|scraper|reader|visitor)";

static ADDRESSED: LazyLock<Regex> = LazyLock::new(|| {
    let b = r"(?-u:\b)";
    let patterns = [
        // "Note to AI assistants:", "Instructions for all language models".
        format!(
            r"{b}(?:note|message|notice|attention|instructions?|warning|important|reminder|memo|psa)\s+(?:to|for)\s+(?:(?:all|any|every)\s+(?:{WHO_ANY}|{WHO_PLURAL})|{WHO_PLURAL}|ai){b}"
        ),
        // "Dear AI assistants,", "Attention all LLMs:", "Hello bots!", "Dear reader,".
        format!(
            r"^[\W_]*(?:dear|hey|hello|hi|attention|to)\s+(?:(?:all|any|every|fellow)\s+(?:{WHO_ANY}|{WHO_PLURAL})|{WHO_PLURAL}|reader)\s*[,:!]"
        ),
        // "If you are an AI assistant", "if you're a language model".
        format!(r"{b}if\s+you(?:'re|’re|\s+are)\s+(?:an?\s+)?(?:automated\s+)?{WHO_ANY}{b}"),
        // "Any AI reading this", "every assistant that processes this page".
        format!(
            r"{b}(?:any|all|every)\s+(?:{WHO_ANY}|{WHO_PLURAL})\s+(?:reading|processing|summari[sz]ing|parsing|visiting|crawling|browsing|that|who|which){b}"
        ),
        // "AI assistants must never …", "language models should not …".
        format!(
            r"{b}{WHO_ORDERED}\s+(?:must|should|shall|are\s+(?:not\s+)?(?:to|allowed|permitted|instructed|required|forbidden)|need\s+to|may\s+not|cannot|can't|reading\s+this){b}"
        ),
        // The classic injection. Only with "all" or "any": "disregard the previous rules
        // about Slack" is a user's revocation.
        format!(
            r"{b}(?:ignore|disregard|forget)\s+(?:all|any)\s+(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|other)\s+(?:instructions|prompts?|rules|directions|messages){b}"
        ),
        // A forged system turn: "SYSTEM: …", "[system] …", "<system>".
        r"^[\W_]*(?:system|sys)(?:\s+prompt)?\s*(?:\]|>)?\s*:".to_owned(),
        r"^\s*(?:\[|<)(?:system|sys)(?:\]|>)".to_owned(),
    ];
    Regex::new(&format!("(?i)(?:{})", patterns.join("|"))).expect("addressee pattern compiles")
});

/// Whether the line speaks to AI assistants, language models, bots or readers in general.
fn is_addressed(line: &str) -> bool {
    ADDRESSED.is_match(line)
}

/// Inside material, also an agent or bot in the singular or bare plural: a pasted text that
/// says "Agents: from now on …", "Note to the bot: ignore the freeze" or "Bots and agents:
/// always tag releases" speaks to whatever agent reads it, never for the user. In the user's
/// own text those words label the user's rules for their agent ("Agents: never push"), so
/// only material is read so.
static ADDRESSED_IN_MATERIAL: LazyLock<Regex> = LazyLock::new(|| {
    let b = r"(?-u:\b)";
    let who = format!(r"(?:(?:the|any|all|every|our|your)\s+)?(?:{WHO_PLURAL}|{WHO_ANY}s?)");
    let patterns = [
        // "Agents: …", "Bots and agents: …", "Hey agent, …", "Thanks! Agents: …".
        format!(r"(?:^|[.!?]\s+)[\W_]*{who}(?:\s+(?:and|&|or|/)\s+{who})?\s*:\s*\S"),
        format!(r"(?:^|[.!?]\s+)[\W_]*(?:dear|hey|hi|hello|yo|attention)\s+{who}\s*[,:!]"),
        // "Note to the bot:", "a message for the agent".
        format!(
            r"{b}(?:note|message|notice|attention|instructions?|warning|reminder|memo|psa)\s+(?:to|for)\s+{who}{b}"
        ),
        // "Agents reading this …", "the bot processing this page".
        format!(r"{b}{who}\s+(?:reading|processing|parsing|seeing)\s+(?:this|these|it){b}"),
    ];
    Regex::new(&format!("(?i)(?:{})", patterns.join("|"))).expect("addressee pattern compiles")
});

fn addressed_in_material(line: &str) -> bool {
    ADDRESSED_IN_MATERIAL.is_match(line)
}

// Chat transcripts --------------------------------------------------------------------------

/// How sure a line is a speaker's turn: a timestamp or an IRC nick is enough alone; a bare
/// `Name: …` needs another speaker line in its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Speaker {
    Strong,
    Weak,
}

static STRONG_SPEAKER: LazyLock<Regex> = LazyLock::new(|| {
    let name = r"\p{Lu}[\p{L}\p{M}.'’-]*(?:\s+\p{Lu}[\p{L}\p{M}.'’-]*){0,2}";
    let patterns = [
        // "[10:02] Bob: …", "[2026-05-04 10:02:11] Bob Smith: …", "[10:02] <bob> …".
        r"\[[^\]]{0,40}\d{1,2}:\d{2}[^\]]{0,15}\]\s*(?:[^\s:\]][^:]{0,40}:\s|<[^>\s]{1,30}>\s)"
            .to_owned(),
        // "10:02 Bob: …", "10:02 - Bob: …", "(10:02 AM) Bob: …".
        r"\(?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?\)?\s*(?:[-–—]\s*)?[^\s:\d\-–—][^:]{0,40}:\s"
            .to_owned(),
        // WhatsApp: "12/05/2026, 10:02 - Bob: …".
        r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{1,4},?\s+\d{1,2}:\d{2}[^\-–]{0,12}[-–]\s*[^:]{1,40}:\s"
            .to_owned(),
        // IRC: "<bob> …", "<@alice> …".
        r"<[@+%~&]?[\w\-\[\]\\^{}|`.]{1,30}>\s+\S".to_owned(),
        // "Bob (10:02): …", "**Bob** [10:02]: …".
        format!(r"\*{{0,2}}{name}\*{{0,2}}\s*[(\[]\d{{1,2}}:\d{{2}}[^)\]]{{0,12}}[)\]]\s*:"),
        // Microsoft Teams puts the time alone on the line after the name: "10:15", "Yesterday
        // 10:15 AM".
        r"(?i:(?:today|yesterday)\s+(?:at\s+)?)?\d{1,2}:\d{2}(?:\s*[AaPp][Mm])?\s*$".to_owned(),
        // Slack and Discord headers on a line of their own: "Bob Smith  10:02 AM",
        // "Bob — Today at 10:02", "Bob Smith [10:02 AM]".
        format!(
            r"{name}\s+(?:[-–—]\s+)?(?:(?i:today|yesterday)\s+at\s+)?\[?\d{{1,2}}:\d{{2}}(?:\s*[AaPp][Mm])?\]?\s*$"
        ),
    ];
    Regex::new(&format!(r"^\s*(?:{})", patterns.join("|"))).expect("speaker pattern compiles")
});

/// "Bob: …", "**Dr. Lee**: …", "Sarah (PM): …": a capitalised label of one to three words.
static WEAK_SPEAKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:\*\*|__)?(@?\p{Lu}[\p{L}\p{M}.'’-]*(?:\s+\p{Lu}[\p{L}\p{M}.'’-]*){0,2})(?:\*\*|__)?\s*(?:\([^)]{1,20}\)\s*)?(?:\*\*|__)?:\s+\S",
    )
    .expect("speaker label pattern compiles")
});

fn speaker(line: &str) -> Option<Speaker> {
    if !line.contains(':') && !line.trim_start().starts_with('<') {
        return None;
    }
    if may_be_strong(line) && STRONG_SPEAKER.is_match(line) {
        return Some(Speaker::Strong);
    }
    if !may_be_weak(line) {
        return None;
    }
    let label = WEAK_SPEAKER.captures(line)?.get(1)?.as_str();
    // "Note: …", "Rules: …", "Email: …" and "Shell: …" head a line; they are not people.
    let heading = label.split_whitespace().any(|word| {
        let word = word.trim_start_matches('@').to_lowercase();
        has(HEADING_LABELS, &word) || is_alias_word(&word)
    });
    (!heading).then_some(Speaker::Weak)
}

/// Whether `line` may match [`STRONG_SPEAKER`], a test far cheaper than the regex: every
/// pattern but IRC's holds a clock (`\d:\d\d`), so a colon between two digits (or chars beyond
/// ASCII, which may be digits of another script), and IRC's opens with `<`.
fn may_be_strong(line: &str) -> bool {
    let maybe_digit = |byte: u8| byte.is_ascii_digit() || byte >= 0x80;
    let bytes = line.as_bytes();
    line.trim_start().starts_with('<')
        || bytes
            .windows(3)
            .any(|window| window[1] == b':' && maybe_digit(window[0]) && maybe_digit(window[2]))
}

/// Whether `line` may match [`WEAK_SPEAKER`]: its label opens, after white space, an optional
/// `**` or `__` and an optional `@`, with an upper-case letter (`char::is_uppercase` holds for
/// every `\p{Lu}`).
fn may_be_weak(line: &str) -> bool {
    let rest = line.trim_start();
    let rest = rest
        .strip_prefix("**")
        .or_else(|| rest.strip_prefix("__"))
        .unwrap_or(rest);
    let rest = rest.strip_prefix('@').unwrap_or(rest);
    rest.chars().next().is_some_and(char::is_uppercase)
}

/// Which lines belong to a chat transcript. A run is speaker lines, the lines that continue
/// them, and single blank lines between speaker lines; it counts when one line is
/// [`Speaker::Strong`] or two are speaker lines at all.
fn transcript_lines(lines: &[&str]) -> Vec<bool> {
    let speakers: Vec<Option<Speaker>> = lines.iter().map(|line| speaker(line)).collect();
    let mut marked = vec![false; lines.len()];
    let mut start = 0;
    while start < lines.len() {
        let Some(first) = speakers[start] else {
            start += 1;
            continue;
        };
        let mut strong = first == Speaker::Strong;
        let mut count = 1;
        let mut end = start + 1;
        while end < lines.len() {
            if let Some(kind) = speakers[end] {
                strong |= kind == Speaker::Strong;
                count += 1;
                end += 1;
            } else if lines[end].trim().is_empty() {
                let next = (end + 1..lines.len()).find(|&next| !lines[next].trim().is_empty());
                match next {
                    Some(next) if speakers[next].is_some() => end = next,
                    _ => break,
                }
            } else {
                // The message of the speaker above, continued.
                end += 1;
            }
        }
        if strong || count >= 2 {
            marked[start..end].iter_mut().for_each(|line| *line = true);
        }
        start = end;
    }
    marked
}

#[cfg(test)]
mod tests;
