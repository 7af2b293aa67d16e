//! Renders rules into the `## Tool-scoped rules` block, inside a byte budget, and reports what
//! went in and what was left out.
//!
//! The bytes for ordinary rules are the reference renderer's (V2): heading, blank line,
//! preamble, blank line, then one group per tool with a ``### `name` `` heading and one
//! `- **[priority]** body` bullet per rule, a blank line between groups, `\n` after every
//! line, and the empty string when there is nothing to show. Rules are re-sorted (tool, then
//! priority descending, then text, then id), so the output is a function of the set of rules
//! and not of their order, which keeps the inference prefix cache warm.
//!
//! toolmem adds four things. Text is neutralised (see [`crate::neutralize`]). Rules for no
//! particular tool ([`UNSCOPED_TOOL`]) get their own `### Any tool` group, sorted last. The
//! block has a byte budget: critical rules are always rendered in full; high rules, then
//! normal ones, fill what is left in sort order, and a closing line counts whatever did not
//! fit and names the namespaces it can be recalled from. And a stored rule the store could not
//! read ([`UnreadableRule`]: written by a newer toolmem, or damaged) is never silently
//! missing: its group shows a line in its place, first, whatever the budget, which says so
//! and carries no priority marker, so it cannot pass for a rule.

use std::cmp::{Ordering, Reverse};
use std::collections::BTreeSet;

use tool_memory_core::{
    MAX_ID_CHARS, MAX_TOOL_NAME_CHARS, ToolMemoryPriority, ToolMemoryRule, UNSCOPED_TOOL,
    normalize_tool_name,
};

use crate::neutralize::{neutralize_body, neutralize_tool_name};

/// First line of the block.
pub const TOOL_MEMORY_HEADING: &str = "## Tool-scoped rules";

/// The paragraph under the heading, byte-identical to the reference (U+2014 dash, literal
/// `{name}`).
pub const TOOL_MEMORY_PREAMBLE: &str = "These rules are pinned by the user or by the safety pipeline. Treat every entry as a hard constraint when considering the matching tool \u{2014} do not override them silently. Lower-priority guidance lives in the `tool-{name}` memory namespace and can be queried via `memory_recall` if needed.";

/// Heading of the group that holds rules captured when no tool was involved.
pub const UNSCOPED_GROUP_HEADING: &str = "### Any tool";

/// Default size bound of the block, in bytes of UTF-8. About 2,000 tokens: room for dozens
/// of rules while leaving the rest of the system prompt alone.
pub const DEFAULT_PROMPT_BUDGET_BYTES: usize = 8 * 1024;

/// What a render produced and decided, so a host can warn the user about anything that is
/// not in the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptReport {
    /// The block, or the empty string when there were no rules.
    pub rendered: String,
    /// The rules in the block, in rendering order.
    pub included: Vec<ToolMemoryRule>,
    /// The rules that did not fit, in rendering order. Never critical.
    pub left_out: Vec<ToolMemoryRule>,
    /// The stored rules that could not be read, each shown as a line in its place, in
    /// rendering order. Never left out.
    pub unreadable: Vec<UnreadableRule>,
    /// The block is longer than the budget. Only what is never left out, critical rules and
    /// the lines of unreadable ones, can cause this (or a budget smaller than the heading,
    /// preamble and notice themselves).
    pub critical_over_budget: bool,
    /// The budget the block was rendered against.
    pub budget_bytes: usize,
}

/// A stored rule that the store could not read (written by a newer toolmem, or damaged):
/// where it is, and nothing of what it says. The block shows a line in its place.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnreadableRule {
    /// The tool it is stored under.
    pub tool_name: String,
    /// Its id.
    pub id: String,
}

/// Renders `rules` within [`DEFAULT_PROMPT_BUDGET_BYTES`] and returns only the block.
pub fn render_rules(rules: &[ToolMemoryRule]) -> String {
    render_prompt(rules, DEFAULT_PROMPT_BUDGET_BYTES).rendered
}

/// Renders `rules` within `budget_bytes` (use `usize::MAX` for no bound). Every rule passed in
/// is a candidate, normal ones included (marked `**[normal]**`); callers that want only the
/// eager rules filter first, as the facade's session prompt does.
pub fn render_prompt(rules: &[ToolMemoryRule], budget_bytes: usize) -> PromptReport {
    render_block(rules, &[], budget_bytes)
}

/// [`render_prompt`], with a line in the place of each stored rule that could not be read:
/// under its tool's heading, before the rules, whatever the budget. The same rules and
/// unreadable rules, in any order, give the same bytes.
pub fn render_block(
    rules: &[ToolMemoryRule],
    unreadable: &[UnreadableRule],
    budget_bytes: usize,
) -> PromptReport {
    let mut entries: Vec<Entry<'_>> = rules.iter().map(Entry::new).collect();
    entries.sort_by(Entry::compare);
    let mut lines: Vec<UnreadableLine<'_>> = unreadable.iter().map(UnreadableLine::new).collect();
    lines.sort_by(UnreadableLine::compare);
    lines.dedup_by(|a, b| a.unreadable == b.unreadable);

    let selected = select(&entries, &lines, budget_bytes);
    let mut included: Vec<&Entry<'_>> = Vec::new();
    let mut left_out: Vec<&Entry<'_>> = Vec::new();
    for (entry, keep) in entries.iter().zip(selected) {
        if keep {
            included.push(entry);
        } else {
            left_out.push(entry);
        }
    }

    let notice = (!left_out.is_empty()).then(|| notice_line(&left_out));
    let rendered = layout(&included, &lines, notice.as_deref());
    let critical_over_budget = rendered.len() > budget_bytes;

    if !left_out.is_empty() {
        // Counts only: rule text may hold personal data and must not reach the logs.
        tracing::warn!(
            left_out = left_out.len(),
            included = included.len(),
            budget_bytes,
            "tool memory: rules left out of the pinned prompt block to fit its budget; they stay recallable"
        );
    }
    if critical_over_budget {
        tracing::warn!(
            rendered_bytes = rendered.len(),
            budget_bytes,
            "tool memory: critical rules exceed the prompt budget; all of them are kept"
        );
    }

    PromptReport {
        rendered,
        included: included.iter().map(|entry| entry.rule.clone()).collect(),
        left_out: left_out.iter().map(|entry| entry.rule.clone()).collect(),
        unreadable: lines.iter().map(|line| line.unreadable.clone()).collect(),
        critical_over_budget,
        budget_bytes,
    }
}

/// Which group a rule is shown under. The derived order puts every tool before "any tool".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    /// A tool, by its neutralised name.
    Tool(String),
    /// Rules that belong to no specific tool.
    AnyTool,
}

impl Group {
    /// The group a rule of `tool_name` is shown under. Grouping by the displayed name gives
    /// one heading per name a reader can tell apart; the reference keyed on the raw name and
    /// could show two identical headings.
    fn of(tool_name: &str) -> Group {
        if normalize_tool_name(tool_name) == UNSCOPED_TOOL {
            Group::AnyTool
        } else {
            Group::Tool(neutralize_tool_name(tool_name))
        }
    }

    /// Bytes of the heading line, without building it.
    fn heading_len(&self) -> usize {
        match self {
            Group::Tool(name) => "### `".len() + name.len() + "`".len(),
            Group::AnyTool => UNSCOPED_GROUP_HEADING.len(),
        }
    }

    fn heading(&self) -> String {
        match self {
            Group::Tool(name) => format!("### `{name}`"),
            Group::AnyTool => UNSCOPED_GROUP_HEADING.to_owned(),
        }
    }

    /// Where the group's rules can be recalled from.
    fn namespace(&self) -> String {
        match self {
            Group::Tool(name) => format!("tool-{name}"),
            Group::AnyTool => format!("tool-{UNSCOPED_TOOL}"),
        }
    }
}

/// A rule with its displayed text computed once.
#[derive(Debug)]
struct Entry<'a> {
    rule: &'a ToolMemoryRule,
    group: Group,
    bullet: String,
}

impl<'a> Entry<'a> {
    fn new(rule: &'a ToolMemoryRule) -> Entry<'a> {
        let group = Group::of(&rule.tool_name);
        let body = neutralize_body(&rule.rule);
        // A captured edict awaiting the user's confirmation is advice, not a hard constraint:
        // it never carries a priority marker or the critical guarantee.
        let marker = if rule.meta.proposed {
            "unconfirmed"
        } else {
            rule.priority.as_str()
        };
        let mut bullet = String::with_capacity("- **[] ".len() + marker.len() + 2 + body.len());
        bullet.push_str("- **[");
        bullet.push_str(marker);
        bullet.push_str("]** ");
        bullet.push_str(&body);
        Entry {
            rule,
            group,
            bullet,
        }
    }

    /// Critical and confirmed: always rendered, whatever the budget.
    fn is_pinned(&self) -> bool {
        self.rule.priority == ToolMemoryPriority::Critical && !self.rule.meta.proposed
    }

    fn key(&self) -> (&Group, Reverse<ToolMemoryPriority>, &str, &str, &str, &str) {
        (
            &self.group,
            Reverse(self.rule.priority),
            &self.bullet,
            &self.rule.rule,
            &self.rule.id,
            &self.rule.tool_name,
        )
    }

    /// Tool, priority descending, displayed text, then raw fields down to the timestamps, so
    /// that even the report's order never depends on the input order.
    fn compare(a: &Entry<'_>, b: &Entry<'_>) -> Ordering {
        a.key()
            .cmp(&b.key())
            .then_with(|| a.rule.source.as_str().cmp(b.rule.source.as_str()))
            .then_with(|| a.rule.tags.cmp(&b.rule.tags))
            .then_with(|| a.rule.created_at.cmp(&b.rule.created_at))
            .then_with(|| a.rule.updated_at.cmp(&b.rule.updated_at))
    }
}

/// The line shown in the place of a rule that could not be read, with its group.
#[derive(Debug)]
struct UnreadableLine<'a> {
    unreadable: &'a UnreadableRule,
    group: Group,
    text: String,
}

/// What the line says after the rule's id. It names no priority (it has none to name) and
/// carries no `**[` marker, so neither a reader nor the block's grammar takes it for a rule.
pub(crate) const UNREADABLE_LINE_END: &str = "`: stored, but this version of toolmem cannot read it, so it is not shown here; run `toolmem doctor`._";

/// How the line starts, before the rule's id.
pub(crate) const UNREADABLE_LINE_START: &str = "- _Unreadable rule `";

impl<'a> UnreadableLine<'a> {
    fn new(unreadable: &'a UnreadableRule) -> UnreadableLine<'a> {
        // A row the store could not read may hold anything where its id and tool belong (it
        // is damaged, or from a version with other limits): shown at most as long as toolmem
        // allows either, and neutralised like a tool name, since it sits in a code span too.
        let group = Group::of(&at_most(&unreadable.tool_name, MAX_TOOL_NAME_CHARS));
        let mut id = neutralize_tool_name(&at_most(&unreadable.id, MAX_ID_CHARS));
        if id.is_empty() {
            // An empty code span would not read as one.
            id.push('\u{fffd}');
        }
        let text = format!("{UNREADABLE_LINE_START}{id}{UNREADABLE_LINE_END}");
        UnreadableLine {
            unreadable,
            group,
            text,
        }
    }

    /// Group, displayed text, then the raw fields, so the order never depends on the input's.
    fn compare(a: &UnreadableLine<'_>, b: &UnreadableLine<'_>) -> Ordering {
        (&a.group, &a.text, a.unreadable).cmp(&(&b.group, &b.text, b.unreadable))
    }
}

/// The first `limit` characters of `text`.
fn at_most(text: &str, limit: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(limit) {
        Some((end, _)) => std::borrow::Cow::Owned(text[..end].to_owned()),
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// Bytes of the heading, the preamble and the blank lines after each.
fn fixed_len() -> usize {
    TOOL_MEMORY_HEADING.len() + 2 + TOOL_MEMORY_PREAMBLE.len() + 2
}

/// Decides, per sorted entry, whether it is rendered. Keeps every unreadable rule's line and
/// every critical rule; adds high rules and then the rest in sort order, each only if it
/// still fits together with room for the notice. A rule that does not fit does not stop
/// shorter ones after it from fitting.
fn select(entries: &[Entry<'_>], lines: &[UnreadableLine<'_>], budget_bytes: usize) -> Vec<bool> {
    let mut groups: BTreeSet<&Group> = BTreeSet::new();
    let mut used = fixed_len();
    let cost = |group: &Group, line: &str, groups: &BTreeSet<&Group>| -> usize {
        let mut bytes = line.len() + 1;
        if !groups.contains(group) {
            // A new group costs its heading line, plus the blank line that separates it from
            // the group before, if any.
            bytes += group.heading_len() + 1 + usize::from(!groups.is_empty());
        }
        bytes
    };
    // Never left out: each stands for a rule that may be critical.
    for line in lines {
        used += cost(&line.group, &line.text, &groups);
        groups.insert(&line.group);
    }

    let mut whole = used;
    let mut all_groups = groups.clone();
    for entry in entries {
        whole += cost(&entry.group, &entry.bullet, &all_groups);
        all_groups.insert(&entry.group);
    }
    if whole <= budget_bytes {
        return vec![true; entries.len()];
    }

    // Something will be left out, so the notice needs room. This is its longest possible
    // form (every non-critical rule, every namespace), which bounds the real one.
    let droppable: Vec<&Entry<'_>> = entries.iter().filter(|entry| !entry.is_pinned()).collect();
    let reserve = if droppable.is_empty() {
        0
    } else {
        1 + notice_line(&droppable).len() + 1
    };

    let mut selected = vec![false; entries.len()];
    for (index, entry) in entries.iter().enumerate() {
        if entry.is_pinned() {
            used += cost(&entry.group, &entry.bullet, &groups);
            groups.insert(&entry.group);
            selected[index] = true;
        }
    }
    // Unconfirmed critical edicts compete first, then high rules, then the rest.
    for priority in [
        ToolMemoryPriority::Critical,
        ToolMemoryPriority::High,
        ToolMemoryPriority::Normal,
    ] {
        for (index, entry) in entries.iter().enumerate() {
            if entry.rule.priority != priority || selected[index] {
                continue;
            }
            let bytes = cost(&entry.group, &entry.bullet, &groups);
            if used + bytes + reserve <= budget_bytes {
                used += bytes;
                groups.insert(&entry.group);
                selected[index] = true;
            }
        }
    }
    selected
}

/// The block for the chosen entries and the lines of unreadable rules (both already sorted)
/// and an optional closing notice. Each group shows its heading, its unreadable rules' lines,
/// then its rules.
fn layout(entries: &[&Entry<'_>], lines: &[UnreadableLine<'_>], notice: Option<&str>) -> String {
    if entries.is_empty() && lines.is_empty() && notice.is_none() {
        return String::new();
    }
    let bullets: usize = entries
        .iter()
        .map(|entry| entry.bullet.len() + 1)
        .sum::<usize>()
        + lines.iter().map(|line| line.text.len() + 1).sum::<usize>();
    let headings: usize = entries
        .iter()
        .map(|entry| &entry.group)
        .chain(lines.iter().map(|line| &line.group))
        .map(|group| group.heading_len() + 2)
        .sum();
    let mut out = String::with_capacity(
        fixed_len() + bullets + headings + notice.map_or(0, |notice| notice.len() + 2),
    );
    out.push_str(TOOL_MEMORY_HEADING);
    out.push_str("\n\n");
    out.push_str(TOOL_MEMORY_PREAMBLE);
    out.push_str("\n\n");
    let mut current: Option<&Group> = None;
    // Both are sorted by group first: walk them together, a group's lines before its rules.
    let (mut lines, mut entries) = (lines.iter().peekable(), entries.iter().peekable());
    loop {
        let take_line = match (lines.peek(), entries.peek()) {
            (Some(line), Some(entry)) => line.group <= entry.group,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let (group, text) = if take_line {
            let line = lines.next().expect("peeked");
            (&line.group, &line.text)
        } else {
            let entry = entries.next().expect("peeked");
            (&entry.group, &entry.bullet)
        };
        if current != Some(group) {
            if current.is_some() {
                out.push('\n');
            }
            out.push_str(&group.heading());
            out.push('\n');
            current = Some(group);
        }
        out.push_str(text);
        out.push('\n');
    }
    if let Some(notice) = notice {
        if current.is_some() {
            out.push('\n');
        }
        out.push_str(notice);
        out.push('\n');
    }
    out
}

/// The closing line, for example: ``_2 high-priority rules left out of this block to keep it
/// within its size budget; they can be recalled from the `tool-shell` memory namespace via
/// `memory_recall`._``
fn notice_line(left_out: &[&Entry<'_>]) -> String {
    let unconfirmed = left_out
        .iter()
        .filter(|entry| entry.rule.meta.proposed)
        .count();
    let high = left_out
        .iter()
        .filter(|entry| {
            !entry.rule.meta.proposed && entry.rule.priority == ToolMemoryPriority::High
        })
        .count();
    let other = left_out.len() - high - unconfirmed;
    let counted = |count: usize, what: &str| {
        let plural = if count == 1 { "" } else { "s" };
        format!("{count} {what} rule{plural}")
    };
    let parts: Vec<String> = [
        (high, "high-priority"),
        (unconfirmed, "unconfirmed"),
        (other, "normal-priority"),
    ]
    .into_iter()
    .filter(|(count, _)| *count > 0)
    .map(|(count, what)| counted(count, what))
    .collect();
    let counts = match parts.as_slice() {
        [] => String::new(),
        [only] => only.clone(),
        [first @ .., last] => format!("{} and {last}", first.join(", ")),
    };
    let pronoun = if left_out.len() == 1 { "it" } else { "they" };

    let namespaces: BTreeSet<&Group> = left_out.iter().map(|entry| &entry.group).collect();
    let listed = namespaces
        .iter()
        .map(|group| format!("`{}`", group.namespace()))
        .collect::<Vec<_>>()
        .join(", ");
    let plural = if namespaces.len() == 1 { "" } else { "s" };
    format!(
        "_{counts} left out of this block to keep it within its size budget; {pronoun} can be recalled from the {listed} memory namespace{plural} via `memory_recall`._"
    )
}
