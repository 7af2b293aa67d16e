//! The `Guard`: rules indexed per tool once, then every proposed call checked against them,
//! with the decision policy that turns matches into allow, confirm or deny.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_memory_core::{
    ToolFamily, ToolMemoryPriority, ToolMemoryRule, UNSCOPED_TOOL, mcp_tool_part,
    normalize_tool_name,
};

use crate::call::{CallView, tool_words, visit_words};
use crate::derive::{
    carried_spans, fallback_constraint, kind_readings, narrowed_to_kinds, unread_clauses,
};
use crate::limits::MAX_ARGUMENT_DEPTH;
use crate::limits::{ArgumentCount, Bound};
use crate::matching::{CompiledConstraint, Hit, KeyGroup, evaluate};
use crate::normalize::{folded, versionless};
use crate::rule_constraint::enforced;
use crate::{
    Access, Constraint, Error, MAX_ALSO, MatcherKind, Polarity, Strength, derive_constraint,
};

/// Where a tool's rules are filed: a tool of a family (core's one table for every agent) files
/// them under the family, so a rule said about Claude Code's `Bash` holds for Codex's `shell`,
/// Gemini CLI's `run_shell_command` and Cursor's `run_terminal_cmd`; any other tool under its
/// own name.
#[derive(Debug, Clone, Copy)]
enum Filed<'a> {
    Family(ToolFamily),
    Tool(&'a str),
}

fn filed(tool: &str, family: Option<ToolFamily>) -> Filed<'_> {
    family.map_or(Filed::Tool(tool), Filed::Family)
}

/// The position of a family in [`Guard`]'s table.
fn family_slot(family: ToolFamily) -> usize {
    ToolFamily::ALL
        .iter()
        .position(|known| *known == family)
        .expect("every family is in ToolFamily::ALL")
}

/// The tools whose rules hold for a call of `tool_name`, itself first: every tool of the family
/// the call is of (core's table, [`ToolFamily::of_call`]: an MCP server's `write_file` is a
/// file edit), and for a tool named after a program (`git`, `mcp__git__git_push`) the shell
/// tools too. A caller that builds a [`Guard`] from one tool's stored rules lists these tools'
/// rules (and the no-tool group's) so that a rule said about Claude Code's `Bash` holds for
/// Codex's `shell` and for a shell tool of an MCP server.
///
/// The file families lend their path bans (see [`lenders`]): a shell call also lists the
/// tools that read and edit files, an edit the tools that read them.
pub fn tools_sharing_rules(tool_name: &str) -> Vec<String> {
    let tool = normalize_tool_name(tool_name);
    let call_family = ToolFamily::of_call(&tool);
    let family = call_family.or_else(|| runs_a_program(&tool).then_some(ToolFamily::Shell));
    let mut tools = vec![tool.clone()];
    let families = family
        .into_iter()
        .chain(lenders(call_family).iter().copied());
    for family in families {
        tools.extend(
            family
                .members()
                .iter()
                .filter(|member| **member != tool)
                .map(|member| (*member).to_owned()),
        );
    }
    tools
}

/// The file families whose path bans hold for a call of `family` besides its own rules: the
/// reading and the editing families' for a shell, the reading family's for an edit.
fn lenders(family: Option<ToolFamily>) -> &'static [ToolFamily] {
    match family {
        Some(ToolFamily::Shell) => &[ToolFamily::FileRead, ToolFamily::FileEdit],
        Some(ToolFamily::FileEdit) => &[ToolFamily::FileRead],
        _ => &[],
    }
}

/// The family a stored rule's tool is filed under: a member's (`Bash`), or the family named
/// itself (`file_edit`, `shell`), so that a rule can be written on a family.
fn stored_family(tool: &str) -> Option<ToolFamily> {
    ToolFamily::of(tool).or_else(|| {
        ToolFamily::ALL
            .into_iter()
            .find(|family| family.as_str() == tool)
    })
}

/// A tool named after a program (`git`, `git_push`, `docker_run`, `kubectl`, and an MCP
/// server's `git_push`) runs that program, so the shell's rules hold for it too: `git` called
/// with `["push", "--force"]` is `git push --force` through the shell.
fn runs_a_program(tool: &str) -> bool {
    ToolFamily::of_call(tool).is_none() && names_a_program(&action_words_of(tool))
}

/// The words of what a tool does: its name's, or an MCP tool's own name's after its server
/// (`mcp__git__git_push` → git, push).
fn action_words_of(tool: &str) -> Vec<String> {
    match mcp_tool_part(tool) {
        Some(part) => tool_words(&part),
        None => tool_words(tool),
    }
}

/// Whether a tool's first word is a program: see [`runs_a_program`].
fn names_a_program(tool_words: &[String]) -> bool {
    tool_words
        .first()
        .is_some_and(|word| crate::derive::is_program(word))
}

/// What the caller should do with a proposed call.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Run it.
    #[default]
    Allow,
    /// Ask the user first.
    Confirm,
    /// Do not run it.
    Deny,
}

impl Decision {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Confirm => "confirm",
            Decision::Deny => "deny",
        }
    }
}

/// The guard's answer for one proposed call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// Allow, confirm or deny.
    pub decision: Decision,
    /// The rules that decided it (empty when allowed), highest priority first.
    pub rules: Vec<ToolMemoryRule>,
    /// Rules of this tool (and the no-tool sentinel) that carry no checkable literal, and
    /// matched normal-priority rules: advice for the agent, never a block.
    pub advice: Vec<ToolMemoryRule>,
    /// One human line saying why.
    pub reason: String,
}

/// An index word in hashed form: FNV-1a over its (lower-case) bytes, then a 64-bit finaliser
/// so that every bit of the result depends on every byte. The index compares hashes, never
/// strings: two words that share a hash only make a rule a candidate it need not be, and
/// evaluation, which is exact, decides. No untrusted party chooses the words of the guard's
/// own rules, and a call that collides on purpose gains nothing but evaluation work, which
/// the budget bounds.
fn word_hash(word: &str) -> u64 {
    hash_bytes(word.bytes())
}

/// [`word_hash`] of the lower-cased word, without allocating for an ASCII one.
fn lower_word_hash(word: &str) -> u64 {
    if word.is_ascii() {
        hash_bytes(word.bytes().map(|byte| byte.to_ascii_lowercase()))
    } else {
        word_hash(&word.to_lowercase())
    }
}

fn hash_bytes(bytes: impl Iterator<Item = u8>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash
}

/// The hashed words of a call, sorted and each once.
struct CallWords(Vec<u64>);

impl CallWords {
    fn contains(&self, hash: &u64) -> bool {
        self.0.binary_search(hash).is_ok()
    }
}

/// A hasher for keys that are already [`word_hash`]es: it passes them through.
#[derive(Debug, Clone, Copy, Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used; fold anything else in so the hasher stays correct.
        for byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

type WordMap<V> = HashMap<u64, V, BuildHasherDefault<Prehashed>>;

/// The key groups of a rule with their words hashed: the rule is a candidate for a call when
/// one group fires, an `AllOf` group when the call holds every one of its words, an `AnyOf`
/// group when it holds one.
#[derive(Debug, Clone)]
enum HashedGroup {
    AllOf(Box<[u64]>),
    AnyOf(Box<[u64]>),
}

impl HashedGroup {
    fn new(group: &KeyGroup) -> HashedGroup {
        let hashes = |words: &[String]| words.iter().map(|word| word_hash(word)).collect();
        match group {
            KeyGroup::AllOf(words) => HashedGroup::AllOf(hashes(words)),
            KeyGroup::AnyOf(words) => HashedGroup::AnyOf(hashes(words)),
        }
    }

    fn fires(&self, words: &CallWords) -> bool {
        match self {
            HashedGroup::AllOf(hashes) => hashes.iter().all(|hash| words.contains(hash)),
            HashedGroup::AnyOf(hashes) => hashes.iter().any(|hash| words.contains(hash)),
        }
    }
}

#[derive(Debug, Clone)]
struct Entry {
    rule: ToolMemoryRule,
    constraint: Option<Constraint>,
    compiled: Option<CompiledConstraint>,
    /// The rule's stored constraint could not be read; `constraint` is its text's.
    stored_unreadable: bool,
    /// The rule's stored constraint was derived by an older derivation; `constraint` is its
    /// text's as this crate reads it.
    stale: bool,
    /// `constraint` is `None` and `compiled` is the rule's fail-safe reading
    /// ([`fallback_constraint`]): it asks about a call that carries what the rule names, and
    /// the rule still advises otherwise.
    fallback: bool,
    /// The position, among `compiled`'s parts, of the span fail-safe
    /// ([`carried_spans`]): a call it alone asks about gets the fail-safe's reason.
    span_part: Option<usize>,
}

/// The rules of one tool (or of the sentinel), indexed by the words their matchers need.
#[derive(Debug, Clone, Default)]
struct ToolIndex {
    entries: Vec<Entry>,
    by_word: WordMap<Vec<u32>>,
    /// Per entry, its key groups (empty for the rules in `always` and `advice`).
    groups: Vec<Box<[HashedGroup]>>,
    always: Vec<u32>,
    advice: Vec<u32>,
}

impl ToolIndex {
    /// Indexes every entry. A rule whose matcher needs several words is filed under the
    /// rarest of them among this tool's rules, so a word many rules share ("project", "srv")
    /// does not make them all candidates; it is a candidate only once the call holds every
    /// word of one of its groups ([`ToolIndex::fires`]).
    fn build(&mut self) {
        self.by_word.clear();
        self.always.clear();
        self.advice.clear();
        let groups: Vec<Option<Option<Vec<KeyGroup>>>> = self
            .entries
            .iter()
            .map(|entry| entry.compiled.as_ref().map(CompiledConstraint::key_groups))
            .collect();
        let mut frequency: HashMap<&str, usize> = HashMap::new();
        for group in groups.iter().flatten().flatten().flatten() {
            if let KeyGroup::AllOf(words) = group {
                for word in words {
                    *frequency.entry(word.as_str()).or_default() += 1;
                }
            }
        }
        let mut by_word: WordMap<Vec<u32>> = WordMap::default();
        let mut hashed: Vec<Box<[HashedGroup]>> = Vec::with_capacity(groups.len());
        for (position, group) in groups.iter().enumerate() {
            let index = u32::try_from(position).expect("fewer than 4 billion rules");
            let Some(group) = group else {
                self.advice.push(index);
                hashed.push(Box::default());
                continue;
            };
            if self.entries[position].fallback {
                self.advice.push(index);
            }
            let Some(key_groups) = group else {
                self.always.push(index);
                hashed.push(Box::default());
                continue;
            };
            let mut keys: Vec<&str> = Vec::new();
            for key_group in key_groups {
                match key_group {
                    KeyGroup::AllOf(words) => {
                        let rarest = words
                            .iter()
                            .min_by_key(|word| {
                                (
                                    frequency.get(word.as_str()).copied().unwrap_or(0),
                                    usize::MAX - word.len(),
                                )
                            })
                            .expect("a key group has a word");
                        keys.push(rarest);
                    }
                    KeyGroup::AnyOf(words) => keys.extend(words.iter().map(String::as_str)),
                }
            }
            keys.sort_unstable();
            keys.dedup();
            for key in keys {
                by_word.entry(word_hash(key)).or_default().push(index);
            }
            hashed.push(key_groups.iter().map(HashedGroup::new).collect());
        }
        self.by_word = by_word;
        self.groups = hashed;
    }

    /// Whether the call's words fire one of the entry's key groups.
    fn fires(&self, entry: u32, words: &CallWords) -> bool {
        self.groups[entry as usize]
            .iter()
            .any(|group| group.fires(words))
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether some rule here has a constraint, so a call checked only in part may have
    /// escaped it.
    fn has_constraints(&self) -> bool {
        !self.always.is_empty() || !self.by_word.is_empty()
    }
}

/// Rules compiled for checking. Build once per rule set (cheap: one derivation per rule),
/// then [`Guard::check`] as many calls as needed.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    /// The rules of tools of no family, by normalised name.
    tools: HashMap<String, ToolIndex>,
    /// The rules of each family, in the order of `ToolFamily::ALL`.
    families: [ToolIndex; ToolFamily::ALL.len()],
    unscoped: ToolIndex,
}

impl Guard {
    /// Builds a guard from rules with optional explicit constraints; `None` derives the
    /// constraint from the rule text. An explicit constraint that fails validation is an
    /// error naming the rule.
    pub fn new(rules: Vec<(ToolMemoryRule, Option<Constraint>)>) -> Result<Guard, Error> {
        let mut guard = Guard::default();
        for (rule, explicit) in rules {
            let constraint = match explicit {
                Some(constraint) => {
                    constraint
                        .validate()
                        .map_err(|source| Error::RuleConstraint {
                            rule_id: rule.id.clone(),
                            source: Box::new(source),
                        })?;
                    Some(constraint)
                }
                None => derive_constraint(&rule),
            };
            guard.insert(rule, constraint, false, false);
        }
        guard.build();
        Ok(guard)
    }

    /// Builds a guard over stored rules, each enforced with the constraint [`constraint_of`]
    /// gives it: the one stored with it when that reads and validates, otherwise the one its
    /// text gives. [`Guard::stored_unreadable`] lists the rules of the second kind that did
    /// store one.
    ///
    /// [`constraint_of`]: crate::constraint_of
    pub fn from_stored<I>(rules: I) -> Guard
    where
        I: IntoIterator<Item = ToolMemoryRule>,
    {
        let mut guard = Guard::default();
        for rule in rules {
            let enforced = enforced(&rule);
            guard.insert(
                rule,
                enforced.constraint,
                enforced.stored_unreadable,
                enforced.stale,
            );
        }
        guard.build();
        guard
    }

    /// Builds a guard deriving every rule's constraint from its text.
    pub fn from_rules<I>(rules: I) -> Guard
    where
        I: IntoIterator<Item = ToolMemoryRule>,
    {
        let mut guard = Guard::default();
        for rule in rules {
            let constraint = derive_constraint(&rule);
            guard.insert(rule, constraint, false, false);
        }
        guard.build();
        guard
    }

    fn build(&mut self) {
        self.unscoped.build();
        for index in self.tools.values_mut().chain(&mut self.families) {
            index.build();
        }
    }

    /// The index a tool's rules are filed in, if it holds any.
    fn index_of(&self, filed: Filed<'_>) -> Option<&ToolIndex> {
        match filed {
            Filed::Family(family) => Some(&self.families[family_slot(family)]),
            Filed::Tool(tool) => self.tools.get(tool),
        }
    }

    fn insert(
        &mut self,
        rule: ToolMemoryRule,
        constraint: Option<Constraint>,
        stored_unreadable: bool,
        stale: bool,
    ) {
        let mut compiled = constraint.as_ref().and_then(CompiledConstraint::new);
        // A ban or an ask the grammar could not read is asked about where the call carries
        // what the rule names, rather than allowed (see "Rules the grammar cannot read" in
        // docs/guard.md). Computed here, not stored: it hangs on the rule's priority, which
        // changes without its text, and it is no reading of the text to show or import.
        let mut fallback = false;
        let mut span_part: Option<usize> = None;
        let mut reading: Option<Constraint> = None;
        if constraint.is_none()
            && let Some((fail_safe, guess)) = fallback_constraint(&rule)
        {
            reading = Some(fail_safe);
            // A bare item read as the ban it is decides like any rule; a guess only asks,
            // with a reason that says so.
            fallback = guess;
        }
        // What the rule names by kind or by an operation on an object ("CI files", "restart
        // the workers"), read beside the text's constraint, as the fail-safe is: at build,
        // for the priorities that decide (see "Things named by kind" in docs/guard.md).
        if rule.priority != ToolMemoryPriority::Normal {
            let mut kinds = kind_readings(&rule.rule, constraint.as_ref());
            // The clauses a derived constraint leaves unread ask about what they name.
            if constraint.is_some() {
                kinds.extend(unread_clauses(&rule.rule, &rule.tool_name));
            }
            if !kinds.is_empty() {
                // A program a named kind lists is that kind's commands of it, not every use.
                let base = constraint.as_ref().map(|derived| {
                    narrowed_to_kinds(&rule.rule, derived).unwrap_or_else(|| derived.clone())
                });
                reading = with_readings(reading.or(base), kinds);
                fallback = false;
            }
            // A code span of a ban or an ask that a call carries, where the derived reading
            // does not fire, asks (see "Spans a call carries" in docs/guard.md).
            if let Some(derived) = &constraint
                && let Some(spans) = carried_spans(&rule.rule, derived)
            {
                let base = reading.clone().unwrap_or_else(|| derived.clone());
                let position = base.also.len() + 1;
                if base.also.len() < MAX_ALSO
                    && let Some(with_spans) = with_readings(Some(base), vec![spans])
                    && CompiledConstraint::new(&with_spans).is_some()
                {
                    span_part = Some(position);
                    reading = Some(with_spans);
                }
            }
        }
        if let Some(reading) = reading {
            compiled = CompiledConstraint::new(&reading);
            fallback = fallback && compiled.is_some();
        }
        let tool = normalize_tool_name(&rule.tool_name);
        let span_part = span_part.filter(|_| compiled.is_some());
        let index = if tool == UNSCOPED_TOOL {
            &mut self.unscoped
        } else {
            match filed(&tool, stored_family(&tool)) {
                Filed::Family(family) => &mut self.families[family_slot(family)],
                Filed::Tool(_) => self.tools.entry(tool).or_default(),
            }
        };
        index.entries.push(Entry {
            rule,
            constraint,
            compiled,
            stored_unreadable,
            stale,
            fallback,
            span_part,
        });
    }

    /// Number of rules held.
    pub fn len(&self) -> usize {
        self.unscoped.entries.len()
            + self
                .tools
                .values()
                .chain(&self.families)
                .map(|index| index.entries.len())
                .sum::<usize>()
    }

    /// Whether the guard holds no rule.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every rule with the constraint the guard checks for it (`None`: advice only), so a
    /// user can inspect and correct derived constraints.
    pub fn constraints(&self) -> impl Iterator<Item = (&ToolMemoryRule, Option<&Constraint>)> {
        self.entries()
            .map(|entry| (&entry.rule, entry.constraint.as_ref()))
    }

    /// The rules of a guard built by [`Guard::from_stored`] whose stored constraint could not
    /// be read or validated, so that their text's constraint is enforced instead: for the
    /// caller to report, since this crate logs nothing.
    pub fn stored_unreadable(&self) -> impl Iterator<Item = &ToolMemoryRule> {
        self.entries()
            .filter(|entry| entry.stored_unreadable)
            .map(|entry| &entry.rule)
    }

    /// The rules of a guard built by [`Guard::from_stored`] whose stored constraint was
    /// derived by an older derivation ([`crate::DERIVATION`]), so that their text was derived
    /// again: for the caller to report, or to store the new reading at the next put.
    pub fn stale_derivations(&self) -> impl Iterator<Item = &ToolMemoryRule> {
        self.entries()
            .filter(|entry| entry.stale)
            .map(|entry| &entry.rule)
    }

    fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.unscoped.entries.iter().chain(
            self.tools
                .values()
                .chain(&self.families)
                .flat_map(|index| index.entries.iter()),
        )
    }

    /// Checks a proposed call of `tool_name` with `arguments` against the tool's rules and the
    /// rules for every tool.
    pub fn check(&self, tool_name: &str, arguments: &Value) -> Verdict {
        // Cline's `use_mcp_tool {server_name, tool_name, arguments}` calls an MCP tool for
        // the model: the rules of every stored MCP tool of that own name hold for it (Cline
        // names servers its own way, so the server is not compared), as do the gateway's
        // own, and the firmest answer wins.
        if let Some((bare, inner)) = proxied_mcp_call(tool_name, arguments) {
            let mut verdict = self.check_one(tool_name, arguments);
            // In name order, so that the answer does not hang on the map's.
            let mut named: Vec<&String> = self
                .tools
                .keys()
                .filter(|tool| mcp_tool_part(tool).as_deref() == Some(bare.as_str()))
                .collect();
            named.sort_unstable();
            for tool in named {
                if verdict.decision == Decision::Deny {
                    break;
                }
                let direct = self.check_one(tool, &inner);
                if direct.decision > verdict.decision {
                    verdict = direct;
                }
            }
            return verdict;
        }
        self.check_one(tool_name, arguments)
    }

    fn check_one(&self, tool_name: &str, arguments: &Value) -> Verdict {
        let verdict = self.check_with(tool_name, arguments, false);
        if verdict.decision == Decision::Deny {
            return verdict;
        }
        // `gіt push --force` with a Cyrillic `і`, `ｒｍ -rf /`, `g\u{200B}it`: read with its
        // look-alikes folded, a call that would be blocked is asked about (it may be an attempt
        // to pass a rule, or another thing: a shell runs no `gіt`).
        let Some(folded) = fold_lookalikes(arguments, 1) else {
            return verdict;
        };
        let plain = self.check_with(tool_name, &folded, false);
        if plain.decision <= verdict.decision {
            return verdict;
        }
        Verdict {
            decision: Decision::Confirm,
            reason: format!(
                "confirm first: the call is spelled with look-alike characters (another script, full-width or invisible ones); read as the plain characters they imitate, it is {}",
                plain.reason
            ),
            rules: plain.rules,
            advice: verdict.advice,
        }
    }

    /// `exhaustive` evaluates every rule instead of the index's candidates; the tests use it
    /// to prove the index never drops a rule that would match.
    fn check_with(&self, tool_name: &str, arguments: &Value, exhaustive: bool) -> Verdict {
        let tool = normalize_tool_name(tool_name);
        // The tool's family, words and indexes are found once per check. Without a rule of a
        // family or for every tool, the family changes nothing: no index is looked up by it,
        // and the call view has no rule to read it for. A tool of an MCP server is of the
        // family of its own name (`mcp__filesystem__write_file` edits files) for the call,
        // while the rules stored on it are its own.
        let any_family =
            !(self.families.iter().all(ToolIndex::is_empty) && self.unscoped.is_empty());
        let family = if any_family || tool.contains("__") {
            ToolFamily::of_call(&tool)
        } else {
            None
        };
        let member = family.is_some() && ToolFamily::of(&tool) == family;
        let tool_words = tool_words(&tool);
        // A tool named after a program runs its argv as that program's (`git`, `git_push`,
        // `mcp__git__git_push`).
        let program = if family.is_none() {
            let action = if tool.contains("__") {
                action_words_of(&tool)
            } else {
                Vec::new()
            };
            let words = if action.is_empty() {
                &tool_words
            } else {
                &action
            };
            names_a_program(words).then(|| words[0].clone())
        } else {
            None
        };
        let own_index = if tool == UNSCOPED_TOOL || member {
            None
        } else {
            self.index_of(Filed::Tool(&tool))
        };
        let family_index = family.and_then(|family| self.index_of(Filed::Family(family)));
        let shell_index = if program.is_some() {
            self.index_of(Filed::Family(ToolFamily::Shell))
        } else {
            None
        };
        // The path bans of the file families hold for a call that reads or writes their
        // paths another way: a rule on reading files for a command that reads the path (`cat
        // ~/.ssh/id_rsa`) and for an edit (which shows the file), a rule on editing files for a
        // command that writes it (`sed -i`, `>`, `cp x generated.rs`). See "Paths across
        // families" in docs/guard.md.
        let lent = |from: ToolFamily| {
            lenders(family)
                .contains(&from)
                .then(|| self.index_of(Filed::Family(from)))
                .flatten()
        };
        let (read_index, edit_index) = (lent(ToolFamily::FileRead), lent(ToolFamily::FileEdit));
        let indexes: [&ToolIndex; 6] = [
            own_index.unwrap_or(&EMPTY_INDEX),
            family_index.unwrap_or(&EMPTY_INDEX),
            shell_index.unwrap_or(&EMPTY_INDEX),
            &self.unscoped,
            read_index.unwrap_or(&EMPTY_INDEX),
            edit_index.unwrap_or(&EMPTY_INDEX),
        ];
        if indexes.iter().all(|index| index.is_empty()) {
            return allow(&tool, Vec::new());
        }

        let mut candidates: Vec<(usize, u32)> = Vec::new();
        for (which, index) in indexes.iter().enumerate() {
            candidates.extend(index.always.iter().map(|entry| (which, *entry)));
        }
        // The first bound of `crate::limits` the check ran into: past it the call was not
        // read, so no rule can be said not to apply.
        let mut bound: Option<Bound> = None;
        if indexes.iter().any(|index| !index.by_word.is_empty()) {
            // The call's words, each once, then the rules filed under them: a word repeated
            // a thousand times in a body is looked up once.
            let mut words: Vec<u64> = Vec::with_capacity(64);
            let mut visit = |word: &str| {
                words.push(lower_word_hash(word));
                // `pip3` runs `pip`: a rule filed under the program is a candidate too.
                if word.ends_with(|ch: char| ch.is_ascii_digit())
                    && let Some(program) = versionless(word)
                {
                    words.push(word_hash(program));
                }
            };
            for word in &tool_words {
                visit(word);
            }
            bound = visit_words(arguments, &mut visit, 1, &mut ArgumentCount::default()).err();
            words.sort_unstable();
            words.dedup();
            let words = CallWords(words);
            for (which, index) in indexes.iter().enumerate() {
                if index.by_word.is_empty() {
                    continue;
                }
                for word in &words.0 {
                    if let Some(entries) = index.by_word.get(word) {
                        candidates.extend(
                            entries
                                .iter()
                                .filter(|entry| index.fires(**entry, &words))
                                .map(|entry| (which, *entry)),
                        );
                    }
                }
            }
        }
        if exhaustive {
            candidates = indexes
                .iter()
                .enumerate()
                .flat_map(|(which, index)| {
                    (0..index.entries.len()).map(move |entry| (which, entry as u32))
                })
                .collect();
        }
        // Critical rules first, so that a deny is found before the work budget runs out.
        candidates.sort_unstable_by_key(|&(which, entry)| {
            let priority = indexes[which].entries[entry as usize].rule.priority;
            (std::cmp::Reverse(priority), which, entry)
        });
        candidates.dedup();

        let mut decided: Vec<(Decision, &Entry, Hit, bool)> = Vec::new();
        let mut advice: Vec<&Entry> = Vec::new();
        if !candidates.is_empty() {
            let view = CallView::of_tool(tool_words, family, program.as_deref(), arguments);
            // The views the file families' path bans are checked in ([`BORROWED_READ`],
            // [`BORROWED_EDIT`]), built on first use.
            let read_view: OnceCell<CallView> = OnceCell::new();
            let written_view: OnceCell<CallView> = OnceCell::new();
            let created_view: OnceCell<CallView> = OnceCell::new();
            for (which, entry_index) in candidates {
                if view.budget.work_spent() {
                    break;
                }
                let entry = &indexes[which].entries[entry_index as usize];
                let Some(compiled) = &entry.compiled else {
                    continue;
                };
                let borrowed_view = match (which, family) {
                    (BORROWED_READ, Some(ToolFamily::Shell)) => Some(read_view.get_or_init(|| {
                        CallView::of_paths(
                            view.tool_words.clone(),
                            ToolFamily::FileRead,
                            &view.path_uses().read,
                            false,
                        )
                    })),
                    // A rule about creating files looks at the paths a command may make.
                    (BORROWED_EDIT, _) if compiled.access() == Some(Access::Create) => {
                        Some(created_view.get_or_init(|| {
                            CallView::of_paths(
                                view.tool_words.clone(),
                                ToolFamily::FileEdit,
                                &view.path_uses().created,
                                true,
                            )
                        }))
                    }
                    (BORROWED_EDIT, _) => Some(written_view.get_or_init(|| {
                        CallView::of_paths(
                            view.tool_words.clone(),
                            ToolFamily::FileEdit,
                            &view.path_uses().written,
                            false,
                        )
                    })),
                    (BORROWED_READ, _) => Some(&view),
                    _ => None,
                };
                // The rule's answer is the firmest of its parts' ("Never `git branch -D`. Ask
                // before deleting branches.": a `-D` denies, a `-d` asks).
                let mut firmest: Option<(Decision, Hit, bool)> = None;
                for (position, part) in compiled.parts().enumerate() {
                    let found = match borrowed_view {
                        Some(paths) if part.is_path_ban() => evaluate(part, paths),
                        Some(_) => None,
                        None => evaluate(part, &view),
                    };
                    if let Some(hit) = found {
                        // A required option missing asks (the user may have left it to the
                        // agent's default); given another value (`--profile prod` where
                        // `--profile sandbox` is required) it does what the rule forbids, as a
                        // boolean given its opposite does.
                        let opposite = hit.wrong_value;
                        let decision = decide(
                            entry.rule.priority,
                            hit.strength,
                            part.ask_first && !opposite,
                        );
                        if firmest.as_ref().is_none_or(|(best, ..)| decision > *best) {
                            let spanned = entry.span_part == Some(position);
                            firmest = Some((decision, hit, spanned));
                        }
                        if decision == Decision::Deny {
                            break;
                        }
                    }
                }
                match firmest {
                    Some((Decision::Allow, ..)) => advice.push(entry),
                    Some((decision, hit, spanned)) => decided.push((decision, entry, hit, spanned)),
                    None => {}
                }
            }
            bound = bound.or(view.budget.exceeded());
        }
        let bound = bound.filter(|_| indexes.iter().any(|index| index.has_constraints()));
        if bound.is_some() {
            // A requirement missing from the part that was read may sit in the part that was
            // not: it asks, never denies.
            for (decision, _, hit, _) in &mut decided {
                if hit.polarity == Polarity::Require {
                    *decision = (*decision).min(Decision::Confirm);
                }
            }
        }
        // A file family's rules are only borrowed for their path bans: they advise nothing here.
        for index in &indexes[..BORROWED_READ] {
            advice.extend(
                index
                    .advice
                    .iter()
                    .map(|entry| &index.entries[*entry as usize])
                    // A fail-safe reading that asked is the rule deciding, not advising.
                    .filter(|entry| {
                        !entry.fallback
                            || !decided
                                .iter()
                                .any(|(_, decided, ..)| std::ptr::eq(*decided, *entry))
                    }),
            );
        }
        let advice: Vec<ToolMemoryRule> =
            advice.into_iter().map(|entry| entry.rule.clone()).collect();

        let Some(decision) = decided.iter().map(|(decision, ..)| *decision).max() else {
            return match bound {
                Some(bound) => too_complex(&tool, bound, advice),
                None => allow(&tool, advice),
            };
        };
        decided.retain(|(candidate, ..)| *candidate == decision);
        decided.sort_by(|a, b| {
            b.1.rule
                .priority
                .cmp(&a.1.rule.priority)
                .then(b.2.strength.cmp(&a.2.strength))
                .then_with(|| a.1.rule.id.cmp(&b.1.rule.id))
        });
        let (_, top, hit, spanned) = &decided[0];
        let mut reason = if *spanned {
            span_reason(&top.rule, hit, &tool)
        } else if top.fallback {
            fallback_reason(&top.rule, hit, &tool)
        } else {
            reason_line(decision, &top.rule, hit, &tool)
        };
        if let (Decision::Confirm, Some(bound)) = (decision, bound) {
            reason.push_str("; the call is also too complex to check fully: ");
            reason.push_str(&bound.describe());
        }
        Verdict {
            decision,
            rules: decided
                .iter()
                .map(|(_, entry, ..)| entry.rule.clone())
                .collect(),
            advice,
            reason,
        }
    }
}

/// The arguments with every look-alike character folded ([`folded`]), keys included; `None`
/// when they hold none. Not deeper than the check reads ([`MAX_ARGUMENT_DEPTH`]).
fn fold_lookalikes(value: &Value, depth: usize) -> Option<Value> {
    // Most calls are ASCII throughout: find that out without building anything.
    fn any_foreign(value: &Value, depth: usize) -> bool {
        match value {
            Value::String(text) => !text.is_ascii(),
            Value::Array(items) => {
                depth <= MAX_ARGUMENT_DEPTH && items.iter().any(|item| any_foreign(item, depth + 1))
            }
            Value::Object(map) => {
                depth <= MAX_ARGUMENT_DEPTH
                    && map
                        .iter()
                        .any(|(key, item)| !key.is_ascii() || any_foreign(item, depth + 1))
            }
            _ => false,
        }
    }
    if depth == 1 && !any_foreign(value, depth) {
        return None;
    }
    match value {
        Value::String(text) => folded(text).map(Value::String),
        Value::Array(items) if depth <= MAX_ARGUMENT_DEPTH => {
            let mut changed = false;
            let items: Vec<Value> = items
                .iter()
                .map(|item| match fold_lookalikes(item, depth + 1) {
                    Some(item) => {
                        changed = true;
                        item
                    }
                    None => item.clone(),
                })
                .collect();
            changed.then_some(Value::Array(items))
        }
        Value::Object(map) if depth <= MAX_ARGUMENT_DEPTH => {
            let mut changed = false;
            let map: serde_json::Map<String, Value> = map
                .iter()
                .map(|(key, item)| {
                    let key = folded(key)
                        .inspect(|_| changed = true)
                        .unwrap_or_else(|| key.clone());
                    let item = fold_lookalikes(item, depth + 1)
                        .inspect(|_| changed = true)
                        .unwrap_or_else(|| item.clone());
                    (key, item)
                })
                .collect();
            changed.then_some(Value::Object(map))
        }
        _ => None,
    }
}

/// The positions, in a check's indexes, of the file families whose path bans hold for the
/// call (see [`Guard::check`]): the reading family's, then the editing family's.
const BORROWED_READ: usize = 4;
const BORROWED_EDIT: usize = 5;

static EMPTY_INDEX: std::sync::LazyLock<ToolIndex> = std::sync::LazyLock::new(ToolIndex::default);

/// The MCP tool a call of a proxy tool calls, by its own name without its server, and the
/// arguments it passes on: Cline's `use_mcp_tool {"server_name", "tool_name", "arguments"}`
/// (the arguments a JSON string, or an object) calls `tool_name` (lower-case, `-` read as
/// `_`, as servers spell it either way). `None` for any other call.
pub fn proxied_mcp_call(tool_name: &str, arguments: &Value) -> Option<(String, Value)> {
    if normalize_tool_name(tool_name) != "use_mcp_tool" {
        return None;
    }
    let tool = arguments.get("tool_name")?.as_str()?.trim();
    if tool.is_empty() || tool.contains("__") {
        return None;
    }
    let passed = match arguments.get("arguments") {
        Some(Value::String(text)) => {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone()))
        }
        Some(other) => other.clone(),
        None => Value::Object(serde_json::Map::new()),
    };
    Some((tool.to_lowercase().replace('-', "_"), passed))
}

/// `base` with `readings` as further parts (as many as [`MAX_ALSO`] allows), or the readings
/// alone when there is no base.
fn with_readings(base: Option<Constraint>, readings: Vec<Constraint>) -> Option<Constraint> {
    let mut readings = readings.into_iter();
    let mut base = match base {
        Some(base) => base,
        None => readings.next()?,
    };
    let room = MAX_ALSO.saturating_sub(base.also.len());
    base.also.extend(readings.take(room));
    Some(base)
}

/// Checks one call against a slice of rules, deriving every constraint. Builds a throwaway
/// [`Guard`]; keep a guard instead when checking many calls.
pub fn check_rules(rules: &[ToolMemoryRule], tool_name: &str, arguments: &Value) -> Verdict {
    Guard::from_rules(rules.iter().cloned()).check(tool_name, arguments)
}

/// The decision policy; see the table in `docs/guard.md`.
fn decide(priority: ToolMemoryPriority, strength: Strength, ask_first: bool) -> Decision {
    if ask_first {
        // The rule's own words ask to be asked ("never ... without asking me").
        return Decision::Confirm;
    }
    match (priority, strength) {
        (ToolMemoryPriority::Critical, Strength::Strong) => Decision::Deny,
        (ToolMemoryPriority::Critical, Strength::Weak) | (ToolMemoryPriority::High, _) => {
            Decision::Confirm
        }
        (ToolMemoryPriority::Normal, _) => Decision::Allow,
    }
}

fn allow(tool: &str, advice: Vec<ToolMemoryRule>) -> Verdict {
    let reason = match advice.len() {
        0 => format!("allowed: no rule on {tool} applies to this call"),
        1 => format!("allowed: no rule on {tool} forbids this call; 1 advisory rule applies"),
        count => {
            format!("allowed: no rule on {tool} forbids this call; {count} advisory rules apply")
        }
    };
    Verdict {
        decision: Decision::Allow,
        rules: Vec::new(),
        advice,
        reason,
    }
}

/// The verdict of a call that was not read in full and broke no rule in the part that was:
/// the user decides, since a rule may apply to the rest.
fn too_complex(tool: &str, bound: Bound, advice: Vec<ToolMemoryRule>) -> Verdict {
    Verdict {
        decision: Decision::Confirm,
        rules: Vec::new(),
        advice,
        reason: format!(
            "confirm first: the call is too complex to check fully against the rules on {tool}: {}",
            bound.describe()
        ),
    }
}

/// The reason of a fail-safe reading's ask: the rule, what of it the call carries, and that
/// toolmem could not read it fully.
fn fallback_reason(rule: &ToolMemoryRule, hit: &Hit, tool: &str) -> String {
    let (owner, quote) = quoted(rule, tool);
    format!(
        "confirm first: a {} rule {owner} that toolmem could not read fully names {} `{}`, which this call carries: {quote} (rule {})",
        rule.priority,
        hit.matcher.kind.as_str(),
        hit.matcher.value,
        rule.id
    )
}

/// The reason of the span fail-safe's ask ([`carried_spans`]): the rule, the span the call
/// carries, and that the rule's reading does not otherwise apply.
fn span_reason(rule: &ToolMemoryRule, hit: &Hit, tool: &str) -> String {
    let (owner, quote) = quoted(rule, tool);
    format!(
        "confirm first: this call carries `{}`, a command a {} rule {owner} bans or asks about, though the rule's reading does not otherwise apply to it: {quote} (rule {})",
        hit.matcher.value, rule.priority, rule.id
    )
}

/// Where a rule holds, as a reason says it: "on bash", or "for every tool" for a rule of no
/// tool.
fn owner(rule: &ToolMemoryRule, tool: &str) -> String {
    if rule.tool_name == UNSCOPED_TOOL {
        "for every tool".to_owned()
    } else {
        format!("on {tool}")
    }
}

/// Where a fail-safe's rule holds ([`owner`]) and its text quoted on one line, cut at
/// [`FALLBACK_QUOTE_CHARS`].
fn quoted(rule: &ToolMemoryRule, tool: &str) -> (String, String) {
    let owner = owner(rule, tool);
    let text: String = rule.rule.chars().take(FALLBACK_QUOTE_CHARS).collect();
    let ellipsis = if text.len() < rule.rule.len() {
        "..."
    } else {
        ""
    };
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (owner, format!("\"{text}{ellipsis}\""))
}

/// How much of a rule's text a fail-safe reason quotes: enough to recognise the rule on one
/// line.
const FALLBACK_QUOTE_CHARS: usize = 160;

fn reason_line(decision: Decision, rule: &ToolMemoryRule, hit: &Hit, tool: &str) -> String {
    let owner = owner(rule, tool);
    let lead = match decision {
        Decision::Deny => format!("denied by a {} rule {owner}", rule.priority),
        _ => format!("confirm first: a {} rule {owner} matched", rule.priority),
    };
    let value = &hit.matcher.value;
    let what = match (hit.polarity, hit.matcher.kind) {
        (Polarity::Require, _) if hit.wrong_value => match &hit.scope {
            Some(scope) => format!("`{scope}` requires {value}, and the call gives another value"),
            None => format!("every call requires {value}, and the call gives another value"),
        },
        (Polarity::Require, _) => match &hit.scope {
            Some(scope) => format!("`{scope}` requires {value}, which is missing"),
            None => format!("every call requires {value}, which is missing"),
        },
        (_, MatcherKind::Email) if hit.recipient => {
            format!("the recipient {} is forbidden", hit.found)
        }
        (_, MatcherKind::Email) => format!("the address {} is forbidden", hit.found),
        (_, MatcherKind::Domain) if value == crate::constraint::ANY_HOST => {
            format!("{} is not a host the rule allows", hit.found)
        }
        (_, MatcherKind::Domain) => format!("{} is in the forbidden domain {value}", hit.found),
        (_, MatcherKind::Url) => format!("the URL {} is forbidden", hit.found),
        (_, MatcherKind::Path) => format!("the path {} is forbidden", hit.found),
        (_, MatcherKind::Host) => format!("the host {} is forbidden", hit.found),
        // An allowlist: the tool is forbidden but for the recipients the rule names.
        (_, MatcherKind::Command) if hit.recipient && hit.strength == Strength::Weak => format!(
            "only the recipients the rule names may be reached, and {} may not be one of them (a name it allows, at another address)",
            hit.found
        ),
        (_, MatcherKind::Command) if hit.recipient => format!(
            "only the recipients the rule names may be reached, and {} is not one of them",
            hit.found
        ),
        (_, MatcherKind::Command) => format!("the command `{value}` is forbidden"),
        (_, MatcherKind::Flag) => format!("the flag {value} is forbidden"),
        (_, MatcherKind::Literal) => format!("the text \"{value}\" is forbidden"),
        (_, MatcherKind::Condition) => format!("the situation \"{value}\" is forbidden"),
        (_, MatcherKind::Argument) => format!("the argument {} is forbidden", hit.found),
        (_, MatcherKind::Person) => {
            format!(
                "the recipient \"{}\" may be {value} (a name, not an address)",
                hit.found
            )
        }
    };
    let scope = match (&hit.scope, hit.polarity) {
        (Some(scope), Polarity::Forbid) => format!(" in `{scope}`"),
        _ => String::new(),
    };
    let ask = if decision == Decision::Confirm
        && hit.polarity == Polarity::Forbid
        && hit.strength == Strength::Strong
        && rule.priority == ToolMemoryPriority::Critical
    {
        " (the rule asks to be asked first)"
    } else {
        ""
    };
    let condition = match &hit.condition {
        Some(condition) => {
            format!(" (the rule holds only in a situation the call does not show: \"{condition}\")")
        }
        None => String::new(),
    };
    format!("{lead}: {what}{scope}{ask}{condition}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_corpus;

    /// The index is only a prefilter: on every corpus case, checking through it must give
    /// the verdict of evaluating every rule.
    /// The text of every file of the labelled corpus.
    #[expect(
        clippy::disallowed_methods,
        reason = "the labelled corpora live in files under tests/fixtures"
    )]
    fn corpus_texts() -> Vec<String> {
        let dirs = [
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/guard"),
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/real_text"),
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/real_text/open"),
        ];
        dirs.iter()
            .flat_map(|dir| std::fs::read_dir(dir).expect("corpus directory"))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|path| {
                path.extension()
                    .is_some_and(|extension| extension == "jsonl")
            })
            .map(|path| std::fs::read_to_string(&path).expect("readable corpus file"))
            .collect()
    }

    #[test]
    fn index_never_drops_a_matching_rule() {
        let mut checked = 0;
        for text in corpus_texts() {
            for case in parse_corpus(&text).expect("valid corpus") {
                let guard = Guard::from_rules(case.tool_rules());
                let indexed = guard.check_with(&case.call.tool_name, &case.call.arguments, false);
                let exhaustive = guard.check_with(&case.call.tool_name, &case.call.arguments, true);
                assert_eq!(indexed, exhaustive, "{}", case.id);
                checked += 1;
            }
        }
        assert!(checked >= 700, "only {checked} cases");
    }

    /// A critical or high rule the grammar cannot read asks about a call carrying what it
    /// names, with a reason that says so; otherwise it advises. Normal rules only advise.
    #[test]
    fn an_unread_ban_asks_where_the_call_carries_its_literal() {
        let at = tool_memory_core::Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
        let rule = |priority| ToolMemoryRule {
            id: "r7".into(),
            tool_name: "bash".into(),
            rule: "The `ledger-prod` cluster belongs to the finance SREs. Hands off.".into(),
            priority,
            source: tool_memory_core::ToolMemorySource::UserExplicit,
            tags: vec![],
            created_at: at,
            updated_at: at,
            meta: Default::default(),
        };
        let carrying = serde_json::json!({"command": "kubectl --context ledger-prod get pods"});
        let other = serde_json::json!({"command": "kubectl --context staging get pods"});
        for priority in [ToolMemoryPriority::Critical, ToolMemoryPriority::High] {
            let guard = Guard::from_rules([rule(priority)]);
            assert_eq!(guard.constraints().next().unwrap().1, None, "nothing read");
            let verdict = guard.check("bash", &carrying);
            assert_eq!(verdict.decision, Decision::Confirm);
            assert!(verdict.advice.is_empty(), "{verdict:?}");
            assert_eq!(
                verdict.reason,
                format!(
                    "confirm first: a {priority} rule on bash that toolmem could not read fully names literal `ledger-prod`, which this call carries: \"The `ledger-prod` cluster belongs to the finance SREs. Hands off.\" (rule r7)"
                )
            );
            let verdict = guard.check("bash", &other);
            assert_eq!(verdict.decision, Decision::Allow);
            assert_eq!(verdict.advice.len(), 1, "the rule still advises");
        }
        let normal = Guard::from_rules([rule(ToolMemoryPriority::Normal)]);
        assert_eq!(normal.check("bash", &carrying).decision, Decision::Allow);
    }

    #[test]
    fn reason_lines_name_the_rule_and_the_literal() {
        let check = |tool: &str, text: &str, arguments: Value, expected: &str| {
            let at = tool_memory_core::Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
            let rule = ToolMemoryRule {
                id: "r".into(),
                tool_name: tool.into(),
                rule: text.into(),
                priority: ToolMemoryPriority::Critical,
                source: tool_memory_core::ToolMemorySource::UserExplicit,
                tags: vec![],
                created_at: at,
                updated_at: at,
                meta: Default::default(),
            };
            let call_tool = if tool == UNSCOPED_TOOL { "shell" } else { tool };
            let verdict = check_rules(&[rule], call_tool, &arguments);
            assert_eq!(verdict.reason, expected, "{text}");
        };
        check(
            "shell",
            "never rm -rf",
            serde_json::json!({"command": "rm -rf x"}),
            "denied by a critical rule on shell: the command `rm -rf` is forbidden",
        );
        check(
            "shell",
            "always pass --dry-run to terraform",
            serde_json::json!({"command": "terraform apply"}),
            "confirm first: a critical rule on shell matched: `terraform` requires --dry-run, which is missing",
        );
        check(
            UNSCOPED_TOOL,
            "never run sudo",
            serde_json::json!({"command": "sudo ls"}),
            "denied by a critical rule for every tool: the command `sudo` is forbidden",
        );
        check(
            "send_email",
            "never email Sarah",
            serde_json::json!({"to": "Sarah"}),
            "confirm first: a critical rule on send_email matched: the recipient \"sarah\" may be sarah (a name, not an address)",
        );
        check(
            "bash",
            "never run git reset --hard without asking me",
            serde_json::json!({"command": "git reset --hard"}),
            "confirm first: a critical rule on bash matched: the command `git reset --hard` is forbidden (the rule asks to be asked first)",
        );
        check(
            "browser",
            "never open facebook.com",
            serde_json::json!({"url": "https://m.facebook.com/x"}),
            "denied by a critical rule on browser: m.facebook.com is in the forbidden domain facebook.com",
        );
        check(
            "send_email",
            "x",
            serde_json::json!({}),
            "allowed: no rule on send_email forbids this call; 1 advisory rule applies",
        );
    }
}
