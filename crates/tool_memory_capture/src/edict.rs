//! The edict grammar: which sentences of a user message are standing instructions.
//!
//! A sentence is an edict when a marker (`never`, `don't`/`do not`, `stop …ing`, `always`,
//! `from now on`, `you must never`, `I don't want you to`, `under no circumstances`) opens a
//! clause, optionally after polite or conversational filler (`please`, `oh and`, `one more
//! thing:`), and the word after it reads as an imperative verb. Markers anywhere else belong to
//! someone's statement ("I never said that", "it should never happen"), and idioms ("don't
//! worry", "never mind"), questions, quoted or reported speech are not instructions. Precision
//! matters more than recall here: a false edict becomes a critical rule pinned into every
//! future prompt.

pub(crate) mod lexicon;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use tool_memory_core::markdown::{self, LineKind};

use self::lexicon::{
    APPROVAL_HEADINGS, BAN_HEADING_WORDS, CODE_STYLE_WORDS, DONT_IDIOMS, FOREIGN_ASK_FIRST,
    FOREIGN_NEVER, FOREIGN_NOT, FOREIGN_USE, FORWARD_PHRASES, INTENSIFIER_WORDS, LEAD_IN_FRAMES,
    LEAD_INS, META_OPENINGS, MULTI_FILLERS, ONE_OFFS, PERMISSION_OPENERS, POINTER_ORDER_TAILS,
    POLICY_CELLS, POLITE_REQUESTS, REPLY_BANS, REPLY_VERBS, REQUIREMENT_HEADINGS, SETTING_NOUNS,
    TOOL_SETTING_VERBS,
};
use crate::lexicon::{
    AFTER_POINTER_WORD, AGENT_NAME, AGENT_NOUN, ALWAYS_NOT_ORDER, BASE_VERB_IN_ED, BE_IDIOM,
    DONT_NOT_ORDER, FILLER, FILLER_OPENER, FORWARD_NOT_ORDER, ING_NOT_GERUND, INVERSION, LASTING,
    MARKER_OPENER, NO_CODE_FACT, NO_MORE_NOT_ORDER, NOT_VERB, ONE_OFF_OPENER, POINTER,
    SETTING_NOUN, SPEECH, SUBJECT,
};
use crate::material::{MaterialKind, Span, Voice, quotations, unquoted_form};
use crate::output::MAX_EDICT_CHARS;
use crate::reading::{GrammarPart, Reader};
use crate::revocation::{self, Found, blank_revocation};
use crate::route::has_need;
use crate::standing::{self, Statement};
use crate::text::{
    self, CODE_WORD, Sign, grammar_form, match_form, sign_of, strip_bullet, truncate_chars,
    yaml_entry,
};
use crate::tokens::{self, Token, is_at, matches_at, tokenize, word_at};

/// One captured edict: the sentence, its match form, and whose words it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edict<'a> {
    /// The sentence as written, trimmed, without list bullet, at most [`MAX_EDICT_CHARS`]; for
    /// an item of a list under a lead-in ("Do not:"), the lead-in and the item.
    pub(crate) text: Cow<'a, str>,
    /// [`match_form`] of the whole sentence, for tool attribution.
    pub(crate) form: String,
    /// Whether `text` is the whole sentence, not cut at [`MAX_EDICT_CHARS`]: then `form` is
    /// also the match form of `text`.
    pub(crate) whole: bool,
    /// [`Voice::Own`] for the user's instruction; the kind of material it sits in otherwise.
    pub(crate) voice: Voice,
    /// The sentence before it in the message, which a rule can point back to ("Use
    /// `run_query` for reads. Never send `INSERT` through it.").
    pub(crate) previous: Option<&'a str>,
    /// The index of its line among the message's lines: a rule that names no tool takes the
    /// tool of what it sits under ([`crate::attribution::Context`]).
    pub(crate) line: usize,
    /// What to attribute the rule by when its text does not say it as a sentence: a banned
    /// command of a structured rule file (`pattern: "rm -rf /"`) is attributed as "Never run
    /// `rm -rf /`.".
    pub(crate) about: Option<String>,
    /// What the catalogue must hold for the edict to stand (capture checks it).
    pub(crate) stands: Stands,
}

/// What an edict needs of the catalogue to stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stands {
    /// Nothing: the sentence is a rule whatever the agent's tools.
    Always,
    /// A tool of the catalogue spelled in a code span of it: an order about a tool's own
    /// arguments ([`is_tool_setting`]).
    IfCodeNamesATool,
    /// A tool its own words name (by name, a word of its name, an alias or its action), not
    /// only the fallback: a markerless statement about a service's things ("Refunds above
    /// €200 need my approval", "When you create Linear issues, assign them to Platform, not
    /// to Mobile"), which names no program or file and reads like a remark when no tool of
    /// the agent does what it says.
    IfATool,
}

/// The edict grammar reading a message span by span ([`crate::grammar::read`] drives it):
/// every edict in message order, duplicates kept (identity keys merge them). Material that may
/// propose ([`MaterialKind::may_propose`]) gives edicts with its voice; in the user's own
/// span, a sentence that is an order only through the words it quotes ("The README says
/// "never commit secrets"") is [`MaterialKind::Quoted`].
///
/// A line that only leads in a list of bans (`Do not:`, `**Forbidden:**`, `## Don'ts`) makes
/// each bullet under it a rule, written as the lead-in and the item ("Do not: run `make
/// deploy`"), until a line that is neither a bullet nor blank.
#[derive(Debug, Default)]
pub(crate) struct EdictReader<'a> {
    edicts: Vec<Edict<'a>>,
    /// The lead-in of the list of bans being read, as it opens each item's rule.
    lead: Option<String>,
    /// Whether that lead-in asks for things to be done ("## Before you commit"), whose items
    /// are rules only when they are about a tool.
    lead_needs_tool: bool,
    /// The last clause read, which a rule can point back to.
    previous: Option<&'a str>,
    /// Whether the lines being read are the conditions of a reject action of a structured
    /// rule file (`- type: reject` … `- pattern: "rm -rf /"`).
    rejecting: bool,
    /// Whether that clause was an order itself: then a rule after it that points back
    /// ("… Stop using the browser for that.") does not take it in.
    previous_was_order: bool,
    /// The verdict columns of the table being read ("| Allowed | Forbidden |"): each
    /// column's index and its header, which opens the rule of each cell under it.
    verdicts: Vec<(usize, String)>,
    /// The quotations of the span being read, code spans left out; found on the span's first
    /// edict only, since most spans hold none.
    quotes: Option<Vec<Range<usize>>>,
    /// Whether the span being read holds a quotation mark other than a backtick, found once.
    quote_marks: Option<bool>,
}

/// One sentence as the grammar pass read it, once for every grammar: its
/// [`grammar_form`] and that form's tokens, and the revocation the revocation grammar found
/// in that form.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ReadSentence<'s, 't> {
    /// The match form.
    pub(crate) plain: &'s str,
    pub(crate) grammar: &'s str,
    pub(crate) tokens: &'s [Token<'t>],
    pub(crate) revocation: Option<&'s Found>,
}

impl<'a> EdictReader<'a> {
    /// Starts reading `span`. Returns whether its sentences are to be read: not for material
    /// that proposes nothing, a lead-in of a list of bans, a blank line in such a list or an
    /// item of it (read here, as the lead-in and the item).
    pub(crate) fn start_span(&mut self, span: &Span<'a>, reader: &Reader<'_>) -> bool {
        self.quotes = None;
        self.quote_marks = None;
        if let Voice::Material(kind) = span.voice
            && !kind.may_propose()
        {
            self.lead = None;
            return false;
        }
        // Cursor's `<rule>` blocks and YAML-ish rule files: a `pattern:` under a reject action
        // is a banned command.
        let head = span.text.trim_start_matches([' ', '\t']);
        // Most lines open with a capital, a bullet or a mark: one byte rules them out.
        let entry = match head.as_bytes().first() {
            Some(b'a'..=b'z' | b'-') => yaml_entry(head),
            _ => None,
        };
        if let Some((key, value)) = entry {
            match key {
                "type" | "action" => self.rejecting = REJECT_ACTIONS.contains(&value),
                "pattern" | "command" if self.rejecting && !value.is_empty() => {
                    let text = strip_bullet(span.text).trim();
                    let cut = truncate_chars(text, MAX_EDICT_CHARS);
                    self.edicts.push(Edict {
                        whole: cut.len() == text.len(),
                        text: Cow::Borrowed(cut),
                        form: match_form(text),
                        voice: span.voice,
                        previous: self.previous,
                        line: span.line,
                        about: Some(format!("Never run `{value}`.")),
                        stands: Stands::Always,
                    });
                    return false;
                }
                "filters" | "actions" | "name" => self.rejecting = false,
                _ => {}
            }
        } else if head.starts_with("</rule") {
            self.rejecting = false;
        }
        let line_form = reader.plain(span.line).form();
        if let Some((lead_in, needs_tool)) = lead_in(span.text, line_form) {
            self.lead = Some(lead_in);
            self.lead_needs_tool = needs_tool;
            return false;
        }
        let sign = sign_of(span.text);
        if let Some(lead_text) = &self.lead {
            // A line that opens with a sign (`❌ force-push`) is an item like a bullet.
            let kind = match markdown::line(span.text).kind {
                LineKind::Text if sign.is_some() => LineKind::Bullet(0),
                kind => kind,
            };
            // A table under the lead-in ("## Banned commands" over `| Command | Why |`): its
            // header and separator rows keep the list going, and each row is an item.
            let line_after = reader.lines().get(span.line + 1).copied().unwrap_or("");
            let kind = match kind {
                LineKind::Rule if span.text.trim_start().starts_with('|') => LineKind::Blank,
                LineKind::TableRow if is_table_separator(line_after) => LineKind::Blank,
                LineKind::TableRow => LineKind::Bullet(0),
                kind => kind,
            };
            match kind {
                LineKind::Blank => return false,
                LineKind::Bullet(_) => {
                    let item = strip_bullet(span.text).trim();
                    // A list of requirements ("## Before you commit") holds only items about
                    // a tool: "Node 20 is installed" is a fact.
                    let has_words = item.chars().any(char::is_alphanumeric)
                        && (!self.lead_needs_tool || has_need(item));
                    let plain_item = |grammar: &str, tokens: &[Token<'_>]| {
                        !is_own_read(grammar, tokens) && !is_question(grammar)
                    };
                    if has_words && with_grammar(reader, span.line, item, plain_item) {
                        let text = format!("{lead_text} {item}");
                        let form = match_form(&text);
                        let cut = truncate_chars(&text, MAX_EDICT_CHARS);
                        self.edicts.push(Edict {
                            whole: cut.len() == text.len(),
                            text: Cow::Owned(cut.to_owned()),
                            form,
                            voice: span.voice,
                            previous: self.previous,
                            line: span.line,
                            about: None,
                            stands: Stands::Always,
                        });
                        self.previous = Some(item);
                        return false;
                    }
                }
                _ => self.lead = None,
            }
        }
        // "| Allowed | Forbidden |" over "| `docker ps` | `docker volume prune` |": each cell
        // under a verdict column is a rule of that verdict.
        if (!self.verdicts.is_empty() || starts_a_row(span.text))
            && let Some(read) = self.verdict_table_row(span, reader)
        {
            return read;
        }
        // "| `git push --force` | never |": a row whose policy cell is a marker or a consent
        // phrase is a rule about its first cell; the rule is the row.
        if span.text.trim_start().starts_with('|')
            && let Some(row) = policy_row(span.text)
        {
            let cut = truncate_chars(row, MAX_EDICT_CHARS);
            self.edicts.push(Edict {
                whole: cut.len() == row.len(),
                text: Cow::Borrowed(cut),
                form: match_form(row),
                voice: span.voice,
                previous: self.previous,
                line: span.line,
                about: None,
                stands: Stands::Always,
            });
            self.previous = Some(row);
            return false;
        }
        // "❌ `git commit --no-verify`", "🚫 Editing `prisma/migrations/`": a ban sign bans an
        // item about a tool that is no order of its own; the rule keeps the sign.
        if let Some((Sign::Ban, at, item)) = sign {
            let item = item.trim();
            let plain_item = |grammar: &str, tokens: &[Token<'_>]| {
                !is_own_read(grammar, tokens) && !is_question(grammar)
            };
            if item.chars().any(char::is_alphanumeric)
                && has_need(item)
                && with_grammar(reader, span.line, item, plain_item)
            {
                let text = span.text[at..].trim_end();
                let cut = truncate_chars(text, MAX_EDICT_CHARS);
                self.edicts.push(Edict {
                    whole: cut.len() == text.len(),
                    text: Cow::Borrowed(cut),
                    form: match_form(text),
                    voice: span.voice,
                    previous: self.previous,
                    line: span.line,
                    about: None,
                    stands: Stands::Always,
                });
                self.previous = Some(item);
                return false;
            }
        }
        true
    }

    /// Reads one sentence of `span` (the last one started), already read by the caller.
    pub(crate) fn sentence(
        &mut self,
        span: &Span<'a>,
        sentence: &'a str,
        read: ReadSentence<'_, '_>,
        reader: &Reader<'_>,
    ) {
        // "Import this CSV into a plan, don't run anything:": the sentence that hands material
        // over orders something about that material, for this turn.
        if !span.orders && ends_with_ptr(span.text.trim_end(), sentence) {
            self.previous = Some(sentence);
            self.previous_was_order = false;
            return;
        }
        let one_clause = |clauses: &[&str]| matches!(clauses, [clause] if *clause == sentence);
        let clauses = if sentence.contains(';') {
            let own = |piece: &str| is_own_piece(reader, span.line, piece);
            split_joined_edicts(sentence, own)
        } else {
            Vec::new()
        };
        if clauses.is_empty() || one_clause(&clauses) {
            // The sentence is one clause: the caller's reading is the clause's.
            self.clause(
                span,
                sentence,
                read.plain,
                read.grammar,
                read.tokens,
                read.revocation,
            );
            return;
        }
        let mut plain_tokens = Vec::new();
        let mut grammar_tokens = Vec::new();
        for clause in clauses {
            let form = reader.plain_part(span.line, clause, &mut plain_tokens);
            let alone;
            let alone_tokens;
            let (grammar, tokens) =
                match reader.grammar_part(span.line, clause, &mut grammar_tokens) {
                    GrammarPart::Plain => (form, plain_tokens.as_slice()),
                    GrammarPart::Coded(grammar) => (grammar, grammar_tokens.as_slice()),
                    GrammarPart::OnItsOwn => {
                        alone = grammar_form(clause);
                        alone_tokens = tokenize(&alone);
                        (alone.as_str(), alone_tokens.as_slice())
                    }
                };
            let found = revocation::find_tokens(grammar, tokens);
            self.clause(span, clause, form, grammar, tokens, found.as_ref());
        }
    }

    /// Reads one clause: `form` is its match form, `grammar` its grammar form, `tokens` that
    /// form's tokens and `found` the revocation in it, which the edict grammar reads blanked
    /// out.
    fn clause(
        &mut self,
        span: &Span<'a>,
        clause: &'a str,
        form: &str,
        grammar: &str,
        tokens: &[Token<'_>],
        found: Option<&Found>,
    ) {
        // "`legacy/` is frozen. Bugs there get a ticket, not a patch.", "1. `npm run lint` 2.
        // `npm test`\n\nAll three must pass.": a statement that points back at what the
        // clause before named is about that clause's tool.
        // Read only when a statement needs a tool and names none: `has_need` walks the clause.
        let previous = self.previous;
        // "Never `git push -f`. Not even on your branch.", "… are for CI only. Do not run
        // them.": a fragment that only insists on the order just read, or repeats it with a
        // pronoun, is part of that rule's text, not a rule of its own.
        if self.previous_was_order
            && extends_order(tokens)
            && let Some(last) = self.edicts.last_mut()
            && last.line == span.line
            && let Cow::Borrowed(last_text) = last.text
            && previous.is_some_and(|before| ends_with_ptr(last_text, before))
            && let Some(joined) = joined(span.text, last_text, clause)
        {
            let text = truncate_chars(joined, MAX_EDICT_CHARS);
            last.whole = text.len() == joined.len();
            last.text = Cow::Borrowed(text);
            last.form = match_form(joined);
            self.previous = Some(clause);
            return;
        }
        let about = || points_back_to(tokens) && previous.is_some_and(has_need);
        let mut stands = Stands::Always;
        let mut standing = |blanked: &str, tokens: &[Token<'_>]| match is_standing(
            blanked, tokens, clause, span.voice, &about,
        ) {
            Some(found) => {
                stands = found;
                true
            }
            None => false,
        };
        let order = match found {
            None => is_order(grammar, tokens) || standing(grammar, tokens),
            // "The deploy ban is only for `prod` now": the sentence is the narrower rule.
            Some(found) if found.narrows && span.voice == Voice::Own => true,
            Some(found) => {
                let blanked = revocation::blanked(grammar, found);
                let tokens = tokenize(&blanked);
                is_order(&blanked, &tokens) || standing(&blanked, &tokens)
            }
        };
        // "Never run migrations by hand. Rollbacks too.", "Never call `gcloud`. Not `gsutil`
        // either.": a fragment that extends the ban just read is a ban of its own.
        let order = order
            || (self.previous_was_order && span.voice == Voice::Own && is_continuation(tokens));
        // "`helm uninstall x` removes the volumes. Don't.", "`a` and `b` are for the release
        // manager. Never run either.": a bare refusal is a ban of what the sentence before it
        // on its line named in code, and one rule with it.
        let refusal = span.voice == Voice::Own
            && bare_refusal(tokens)
            && previous.is_some_and(|before| before.contains('`') && has_need(before))
            && previous.is_some_and(|before| joined(span.text, before, clause).is_some());
        let order = order || refusal;
        // "Set `requires_approval: true` on every `execute_command` …": an order about a
        // tool's own arguments, which stands only if the code span names a tool of the
        // catalogue (capture checks that).
        if !order && span.voice == Voice::Own && is_tool_setting(grammar, tokens, clause) {
            let text = truncate_chars(clause, MAX_EDICT_CHARS);
            self.edicts.push(Edict {
                whole: text.len() == clause.len(),
                text: Cow::Borrowed(text),
                form: form.to_owned(),
                voice: span.voice,
                previous: self.previous,
                line: span.line,
                about: None,
                stands: Stands::IfCodeNamesATool,
            });
            self.previous = Some(clause);
            self.previous_was_order = true;
            return;
        }
        // "Don't push yet", "for now don't commit": a request for this turn, not a rule; "Don't
        // write:" before an example shows what not to write, and holds no rule of its own.
        let introduces_example =
            clause.trim_end().ends_with(':') && clause.split_whitespace().nth(3).is_none();
        if !order || introduces_example || is_one_off(tokens) || is_reply_style(tokens) {
            self.previous = Some(clause);
            self.previous_was_order = false;
            return;
        }
        // Code spans are commands and paths, not quotations: a span with no other quotation
        // mark holds none.
        let has_quotes = *self
            .quote_marks
            .get_or_insert_with(|| span.text.contains(QUOTES_NOT_CODE));
        let quoted_only = span.voice == Voice::Own && has_quotes && {
            let quotes = self.quotes.get_or_insert_with(|| {
                let mut quotes = quotations(span.text);
                quotes.retain(|range| !span.text[range.clone()].starts_with('`'));
                quotes
            });
            unquoted_form(span.text, quotes, clause)
                .is_some_and(|unquoted| !is_own_edict(&unquoted))
        };
        let voice = match span.voice {
            Voice::Own if quoted_only => Voice::Material(MaterialKind::Quoted),
            voice => voice,
        };
        let before = self.previous.replace(clause);
        // Only a clause with a setting's noun can name a setting.
        let setting = tokens.iter().any(|token| token.is(SETTING_NOUN)) && names_a_setting(grammar);
        // A title takes two capitals, which no marker removes.
        let title = clause
            .chars()
            .filter(|ch| ch.is_uppercase())
            .nth(1)
            .is_some()
            && title_holds_marker(clause);
        if setting || title {
            return;
        }
        // "`tokens.css` is generated. Don't edit it.": a rule whose object points back keeps
        // the sentence before it on the same line, or it would name nothing to enforce.
        if refusal
            && self.previous_was_order
            && let Some(last) = self.edicts.last()
            && before.is_some_and(|before| std::ptr::eq(last.text.as_ref(), before))
        {
            // The sentence before was read as a rule of its own: the refusal takes its place.
            self.edicts.pop();
            self.previous_was_order = false;
        }
        let antecedent = before
            .filter(|before| {
                !self.previous_was_order
                    && (points_back(tokens) || refusal)
                    && !is_question(before)
                    && before.split_whitespace().nth(2).is_some()
                    && has_need(before)
            })
            .and_then(|before| joined(span.text, before, clause));
        self.previous_was_order = true;
        let (rule, form) = match antecedent {
            Some(joined) => (joined, match_form(joined)),
            None => (clause, form.to_owned()),
        };
        let rule = with_sign(span.text, rule);
        let text = truncate_chars(rule, MAX_EDICT_CHARS);
        self.edicts.push(Edict {
            whole: text.len() == rule.len(),
            text: Cow::Borrowed(text),
            form,
            voice,
            previous: before,
            line: span.line,
            about: None,
            stands,
        });
    }

    /// The edicts read, in message order.
    /// Reads a line of a verdict table: its header row sets the verdict columns, each data
    /// row yields a rule for each non-empty cell under one ("Forbidden: `docker volume
    /// prune`"), and any other line ends the table. `None` when the line is no part of one.
    #[inline(never)]
    fn verdict_table_row(&mut self, span: &Span<'a>, reader: &Reader<'_>) -> Option<bool> {
        let row = span.text.trim();
        if !row.starts_with('|') {
            self.verdicts.clear();
            return None;
        }
        if is_table_separator(row) {
            return (!self.verdicts.is_empty()).then_some(false);
        }
        let cells = || row.trim_matches('|').split('|').map(str::trim);
        let line_after = reader.lines().get(span.line + 1).copied().unwrap_or("");
        if is_table_separator(line_after) {
            // A header row: two or more columns, one or more of them a verdict.
            self.verdicts.clear();
            if cells().nth(1).is_some() {
                self.verdicts.extend(
                    cells()
                        .enumerate()
                        .filter(|(_, cell)| is_verdict_header(cell))
                        .map(|(index, cell)| (index, cell.to_owned())),
                );
            }
            return (!self.verdicts.is_empty()).then_some(false);
        }
        if self.verdicts.is_empty() {
            return None;
        }
        let cells: Vec<&str> = cells().collect();
        let before = self.edicts.len();
        for (index, header) in &self.verdicts {
            let Some(cell) = cells.get(*index) else {
                continue;
            };
            let cell = cell.trim();
            if !cell.chars().any(char::is_alphanumeric) || is_edict(&match_form(cell)) {
                continue;
            }
            let header = header.trim_matches(|ch: char| ch == '*' || ch == '_' || ch == ' ');
            let text = format!("{header}: {cell}");
            let cut = truncate_chars(&text, MAX_EDICT_CHARS);
            self.edicts.push(Edict {
                whole: cut.len() == text.len(),
                form: match_form(&text),
                text: Cow::Owned(cut.to_owned()),
                voice: span.voice,
                previous: self.previous,
                line: span.line,
                about: None,
                stands: Stands::Always,
            });
        }
        // A row with a verdict cell is read as its verdicts; one without reads as usual.
        (self.edicts.len() > before).then_some(false)
    }

    /// How many edicts were read so far.
    pub(crate) fn edict_count(&self) -> usize {
        self.edicts.len()
    }

    /// A list item of the user's own of several sentences that holds one order: its other
    /// sentences are that order's reasons or its scope ("- Tags are mine. Don't run `git
    /// tag`.", "1. Never run `FLUSHALL`. The cache is shared with billing."), so the rule's
    /// text is the whole item. It is still attributed by its order alone, so a reason that
    /// names another tool does not move it. `from` is the count of edicts before the item.
    #[inline(never)]
    pub(crate) fn whole_item(&mut self, span: &Span<'a>, item: &'a str, from: usize) {
        if span.voice != Voice::Own || self.edicts.len() != from + 1 {
            return;
        }
        let item = with_sign(span.text, item.trim());
        let Some(edict) = self.edicts.last_mut() else {
            return;
        };
        let Cow::Borrowed(text) = edict.text else {
            return;
        };
        if edict.about.is_some()
            || edict.line != span.line
            || text.len() >= item.len()
            || item.chars().count() > MAX_EDICT_CHARS
            || !within(item, text)
        {
            return;
        }
        edict.about = Some(text.to_owned());
        edict.text = Cow::Borrowed(item);
        edict.form = match_form(item);
        edict.whole = true;
    }

    pub(crate) fn finish(self) -> Vec<Edict<'a>> {
        self.edicts
    }
}

/// Words a fragment that extends the ban before it holds at most ("The ingest workers
/// neither", "Not `aws` CLI calls either").
const MAX_CONTINUATION_WORDS: usize = 6;

/// Whether a clause is a fragment that extends the order before it: no verb of its own,
/// opened by `not` / `nor` / `neither` ("Not `gsutil` either", "Nor the staging bucket"),
/// closed by `too` / `either` / `neither` ("Rollbacks too") or opened by "same for", "same
/// goes for", "likewise" ("Same for `kubectl delete pvc`"). "Not sure", "Not yet", "Me too"
/// and a question answer rather than extend.
fn is_continuation(tokens: &[Token<'_>]) -> bool {
    const NOT_EXTENDING: &[&str] = &[
        "again", "always", "bad", "exactly", "good", "great", "me", "much", "now", "quite",
        "really", "same", "sure", "that", "thanks", "this", "today", "yet", "you",
    ];
    if tokens
        .last()
        .is_some_and(|token| token.punct() == Some('?'))
    {
        return false;
    }
    // The fragment ends at a dash or a semicolon: "Rollbacks too — use the Rollback job".
    let mut words = tokens
        .iter()
        .take_while(|token| !matches!(token.punct(), Some('—' | '–' | ';' | ':')))
        .filter(|token| token.word);
    let (Some(first), Some(second)) = (words.next(), words.next()) else {
        return false;
    };
    let mut count = 2;
    let mut last = second;
    for word in words {
        count += 1;
        if count > MAX_CONTINUATION_WORDS {
            return false;
        }
        last = word;
    }
    let opened =
        matches!(first.text, "not" | "nor" | "neither") && !NOT_EXTENDING.contains(&second.text);
    let closed = matches!(last.text, "too" | "either" | "neither")
        && !NOT_EXTENDING.contains(&first.text)
        && !first.is(SUBJECT);
    // "Same for `kubectl delete pvc`: it drops the volumes", "Same goes for `make
    // reset-cache`", "Likewise `docker image prune -a`": the order before, for another
    // thing (not "Same for me").
    let after_same = match (first.text, second.text) {
        ("same", "for") => Some(2),
        ("same", "goes") => Some(3),
        ("likewise", "for") => Some(2),
        ("likewise", _) => Some(1),
        _ => None,
    };
    let same = after_same.is_some_and(|at| {
        let mut rest = tokens
            .iter()
            .filter(|token| token.word)
            .skip(at)
            .map(|token| token.text);
        rest.next().is_some_and(|thing| {
            !NOT_EXTENDING.contains(&thing)
                && !matches!(thing, "us" | "him" | "her" | "them" | "everyone")
        })
    });
    opened || closed || same
}

/// `rule` (a slice of `line`) with the sign that opens its line in front of it, when the
/// rule opens the line's item: "⚠️ Never drop tables …", "🛑 never `helm uninstall`". The sign
/// is layout to the grammar, but the user wrote it as part of the rule, as the sign-only items
/// of [`EdictReader::start_span`] keep it.
fn with_sign<'a>(line: &'a str, rule: &'a str) -> &'a str {
    // Every sign is beyond ASCII: a rule with only ASCII before it on its line has none.
    let base = line.as_ptr() as usize;
    let rule_start = (rule.as_ptr() as usize).wrapping_sub(base);
    if line.get(..rule_start).is_none_or(str::is_ascii) {
        return rule;
    }
    let Some((_, at, item)) = sign_of(line) else {
        return rule;
    };
    let item_start = line.len() - item.len();
    let opens_item = rule_start <= line.len()
        && rule_start >= item_start
        && line[item_start..rule_start].trim().is_empty();
    match opens_item
        .then(|| line.get(at..rule_start + rule.len()))
        .flatten()
    {
        Some(signed) => signed,
        None => rule,
    }
}

/// Words of a "not even" tail at most ("Not even on your own branch").
const MAX_NOT_EVEN_WORDS: usize = 8;

/// Tokens of a fragment that extends an order at most: the longest "not even" tail with a
/// comma and its full stop, with room for a code span's marks.
const MAX_FRAGMENT_TOKENS: usize = 14;

/// Whether a clause only extends the order before it and adds no rule of its own: a bare
/// intensifier ("Ever.", "Never ever.", "Not once."), a "not even" tail ("Not even to fix a
/// typo."), a bare refusal ("Don't.") or a pronoun order ("Do not run them.", "Don't do it
/// again."). No question.
fn extends_order(tokens: &[Token<'_>]) -> bool {
    // Read without collecting: this runs on every clause after an order, and most of those
    // are rules of their own, longer than any fragment.
    if tokens.len() > MAX_FRAGMENT_TOKENS
        || tokens
            .last()
            .is_some_and(|token| token.punct() == Some('?'))
    {
        return false;
    }
    let mut words = tokens.iter().filter(|token| token.word);
    let Some(first) = words.next() else {
        return false;
    };
    let first = first.text;
    let mut count = 1;
    let mut second = None;
    let mut all_intensifiers = INTENSIFIER_WORDS.contains(&first);
    let mut pointer = false;
    for word in words {
        count += 1;
        if count == 2 {
            second = Some(word.text);
        }
        all_intensifiers = all_intensifiers && INTENSIFIER_WORDS.contains(&word.text);
        pointer = pointer || word.is(POINTER);
    }
    if first == "not" && second == Some("even") {
        return count <= MAX_NOT_EVEN_WORDS;
    }
    if all_intensifiers && count <= MAX_INTENSIFIER_WORDS {
        return true;
    }
    // A bare refusal has at most four words after "please"; a pronoun order five after it.
    count <= 6 && (bare_refusal(tokens) || (pointer && pointer_order(tokens)))
}

/// Words of a bare intensifier at most ("Not under any circumstances").
const MAX_INTENSIFIER_WORDS: usize = 4;

/// Whether a clause is an order whose only object is a pronoun: a marker, a verb, the pronoun
/// and at most one of [`POINTER_ORDER_TAILS`] ("Do not run them.", "Never do that again.").
fn pointer_order(tokens: &[Token<'_>]) -> bool {
    let mut words = tokens.iter().filter(|token| token.word);
    let first = words.next().map(|token| token.text);
    let first = if matches!(first, Some("please" | "just" | "so")) {
        words.next().map(|token| token.text)
    } else {
        first
    };
    match first {
        Some("don't" | "never") => {}
        Some("do") if words.next().is_some_and(|token| token.text == "not") => {}
        _ => return false,
    }
    let (Some(_verb), Some(pointer)) = (words.next(), words.next()) else {
        return false;
    };
    let tail = words.next();
    pointer.is(POINTER)
        && words.next().is_none()
        && tail.is_none_or(|tail| POINTER_ORDER_TAILS.contains(&tail.text))
}

/// Whether `part` ends where `text` ends (both slices of one line).
/// Whether `part` is a slice of `text` (the same bytes, not equal ones).
fn within(text: &str, part: &str) -> bool {
    let start = text.as_ptr() as usize;
    let part_start = part.as_ptr() as usize;
    part_start >= start && part_start + part.len() <= start + text.len()
}

fn ends_with_ptr(text: &str, part: &str) -> bool {
    std::ptr::eq(
        text.as_ptr().wrapping_add(text.len()),
        part.as_ptr().wrapping_add(part.len()),
    )
}

/// Whether a clause is a bare refusal with no object of its own, or "either" for one: "Don't.",
/// "Forbidden.", "Never run either." (no question). A pronoun object ("Do not run them") is
/// [`points_back`]'s.
fn bare_refusal(tokens: &[Token<'_>]) -> bool {
    const BACK: &[&str] = &["either"];
    // Every clause asks; the longest refusal ("Please do not run them either.") has six words
    // and a full stop, so a longer clause is none.
    if tokens.len() > MAX_FRAGMENT_TOKENS
        || tokens
            .last()
            .is_some_and(|token| token.punct() == Some('?'))
    {
        return false;
    }
    let mut words = tokens
        .iter()
        .filter(|token| token.word)
        .map(|token| token.text);
    let mut next = || words.next();
    let first = next();
    let first = if matches!(first, Some("please" | "just" | "so")) {
        next()
    } else {
        first
    };
    let rest = match first {
        Some("forbidden" | "banned" | "prohibited" | "off-limits") => return next().is_none(),
        Some("don't" | "never") => [next(), next(), next()],
        Some("do") if next() == Some("not") => [next(), next(), next()],
        Some("not") => return next() == Some("allowed") && next().is_none(),
        _ => return false,
    };
    match rest {
        [None, ..] => true,
        [Some(_verb), Some(pointer), None] => BACK.contains(&pointer),
        _ => false,
    }
}

/// The actions of a structured rule file that refuse what their conditions match.
const REJECT_ACTIONS: &[&str] = &["block", "deny", "forbid", "reject"];

/// Whether the object of an order points back ("don't edit it", "never do that again",
/// "never edit them without asking", "never touch anything in there"): a pronoun at the end
/// of the clause or before a word that cannot start its noun.
fn points_back(tokens: &[Token<'_>]) -> bool {
    // Only the order's own object counts: a pronoun after a comma or a semicolon belongs to
    // a reason or a second order ("…, legal hasn't cleared it").
    tokens
        .iter()
        .take_while(|token| !matches!(token.punct(), Some(',' | ';' | ':')))
        .enumerate()
        .any(|(index, token)| {
            token.word
                && token.is(POINTER)
                && index > 0
                && tokens
                    .get(index + 1)
                    .is_none_or(|next| !next.word || next.is(AFTER_POINTER_WORD))
        })
}

/// The text of `line` from `before` to the end of `clause` (both parts of it, `before`
/// first), if both lie in `line`.
fn joined<'a>(line: &'a str, before: &str, clause: &str) -> Option<&'a str> {
    let base = line.as_ptr() as usize;
    let start = (before.as_ptr() as usize).checked_sub(base)?;
    let clause_start = (clause.as_ptr() as usize).checked_sub(base)?;
    let end = clause_start + clause.len();
    (start < clause_start && end <= line.len()).then(|| &line[start..end])
}

/// Every quotation mark of [`quotations`] but the backtick.
const QUOTES_NOT_CODE: [char; 9] = ['"', '\'', '‘', '’', '“', '”', '„', '«', '»'];

/// Whether a clause points back at what came before with its subject or a place ("All three
/// must pass", "Both need my OK", "Bugs there get a ticket"): a pointer among its first four
/// words.
fn points_back_to(tokens: &[Token<'_>]) -> bool {
    const COUNTED: &[&str] = &["all", "both", "each", "either", "neither"];
    tokens
        .iter()
        .filter(|token| token.word)
        .take(4)
        .enumerate()
        .any(|(index, token)| {
            matches!(token.text, "there" | "these" | "those" | "them" | "they")
                || (index == 0 && COUNTED.contains(&token.text))
        })
}

/// A markerless standing rule ([`standing::statement_of`]) in the user's own words, and what
/// it needs of the catalogue to stand; a choice or a requirement only when the sentence is
/// about a tool, or points back at a clause that is (`about`), or (a gate on a kind of thing,
/// a [`Statement::Service`]) when a tool of the catalogue does what it names. `blanked` is the
/// clause's grammar form without its revocation, and `tokens` its tokens.
fn is_standing(
    blanked: &str,
    tokens: &[Token<'_>],
    clause: &str,
    voice: Voice,
    about: &dyn Fn() -> bool,
) -> Option<Stands> {
    if voice != Voice::Own {
        return None;
    }
    let statement = standing::statement_of(blanked, tokens)?;
    if statement == Statement::Ban || has_need(clause) || about() {
        return Some(Stands::Always);
    }
    match statement {
        // "Refunds above €200 need my approval": a gate on a kind of thing a service's tool
        // handles names no program or file; it stands if a tool of the catalogue does it.
        Statement::Gate => standing::gates_a_kind(tokens).then_some(Stands::IfATool),
        Statement::Service => Some(Stands::IfATool),
        _ => None,
    }
}

/// The lead-in of a list of bans, as it will open each item's rule (`Do not:`), if `line` is
/// one: a heading or a line ending in a colon whose words are only a ban.
/// `line_form` is the match form of the line `line` is part of.
fn lead_in(line: &str, line_form: &str) -> Option<(String, bool)> {
    if may_lead(line) && names_a_ban(line_form) {
        parsed_lead_in(line)
    } else {
        None
    }
}

/// Whether `line` opens with `|` after its indentation, by its bytes.
fn starts_a_row(line: &str) -> bool {
    line.bytes().find(|byte| !matches!(byte, b' ' | b'\t')) == Some(b'|')
}

/// Whether a table header names a verdict that forbids or gates what its column holds:
/// "Forbidden", "Don't", "Needs approval", "❌ Never", "Ask first".
fn is_verdict_header(cell: &str) -> bool {
    // A verdict header is short: most headers are turned away by their length.
    if cell.len() > MAX_VERDICT_HEADER {
        return false;
    }
    let form = match_form(cell);
    let form = form.trim_matches(|ch: char| !ch.is_alphanumeric());
    VERDICT_HEADERS.contains(&form)
}

/// Bytes of a verdict header at most, with its marks and signs ("**❌ Needs my approval**").
const MAX_VERDICT_HEADER: usize = 40;

/// Table headers of a column of forbidden or gated things, in match form.
const VERDICT_HEADERS: &[&str] = &[
    "approval needed",
    "approval required",
    "ask first",
    "ask me first",
    "avoid",
    "banned",
    "blocked",
    "do not",
    "don't",
    "dont",
    "forbidden",
    "needs approval",
    "needs my approval",
    "needs my ok",
    "never",
    "never do",
    "not allowed",
    "off limits",
    "off-limits",
    "only with approval",
    "prohibited",
    "requires approval",
];

/// Whether `line` is the separator row of a table (`|---|---|`).
fn is_table_separator(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.starts_with('|')
        && trimmed.contains('-')
        && trimmed
            .chars()
            .all(|ch| matches!(ch, '|' | '-' | ':' | ' '))
}

/// Whether a heading's words (match form, no colon) frame a list: of bans by a keyword
/// ("Banned commands", "Prohibited operations", "Disallowed paths", "禁止コマンド"), of
/// things that need the user's yes ("Commands that need my approval"), or of requirements
/// ("Before you commit", "Always run", "Required checks"). Returns whether the items must
/// be about a tool to count (requirements).
fn framed_lead(form: &str) -> Option<bool> {
    let words: Vec<&str> = form.split_whitespace().collect();
    if words.is_empty() || words.len() > 8 {
        return None;
    }
    let keyword = words
        .iter()
        .position(|word| BAN_HEADING_WORDS.contains(word));
    if let Some(at) = keyword
        && words.len() <= 4
        && !words
            .get(at + 1)
            .is_some_and(|next| matches!(*next, "on" | "by" | "until" | "for" | "because"))
    {
        return Some(false);
    }
    if form.contains("禁止") || APPROVAL_HEADINGS.iter().any(|phrase| form.contains(phrase)) {
        return Some(false);
    }
    REQUIREMENT_HEADINGS
        .iter()
        .any(|heading| {
            form == *heading
                || form.strip_prefix(heading).is_some_and(|rest| {
                    rest.starts_with(' ') && heading.ends_with(' ') || rest.starts_with(' ')
                })
        })
        .then_some(true)
}

/// Whether the match form of a line holds a word that every lead-in holds one of ("not",
/// "don't", "never", "forbidden", "avoid", "off", "ask", "need", …): most headings and lines
/// that end in a colon do not, and are not parsed. Emphasis that the lead-in's reading drops
/// never stands inside a word, so the words stand whole in the line's form too.
fn names_a_ban(line_form: &str) -> bool {
    static WORDS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(LEAD_IN_WORDS.join("|").as_str()).expect("lead-in words compile")
    });
    WORDS.is_match(line_form)
}

/// A piece of each lead-in of [`LEAD_INS`] (a unit test checks that each holds one).
const LEAD_IN_WORDS: &[&str] = &[
    "banned",
    "blocked",
    "prohibit",
    "disallowed",
    "denied",
    "禁止",
    "approval",
    "a yes",
    "before",
    "always",
    "required",
    "mandatory",
    "must",
    "not",
    "don",
    "never",
    "forbidden",
    "prohibited",
    "avoid",
    "off",
    "banned",
    "ask",
    "check",
    "confirm",
    "need",
    "requires",
];

/// The row `line` (a table row) as a rule, if a cell after the first is a policy
/// ([`POLICY_CELLS`]: "never", "ask first", "always before a commit", "❌") and the first cell
/// is about a tool (a command, a path, a family word). A header or separator row is none.
fn policy_row(line: &str) -> Option<&str> {
    let row = line.trim();
    if markdown::line(row).kind != LineKind::TableRow {
        return None;
    }
    let inner = row.trim_matches('|');
    let mut cells = inner.split('|').map(str::trim);
    let subject = cells.next()?;
    if !subject.chars().any(char::is_alphanumeric) || !has_need(subject) {
        return None;
    }
    // A cell that is an order of its own ("| Git | Never force-push. |") is read as one.
    if inner.split('|').any(|cell| is_edict(&match_form(cell))) {
        return None;
    }
    cells
        .any(|cell| {
            let form = match_form(strip_bullet(cell));
            let form = form.trim_matches(|ch: char| !ch.is_alphanumeric());
            let words = form.split_whitespace().count();
            let sign =
                matches!(sign_of(cell), Some((Sign::Ban, _, rest)) if rest.trim().is_empty());
            sign || (words <= 6
                && POLICY_CELLS.iter().any(|policy| {
                    form.strip_prefix(policy)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
                }))
        })
        .then_some(row)
}

/// Whether `line` may lead in a list: a heading, a bold title, or a line that ends in a
/// colon (perhaps inside emphasis or before a heading's closing marks). Nearly every line is
/// none of these, and is not parsed as markdown at all.
fn may_lead(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.starts_with('#')
        || trimmed.ends_with("**")
        || trimmed.ends_with("__")
        || trimmed
            .trim_end_matches(|ch: char| ch.is_whitespace() || matches!(ch, '*' | '_' | '~' | '#'))
            .ends_with(':')
}

/// Whether a line of text ends in a colon, as a lead-in of a list does.
fn body_ends_list(line: &str) -> bool {
    line.trim_end().trim_end_matches(['*', '_']).ends_with(':')
}

/// [`lead_in`] without its cheap test first: the lead-in as each item's rule opens, and
/// whether items must be about a tool ([`framed_lead`]).
fn parsed_lead_in(line: &str) -> Option<(String, bool)> {
    let parsed = markdown::line(line);
    // A sign before the words ("🚫 **Forbidden**", "⚠️ Ask first:") is decoration.
    let content = parsed
        .content
        .trim()
        .trim_start_matches(|ch: char| !ch.is_alphanumeric() && ch != '*' && ch != '_')
        .trim_start();
    // A line that is all bold ("**Forbidden**") is a title like a heading.
    let bold_title = matches!(parsed.kind, LineKind::Text)
        && ["**", "__"]
            .iter()
            .any(|mark| content.len() > 4 && content.starts_with(mark) && content.ends_with(mark));
    let heading = matches!(parsed.kind, LineKind::Heading(_)) || bold_title;
    if !heading && !matches!(parsed.kind, LineKind::Text | LineKind::Bullet(_)) {
        return None;
    }
    let plain = markdown::strip_emphasis(content);
    let plain = plain.trim();
    let body = plain.strip_suffix(':').map(str::trim_end);
    let body = match (body, heading) {
        (Some(body), _) => body,
        (None, true) => plain,
        (None, false) => return None,
    };
    let form = match_form(body);
    let form = form.trim_end_matches(':').trim();
    // "What you must not do", "Things you must never do", "What not to do": the ban with
    // the words around it that make a heading of it.
    let core = LEAD_IN_FRAMES.iter().fold(form, |form, (before, after)| {
        form.strip_prefix(before)
            .and_then(|rest| rest.strip_suffix(after))
            .unwrap_or(form)
    });
    if LEAD_INS.contains(&form) || LEAD_INS.contains(&core) {
        return Some((format!("{body}:"), false));
    }
    // A keyword is not enough on a line of text: "Blocked on review:" could be anything.
    if !heading && !body_ends_list(line) {
        return None;
    }
    framed_lead(form).map(|needs_tool| (format!("{body}:"), needs_tool))
}

/// Whether the marker belongs to the name of a setting or a sign: "Do not disturb mode is on",
/// "the Do Not Track setting was off", "a do-not-reply address".
fn names_a_setting(grammar: &str) -> bool {
    let words: Vec<&str> = grammar
        .split(|ch: char| !text::is_word_char(ch) && ch != '\'' && ch != '-')
        .filter(|word| !word.is_empty())
        .collect();
    words.iter().enumerate().any(|(index, word)| {
        SETTING_NOUNS.contains(word)
            && index > 0
            && words[index.saturating_sub(4)..index]
                .iter()
                .any(|before| matches!(*before, "not" | "don't" | "never" | "always"))
            && words
                .get(index + 1)
                .is_some_and(|next| matches!(*next, "is" | "was" | "are" | "were"))
    })
}

/// Whether the clause opens with a title that holds the marker: "Never Let Me Go is a film",
/// "Do Not Track is on". Three or more capitalised words (not all capitals, which is how
/// people shout an order) followed by a lower-case word name something; they order nothing.
fn title_holds_marker(clause: &str) -> bool {
    let plain = markdown::strip_emphasis(clause);
    let mut words = plain
        .split_whitespace()
        .map(|word| word.trim_matches(|ch: char| !ch.is_alphanumeric() && ch != '\''));
    let mut capitalised = 0;
    for word in words.by_ref() {
        let mut chars = word.chars();
        let Some(first) = chars.next() else {
            continue;
        };
        let rest = chars.as_str();
        let title =
            first.is_uppercase() && !rest.is_empty() && rest.chars().all(|ch| !ch.is_uppercase());
        if title {
            capitalised += 1;
            continue;
        }
        // "Always Sunny is the name of the staging cluster": two capitalised words before a
        // copula name something too.
        let copula = matches!(word, "is" | "was" | "are" | "were" | "has");
        return (capitalised >= 3 && first.is_lowercase()) || (capitalised == 2 && copula);
    }
    false
}

/// A revocation ("forget my rule about never using the shell") is not also an edict; only a
/// clause outside it can be ("…; never post in #random").
fn is_own_edict(form: &str) -> bool {
    is_edict(&blank_revocation(form))
}

/// Splits a sentence at a semicolon that joins two edicts ("don't run sudo; never push to
/// main"), so each becomes its own rule on its own tool. A semicolon before a reason ("never
/// email Sarah; she opted out") stays inside the sentence, which keeps the reason with its rule.
/// `own` says whether a piece of the sentence is an order of the user's own
/// ([`is_own_edict`] of its grammar form).
fn split_joined_edicts(sentence: &str, own: impl Fn(&str) -> bool) -> Vec<&str> {
    let mut clauses = Vec::new();
    let mut start = 0;
    // Only a sentence of two clauses is read for one program: a longer one would be walked
    // again at each semicolon.
    let one_semicolon = sentence.matches(';').nth(1).is_none();
    for (at, _) in sentence.match_indices(';') {
        let head = sentence[start..at].trim();
        let rest = &sentence[at + 1..];
        let next = rest.find(';').map_or(rest, |end| &rest[..end]).trim();
        // "Only fetch from A and B; don't fetch anything else": a second order that points
        // back at the first is part of it.
        // "Use `brew` only to list packages; no `brew install`": two orders about one
        // program are one rule, the limit and its exception together.
        if !head.is_empty()
            && own(head)
            && own(next)
            && !refers_back(next)
            && !(one_semicolon && same_program(head, next))
        {
            clauses.push(head);
            start = at + 1;
        }
    }
    clauses.push(sentence[start..].trim());
    clauses
}

/// Whether two clauses each name the same program as the first word of a code span.
fn same_program(head: &str, next: &str) -> bool {
    let programs = |clause: &'_ str| -> Vec<String> {
        clause
            .split('`')
            .skip(1)
            .step_by(2)
            .filter_map(|code| code.split_whitespace().next())
            .filter(|word| {
                word.bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || b"-_".contains(&byte))
            })
            .map(str::to_ascii_lowercase)
            .collect()
    };
    if !head.contains('`') || !next.contains('`') {
        return false;
    }
    let first = programs(head);
    programs(next).iter().any(|program| first.contains(program))
}

/// Whether a markerless sentence sets how a tool is called: an imperative verb of setting
/// ("Set", "Pass", "Use", "Call"), a code span, and something that makes it general: a code
/// span that sets an argument (`requires_approval: true`, `--dry-run`) or "every", "each",
/// "any", "whenever". Capture keeps it only when a code span names a tool.
fn is_tool_setting(grammar: &str, tokens: &[Token<'_>], clause: &str) -> bool {
    let Some(first) = tokens.iter().find(|token| token.word) else {
        return false;
    };
    if !TOOL_SETTING_VERBS.contains(&first.text) || is_question(grammar) {
        return false;
    }
    let spans = text::code_spans(clause);
    if spans.len() < 2 {
        return false;
    }
    let sets_argument = spans.iter().any(|span| {
        let code = tool_memory_core::markdown::code_span_text(clause, span).trim();
        code.starts_with('-') || code.contains(": ") || code.contains('=')
    });
    sets_argument
        || tokens
            .iter()
            .any(|token| token.word && matches!(token.text, "every" | "each" | "any" | "whenever"))
}

/// Whether an order holds only for now ([`ONE_OFFS`]: "this time", "for now", "right now",
/// "today", a closing "yet") and says nothing that makes it last ("again", "ever", "from now
/// on", "always").
fn is_one_off(tokens: &[Token<'_>]) -> bool {
    if !tokens.iter().any(|token| token.is(ONE_OFF_OPENER)) {
        return false;
    }
    // "Don't push yet", "Don't change anything yet, just tell me what you think": "yet"
    // closes a short order (its first part, up to a comma or a semicolon); "… that hasn't
    // passed CI yet" is a condition of a rule.
    let part = tokens
        .iter()
        .position(|token| matches!(token.punct(), Some(',' | ';' | '—')))
        .map_or(tokens, |end| &tokens[..end]);
    let mut words = part.iter().filter(|token| token.word);
    let closing_yet = words
        .clone()
        .next_back()
        .is_some_and(|word| word.text == "yet")
        && words.clone().count() <= 7
        && !words.any(|word| matches!(word.text, "that" | "which" | "who" | "until" | "unless"));
    let one_off = closing_yet
        || (0..tokens.len()).any(|index| {
            is_at(tokens, index, ONE_OFF_OPENER)
                && ONE_OFFS
                    .iter()
                    .any(|phrase| matches_at(tokens, index, phrase))
        });
    one_off && !tokens.iter().any(|token| token.is(LASTING)) && !forward_phrase_len_anywhere(tokens)
}

/// Whether the clause is about the agent's reply, not a tool: it opens with a verb of the
/// reply and bans a way of writing it ("Summarise results over 100 rows, don't paste
/// them", "Explain the diff, don't dump it"). An output style is no tool rule.
fn is_reply_style(tokens: &[Token<'_>]) -> bool {
    word_at(tokens, 0).is_some_and(|word| REPLY_VERBS.contains(&word))
        && !tokens.iter().any(|token| token.text == CODE_WORD)
        && (1..tokens.len()).any(|index| {
            matches!(word_at(tokens, index), Some("don't" | "never" | "not"))
                && word_at(tokens, index + 1).is_some_and(|verb| REPLY_BANS.contains(&verb))
        })
}

/// Whether a phrase of [`FORWARD_PHRASES`] ("from now on", "going forward") stands anywhere.
fn forward_phrase_len_anywhere(tokens: &[Token<'_>]) -> bool {
    (0..tokens.len()).any(|index| forward_phrase_len(tokens, index).is_some())
}

/// Whether a clause points back at the one before it: "anything else", "do that", "leave
/// them".
fn refers_back(clause: &str) -> bool {
    let form = match_form(clause);
    let tokens = tokenize(&form);
    points_back(&tokens)
        || tokens
            .iter()
            .any(|token| token.word && matches!(token.text, "else" | "otherwise"))
}

/// [`is_own_edict`] of the grammar form of `piece`, a part of line `line` of the message
/// `reader` reads, read from the line's readings.
fn is_own_piece(reader: &Reader<'_>, line: usize, piece: &str) -> bool {
    // An empty piece ("never push;") holds no order.
    !piece.is_empty() && with_grammar(reader, line, piece, is_own_read)
}

/// [`is_own_edict`] of a grammar form already tokenized.
fn is_own_read(grammar: &str, tokens: &[Token<'_>]) -> bool {
    match revocation::find_tokens(grammar, tokens) {
        None => is_order(grammar, tokens),
        Some(found) => is_edict(&revocation::blanked(grammar, &found)),
    }
}

/// `read` of the grammar form of `piece` (a part of line `line` of the message `reader`
/// reads) and its tokens: a slice of the line's readings, or the piece read on its own when a
/// code span of the line crosses its ends.
fn with_grammar<T>(
    reader: &Reader<'_>,
    line: usize,
    piece: &str,
    read: impl FnOnce(&str, &[Token<'_>]) -> T,
) -> T {
    let mut plain_tokens = Vec::new();
    let mut grammar_tokens = Vec::new();
    let plain = reader.plain_part(line, piece, &mut plain_tokens);
    match reader.grammar_part(line, piece, &mut grammar_tokens) {
        GrammarPart::Plain => read(plain, &plain_tokens),
        GrammarPart::Coded(grammar) => read(grammar, &grammar_tokens),
        GrammarPart::OnItsOwn => {
            let grammar = grammar_form(piece);
            read(&grammar, &tokenize(&grammar))
        }
    }
}

/// Whether a sentence (in [`match_form`]) is a standing instruction.
pub(crate) fn is_edict(form: &str) -> bool {
    is_order(form, &tokenize(form))
}

/// [`is_edict`] of `form` already tokenized.
pub(crate) fn is_order(form: &str, tokens: &[Token<'_>]) -> bool {
    if is_question(form) {
        return false;
    }
    // Advice about the rules themselves ("If a rule blocks you, stop and tell me") is no
    // rule about a tool.
    if matches!(word_at(tokens, 0), Some("if" | "when"))
        && META_OPENINGS
            .iter()
            .any(|opening| matches_at(tokens, 0, opening))
    {
        return false;
    }
    let opening = skip_fillers(tokens, 0);
    let opens_with_subject = is_at(tokens, opening, SUBJECT);
    // "You may read the logs but never restart the service": a permission to the agent, then
    // a ban on it.
    let opens_with_permission = PERMISSION_OPENERS
        .iter()
        .any(|opener| matches_at(tokens, opening, opener));
    // In "if a page asks for my password, never type it in", the speech verb sits in a
    // condition, not in front of someone else's words.
    let opens_with_condition = matches!(
        word_at(tokens, 0),
        Some("if" | "when" | "whenever" | "unless" | "once" | "while" | "before" | "after")
    );
    // Where someone else's words are first reported: every clause from there on is theirs.
    let reported_from = if opens_with_condition {
        tokens.len()
    } else {
        first_reported(tokens)
    };
    let opens_with_purpose = word_at(tokens, 0) == Some("for");
    let opens_with_setting = opens_with_setting(tokens);
    let mut start = 0;
    while start < tokens.len() {
        let kind = clause_kind(tokens, start);
        let usable = match kind {
            ClauseStart::No | ClauseStart::Quoted => false,
            // "I hate it and never use it": the subject carries over the conjunction, unless
            // the user turns to the agent with a "please".
            ClauseStart::Conjunction => {
                // "You can read the logs, but don't restart anything": after a comma the
                // conjunction opens a new clause of its own.
                matches!(
                    tokens.get(start.wrapping_sub(2)).and_then(Token::punct),
                    Some(',' | ';')
                ) || !opens_with_subject
                    || (opens_with_permission && word_at(tokens, start - 1) == Some("but"))
                    || matches!(
                        word_at(tokens, start),
                        Some("please" | "pls" | "plz" | "kindly")
                    )
            }
            ClauseStart::Sentence | ClauseStart::Punct => true,
        };
        // "For install packages use only `uv`", "For formatting use `black`": a purpose
        // before the order, without its comma.
        let after_purpose = opens_with_purpose
            && start > 1
            && start <= 5
            && word_at(tokens, start) == Some("use")
            && tokens[..start].iter().all(|token| token.word);
        // "On weekends don't message anyone directly", "In the `api/` folder never use
        // `any`": a time or place before the order, without its comma.
        let after_setting = opens_with_setting
            && !usable
            && start > 1
            && start <= 6
            && after_setting(tokens, start);
        if (usable || after_purpose || after_setting)
            && start <= reported_from
            && marker_at(tokens, skip_fillers(tokens, start))
        {
            return true;
        }
        // "IMPORTANT: run `pnpm lint` before every commit": an emphatic label opens the
        // sentence, and an order in the imperative follows its colon.
        if start == 2
            && tokens[1].punct() == Some(':')
            && matches!(
                word_at(tokens, 0),
                Some("important" | "critical" | "mandatory" | "required")
            )
            && imperative(tokens, 2)
            && !is_at(tokens, 2, SUBJECT)
            && word_at(tokens, 2) != Some(CODE_WORD)
        {
            return true;
        }
        start += 1;
    }
    false
}

/// Whether "ask" at `index` follows "everything else," / "anything else:" / "otherwise,"
/// alone: after what the sentence before allowed, the rest needs the user's yes ("On
/// `prod-eu` only read: `kubectl get`. Everything else, ask.").
#[inline(never)]
fn after_the_rest(tokens: &[Token<'_>], index: usize) -> bool {
    let Some(mark) = index.checked_sub(1) else {
        return false;
    };
    if !matches!(tokens[mark].punct(), Some(',' | ':' | '—' | '–' | '-')) {
        return false;
    }
    let before = &tokens[..mark];
    let words: Vec<&str> = before.iter().map(|token| token.text).collect();
    matches!(
        words.as_slice(),
        ["everything" | "anything" | "all", "else"]
            | ["for", "everything" | "anything", "else"]
            | ["otherwise"]
            | ["anything", "beyond", "that"]
    ) && matches!(word_at(tokens, index + 1), None | Some("me" | "first"))
}

/// Whether the words before `start` are a time or a place that opens the sentence (a
/// preposition and words that hold no subject or verb of a clause) and a ban or an "always"
/// stands at `start`: "On weekends don't …", "During the freeze never …".
/// The caller has checked [`opens_with_setting`].
#[inline(never)]
fn after_setting(tokens: &[Token<'_>], start: usize) -> bool {
    (matches!(
        word_at(tokens, start),
        Some("never" | "don't" | "dont" | "always")
    ) || matches_at(tokens, start, &["do", "not"]))
        && tokens[..start].iter().enumerate().all(|(at, token)| {
            // "After 18:00 Lisbon time": a clock time's colon, between digits.
            let clock = token.punct() == Some(':')
                && at > 0
                && tokens[at - 1].end == token.start
                && tokens[at - 1]
                    .text
                    .bytes()
                    .all(|byte| byte.is_ascii_digit())
                && tokens.get(at + 1).is_some_and(|next| {
                    next.start == token.end && next.text.bytes().all(|byte| byte.is_ascii_digit())
                });
            clock
                || token.word
                    && !matches!(
                        token.text,
                        "i" | "you"
                            | "we"
                            | "they"
                            | "he"
                            | "she"
                            | "it"
                            | "it's"
                            | "there"
                            | "is"
                            | "are"
                            | "was"
                            | "were"
                            | "be"
                            | "if"
                            | "when"
                    )
        })
}

/// Whether a preposition of time or place opens the sentence ("On weekends", "During the
/// freeze", "In the `api/` folder", "After 18:00 Lisbon time", "Before 8am").
fn opens_with_setting(tokens: &[Token<'_>]) -> bool {
    matches!(
        word_at(tokens, 0),
        Some(
            "on" | "at"
                | "after"
                | "before"
                | "until"
                | "till"
                | "during"
                | "in"
                | "inside"
                | "outside"
                | "within"
                | "over"
                | "across"
                | "throughout"
                | "between"
        )
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ClauseStart {
    No,
    Sentence,
    Punct,
    Conjunction,
    Quoted,
}

fn clause_kind(tokens: &[Token<'_>], index: usize) -> ClauseStart {
    if index == 0 {
        return ClauseStart::Sentence;
    }
    let previous = &tokens[index - 1];
    match previous.punct() {
        Some('"' | '\'') => ClauseStart::Quoted,
        // A table cell (`| Files | Never create … |`) opens a clause like a colon.
        Some(',' | ';' | ':' | '(' | '—' | '–' | '-' | '…' | '[' | '|') => ClauseStart::Punct,
        Some(_) => ClauseStart::No,
        None if matches!(previous.text, "and" | "but" | "or" | "so" | "then" | "plus") => {
            ClauseStart::Conjunction
        }
        None => ClauseStart::No,
    }
}

/// A question is not an instruction, but a tag question ("never push to main, ok?") and a
/// polite request ("could you please never …?") are.
fn is_question(form: &str) -> bool {
    !POLITE_REQUESTS
        .iter()
        .any(|request| form.starts_with(request))
        && tokens::is_question(form)
}

/// The index of the first speech verb that reports someone else's words ("she told me: don't
/// …"), or past the end when there is none: a clause that starts after it is reported, one
/// that starts at or before it is not. The user's own reminders ("as I said, never …", "I told
/// you, …") stay edicts.
fn first_reported(tokens: &[Token<'_>]) -> usize {
    tokens
        .iter()
        .enumerate()
        .position(|(index, token)| {
            if !token.is(SPEECH) {
                return false;
            }
            let own = tokens[index.saturating_sub(2)..index].iter().any(|before| {
                before.word && matches!(before.text, "i" | "i've" | "i'd" | "i'm" | "i'll")
            });
            // "You can read the logs when asked, but don't restart anything": a condition on
            // the agent's own work, not someone's words.
            let condition = index > 0
                && matches!(
                    word_at(tokens, index - 1),
                    Some("when" | "if" | "unless" | "once" | "until" | "whenever" | "as")
                );
            // "Whatever Ana says there, never …": the user sets those words aside.
            !own && !condition && !tokens::concessive(tokens, index)
        })
        .unwrap_or(tokens.len())
}

/// Skips polite and conversational lead-ins: "please", "oh and", "one more thing", "make sure
/// you", "remember to". What follows must still be a marker.
fn skip_fillers(tokens: &[Token<'_>], mut index: usize) -> usize {
    'outer: loop {
        // Nearly every word is no filler: one bit says so before the sequences are tried.
        if !is_at(tokens, index, FILLER_OPENER) {
            return index;
        }
        for sequence in MULTI_FILLERS {
            if matches_at(tokens, index, sequence) {
                index += sequence.len();
                continue 'outer;
            }
        }
        if is_at(tokens, index, FILLER) {
            index += 1;
        } else {
            return index;
        }
    }
}

/// Whether the token is a sentence mark that ends a clause.
fn ends_clause(token: &Token<'_>) -> bool {
    matches!(token.punct(), Some('.' | '!' | '?' | ';'))
}

fn marker_at(tokens: &[Token<'_>], index: usize) -> bool {
    // Nearly every word opens no marker: one bit says so before the cases are tried.
    if !is_at(tokens, index, MARKER_OPENER) {
        // German puts the negation after the verb: "Führe niemals `x` aus", "Lösche nie …".
        if matches!(
            word_at(tokens, index + 1),
            Some("niemals" | "nie" | "keinesfalls")
        ) {
            return tokens.get(index).is_some_and(|token| {
                token.word
                    && token.text != CODE_WORD
                    && !matches!(
                        token.text,
                        "ich"
                            | "du"
                            | "er"
                            | "sie"
                            | "es"
                            | "wir"
                            | "ihr"
                            | "man"
                            | "das"
                            | "der"
                            | "die"
                            | "dies"
                            | "wird"
                            | "werden"
                            | "ist"
                            | "sind"
                    )
            });
        }
        // French elides the negation onto the verb: "N'exécute jamais …", "n'utilise pas …".
        return tokens
            .get(index)
            .is_some_and(|token| token.text.as_bytes().starts_with(b"n'") && token.word)
            && (index + 1..index + 4)
                .any(|at| matches!(word_at(tokens, at), Some("jamais" | "pas")));
    }
    let word = |offset: usize| word_at(tokens, index + offset);
    match word(0) {
        // "please never to delete the folder": a learner's "to" before the verb.
        Some("never") if word(1) == Some("to") => imperative(tokens, index + 2),
        // "never you change file `x`": a learner's ban with the addressee before the verb.
        Some("never") if word(1) == Some("you") && imperative(tokens, index + 2) => true,
        Some("never") => never_tail(tokens, index + 1),
        // "Please not make any commit in my name": a learner's ban, only after "please" (a
        // bare "not" opens fragments: "Not that file", "not run yet").
        Some("not") => {
            index > 0
                && matches!(
                    word_at(tokens, index - 1),
                    Some("please" | "pls" | "plz" | "kindly")
                )
                && (imperative(tokens, index + 1) && word(2).is_some()
                    // "please not to run `db:seed` on prod".
                    || word(1) == Some("to") && imperative(tokens, index + 2))
        }
        // "Is forbidden to run `docker system prune`": a learner's impersonal ban, without
        // its "it".
        Some("is") => {
            index == 0
                && (matches!(word(1), Some("forbidden" | "prohibited" | "banned"))
                    && word(2) == Some("to")
                    && imperative(tokens, index + 3)
                    || matches!(word(1), Some("not"))
                        && matches!(word(2), Some("allowed" | "permitted"))
                        && word(3) == Some("to")
                        && imperative(tokens, index + 4))
        }
        Some("don't" | "dont") => dont_tail(tokens, index + 1),
        Some("do") if word(1) == Some("not") => dont_tail(tokens, index + 2),
        Some("stop") => stop_tail(tokens, index + 1),
        Some("always") => always_tail(tokens, index + 1),
        Some("you") => you_tail(tokens, index + 1),
        // "The AI should never run `terraform destroy`", "Claude must not push", "agents may
        // not edit the lockfile": an order to the agent in the third person.
        _ if let Some(len) = agent_subject_len(tokens, index) => {
            you_tail(tokens, index + len) || agent_never(tokens, index + len)
        }
        Some("you're") => {
            matches!(word(1), Some("never" | "not"))
                && word(2) == Some("to")
                && imperative(tokens, index + 3)
        }
        // "No more force-pushes to shared branches."
        Some("no") => {
            word(1) == Some("more")
                && word(2).is_some()
                && !is_at(tokens, index + 2, NO_MORE_NOT_ORDER)
                || no_code(tokens, index + 1)
        }
        // "Leave `CODEOWNERS` alone", "leave that file alone".
        Some("leave") => {
            clause_has(tokens, index + 1, &["alone"])
                // "the `version=` line in `gradle.properties` belongs to the release job;
                // leave it": the thing named in code before, then left.
                || (index > 0
                    && matches!(word(1), Some("it" | "them"))
                    && matches!(word(2), None | Some("alone" | "be" | "as"))
                    && tokens[..index].iter().any(|token| token.text == CODE_WORD))
        }
        // "Avoid long paragraphs", "please avoid using sudo".
        // "avoid it unless I ask": a pointer with a condition of the user's is still an order.
        Some("avoid") => word(1).is_some_and(|next| {
            !["it", "that", "this"].contains(&next)
                || matches!(word(2), Some("unless" | "without" | "except"))
        }),
        // "I'd rather you didn't auto-accept invites."
        Some("i'd") => {
            matches_at(tokens, index + 1, &["rather", "you"])
                && matches!(word(3), Some("didn't" | "not" | "never"))
                && imperative(tokens, index + 4)
        }
        Some("i") => {
            // "I never want to see a TODO without a ticket again."
            if matches!(word(1), Some("never" | "don't" | "dont"))
                && matches_at(tokens, index + 2, &["want", "to", "see"])
            {
                return true;
            }
            // "I still want you to never merge PRs yourself", "I want you to always cc me":
            // the user's wish with the marker after it.
            let wish = index
                + 1
                + usize::from(matches!(
                    word(1),
                    Some("still" | "really" | "just" | "also" | "do" | "absolutely")
                ));
            if matches_at(tokens, wish, &["want", "you", "to"]) {
                let at = wish + 3;
                return match word_at(tokens, at) {
                    Some("never" | "not") => imperative(tokens, at + 1),
                    Some("always") => imperative(tokens, at + 1),
                    _ => false,
                };
            }
            let after_negation = match (word(1), word(2)) {
                (Some("don't" | "dont" | "never"), _) => index + 2,
                (Some("do"), Some("not")) => index + 3,
                _ => return false,
            };
            matches_at(tokens, after_negation, &["want", "you", "to"])
                && imperative(tokens, after_negation + 3)
        }
        Some("under") => {
            matches_at(tokens, index + 1, &["no", "circumstances"]) && tokens.len() > index + 3
        }
        // "Only merge.", "Only run `npm run build` when …": an exclusive order.
        Some("only") => {
            imperative(tokens, index + 1) && word(1) != Some("use") || {
                word(1) == Some("use") && word(2).is_some()
            }
        }
        // "Check with me before any `git push`", "Ask before running a migration", "Ask me
        // first": the order is to ask, which the guard turns into a confirmation.
        // "Before editing `schema.prisma`, ask me": the condition opens the sentence.
        Some("check" | "confirm" | "consult" | "clear" | "talk") => {
            matches!(word(1), Some("with" | "it"))
                && (clause_has(tokens, index + 2, &["before", "first"])
                    || after_before(tokens, index))
        }
        Some("ask") => {
            (clause_has(tokens, index + 1, &["before", "first"])
                || after_before(tokens, index)
                || after_the_rest(tokens, index))
                && !matches!(word(1), Some("why" | "how" | "what" | "where" | "who"))
        }
        Some("get") => {
            matches!(word(1), Some("my" | "explicit" | "written"))
                && matches!(
                    word(2),
                    Some("approval" | "ok" | "okay" | "sign-off" | "permission" | "go-ahead")
                )
        }
        // "Use `bun` for scripts, not `npm`", "use pnpm instead of npm": a choice that bans the
        // other.
        Some("use") => {
            (clause_has(tokens, index + 1, &["instead", "only"])
                || matches_later(tokens, index + 1, &["rather", "than"])
                || comma_not(tokens, index + 1))
                && !is_code_style(tokens, index + 1)
        }
        // "Run `pnpm install --frozen-lockfile`, not `pnpm install`, so the lockfile stays":
        // a command chosen over another in code bans the other, as "use" does.
        Some("run" | "call" | "invoke") => {
            word(1) == Some(CODE_WORD)
                && (index + 2..tokens.len()).any(|at| {
                    tokens[at].punct() == Some(',')
                        && matches!(word_at(tokens, at + 1), Some("not" | "never"))
                        && word_at(tokens, at + 2) == Some(CODE_WORD)
                })
        }
        // Other languages (one small list each): "Niemals `terraform destroy` ausführen",
        // "Nunca ejecutes `rm -rf`", "Ne lance jamais `npm publish`", "Pas de `git push
        // --force`", "Pregúntame antes de borrar nada", "usa `pnpm`, nunca `npm`".
        // An order and its object: "Nie wieder." is a sigh.
        Some(word) if FOREIGN_NEVER.contains(&word) => {
            word_at(tokens, index + 1).is_some() && word_at(tokens, index + 2).is_some()
        }
        Some("ne") => {
            (index + 1..index + 4).any(|at| matches!(word_at(tokens, at), Some("jamais" | "pas")))
        }
        Some("pas") => word(1) == Some("de") && word(2).is_some(),
        Some(word) if FOREIGN_USE.contains(&word) => comma_not(tokens, index + 1),
        Some(word) if FOREIGN_ASK_FIRST.iter().any(|(ask, _)| *ask == word) => FOREIGN_ASK_FIRST
            .iter()
            .any(|(ask, before)| *ask == word && clause_has(tokens, index + 1, &[before])),
        _ => match forward_phrase_len(tokens, index) {
            Some(len) => forward_tail(tokens, index + len),
            None => false,
        },
    }
}

/// Whether a choice is about the code the agent writes, not the tools it calls: "Use
/// PowerShell 7 syntax, not cmd", "Use `Get-ChildItem` rather than `ls` aliases in scripts
/// you write". A style preference, not a rule a guard could hold a call to.
fn is_code_style(tokens: &[Token<'_>], index: usize) -> bool {
    let clause = || {
        tokens[index.min(tokens.len())..]
            .iter()
            .take_while(|token| !matches!(token.punct(), Some('.' | '!' | '?' | ';')))
    };
    clause().any(|token| token.word && CODE_STYLE_WORDS.contains(&token.text))
        || (index..tokens.len()).any(|at| {
            matches_at(tokens, at, &["you", "write"])
                || matches_at(tokens, at, &["when", "writing"])
                || matches_at(tokens, at, &["in", "new", "code"])
        })
}

/// Whether the clause at `index` follows a condition that opens the sentence with "before"
/// ("Before running migrations, check with me").
/// Only a bare request to ask counts there ("ask me", "ask first", "check with me"), not
/// "Before you leave, ask me anything".
fn after_before(tokens: &[Token<'_>], index: usize) -> bool {
    index > 1
        && word_at(tokens, 0) == Some("before")
        && tokens[index + 1..]
            .iter()
            .take_while(|token| !ends_clause(token))
            .all(|token| {
                !token.word
                    || matches!(
                        token.text,
                        "me" | "with" | "first" | "please" | "beforehand" | "it"
                    )
            })
}

/// Whether one of `words` comes after `index` before the clause ends at a sentence mark.
fn clause_has(tokens: &[Token<'_>], index: usize, words: &[&str]) -> bool {
    tokens[index.min(tokens.len())..]
        .iter()
        .take_while(|token| !ends_clause(token))
        .any(|token| token.word && words.contains(&token.text))
}

/// Whether `sequence` starts anywhere after `index`.
fn matches_later(tokens: &[Token<'_>], index: usize, sequence: &[&str]) -> bool {
    (index..tokens.len()).any(|at| matches_at(tokens, at, sequence))
}

/// ", not …" after `index`: "use `bun`, not `npm`".
fn comma_not(tokens: &[Token<'_>], index: usize) -> bool {
    (index..tokens.len()).any(|at| {
        matches!(tokens[at].punct(), Some(',' | ';'))
            && word_at(tokens, at + 1)
                .is_some_and(|word| matches!(word, "not" | "never") || FOREIGN_NOT.contains(&word))
    })
}

/// "No `git stash drop`", "no inline `style` props": "no" before a code span (behind at most
/// two words) bans it, unless the clause states a fact about it ("no `.env` file was found")
/// or "no" opens an idiom ("no need for `find`", "no problem with `npm`").
fn no_code(tokens: &[Token<'_>], index: usize) -> bool {
    if word_at(tokens, index).is_some_and(|word| standing::lexicon::NO_NOT_RULES.contains(&word)) {
        return false;
    }
    let names_code = (index..index + 3).any(|at| word_at(tokens, at) == Some(CODE_WORD))
        && (index..index + 3)
            .take_while(|at| word_at(tokens, *at) != Some(CODE_WORD))
            .all(|at| word_at(tokens, at).is_some());
    // The fact is stated before the next comma: "no `x`, I keep stuff in there" is a ban
    // with its reason.
    names_code
        && !tokens[index.min(tokens.len())..]
            .iter()
            .take_while(|token| !matches!(token.punct(), Some('.' | '!' | '?' | ';' | ',')))
            .any(|token| token.is(NO_CODE_FACT))
}

/// "From now on", "going forward" and friends open a standing order.
fn forward_phrase_len(tokens: &[Token<'_>], index: usize) -> Option<usize> {
    // One comparison of the first word before the phrases are walked: most words open none.
    let first = word_at(tokens, index)?;
    FORWARD_PHRASES
        .iter()
        .find(|phrase| phrase[0] == first && matches_at(tokens, index + 1, &phrase[1..]))
        .map(|phrase| phrase.len())
}

fn forward_tail(tokens: &[Token<'_>], mut index: usize) -> bool {
    while matches!(
        tokens.get(index).and_then(Token::punct),
        Some(',' | ':' | '-' | '—')
    ) {
        index += 1;
    }
    let index = skip_fillers(tokens, index);
    if marker_at(tokens, index) {
        return true;
    }
    match word_at(tokens, index) {
        None => false,
        // "From now on you reply in English", "going forward your summaries should be short".
        Some("you" | "your") => word_at(tokens, index + 1).is_some(),
        // "From now on no deploys after Thursday noon."
        Some("no") => word_at(tokens, index + 1).is_some(),
        Some(_) if is_at(tokens, index, FORWARD_NOT_ORDER) => false,
        Some(_) => imperative(tokens, index),
    }
}

/// Whether the token at `index` is one of `words` or a comma: what may stand between a marker
/// and its verb ("never, ever", "do not, really,").
fn skippable(tokens: &[Token<'_>], index: usize, words: &[&str]) -> bool {
    tokens.get(index).is_some_and(|token| {
        if token.word {
            words.contains(&token.text)
        } else {
            token.text == ","
        }
    })
}

fn never_tail(tokens: &[Token<'_>], mut index: usize) -> bool {
    while skippable(tokens, index, &["ever", "never"]) {
        index += 1;
    }
    match word_at(tokens, index) {
        // "Never again will I eat there" is an inversion; "never again use sudo" an order.
        Some("again") => match word_at(tokens, index + 1) {
            None => false,
            Some(_) if is_at(tokens, index + 1, INVERSION) => false,
            Some(_) => imperative(tokens, index + 1),
        },
        Some("mind") => false,
        Some("say") if word_at(tokens, index + 1) == Some("never") => false,
        _ => imperative(tokens, index),
    }
}

fn dont_tail(tokens: &[Token<'_>], mut index: usize) -> bool {
    // "Do not, under any circumstances, disable the firewall": commas around an aside; "don't
    // even draft it" insists, and the verb after it decides ("I don't even know" stays none).
    while skippable(
        tokens,
        index,
        &["ever", "really", "just", "actually", "even"],
    ) {
        index += 1;
    }
    let Some(word) = word_at(tokens, index) else {
        return false;
    };
    if is_at(tokens, index, DONT_NOT_ORDER) {
        return false;
    }
    if DONT_IDIOMS
        .iter()
        .any(|idiom| matches_at(tokens, index, idiom))
    {
        return false;
    }
    if word == "be" && is_at(tokens, index + 1, BE_IDIOM) {
        return false;
    }
    imperative(tokens, index)
}

fn stop_tail(tokens: &[Token<'_>], index: usize) -> bool {
    match word_at(tokens, index) {
        Some(word) => {
            word.len() >= 5 && word.ends_with("ing") && !is_at(tokens, index, ING_NOT_GERUND)
        }
        None => false,
    }
}

fn always_tail(tokens: &[Token<'_>], mut index: usize) -> bool {
    while skippable(tokens, index, &["always"]) {
        index += 1;
    }
    match word_at(tokens, index) {
        Some(_) if is_at(tokens, index, ALWAYS_NOT_ORDER) => false,
        Some(_) => imperative(tokens, index),
        None => false,
    }
}

/// How many words name the agent as the subject at `index` ("the AI", "Claude", "agents"),
/// so a modal after them ("should never", "must not") is an order to the agent.
fn agent_subject_len(tokens: &[Token<'_>], index: usize) -> Option<usize> {
    let skip_article = usize::from(matches!(word_at(tokens, index), Some("the" | "an" | "any")));
    let noun = index + skip_article;
    word_at(tokens, noun)?;
    let named =
        is_at(tokens, noun, AGENT_NOUN) || (skip_article == 0 && is_at(tokens, noun, AGENT_NAME));
    named.then_some(skip_article + 1)
}

/// "The agent never calls `refund_payment`", "Claude never runs `make deploy`": a policy about
/// the agent in the present tense, about a thing named in code (without one, "the agent
/// never listens" is a complaint).
fn agent_never(tokens: &[Token<'_>], index: usize) -> bool {
    word_at(tokens, index) == Some("never")
        && word_at(tokens, index + 1)
            .is_some_and(|verb| verb.len() > 3 && verb.ends_with('s') && !verb.ends_with("ss"))
        && tokens[index + 2..]
            .iter()
            .take_while(|token| !ends_clause(token))
            .any(|token| token.text == CODE_WORD)
}

fn you_tail(tokens: &[Token<'_>], index: usize) -> bool {
    let word = |offset: usize| word_at(tokens, index + offset);
    // "You are not allowed to push", "the agent isn't allowed to deploy".
    let allowed_at = match (word(0), word(1)) {
        (Some("are" | "is"), Some("not" | "never")) => Some(2),
        (Some("aren't" | "isn't"), _) => Some(1),
        _ => None,
    };
    if let Some(at) = allowed_at
        && word(at) == Some("allowed")
        && word(at + 1) == Some("to")
    {
        return imperative(tokens, index + at + 2);
    }
    match (word(0), word(1)) {
        (Some("must" | "should" | "shall" | "may"), Some("never")) => never_tail(tokens, index + 2),
        (Some("must" | "should" | "shall" | "may"), Some("not")) => dont_tail(tokens, index + 2),
        (Some("must" | "should"), Some("always")) => always_tail(tokens, index + 2),
        (Some("mustn't" | "shouldn't"), _) => dont_tail(tokens, index + 1),
        // "YOU MUST run `cargo fmt` before committing": an order, not a guess ("you must be
        // tired", "you must have seen it").
        (Some("must"), Some(next)) if !matches!(next, "be" | "have" | "know" | "think") => {
            imperative(tokens, index + 1)
        }
        (Some("are" | "is"), Some("never" | "not")) => {
            word(2) == Some("to") && imperative(tokens, index + 3)
        }
        (Some("need" | "have"), Some("to")) => match word(2) {
            Some("stop") => stop_tail(tokens, index + 3),
            Some("always") => always_tail(tokens, index + 3),
            _ => false,
        },
        _ => false,
    }
}

/// Whether the word at `index` reads as the base form of a verb: not a pronoun, article,
/// auxiliary or past form ("never said"), not a gerund ("never having") or a third-person form
/// ("never works").
fn imperative(tokens: &[Token<'_>], index: usize) -> bool {
    let Some(word) = word_at(tokens, index) else {
        return false;
    };
    if is_at(tokens, index, NOT_VERB) || word.starts_with(|ch: char| ch.is_ascii_digit()) {
        return false;
    }
    if word == "have" {
        // "Never have I seen…" is an inversion; "never have more than two tabs open" an order.
        return word_at(tokens, index + 1).is_some() && !is_at(tokens, index + 1, SUBJECT);
    }
    if word.ends_with("ing") && word.len() > 4 && !is_at(tokens, index, ING_NOT_GERUND) {
        return false;
    }
    if word.ends_with("ed") && !is_at(tokens, index, BASE_VERB_IN_ED) {
        return false;
    }
    let third_person = word.len() > 3
        && word.ends_with('s')
        && !["ss", "us", "is", "'s"]
            .iter()
            .any(|ending| word.ends_with(ending));
    !third_person
}

#[cfg(test)]
mod tests;
