//! Tool attribution: which tool an edict is about.
//!
//! In order: (1) a tool of the turn or the catalogue named in the edict, as a whole word
//! (`send_email` also matches "send email", `WebSearch` also "web search"), then a tool one of
//! whose distinctive name words the edict uses ("whatsapp" for `whatsapp_send`); (2) a word
//! from the alias table ("email", "terminal", "channel", "sudo", …) that resolves to a tool
//! which exists; (3) the first tool that ran in the turn; (4) [`UNSCOPED_TOOL`]. Every match is on
//! word boundaries, so "admin" is not "dm", `ls` is not inside "tools" and "mailbox" is not
//! "mail".

mod alias;
mod clause;
mod lexicon;
mod names;

use std::cmp::Reverse;
use std::ops::Range;
use std::sync::LazyLock;

use tool_memory_core::{ToolFamily, UNSCOPED_TOOL, split_words, validate_tool_name};

use tool_memory_core::markdown::{self, LineKind, code_span_text};

#[cfg(test)]
use self::alias::find_word;
use self::alias::{ALIAS_GROUP_COUNT, ALIAS_SUFFIXES, Haystack, NAME_SUFFIXES, alias_mentions};
use self::clause::{deciding_clause, order_clauses, points_back, word_index};
use self::lexicon::{
    ALIAS_GROUPS, GENERIC_NAME_WORDS, INTERACTION_NAME_WORDS, INTERACTION_NAMES, MCP_GATEWAYS,
    MCP_SERVICES, NAME_FUNCTION_WORDS, NAME_WORD_SYNONYMS, NameWordKind, SHELL_SERVERS, STOP_NAMES,
};
use self::names::{Hits, NameIndex};
use crate::TurnRecord;
use crate::hash::{FxHashMap, WordMap};
use crate::route::{
    Need, VERB_TOOL_NAMES, has_need, is_command, is_sql, is_windows_command, need_at_with,
};
use crate::text::{code_spans, match_form};

/// Lines of a message read before a rule's for its context ([`Candidates::context_tool`]):
/// an instruction file's section of rules rarely runs longer, and a rule further down is no
/// longer read as pointing back.
const MAX_CONTEXT_LINES: usize = 12;

/// Where a rule sits in its message, for a rule that names no tool of its own.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Context<'a> {
    /// The message's lines.
    pub(crate) lines: &'a [&'a str],
    /// The index of the rule's line.
    pub(crate) line: usize,
    /// The text of that line before the rule.
    pub(crate) before: &'a str,
    /// The line of the rule captured last, and the tool it went to: a line that holds a rule
    /// is read as that rule was, with no second attribution.
    pub(crate) last_rule: Option<(usize, &'a str)>,
    /// The whole list item a rule attributed by its order stands for ("On `gke-prod` only
    /// read: `get`, `describe`. Everything else, ask."): read when the order names no tool.
    pub(crate) item: Option<&'a str>,
}

/// A tool the edict may be attributed to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The normalised name.
    pub(crate) name: String,
    /// Phrases that name the tool: the name itself, and spaced forms of it.
    forms: Vec<String>,
    /// The words of the name, for the alias table.
    tokens: Vec<String>,
    /// The name words distinctive enough to identify the tool alone (not `send`, `get`, …),
    /// as indices of `tokens`.
    distinctive: Vec<usize>,
    /// The family of the tool in core's table.
    family: Option<ToolFamily>,
    /// Whether the tool serves the shell family: of that family, or named as a shell.
    shell: bool,
    /// The needle of each of `forms` in the turn's [`NameIndex`], when it names the tool in
    /// prose: not a plain verb (`Read`, `Edit`).
    form_needles: Vec<Option<u32>>,
    /// The needle of the first of `tokens` (with the alias suffixes); the others follow it.
    first_token_needle: u32,
    /// The needle of each of `tokens` without its final `e`, before `-ing` ("merging"); empty
    /// when no token has such a stem.
    stem_needles: Vec<Option<u32>>,
    /// For an MCP tool (`mcp__server__own_words`), the indices in `tokens` of its own words.
    own_words: Option<Vec<usize>>,
    /// The groups of the alias table that claim the tool, as bits.
    groups: u32,
    /// Whether the tool sends something (a word of its name is `send` or `reply`).
    sends: bool,
    /// The needle of the abbreviation of the tool's own words, for an MCP tool about pull
    /// requests: "PR" says what `create_pull_request` does.
    abbreviation: Option<u32>,
    /// The needles of what users say for words of the tool's name ([`NAME_WORD_SYNONYMS`]),
    /// each with whether it says the tool's action in one word (it then needs a companion).
    synonyms: Vec<(u32, Synonym)>,
}

/// How a tool found by a name word ranks (lower first): where the word stands, how many of the
/// tool's words the rule uses (more first), whether the word is a fallback synonym, whether
/// the tool does not send what the rule sends.
type NameWordKey = (usize, Reverse<usize>, bool, bool);

/// What a synonym of a name word says of the tool ([`NAME_WORD_SYNONYMS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Synonym {
    /// It says the tool's action (`move` for `transition`).
    action: bool,
    /// It names the tool only beside another word of it: one word, not a phrase.
    needs_company: bool,
    /// An earlier, more specific name word also claims it ("move" says `transition` before
    /// `update`): the tool of this one takes the rule only when no tool of that one does.
    fallback: bool,
}

/// The tools an edict can land on: the turn's tools in call order, then the catalogue.
#[derive(Debug, Default)]
pub(crate) struct Candidates {
    tools: Vec<Candidate>,
    first_ran: Option<String>,
    /// The index in `tools` of an MCP gateway (Cline's `use_mcp_tool`) when the agent has one.
    gateway: Option<usize>,
    /// Whether some tool is an MCP server's (`mcp__server__tool`).
    mcp_tools: bool,
    /// How many tools serve the shell family.
    shells: usize,
    /// Whether some tool sends ([`Candidate::sends`]): only then is a rule read for a verb
    /// of sending mail.
    senders: bool,
    /// Every name, form and name word of the tools, for one search per rule.
    names: NameIndex,
}

impl Candidates {
    pub(crate) fn of_turn(turn: &TurnRecord) -> Candidates {
        let mut candidates = Candidates::default();
        let called = turn.tool_calls.iter().map(|call| call.name.as_str());
        for raw in called
            .clone()
            .chain(turn.available_tools.iter().map(String::as_str))
        {
            // A name the store would refuse is never proposed.
            let Ok(name) = validate_tool_name(raw) else {
                continue;
            };
            if candidates.tools.iter().all(|tool| tool.name != name) {
                let tool = Candidate::new(raw, name, &mut candidates.names);
                candidates.tools.push(tool);
            }
        }
        candidates.names.build();
        candidates.senders = candidates.tools.iter().any(|tool| tool.sends);
        candidates.shells = candidates
            .tools
            .iter()
            .filter(|tool| tool.family == Some(ToolFamily::Shell) || tool.shell)
            .count();
        candidates.gateway = candidates
            .tools
            .iter()
            .position(|tool| MCP_GATEWAYS.contains(&tool.name.as_str()));
        candidates.mcp_tools = candidates.tools.iter().any(|tool| tool.own_words.is_some());
        candidates.first_ran = called.filter_map(|raw| validate_tool_name(raw).ok()).next();
        candidates
    }

    /// The tool for an edict whose [`match_form`](crate::text::match_form) is `form`.
    #[cfg(test)]
    pub(crate) fn attribute(&self, form: &str) -> String {
        self.attribute_explicit(form)
            .unwrap_or_else(|| self.fallback())
    }

    /// The tool for the edict `text` (as written) whose match form is `form`: a tool it names,
    /// then one whose distinctive name word it uses, then the catalogue's tool of the family
    /// the rule is about ([`need_at_with`](crate::route::need_at_with): `git` and `npm` go to the shell, `edit` to the edit
    /// tool), then the alias table, then the fallback.
    ///
    /// In a sentence that grants one thing and bans another ("You may read the logs, but never
    /// restart the service"), states a fact before a ban ("Config lives in `config/` and you
    /// must not read `config/secret.key`") or opens with a condition ("When you change `x`,
    /// always run `y`"), the clause of the order decides ([`deciding_clause`]). A rule that points back with "it"
    /// ("Never send `INSERT` through it") is about the tool `previous` (the sentence before)
    /// names, when it names none itself.
    #[cfg(test)]
    pub(crate) fn attribute_rule(
        &self,
        text: &str,
        form: &str,
        whole: bool,
        previous: Option<&str>,
    ) -> String {
        self.rule_evidence(text, form, whole, previous)
            .unwrap_or_else(|| self.fallback())
    }

    /// The tool the rule's own words (or the sentence its "it" points back to) give evidence
    /// of, as [`attribute_rule`](Self::attribute_rule) finds it, without the fallback.
    fn rule_evidence(
        &self,
        text: &str,
        form: &str,
        whole: bool,
        previous: Option<&str>,
    ) -> Option<String> {
        // "Never email anyone at @x.com, drafts only": the last clause names what stays
        // allowed, so the ban before it decides when it names a tool.
        if let Some(at) = allowance_tail(text) {
            let head = &text[..at];
            if let Some(tool) = self.rule_evidence(head, &match_form(head), whole, previous) {
                return Some(tool);
            }
        }
        if let Some(at) = deciding_clause(text) {
            let clause = &text[at..];
            let clause_form = match_form(clause);
            let haystack = Haystack::new(&clause_form);
            // "When you file Jira tickets, put them in `APP`": an order on what the lead-in's
            // action made says how to do that action, so a service's tool the lead-in names
            // is the rule's (not "When you change `x`, always run `y`", a second action).
            if self.mcp_tools
                && handles_what_the_lead_in_made(&text[..at], &haystack)
                && let Some(tool) = self.lead_in_tool(&text[..at])
            {
                return Some(tool);
            }
            let spans = code_spans(clause);
            // "`kubectl` is fine with `get` and `describe`; never `delete`": a ban that names
            // only a bare word in code bans a subcommand of the program the permission ran.
            if let Some(tool) = self.subcommand_of(&text[..at], clause, &spans) {
                return Some(tool);
            }
            if self.mcp_tools
                && let Some(tool) = self.by_action(&haystack, &Haystack::new(form))
            {
                return Some(tool);
            }
            let hits = self.hits(&haystack);
            if let Some(tool) = self.evidence(clause, &spans, &haystack, &hits, true) {
                return Some(tool);
            }
            if let Some(tool) = self.verb_of_clause(&haystack, &Haystack::new(form)) {
                return Some(tool);
            }
        }
        // "Don't post in #general": a `#name` outside code is a chat channel, which the alias
        // table knows as a chat (not "channel", a name word of the tools that read one).
        let channel_form;
        let form = if names_a_channel(text) && !form.contains("chat") {
            channel_form = format!("{form} chat");
            channel_form.as_str()
        } else if names_a_domain(text) && !form.contains("mail") {
            // "Never message anyone at @board.example": a mail domain is e-mail.
            channel_form = format!("{form} email");
            channel_form.as_str()
        } else {
            form
        };
        let haystack = Haystack::new(form);
        let hits = self.hits(&haystack);
        let spans = code_spans(text);
        if let Some(previous) = previous
            && points_back(&haystack)
            && self.spelled(text, &spans, whole.then_some(&hits)).is_none()
            && let Some(tool) = self.spelled(previous, &code_spans(previous), None)
        {
            return Some(tool);
        }
        let tool = self.evidence(text, &spans, &haystack, &hits, whole)?;
        // "`psql` is connected to the dev database. Never run `DROP` …": SQL that the sentence
        // before runs through a program of the shell is the shell's, not the database tool's.
        if let Some(previous) = previous
            && self
                .tools
                .iter()
                .any(|candidate| candidate.claimed(DATABASE_GROUP) && candidate.name == tool)
            && spans.iter().any(|span| is_sql(code_span_text(text, span)))
            && code_spans(previous)
                .iter()
                .any(|span| is_command(code_span_text(previous, span)))
        {
            return self.by_need(Need::Shell, text, &spans).or(Some(tool));
        }
        Some(tool)
    }

    /// The tool of what a rule that names none sits under ("1. `npm run lint` 2. `npm
    /// test`\n\nAll three must pass." → the shell; "## Database\n- Ask before any schema
    /// change." → the database tool): the sentences before it on its line, then the lines
    /// before it, nearest first (for a list item, past its siblings), up to its section's
    /// heading, whose tool comes last. A thematic break ends the section too.
    fn context_tool(&self, context: &Context<'_>) -> Option<String> {
        let ruled = |line: usize| {
            context
                .last_rule
                .filter(|&(ruled, _)| ruled == line)
                .map(|(_, tool)| tool.to_owned())
        };
        if context.before.chars().any(char::is_alphanumeric)
            && let Some(tool) = ruled(context.line).or_else(|| self.clause_tool(context.before))
        {
            return Some(tool);
        }
        let lines = context.lines.get(..context.line)?;
        // An item of a list is a rule of its own beside its siblings ("1. Never rebase shared
        // branches. 2. Don't touch the vendored code."): it sits under the list's lead-in or
        // parent item, not under the item before it.
        let item = match context
            .lines
            .get(context.line)
            .map(|line| markdown::line(line).kind)
        {
            Some(LineKind::Bullet(indent)) => Some(indent),
            _ => None,
        };
        let first = lines.len().saturating_sub(MAX_CONTEXT_LINES);
        for (index, line) in lines.iter().enumerate().skip(first).rev() {
            let read = markdown::line(line);
            match read.kind {
                LineKind::Blank | LineKind::Fence => {}
                LineKind::Bullet(indent) if item.is_some_and(|item| indent >= item) => {}
                LineKind::Rule if !line.trim_start().starts_with('|') => return None,
                LineKind::Heading(_) => return self.clause_tool(read.content),
                _ => {
                    if let Some(tool) = ruled(index).or_else(|| self.line_tool(line)) {
                        return Some(tool);
                    }
                }
            }
        }
        None
    }

    /// The tool of the family a line of context is about ([`need_at_with`]): cheaper than
    /// [`clause_tool`](Self::clause_tool), which also reads names and aliases, since a rule
    /// with no evidence of its own may look back over several lines.
    fn line_tool(&self, line: &str) -> Option<String> {
        let spans = code_spans(line);
        let (need, _) = need_at_with(line, &spans)?;
        self.by_need(need, line, &spans)
    }

    /// Every tool the rule is about: the first, as [`attribute_rule`](Self::attribute_rule)
    /// finds it, and the others: a sentence of several orders ("Don't accept invites for me, and never email
    /// anyone at rival.com") is about the tool of each ([`order_clauses`]), and a list of tools
    /// spelled in code spans ("(`create_payment_link`, `create_invoice`)") about each of them.
    /// A later order that gives no evidence of a tool adds none.
    pub(crate) fn attribute_rule_tools(
        &self,
        text: &str,
        form: &str,
        whole: bool,
        previous: Option<&str>,
        context: &Context<'_>,
    ) -> (String, Vec<String>) {
        // A rule that names no tool takes the tool of what it sits under.
        let attribute = || {
            self.rule_evidence(text, form, whole, previous)
                .or_else(|| {
                    let item = context.item?;
                    self.rule_evidence(item, &match_form(item), true, previous)
                })
                .or_else(|| self.context_tool(context))
                .unwrap_or_else(|| self.fallback())
        };
        // A later order needs a marker after the sentence's first word: most rules hold one
        // marker, at their start, and are not read again.
        let later = whole && later_part(form);
        let clauses = if later {
            order_clauses(text)
        } else {
            Vec::new()
        };
        let mut tools = Vec::new();
        // "Stop using `sed -i` for edits, use apply_patch", "never copy whole files; make
        // surgical edits with the Edit tool": an alternative that spells its tool, after a
        // part that spells none, is a rule on that tool, and the part before is the first
        // rule's.
        let calls_a_tool = later && text.contains(" tool");
        let alternative = if later && clauses.is_empty() {
            alternative_at(text, calls_a_tool).and_then(|at| {
                let part = &text[at..];
                let tool = calls_a_tool
                    .then(|| self.called_a_tool(part))
                    .flatten()
                    .or_else(|| self.spelled(part, &code_spans(part), None))?;
                // "Never use write_to_file on an existing file; use replace_in_file": a choice
                // between two tools is about the one it forbids, one rule.
                let before = &text[..at];
                self.spelled(before, &code_spans(before), None)
                    .is_none()
                    .then_some((at, tool))
            })
        } else {
            None
        };
        let first_end = clauses
            .first()
            .copied()
            .or(alternative.as_ref().map(|(at, _)| *at));
        let first_tool = match first_end {
            Some(first) => self.clause_tool(&text[..first]).unwrap_or_else(attribute),
            // "Do renames with the MultiEdit tool": a tool called so is named, even a verb.
            None => calls_a_tool
                .then(|| self.called_a_tool(text))
                .flatten()
                .unwrap_or_else(attribute),
        };
        if let Some((_, tool)) = alternative
            && tool != first_tool
        {
            tools.push(tool);
        }
        for (index, &start) in clauses.iter().enumerate() {
            let end = clauses.get(index + 1).copied().unwrap_or(text.len());
            // "…, and don't close issues — commenting is fine": a dash ends the order; what
            // follows it grants or explains.
            let end = text[start..end]
                .find([';', '—', '–'])
                .or_else(|| text[start..end].find(" - "))
                .map_or(end, |cut| start + cut);
            if let Some(tool) = self.clause_tool(&text[start..end])
                && tool != first_tool
                && !tools.contains(&tool)
            {
                tools.push(tool);
            }
        }
        // A list of tools takes two code spans, four backticks.
        if text.bytes().filter(|&byte| byte == b'`').count() >= 4 {
            for tool in self.listed_in_code(text) {
                if tool != first_tool && !tools.contains(&tool) {
                    tools.push(tool);
                }
            }
        }
        (first_tool, tools)
    }

    /// The tool of the program `before` (the part before a ban's clause) runs, when the ban's
    /// `clause` names in code only bare words (`delete`, `apply`: lower-case letters and `-`)
    /// and `before` names a command in code.
    fn subcommand_of(&self, before: &str, clause: &str, spans: &[Range<usize>]) -> Option<String> {
        let bare = !spans.is_empty()
            && spans.iter().all(|span| {
                let code = code_span_text(clause, span).trim();
                !code.is_empty()
                    && code
                        .bytes()
                        .all(|byte| byte.is_ascii_lowercase() || byte == b'-')
            });
        if !bare || matches!(need_at_with(clause, spans), Some((Need::Shell, _))) {
            return None;
        }
        let before_spans = code_spans(before);
        before_spans
            .iter()
            .any(|span| is_command(code_span_text(before, span)))
            .then(|| self.clause_tool(before))
            .flatten()
    }

    /// The one tool whose verb the deciding clause says and another of whose name words the
    /// whole rule says: "Purchase orders go through procurement: you draft them, you do not
    /// submit" bans `submit_purchase_order`, though "submit" alone is too common a verb to
    /// name a tool.
    fn verb_of_clause(&self, clause: &Haystack<'_>, whole: &Haystack<'_>) -> Option<String> {
        let said = |haystack: &Haystack<'_>, word: &str| haystack.words().any(|said| said == word);
        let mut found = self.tools.iter().filter(|tool| {
            tool.verb().is_some_and(|verb| said(clause, verb))
                && tool.tokens.iter().skip(1).any(|word| {
                    !NAME_FUNCTION_WORDS.contains(&word.as_str())
                        && (said(whole, word) || said(whole, &format!("{word}s")))
                })
        });
        let tool = found.next()?;
        found.next().is_none().then(|| tool.name.clone())
    }

    /// The service's tool a "when you …" lead-in names by its action or its name words, if
    /// any: not a family of the agent's own tools.
    fn lead_in_tool(&self, lead_in: &str) -> Option<String> {
        let form = match_form(lead_in);
        let haystack = Haystack::new(&form);
        let tool = self.by_action(&haystack, &haystack).or_else(|| {
            self.by_name_word(&haystack, &self.hits(&haystack))
                .map(|hit| hit.tool.name.clone())
        })?;
        self.tools
            .iter()
            .any(|candidate| candidate.name == tool && candidate.own_words.is_some())
            .then_some(tool)
    }

    /// The tool a part of a rule gives evidence of, if any.
    fn clause_tool(&self, clause: &str) -> Option<String> {
        let form = match_form(clause);
        let haystack = Haystack::new(&form);
        let hits = self.hits(&haystack);
        self.evidence(clause, &code_spans(clause), &haystack, &hits, true)
    }

    /// The catalogue tools a list of code spans spells ("`create_payment_link`,
    /// `create_invoice`"): spans with only commas, slashes, "and", "or" or "nor" between
    /// them. Empty when no two spans of one list name tools.
    fn listed_in_code(&self, text: &str) -> Vec<String> {
        let spans = code_spans(text);
        let mut listed = Vec::new();
        let mut run: Vec<String> = Vec::new();
        let mut end = None;
        for span in &spans {
            let joined = end.is_some_and(|end: usize| {
                text[end..span.start]
                    .split(|ch: char| ch.is_whitespace() || ch == ',' || ch == '/')
                    .all(|word| word.is_empty() || matches!(word, "and" | "or" | "nor"))
            });
            if !joined {
                if run.len() > 1 {
                    listed.append(&mut run);
                }
                run.clear();
            }
            match self.code_names(code_span_text(text, span).trim()) {
                Some(tool) => {
                    run.push(tool);
                    end = Some(span.end);
                }
                None => {
                    if run.len() > 1 {
                        listed.append(&mut run);
                    }
                    run.clear();
                    end = None;
                }
            }
        }
        if run.len() > 1 {
            listed.append(&mut run);
        }
        listed
    }

    /// A tool the rule spells out: a code span that is a catalogue name (`` `Read` ``,
    /// `` `mcp__db__run_query` ``), even one that is also a verb, then a name in the prose. A
    /// word inside a longer code span is part of a command (`` `grep -r` `` is not the `Grep`
    /// tool). `form`, when given, is what the rule's match form holds, already searched.
    fn spelled(&self, text: &str, spans: &[Range<usize>], form: Option<&Hits>) -> Option<String> {
        if !text.contains('`') {
            // No code span: the prose is the whole rule.
            return match form {
                Some(form) => self.named(form),
                None => self.named(&self.hits(&Haystack::new(&match_form(text)))),
            };
        }
        // After a command line (`rg`), a span that spells a tool is that command's program
        // too: "Prefer `rg` over `grep`" is not about Claude Code's `Grep`.
        // Whether a span before is a command line is asked only at a span that spells a tool
        // (most spans spell none): every span before the first such span spells none.
        let mut after_command = false;
        spans
            .iter()
            .enumerate()
            .find_map(|(index, span)| {
                let code = code_span_text(text, span).trim();
                let named = self.code_names(code)?;
                after_command = after_command
                    || spans[..index]
                        .iter()
                        .any(|before| is_command(code_span_text(text, before).trim()));
                (!(after_command && is_command(code))).then_some(named)
            })
            .or_else(|| self.named(&self.hits(&Haystack::new(&without_code(text, spans)))))
    }

    /// The tool `text` calls by its name and the word "tool" ("with the Edit tool", "the
    /// MultiEdit tool"): even a name that is a plain verb names the tool so called.
    fn called_a_tool(&self, text: &str) -> Option<String> {
        let form = match_form(text);
        form.match_indices(" tool").find_map(|(at, _)| {
            let follows = form[at + 5..].chars().next();
            if follows.is_some_and(|ch| ch.is_alphanumeric() && ch != 's') {
                return None;
            }
            let name = form[..at].rsplit(' ').next()?.trim_matches('`');
            self.tools
                .iter()
                .find(|tool| !name.is_empty() && tool.name == name)
                .map(|tool| tool.name.clone())
        })
    }

    /// Whether a code span of `text` spells a tool of the catalogue (`` `execute_command` ``).
    pub(crate) fn names_in_code(&self, text: &str) -> bool {
        code_spans(text)
            .iter()
            .any(|span| self.code_names(code_span_text(text, span).trim()).is_some())
    }

    /// Whether the rule's own words give evidence of a tool of the catalogue (as
    /// [`attribute_rule`](Self::attribute_rule) finds it, without what it sits under and the
    /// fallback): a statement about a service's things stands only then.
    pub(crate) fn names_a_tool(
        &self,
        text: &str,
        form: &str,
        whole: bool,
        previous: Option<&str>,
    ) -> bool {
        self.rule_evidence(text, form, whole, previous).is_some()
    }

    /// Where each name, form and name word of the tools first stands in the rule `form` reads.
    fn hits(&self, form: &Haystack<'_>) -> Hits {
        self.names.hits(form)
    }

    /// The tool a code span's text names, if it is a catalogue name or a form of one.
    fn code_names(&self, code: &str) -> Option<String> {
        // A tool's name is one word: a span with a space is a command or a snippet.
        if code.contains(char::is_whitespace) {
            return None;
        }
        let same = |tool: &Candidate, name: &str| {
            tool.name == name || tool.forms.iter().any(|form| form == name)
        };
        if code.is_ascii() {
            // Compared without lower-casing into a new string first; most spans name no tool.
            let tool = self.tools.iter().find(|tool| {
                tool.name.eq_ignore_ascii_case(code)
                    || tool
                        .forms
                        .iter()
                        .any(|form| form.eq_ignore_ascii_case(code))
            })?;
            // The store's rules for a name still apply (its length above all).
            let name = validate_tool_name(code).ok()?;
            return same(tool, &name).then(|| tool.name.clone());
        }
        let name = validate_tool_name(code).ok()?;
        self.tools
            .iter()
            .find(|tool| same(tool, &name))
            .map(|tool| tool.name.clone())
    }

    /// The tool the rule's own words point to (attribution steps 1 to 4 and the alias table),
    /// if any.
    /// `spans` are the code spans of `text`, `haystack` is the match form of `text` as read, or
    /// of the whole sentence `text` was cut from (`whole` is false then), and `hits` what it
    /// holds of the tools' names.
    fn evidence(
        &self,
        text: &str,
        spans: &[Range<usize>],
        haystack: &Haystack<'_>,
        hits: &Hits,
        whole: bool,
    ) -> Option<String> {
        if let Some(tool) = self.spelled(text, spans, whole.then_some(hits)) {
            return Some(tool);
        }
        // "The `stripe` CLI is for reading only", "the gh command-line tool": a program called
        // a CLI runs in the shell, even beside the vendor's MCP tools.
        if self.mcp_tools
            && names_a_cli(haystack)
            && let Some(tool) = self.by_need(Need::Shell, text, spans)
        {
            return Some(tool);
        }
        if self.mcp_tools
            && let Some(tool) = self.by_action(haystack, haystack)
        {
            return Some(tool);
        }
        let need = need_at_with(text, spans);
        // SQL in a code span (`DELETE`, `DROP TABLE`) goes to the agent's database tool when
        // it has one, and to the shell (`psql`) otherwise.
        // "Never run `DELETE`, `UPDATE` or `TRUNCATE`": the statements decide after a verb of
        // the shell too, unless another span is a command line (`psql -c`).
        if let Some((Need::Shell, at)) = need
            && let Some(first) = spans.iter().position(|span| span.start >= at)
            && spans[first..]
                .iter()
                .any(|span| is_sql(code_span_text(text, span)))
            && spans[first..].iter().all(|span| {
                let code = code_span_text(text, span);
                is_sql(code) || !is_command(code)
            })
            && let Some(tool) = self.tools.iter().find(|tool| tool.claimed(DATABASE_GROUP))
        {
            return Some(tool.name.clone());
        }
        // A command line in a code span is the command's: a tool named after its program
        // (`git`, `kubectl`) takes the rule, and a name word or an alias inside the command
        // (`deploy` of `vercel deploy`, `search` of `npm search`) says nothing of the tool.
        // Most rules find no such tool at all, so the prose is read apart only when one is
        // found.
        let mut name_hit = self.by_name_word(haystack, hits);
        let mut alias = if name_hit.is_none() {
            self.by_alias(haystack, hits)
        } else {
            None
        };
        let decisive = name_hit.is_some()
            || alias.is_some_and(|tool| tool.family.is_none() && !only_by_server(tool, hits));
        let prose_form;
        let prose_haystack;
        let prose_hits;
        let (haystack, hits) = match decisive.then(|| commands_of(text, spans)) {
            Some(commands) if !commands.is_empty() => {
                for span in &commands {
                    let code = code_span_text(text, span).trim();
                    let first = code.split_whitespace().next().unwrap_or_default();
                    let program = first.rsplit('/').next().unwrap_or(first);
                    // A dedicated tool (`git`, `kubectl`), not an agent's own of a family
                    // (Claude Code's `Grep` is not the `grep` program).
                    if let Some(tool) = self.code_names(program)
                        && self
                            .tools
                            .iter()
                            .any(|candidate| candidate.name == tool && candidate.family.is_none())
                    {
                        return Some(tool);
                    }
                }
                prose_form = without_code(text, &commands);
                prose_haystack = Haystack::new(&prose_form);
                prose_hits = self.hits(&prose_haystack);
                name_hit = self.by_name_word(&prose_haystack, &prose_hits);
                alias = if name_hit.is_none() {
                    self.by_alias(&prose_haystack, &prose_hits)
                } else {
                    None
                };
                (&prose_haystack, &prose_hits)
            }
            _ => (haystack, hits),
        };
        let form = haystack.text();
        if let Some(NameWordHit {
            tool: candidate,
            position,
            words,
            verb,
        }) = name_hit
        {
            let tool = &candidate.name;
            let family_tool =
                need.and_then(|(need, at)| Some((need, at, self.by_need(need, text, spans)?)));
            match family_tool {
                // `apply_patch` found by "patch" in "Never run `patch -p1`": the name word of
                // an agent's built-in tool yields to what the rule is about.
                Some((need, _, family_tool))
                    if family_tool != *tool
                        && candidate
                            .family
                            .is_some_and(|family| family != need.family()) =>
                {
                    return Some(family_tool);
                }
                // "Don't fetch URLs from issue comments": one noun of an MCP tool's name
                // (`issue` of `create_issue`, not its verb), after the verb that says what the
                // rule is about.
                Some((_, at, family_tool))
                    if family_tool != *tool
                        && tool.starts_with("mcp__")
                        && words == 1
                        && !verb
                        && word_index(text, at) < word_index(form, position) =>
                {
                    return Some(family_tool);
                }
                _ => return Some(tool.clone()),
            }
        }
        // Cline calls every MCP tool through `use_mcp_tool`: a rule about an MCP server ("the
        // Supabase MCP server", "the calendar server") or one of its tools by name
        // (`apply_migration`) is that tool's.
        // With the gateway as the agent's only door to mail, calendars and tickets, a rule
        // about one of those that no family claims ("Never email customers on a Sunday") is
        // the gateway's too.
        if let Some(gateway) = self.gateway
            && (about_mcp(text, spans, haystack)
                || need.is_none() && haystack.words().any(|word| SERVICE_WORDS.contains(&word)))
        {
            return Some(self.tools[gateway].name.clone());
        }
        // A dedicated tool the alias table finds (`git_commit`, `execute_sql`, `kubectl`) is
        // more specific than a family's general tool; a family tool it finds is only a guess
        // from a common noun, which the rule's own evidence outranks.
        if let Some(tool) = alias
            && tool.family.is_none()
            && !only_by_server(tool, hits)
        {
            return Some(tool.name.clone());
        }
        need.and_then(|(need, _)| self.by_need(need, text, spans))
            .or_else(|| alias.map(|tool| tool.name.clone()))
    }

    /// The catalogue's tool for `need`: the first of its family in call and catalogue order,
    /// with the edit family split by what the rule does (a write tool for new files, a delete
    /// tool for deleting, an edit tool otherwise).
    ///
    /// A shell rule goes to PowerShell when the agent has it and the rule is about Windows
    /// (`Remove-Item`, `winget`, a `.ps1` script, a `C:\` path), else to another shell; a
    /// fetch to a fetch tool before a browser; a deletion, when no tool deletes files, to the
    /// shell (`rm`: no edit tool deletes); a read, when a coding agent has no tool to read
    /// files, to the shell (`cat`). `text` is the rule and `spans` its code spans.
    fn by_need(&self, need: Need, text: &str, spans: &[Range<usize>]) -> Option<String> {
        let family = need.family();
        let mut members = self.tools.iter().filter(|tool| {
            tool.family == Some(family) || (family == ToolFamily::Shell && tool.shell)
        });
        let has = |tool: &Candidate, words: &[&str]| {
            tool.tokens
                .iter()
                .any(|token| words.contains(&token.as_str()))
        };
        let chosen = match need {
            Need::Shell => {
                const POWERSHELL: &[&str] = &["powershell", "pwsh"];
                // Most agents have one shell: the choice is read only when there are two.
                let windows = self.shells > 1
                    && members.clone().any(|tool| has(tool, POWERSHELL))
                    && members.clone().any(|tool| !has(tool, POWERSHELL))
                    && is_windows_command(text, spans);
                members
                    .clone()
                    .find(|tool| has(tool, POWERSHELL) == windows)
                    .or_else(|| members.next())
            }
            // An agent that edits files but has no tool to delete one deletes with `rm`.
            Need::Edit { delete: true, .. }
                if members.clone().next().is_some()
                    && !members.clone().any(|tool| has(tool, &["delete", "remove"])) =>
            {
                return self.by_need(Need::Shell, text, spans);
            }
            Need::Edit { create, delete } => {
                let preferred: &[&str] = if delete {
                    &["delete", "remove"]
                } else if create {
                    &["write", "create"]
                } else {
                    &["edit", "multiedit", "replace", "patch"]
                };
                members
                    .clone()
                    .find(|tool| has(tool, preferred))
                    .or_else(|| members.find(|tool| delete || !has(tool, &["delete", "remove"])))
            }
            // A coding agent with no tool to read files (Codex: `shell`, `apply_patch`) reads
            // them with its shell (`cat`).
            Need::Read
                if members.clone().next().is_none()
                    && self
                        .tools
                        .iter()
                        .any(|tool| tool.family == Some(ToolFamily::FileEdit)) =>
            {
                return self.by_need(Need::Shell, text, spans);
            }
            Need::Read => members
                .clone()
                .find(|tool| has(tool, &["read", "view"]))
                .or_else(|| members.next()),
            Need::Fetch => members
                .clone()
                .find(|tool| has(tool, &["fetch", "webfetch"]))
                .or_else(|| members.next()),
            _ => members.next(),
        };
        chosen.map(|tool| tool.name.clone())
    }

    /// The tool `form` names or aliases, if any (attribution steps 1 and 2).
    pub(crate) fn attribute_explicit(&self, form: &str) -> Option<String> {
        let haystack = Haystack::new(form);
        let hits = self.hits(&haystack);
        self.named(&hits)
            .or_else(|| {
                self.by_name_word(&haystack, &hits)
                    .map(|hit| hit.tool.name.clone())
            })
            .or_else(|| {
                self.by_alias(&haystack, &hits)
                    .map(|tool| tool.name.clone())
            })
    }

    /// The MCP tool that does what the rule forbids or gates, among the tools of the server
    /// it names ("Zendesk tickets: never set one to `closed`" → its update tool) or else of
    /// the tools whose object it names ("moving an issue to Done" → the transition
    /// tool): the first whose verb does the rule's action. "Read-only" forbids every write, so
    /// it goes to the server's update, create or delete tool, not its query tool.
    /// `haystack` holds the action (the clause of the order) and `whole` the words that name
    /// the server or the object (the whole rule: "Zendesk tickets: never set one to …").
    fn by_action(&self, haystack: &Haystack<'_>, whole: &Haystack<'_>) -> Option<String> {
        let words: Vec<&str> = haystack.words().collect();
        let action = words.iter().enumerate().find_map(|(index, word)| {
            if *word == "read" && words.get(index + 1) == Some(&"only") {
                return Some(WRITE_VERBS);
            }
            ACTIONS
                .iter()
                .find(|(verbs, _)| verbs.contains(word))
                .map(|(_, tool_verbs)| *tool_verbs)
        })?;
        let mcp = || {
            self.tools.iter().filter_map(|tool| {
                let (server, _) = tool.name.strip_prefix("mcp__")?.split_once("__")?;
                Some((server, tool, tool.own_words.as_deref()?))
            })
        };
        let action_word = words
            .iter()
            .copied()
            .find(|word| ACTIONS.iter().any(|(verbs, _)| verbs.contains(word)) || *word == "read");
        let words: Vec<&str> = whole.words().collect();
        // "Don't close PRs": a PR is a pull request, the nouns of `update_pull_request`.
        let singular = |word: &str| match word {
            "pr" | "prs" => "pull".to_owned(),
            _ => word.strip_suffix('s').unwrap_or(word).to_owned(),
        };
        let named: Vec<&Candidate> = mcp()
            .filter(|(server, _, _)| {
                server
                    .split(['-', '_'])
                    .any(|part| part.len() > 2 && words.contains(&part))
            })
            .map(|(_, tool, _)| tool)
            .collect();
        let pool: Vec<&Candidate> = if named.is_empty() {
            mcp()
                .filter(|(_, tool, own)| {
                    own.iter().skip(1).any(|&at| {
                        let noun = singular(&tool.tokens[at]);
                        words.iter().any(|word| singular(word) == noun)
                    })
                })
                .map(|(_, tool, _)| tool)
                .collect()
        } else {
            named
        };
        // "Never cancel the board review": an action no family of the agent's own tools does
        // (not "delete the fixtures", an edit) names no object the catalogue knows; the one MCP
        // tool whose verb does it is the rule's. Two such tools (a calendar's and a mailbox's
        // delete) leave the rule to the other steps.
        let pool = if pool.is_empty() && action_word.is_some_and(|word| !has_need(word)) {
            let doers: Vec<&Candidate> = mcp()
                .map(|(_, tool, _)| tool)
                .filter(|tool| {
                    tool.own_words
                        .as_deref()
                        .and_then(|own| own.first())
                        .is_some_and(|&at| action.contains(&tool.tokens[at].as_str()))
                })
                .collect();
            if doers.len() == 1 { doers } else { pool }
        } else {
            pool
        };
        action.iter().find_map(|verb| {
            pool.iter()
                .find(|tool| {
                    tool.own_words
                        .as_deref()
                        .and_then(|own| own.first())
                        .is_some_and(|&at| tool.tokens[at] == *verb)
                })
                .map(|tool| tool.name.clone())
        })
    }

    /// The tool of a sentence that names none: the first tool that ran, else `__unscoped__`
    /// (attribution steps 3 and 4).
    pub(crate) fn fallback(&self) -> String {
        self.first_ran
            .clone()
            .unwrap_or_else(|| UNSCOPED_TOOL.to_owned())
    }

    /// The tool named earliest in the edict; the longest name wins a tie ("send email" over
    /// "email"), then call order.
    fn named(&self, hits: &Hits) -> Option<String> {
        let mut best: Option<(usize, Reverse<usize>, &Candidate)> = None;
        for tool in &self.tools {
            // `Read`, `Edit`, `Write`: the word names the action; the family step routes it
            // (such a form has no needle).
            for (phrase, needle) in tool.forms.iter().zip(&tool.form_needles) {
                let Some(position) = needle.and_then(|needle| hits.at(needle)) else {
                    continue;
                };
                let key = (position, Reverse(phrase.len()));
                if best.is_none_or(|(at, length, _)| key < (at, length)) {
                    best = Some((key.0, key.1, tool));
                }
            }
        }
        best.map(|(_, _, tool)| tool.name.clone())
    }

    /// The tool one of whose distinctive name words the edict uses earliest ("whatsapp" for
    /// `whatsapp_send`, "archive" for `gmail_archive`, "screenshots" for `take_screenshot`).
    /// Generic verbs (`send`, `get`, `create`, …) do not count. On a tie, the tool with more
    /// of its words in the edict wins ("post in Slack" picks `slack_post` over
    /// `slack_read_channel`), then call order.
    fn by_name_word(&self, form: &Haystack<'_>, hits: &Hits) -> Option<NameWordHit<'_>> {
        let sending = self.senders && sends_mail(form);
        let mut best: Option<(NameWordKey, &Candidate, bool)> = None;
        for tool in &self.tools {
            let earliest = tool
                .distinctive
                .iter()
                .filter_map(|&token| {
                    tool.name_word_at(token, hits)
                        .map(|at| (at, tool.verb() == Some(tool.tokens[token].as_str()), false))
                })
                .min();
            let earliest = match tool.synonym_at(hits) {
                Some(synonym) if earliest.is_none_or(|(at, _, _)| synonym.0 < at) => Some(synonym),
                _ => earliest,
            };
            let Some((position, verb, fallback)) = earliest else {
                continue;
            };
            // On a tie, a tool that sends: "never email Sarah" is about sending mail, not
            // reading, listing or drafting it.
            let key = (
                position,
                Reverse(tool.words_in(hits)),
                fallback,
                !(sending && tool.sends),
            );
            if best.is_none_or(|(best_key, _, _)| key < best_key) {
                best = Some((key, tool, verb));
            }
        }
        best.map(
            |((position, Reverse(words), _, _), tool, verb)| NameWordHit {
                tool,
                position,
                words,
                verb,
            },
        )
    }

    /// The alias group mentioned first that resolves to an existing tool: product and
    /// program names before common nouns, then the earliest mention, then the longest phrase.
    fn by_alias(&self, form: &Haystack<'_>, hits: &Hits) -> Option<&Candidate> {
        let sending = self.senders && sends_mail(form);
        // On the stack, as many as the table has groups; each group once, so the order is
        // the same whatever the sort.
        let mut mentioned = [(false, 0, Reverse(0), 0); ALIAS_GROUP_COUNT];
        let mut count = 0;
        for (group_index, earliest) in alias_mentions(form).into_iter().enumerate() {
            if let Some((weak, position, length)) = earliest {
                mentioned[count] = (weak, position, length, group_index);
                count += 1;
            }
        }
        let mentioned = &mut mentioned[..count];
        mentioned.sort_unstable();
        mentioned
            .iter()
            .find_map(|&(_, _, _, group_index)| self.resolve(group_index, hits, sending))
    }

    /// The group's tool whose name words the edict also uses most ("never delete files" picks
    /// `delete_file` over `read_file`); call order breaks ties.
    fn resolve(&self, group: usize, hits: &Hits, sending: bool) -> Option<&Candidate> {
        let mut best: Option<((usize, bool, bool), &Candidate)> = None;
        for tool in self.tools.iter().filter(|tool| tool.claimed(group)) {
            // On a tie, a tool that sends ("always cc ops@" is about sending); then, in team
            // chat, one that sends or posts at all: a rule that names only a channel or a DM
            // ("nothing in #sales", "DMs to Omar need my OK") guards what reaches others, not
            // a listing of channels.
            let score = (
                tool.words_in(hits),
                sending && tool.sends,
                group == CHAT_GROUP
                    && (tool.sends || tool.tokens.iter().any(|token| token == "post")),
            );
            if best.is_none_or(|(best_score, _)| score > best_score) {
                best = Some((score, tool));
            }
        }
        best.map(|(_, tool)| tool)
    }
}

/// Whether `tool` is an MCP tool (`mcp__github__create_pull_request`) none of whose own
/// words (`create`, `pull`, `request`) the rule uses: the alias table found it by its
/// server's name alone, which says nothing about what the tool does.
fn only_by_server(tool: &Candidate, hits: &Hits) -> bool {
    let Some(own) = &tool.own_words else {
        return false;
    };
    !own.iter()
        .any(|&token| hits.at(tool.token_needle(token)).is_some())
        && tool
            .abbreviation
            .is_none_or(|needle| hits.at(needle).is_none())
}

/// Whether the rule `text` (code spans `spans`, match form `form`) is about an MCP server or
/// one of its tools: the word "mcp", "the X server" for a server that is not the shell's (a
/// dev, web or database server), a product only an MCP server reaches ([`MCP_SERVICES`]), or a tool's name in a code span after "call", "use" or
/// "invoke" (`apply_migration`).
fn about_mcp(text: &str, spans: &[Range<usize>], form: &Haystack<'_>) -> bool {
    let mut previous = "";
    for word in form.words() {
        if word == "mcp"
            || (word == "server" && !SHELL_SERVERS.contains(&previous))
            || MCP_SERVICES.contains(&word)
        {
            return true;
        }
        previous = word;
    }
    spans.iter().any(|span| {
        let code = code_span_text(text, span).trim();
        let before = text[..span.start].trim_end();
        let verb = before
            .rsplit(|ch: char| !ch.is_alphanumeric())
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        matches!(
            verb.as_str(),
            "call" | "calling" | "use" | "using" | "invoke"
        ) && code.contains('_')
            && code
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'_')
    })
}

/// Words of the things only an MCP server reaches (mail, calendars, tickets, contacts), for
/// an agent whose MCP door is a gateway (`use_mcp_tool`).
const SERVICE_WORDS: &[&str] = &[
    "calendar",
    "calendars",
    "contact",
    "contacts",
    "email",
    "emails",
    "event",
    "events",
    "inbox",
    "invite",
    "invites",
    "invitation",
    "invitations",
    "mail",
    "meeting",
    "meetings",
    "ticket",
    "tickets",
];

/// The verbs of an MCP tool's name that write, in the order a rule that forbids writing
/// takes them.
const WRITE_VERBS: &[&str] = &["update", "edit", "create", "delete"];

/// The verbs of a rule's action ([`Candidates::by_action`]) and the verbs of an MCP tool's
/// name that do it, in order of preference.
const ACTIONS: &[(&[&str], &[&str])] = &[
    (
        &["move", "moving", "moved", "transition", "transitioning"],
        &["transition", "move", "update"],
    ),
    (
        &[
            "set",
            "setting",
            "change",
            "changing",
            "update",
            "updating",
            "edit",
            "editing",
            "modify",
            "modifying",
            "close",
            "closing",
            "reopen",
            "reopening",
            "mark",
            "marking",
            "assign",
            "assigning",
            "reassign",
            "resolve",
            "resolving",
            "rename",
            "escalate",
        ],
        &[
            "update", "edit", "set", "modify", "patch", "close", "assign",
        ],
    ),
    (
        &[
            "create",
            "creating",
            "book",
            "booking",
            "schedule",
            "scheduling",
            "file",
            "filing",
        ],
        &["create", "add", "book", "schedule", "new", "insert"],
    ),
    (
        &[
            "delete",
            "deleting",
            "remove",
            "removing",
            "cancel",
            "cancelling",
            "canceling",
            "archive",
            "archiving",
            "purge",
        ],
        &["delete", "remove", "cancel", "archive"],
    ),
];

/// Whether the rule (its match form, read) calls a program a CLI: "the `stripe` CLI", "the
/// gh command-line tool".
fn names_a_cli(form: &Haystack<'_>) -> bool {
    let (mut before, mut previous) = ("", "");
    for word in form.words() {
        let command_line =
            previous == "command-line" || (before == "command" && previous == "line");
        if word == "cli" || word == "clis" || (command_line && word == "tool") {
            return true;
        }
        (before, previous) = (previous, word);
    }
    false
}

/// Whether a rule that opens with `lead_in` ("When you create Linear issues, ") orders
/// something about what that action made: its order's object points back ("assign them",
/// "label it", "put those").
fn handles_what_the_lead_in_made(lead_in: &str, order: &Haystack<'_>) -> bool {
    let lead = lead_in.trim_start().as_bytes();
    let opens = |word: &str| {
        lead.len() > word.len()
            && lead[..word.len()].eq_ignore_ascii_case(word.as_bytes())
            && lead[word.len()] == b' '
    };
    (opens("when you") || opens("whenever you"))
        && order
            .words()
            .take(3)
            .any(|word| matches!(word, "them" | "it" | "those" | "these"))
}

/// Whether the rule (its match form, read) sends mail: "cc", "bcc", "reply", "forward" or
/// "send", or "email" / "mail" as a verb, right after a marker ("never email Sarah", not
/// "never mark an email as read").
fn sends_mail(form: &Haystack<'_>) -> bool {
    let mut previous = "";
    for word in form.words() {
        let verb = match word {
            "cc" | "bcc" | "reply" | "forward" | "send" | "sending" => true,
            "email" | "e" | "mail" | "emailing" | "mailing" => matches!(
                previous,
                "never" | "t" | "not" | "always" | "to" | "please" | "ever" | "and" | "or"
            ),
            _ => false,
        };
        if verb {
            return true;
        }
        previous = word;
    }
    false
}

/// The code spans of `text` (all its spans are `spans`) that hold a command line.
/// Whether `text` names a chat channel as `#name` (a letter after the `#`, at a word's start,
/// outside code): not a heading's marks, an issue number (`#123`) or a colour.
fn names_a_channel(text: &str) -> bool {
    let mut in_code = false;
    let mut before = ' ';
    for (at, ch) in text.char_indices() {
        if ch == '`' {
            in_code = !in_code;
        } else if ch == '#'
            && !in_code
            && before.is_whitespace()
            && text[at + 1..]
                .chars()
                .next()
                .is_some_and(|next| next.is_ascii_lowercase())
            && at > 0
        {
            return true;
        }
        before = ch;
    }
    false
}

/// Whether `text` names a mail domain outside code: `@` after a space, then a name with a dot
/// inside it ("anyone at @board.example"). A handle ("@priya") has no dot.
fn names_a_domain(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut in_code = false;
    for (at, &byte) in bytes.iter().enumerate() {
        if byte == b'`' {
            in_code = !in_code;
        } else if byte == b'@' && !in_code && at > 0 && bytes[at - 1] == b' ' {
            let name: &[u8] = &bytes[at + 1..];
            let end = name
                .iter()
                .position(|byte| !(byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'-')))
                .unwrap_or(name.len());
            let name = &name[..end];
            let name = name.strip_suffix(b".").unwrap_or(name);
            if name.first().is_some_and(u8::is_ascii_alphanumeric)
                && name.iter().skip(1).any(|byte| *byte == b'.')
            {
                return true;
            }
        }
    }
    false
}

/// The byte offset in `text` of a last clause that names what stays allowed after a ban:
/// "…, drafts only", "…, only drafts", "…; reading is fine", "…, read-only for that one". At
/// most four words after the last comma or semicolon (a "for them / those / that one" that
/// points back left aside), with "only" first or last, "read-only" last or "is / are fine /
/// ok / allowed" at the end.
fn allowance_tail(text: &str) -> Option<usize> {
    let trimmed = text.trim_end_matches(['.', '!', ' ', '*']);
    let turn = trimmed.rfind([',', ';'])?;
    let tail = &trimmed[turn + 1..];
    let mut words: Vec<&str> = tail.split_whitespace().collect();
    // "…, drafts only for those", "…, read-only for that one": the allowance points back at
    // what the ban named.
    for pointer in [
        &["for", "them"][..],
        &["for", "those"],
        &["for", "these"],
        &["for", "it"],
        &["for", "that", "one"],
        &["for", "those", "ones"],
    ] {
        if words.len() > pointer.len()
            && words[words.len() - pointer.len()..]
                .iter()
                .zip(pointer)
                .all(|(word, pointer)| word.eq_ignore_ascii_case(pointer))
        {
            words.truncate(words.len() - pointer.len());
            break;
        }
    }
    if words.is_empty() || words.len() > 4 || turn == 0 {
        return None;
    }
    let first = words[0];
    let last = words[words.len() - 1];
    let only = words.len() > 1
        && (first.eq_ignore_ascii_case("only") || last.eq_ignore_ascii_case("only"))
        || last.eq_ignore_ascii_case("read-only");
    let fine = words.len() > 2
        && matches!(words[words.len() - 2], "is" | "are")
        && ["fine", "ok", "okay", "allowed"]
            .iter()
            .any(|word| last.eq_ignore_ascii_case(word));
    (only || fine).then_some(turn)
}

fn commands_of(text: &str, spans: &[Range<usize>]) -> Vec<Range<usize>> {
    spans
        .iter()
        .filter(|span| is_command(code_span_text(text, span)))
        .cloned()
        .collect()
}

/// Whether a rule's match form may hold a later part: a marker of a later order
/// ([`order_clauses`]) after its first word (a space, then `never`, `don`, `do not`, `always`
/// or `avoid`), an alternative opening with "use" after `,` or `;`, or a tool called so
/// ([`alternative_at`]). One search whose literals the regex crate finds with its vector
/// prefilter, not a look at every byte: most rules hold one marker, at their start.
fn later_part(form: &str) -> bool {
    static LATER: LazyLock<regex::bytes::Regex> = LazyLock::new(|| {
        regex::bytes::Regex::new(" (?:never|don|do not|always|avoid)|[,;] ?use | tool")
            .expect("the later markers compile")
    });
    LATER.is_match(form.as_bytes())
}

/// Where an alternative after a rule's first part opens: a part after `,` or `;` that opens
/// with "use", or any part after `;` that calls something a tool ("…; make surgical edits
/// with the Edit tool"). Whether it spells a tool is for the caller to read.
/// `tool` says whether `text` holds " tool".
fn alternative_at(text: &str, tool: bool) -> Option<usize> {
    text.bytes().enumerate().find_map(|(at, byte)| {
        if byte != b',' && byte != b';' {
            return None;
        }
        let rest = text[at + 1..].trim_start();
        let start = text.len() - rest.len();
        // `get`: the part may open with a character beyond ASCII.
        let opens_use = rest.len() > 4
            && rest
                .get(..4)
                .is_some_and(|head| head.eq_ignore_ascii_case("use "));
        (opens_use || byte == b';' && tool && rest.contains(" tool")).then_some(start)
    })
}

/// The match form of `text` with its code spans left out.
fn without_code(text: &str, spans: &[Range<usize>]) -> String {
    let mut prose = String::with_capacity(text.len());
    let mut at = 0;
    for span in spans {
        prose.push_str(&text[at..span.start]);
        prose.push(' ');
        at = span.end;
    }
    prose.push_str(&text[at..]);
    match_form(&prose)
}

/// What [`Candidates::by_name_word`] found: the tool, where its earliest name word stands in
/// the rule, how many of its name words the rule uses, and whether that word is the verb of
/// the tool's name (`merge` in `merge_pull_request`, not `issue` in `create_issue`).
struct NameWordHit<'c> {
    tool: &'c Candidate,
    position: usize,
    words: usize,
    verb: bool,
}

impl Candidate {
    /// The first word of the tool's own name (after an MCP server's prefix), which names what
    /// it does: `merge` for `mcp__github__merge_pull_request`, `send` for `send_email`.
    fn verb(&self) -> Option<&str> {
        let own = self
            .name
            .strip_prefix("mcp__")
            .and_then(|rest| rest.split_once("__"))
            .map_or(self.name.as_str(), |(_, own)| own);
        own.split(['_', '-']).find(|word| !word.is_empty())
    }

    fn new(raw: &str, name: String, names: &mut NameIndex) -> Candidate {
        let name_words = words_of_name(&name, &name, false);
        // Most names are cut at the same places with or without their capitals: their camel
        // words are their name words, which add no token and no form.
        let camel_words = if same_cuts(raw.trim(), &name) {
            Vec::new()
        } else {
            words_of_name(raw.trim(), &name, true)
        };
        let family = family_of(&name);
        // The spaced forms are written before the words move into `tokens`: no word is
        // copied.
        let several_words = name_words.len() > 1 || camel_words.len() > 1;
        // A name of one word is its own spaced form (a form already listed is not listed
        // again), so it is not written out.
        let spaced_form = |words: &[String]| match words {
            [word] if *word == name => String::new(),
            words => words.join(" "),
        };
        let spaced = spaced_form(&name_words);
        let camel = spaced_form(&camel_words);
        let mut tokens = name_words;
        tokens.reserve(camel_words.len());
        for token in camel_words {
            if !tokens.contains(&token) {
                tokens.push(token);
            }
        }
        // An agent's own interaction tool (asking, planning, to-dos, sub-agents) is named
        // only by its exact name, or "the Agent tool" for a name that is a plain word.
        let interaction = family.is_none()
            && !name.starts_with("mcp__")
            && (INTERACTION_NAMES.contains(&name.as_str())
                || tokens
                    .iter()
                    .any(|token| NAME_LISTS.interaction.contains(token)));
        let mut forms = Vec::new();
        if interaction {
            if several_words {
                forms.push(name.clone());
            } else {
                forms.push(format!("{name} tool"));
            }
        } else {
            // An MCP tool is named by its own part too: `run_query` for `mcp__db__run_query`.
            let tail = name
                .rsplit_once("__")
                .filter(|_| name.starts_with("mcp__"))
                .map(|(_, tail)| tail.to_owned())
                .filter(|tail| tail.len() >= 4 && tail.contains('_'))
                .unwrap_or_default();
            for form in [name.clone(), spaced, camel, tail] {
                if form.chars().count() >= 2
                    && !NAME_LISTS.stop.contains(&form)
                    && !forms.contains(&form)
                {
                    forms.push(form);
                }
            }
        }
        // Chosen once per turn, not once per rule. An interaction tool has none: its name
        // words ("ask", "plan", "agent") are what rules say about other tools.
        let distinctive = (0..tokens.len())
            .filter(|&index| {
                let token = &tokens[index];
                !interaction && token.chars().count() >= 3 && !NAME_LISTS.generic.contains(token)
            })
            .collect();
        let form_needles = forms
            .iter()
            .map(|form| {
                (!VERB_TOOL_NAMES.contains(&form.as_str())).then(|| names.add(form, NAME_SUFFIXES))
            })
            .collect();
        // The tokens' needles are added one after the other: the first one's id locates all.
        let mut first_token_needle = u32::MAX;
        for (index, token) in tokens.iter().enumerate() {
            let needle = names.add(token, ALIAS_SUFFIXES);
            if index == 0 {
                first_token_needle = needle;
            }
        }
        let stem_needles = if tokens.iter().any(|token| stem_of(token).is_some()) {
            tokens
                .iter()
                .map(|token| Some(names.add(stem_of(token)?, &["ing"])))
                .collect()
        } else {
            Vec::new()
        };
        let own_words = name
            .strip_prefix("mcp__")
            .and_then(|rest| rest.split_once("__"))
            .map(|(_, own)| {
                split_words(own, false)
                    .iter()
                    .filter_map(|word| tokens.iter().position(|token| token == word))
                    .collect()
            });
        let abbreviation = (own_words.is_some()
            && tokens.iter().any(|token| token == "pull")
            && tokens.iter().any(|token| token == "request"))
        .then(|| names.add("pr", ALIAS_SUFFIXES));
        // An agent's own tool of a family (`Bash`, `Edit`) is found by its family, not by
        // what users call an app's action.
        let synonyms = if interaction || family.is_some() {
            Vec::new()
        } else {
            synonyms_of(&tokens, names)
        };
        let mut candidate = Candidate {
            name,
            forms,
            tokens,
            distinctive,
            family,
            shell: false,
            form_needles,
            first_token_needle,
            stem_needles,
            own_words,
            groups: 0,
            sends: false,
            abbreviation,
            synonyms,
        };
        candidate.sends = candidate
            .tokens
            .iter()
            .any(|token| matches!(token.as_str(), "send" | "reply"));
        if !interaction {
            candidate.groups = claimed_by(&candidate.name, &candidate.tokens);
        }
        candidate.shell = family == Some(ToolFamily::Shell) || candidate.claimed(SHELL_GROUP);
        candidate
    }

    /// The needle of name word `token` (an index of `tokens`).
    fn token_needle(&self, token: usize) -> u32 {
        self.first_token_needle
            .saturating_add(u32::try_from(token).unwrap_or(u32::MAX))
    }

    /// Where name word `token` (an index of `tokens`) first stands in the rule: the word
    /// with a suffix or, only if it stands nowhere, without its final `e` before `-ing`.
    fn name_word_at(&self, token: usize, hits: &Hits) -> Option<usize> {
        hits.at(self.token_needle(token)).or_else(|| {
            self.stem_needles
                .get(token)
                .copied()
                .flatten()
                .and_then(|stem| hits.at(stem))
        })
    }

    /// How many of the tool's name words the edict uses, or says in other words.
    fn words_in(&self, hits: &Hits) -> usize {
        (0..self.tokens.len())
            .filter(|&token| {
                !NAME_FUNCTION_WORDS.contains(&self.tokens[token].as_str())
                    && self.name_word_at(token, hits).is_some()
            })
            .count()
            + self
                .synonyms
                .iter()
                .filter(|(needle, _)| hits.at(*needle).is_some())
                .count()
    }

    /// Where the earliest synonym of the tool's name words stands in the rule, and whether it
    /// says the tool's action. One word needs company (another synonym or a word of the
    /// tool's name): "move an issue", "reassign tickets", not "move the files" or "the ticket
    /// number"; a phrase ("log work") names the tool alone.
    fn synonym_at(&self, hits: &Hits) -> Option<(usize, bool, bool)> {
        if self.synonyms.is_empty() {
            return None;
        }
        let mut earliest: Option<(usize, bool, bool)> = None;
        let mut said = 0;
        let mut alone = false;
        for &(needle, synonym) in &self.synonyms {
            let Some(at) = hits.at(needle) else {
                continue;
            };
            said += 1;
            alone = alone || !synonym.needs_company;
            if earliest.is_none_or(|(best, _, _)| at < best) {
                earliest = Some((at, synonym.action, synonym.fallback));
            }
        }
        let accompanied = || {
            said > 1 || (0..self.tokens.len()).any(|token| self.name_word_at(token, hits).is_some())
        };
        earliest.filter(|_| alone || accompanied())
    }
}

/// Whether [`words_of_name`] cuts `raw` (a name as written) in its camel words exactly where
/// it cuts `name` (its normal form) in its words: both ASCII and as long, a word byte in one
/// wherever there is one in the other, and no capital after a lower-case letter or a digit.
fn same_cuts(raw: &str, name: &str) -> bool {
    let (raw, name) = (raw.as_bytes(), name.as_bytes());
    if !raw.is_ascii() || !name.is_ascii() || raw.len() != name.len() {
        return false;
    }
    let mut previous_lower = false;
    for (&byte, &normal) in raw.iter().zip(name) {
        if byte.is_ascii_alphanumeric() != normal.is_ascii_alphanumeric()
            || (previous_lower && byte.is_ascii_uppercase())
        {
            return false;
        }
        previous_lower = byte.is_ascii_lowercase() || byte.is_ascii_digit();
    }
    true
}

/// A name word without its final `e`, as it stands before `-ing` ("merging"), when at least
/// three bytes are left.
fn stem_of(token: &str) -> Option<&str> {
    token.strip_suffix('e').filter(|stem| stem.len() >= 3)
}

/// The needles of the synonyms of `tokens`, the words of a tool's name
/// ([`NAME_WORD_SYNONYMS`]).
fn synonyms_of(tokens: &[String], names: &mut NameIndex) -> Vec<(u32, Synonym)> {
    let mut synonyms = Vec::new();
    for &(word, kind, phrases) in NAME_WORD_SYNONYMS {
        if !tokens.iter().any(|token| token == word) {
            continue;
        }
        for phrase in phrases {
            let action = kind == NameWordKind::Action;
            let synonym = Synonym {
                action,
                needs_company: !phrase.contains(' '),
                fallback: NAME_WORD_SYNONYMS
                    .iter()
                    .take_while(|(earlier, _, _)| *earlier != word)
                    .any(|(_, _, earlier)| earlier.contains(phrase)),
            };
            synonyms.push((names.add(phrase, ALIAS_SUFFIXES), synonym));
        }
    }
    synonyms
}

/// The words of `text` as [`split_words`] gives them, where `name` is `text` trimmed and
/// lower-cased (the tool's normal name): for an ASCII name each word is a slice of `name`,
/// copied once, instead of being built a char at a time.
fn words_of_name(text: &str, name: &str, camel: bool) -> Vec<String> {
    if !text.is_ascii() || text.len() != name.len() {
        return split_words(text, camel);
    }
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let mut start = None;
    let mut previous_lower = false;
    for (at, &byte) in bytes.iter().enumerate() {
        if !byte.is_ascii_alphanumeric() {
            if let Some(first) = start.take() {
                words.push(name[first..at].to_owned());
            }
            previous_lower = false;
            continue;
        }
        if camel
            && byte.is_ascii_uppercase()
            && previous_lower
            && let Some(first) = start.take()
        {
            words.push(name[first..at].to_owned());
        }
        start.get_or_insert(at);
        previous_lower = byte.is_ascii_lowercase() || byte.is_ascii_digit();
    }
    if let Some(first) = start {
        words.push(name[first..].to_owned());
    }
    words
}

/// [`ToolFamily::of`] a normal (trimmed, lower-case) tool name, from core's one table read
/// into a word map once: one lookup instead of a search of each family's members.
fn family_of(name: &str) -> Option<ToolFamily> {
    static FAMILIES: LazyLock<WordMap<Option<ToolFamily>>> = LazyLock::new(|| {
        let mut families: FxHashMap<&str, ToolFamily> = FxHashMap::default();
        // The first family that lists a name is its family, as in `ToolFamily::of`.
        for family in ToolFamily::ALL {
            for member in family.members() {
                families.entry(member).or_insert(family);
            }
        }
        WordMap::new(
            families
                .into_iter()
                .map(|(name, family)| (name, Some(family))),
        )
    });
    FAMILIES.get(name.as_bytes()).flatten()
}

/// The attribution lexicon's lists of names, as sets built once.
struct NameLists {
    /// [`STOP_NAMES`]: forms too common to name a tool.
    stop: WordSet,
    /// [`GENERIC_NAME_WORDS`]: name words too generic to name a tool alone.
    generic: WordSet,
    /// [`INTERACTION_NAME_WORDS`]: name words of an agent's own interaction tools.
    interaction: WordSet,
}

/// A set of words, looked up in one step.
struct WordSet(WordMap<bool>);

impl WordSet {
    fn new(words: &[&'static str]) -> WordSet {
        WordSet(WordMap::new(words.iter().map(|word| (*word, true))))
    }

    fn contains(&self, word: &str) -> bool {
        self.0.get(word.as_bytes()).unwrap_or(false)
    }
}

static NAME_LISTS: LazyLock<NameLists> = LazyLock::new(|| NameLists {
    stop: WordSet::new(STOP_NAMES),
    generic: WordSet::new(GENERIC_NAME_WORDS),
    interaction: WordSet::new(INTERACTION_NAME_WORDS),
});

/// The words of a tool name, split at separators (`send_email` → `send`, `email`).
pub(crate) fn name_words(tool_name: &str) -> Vec<String> {
    split_words(tool_name, false)
}

/// Every one-word common phrase and tool word of the alias table that is not a product or
/// program name: words that name a kind of tool ("terminal", "browser", "invite") rather than a
/// person, a place or a program ("sudo", "chrome", "gmail").
pub(crate) fn all_kind_words() -> impl Iterator<Item = &'static str> {
    ALIAS_GROUPS.iter().flat_map(|group| {
        group
            .phrases
            .iter()
            .chain(group.tool_words)
            .copied()
            .filter(|word| !word.contains([' ', '-']) && !group.strong.contains(word))
    })
}

/// Whether `word` (lower-case) is a word of the alias table: a product, a program, a kind of
/// tool or a tool word ("gmail", "sudo", "email", "shell"). A line labelled with one ("Email:
/// never cc Bob") is a heading of the user's own list, not a speaker in a transcript.
pub(crate) fn is_alias_word(word: &str) -> bool {
    ALIAS_GROUPS.iter().any(|group| {
        group.strong.contains(&word)
            || group.phrases.contains(&word)
            || group.tool_words.contains(&word)
    })
}

/// Whether `word` (lower-case) is a product or program name of the alias table ("sudo",
/// "docker", "gmail"), not a kind of tool.
pub(crate) fn is_program_word(word: &str) -> bool {
    ALIAS_GROUPS
        .iter()
        .any(|group| group.strong.contains(&word))
}

/// Which groups of the alias table claim a tool: those that list its name among their
/// `tool_names`, or one of its name words among their `tool_words`.
fn claimed_by(name: &str, tokens: &[String]) -> u32 {
    /// For each tool name and each tool word of the table, its groups as bits; built once.
    static CLAIMS: LazyLock<(WordMap<u32>, WordMap<u32>)> = LazyLock::new(|| {
        let mut names: FxHashMap<&str, u32> = FxHashMap::default();
        let mut words: FxHashMap<&str, u32> = FxHashMap::default();
        for (index, group) in ALIAS_GROUPS.iter().enumerate() {
            for name in group.tool_names {
                *names.entry(name).or_default() |= 1 << index;
            }
            for word in group.tool_words {
                *words.entry(word).or_default() |= 1 << index;
            }
        }
        (WordMap::new(names), WordMap::new(words))
    });
    const { assert!(ALIAS_GROUPS.len() <= 32, "a group is a bit of a u32") };
    let (names, words) = &*CLAIMS;
    let by_words = tokens.iter().fold(0, |groups, token| {
        groups | words.get(token.as_bytes()).unwrap_or(0)
    });
    names.get(name.as_bytes()).unwrap_or(0) | by_words
}

impl Candidate {
    /// Whether group `group` (an index of the alias table) claims the tool.
    fn claimed(&self, group: usize) -> bool {
        self.groups & (1 << group) != 0
    }
}

/// The database's group of the alias table: a tool it claims takes SQL.
const DATABASE_GROUP: usize = 11;

/// The team chat's group of the alias table.
const CHAT_GROUP: usize = 4;

/// The shell's group of the alias table: the name words that make a host's own tool a shell
/// (`run_in_terminal`, `exec_cmd`) when the family table does not know it.
const SHELL_GROUP: usize = 1;

#[cfg(test)]
mod tests;
