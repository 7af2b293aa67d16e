//! The `RuleStore` contract shared by every backend, and the helpers their implementations
//! have in common.

use std::collections::BTreeSet;
use std::sync::Arc;

use async_trait::async_trait;
use tool_memory_core::{
    Clock, HistoryAction, HistoryEntry, HistoryEvent, IdSource, Origin, RawJson, RuleMeta, RulePut,
    Timestamp, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource, ToolStats, UNSCOPED_TOOL,
    normalize_tool_name,
};

use crate::turn::{TurnChanges, TurnOutcome};
use crate::{Result, SystemClock, UuidIds};

/// The eager (high and critical) rules chosen for the pinned prompt block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptSelection {
    /// Every critical rule, then high rules up to the limit; ordered by priority descending,
    /// tool name, rule text, then id (the reference's snapshot order).
    pub rules: Vec<ToolMemoryRule>,
    /// High rules that matched but fell outside `max_rules`.
    pub omitted_high: usize,
    /// Rows of the named tools (and the no-tool group) that may be eager but that this
    /// version cannot read, by tool then id. Never left out by `max_rules`: each could be a
    /// critical rule, so the prompt shows a line in its place.
    pub unreadable: Vec<UnreadableRow>,
}

/// A tool's rules in listing order. Shared rather than owned, so that a store can hand out a
/// listing from its cache without copying a rule; `to_vec` makes an owned copy.
pub type Listing = Arc<[ToolMemoryRule]>;

/// A stored row this version cannot read (written by a newer toolmem, or damaged): where it is
/// and what is wrong with it. Never its text: the reason names a column and the kind of
/// problem, not a stored value, so it may go to logs, verdicts and the terminal.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct UnreadableRow {
    /// The tool the row is stored under, as stored.
    pub tool_name: String,
    /// The row's id, as stored.
    pub id: String,
    /// What could not be read, for example `priority: a value this version does not know`.
    pub reason: String,
}

// Beside the row rather than in `error.rs`, so that the error module uses nothing of this one
// (this one uses its `Result`).
impl crate::Error {
    /// The error for a row this version cannot read, met where it cannot be skipped.
    pub fn unreadable(row: UnreadableRow) -> crate::Error {
        crate::Error::Unreadable {
            tool_name: row.tool_name,
            id: row.id,
            reason: row.reason,
        }
    }
}

/// Unreadable rows, shared like a [`Listing`].
pub type Unreadable = Arc<[UnreadableRow]>;

/// A tool's rules as the guard reads them: the listing and, from the same read, the rows of
/// the tool this version cannot read. A rule the guard cannot see must not let a call through,
/// so the guard asks for confirmation while any of these exist.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolRules {
    /// Every readable, unrevoked rule, as [`RuleStore::list`] gives them.
    pub rules: Listing,
    /// The tool's rows this version cannot read (revoked or not: that too is unreadable), by
    /// id.
    pub unreadable: Unreadable,
}

/// What `toolmem doctor` found in a database, read without changing it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Inspection {
    /// The schema version the database is at; 0 when toolmem has not set it up yet.
    pub schema_found: i64,
    /// The schema version this build writes.
    pub schema_supported: i64,
    /// What the database's own integrity check reported other than `ok` (SQLite; at most a
    /// few lines), empty when it passed or the backend has none.
    pub integrity: Vec<String>,
    /// How many rule rows (revoked ones too) this version read; `None` when the rows were
    /// not checked, because the schema is one this build cannot read them in.
    pub readable: Option<usize>,
    /// The rows this version cannot read, by tool then id.
    pub unreadable: Vec<UnreadableRow>,
}

impl Inspection {
    /// A newer toolmem migrated the database: this one refuses to read or write it.
    pub fn schema_is_newer(&self) -> bool {
        self.schema_found > self.schema_supported
    }

    /// The schema is one this build reads (current, or older and upgraded when a toolmem of
    /// this version first opens it for writing, or not set up yet).
    pub fn schema_is_readable(&self) -> bool {
        (0..=self.schema_supported).contains(&self.schema_found)
    }

    /// Nothing wrong: a readable schema, a passed integrity check, and no unreadable row.
    pub fn is_healthy(&self) -> bool {
        self.schema_is_readable() && self.integrity.is_empty() && self.unreadable.is_empty()
    }
}

/// How many of `rows` are readable, and the ones that are not, by tool then id; without
/// logging, for an inspection, which reports the rows itself (a log line would reach the
/// terminal with their tool and id unescaped).
pub fn count_readable(rows: impl IntoIterator<Item = StoredRow>) -> (usize, Vec<UnreadableRow>) {
    let mut readable = 0;
    let mut unreadable = Vec::new();
    for row in rows {
        match row {
            Ok(_) => readable += 1,
            Err(row) => unreadable.push(row),
        }
    }
    unreadable.sort();
    (readable, unreadable)
}

/// Where a store gets time and ids. Tests pass a manual clock and sequential ids.
#[derive(Debug, Clone)]
pub struct Services {
    /// Source of `created_at` / `updated_at`.
    pub clock: Arc<dyn Clock>,
    /// Source of ids for rules put without one.
    pub ids: Arc<dyn IdSource>,
}

impl Default for Services {
    fn default() -> Services {
        Services {
            clock: Arc::new(SystemClock),
            ids: Arc::new(UuidIds),
        }
    }
}

/// A change of a stored rule's state (revoke, restore, confirm): edits the rule's lifecycle
/// state in place at the given time and says whether anything changed. It sees only the state,
/// so it cannot move the rule to another key or put unvalidated text in it.
pub type RuleChange = fn(&mut RuleMeta, Timestamp) -> bool;

/// Storage for tool-scoped rules. Every method normalises tool names (trim + lower-case), so
/// one tool is one identity whichever path a caller takes.
#[async_trait]
pub trait RuleStore: Send + Sync + std::fmt::Debug {
    /// Creates or updates a rule and returns what was stored. Updating an existing id keeps
    /// its `created_at`, its revocation, and every field the put leaves unset. The change and its
    /// history line (with `put.origin`) are written together.
    async fn put(&self, put: RulePut) -> Result<ToolMemoryRule>;

    /// The rule with this id on this tool, if any, revoked or not.
    async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>>;

    /// Every readable, unrevoked rule of one tool: priority descending, then most recently
    /// updated, then id. Unreadable rows are left out here, never deleted, and reported by
    /// [`RuleStore::list_with_unreadable`] (which the guard reads) and through `tracing`.
    async fn list(&self, tool_name: &str) -> Result<Listing>;

    /// [`RuleStore::list`] with revoked rules too (marked by `meta.revoked_at`).
    async fn list_including_revoked(&self, tool_name: &str) -> Result<Listing>;

    /// [`RuleStore::list`] together with the rows of the tool this version cannot read, from
    /// one read and cached like the listing. The guard reads this, so that a rule it cannot
    /// see makes it ask instead of allow.
    ///
    /// The default reports no unreadable rows: it is only right for a backend that cannot hold
    /// a row it cannot read. Every backend that can (any that stores rules as text) overrides
    /// it; the conformance suite checks that, given a harness that can write such a row.
    async fn list_with_unreadable(&self, tool_name: &str) -> Result<ToolRules> {
        Ok(ToolRules {
            rules: self.list(tool_name).await?,
            unreadable: Unreadable::default(),
        })
    }

    /// Every row of the store this version cannot read, of every tool, by tool then id: what
    /// `toolmem doctor` lists. The default asks [`RuleStore::list_with_unreadable`] tool by
    /// tool; a backend that can scan all its rows at once does that instead.
    async fn unreadable_rows(&self) -> Result<Vec<UnreadableRow>> {
        let mut tools = self.list_tool_names().await?;
        tools.push(UNSCOPED_TOOL.to_owned());
        let mut rows = Vec::new();
        for tool in tools {
            rows.extend_from_slice(&self.list_with_unreadable(&tool).await?.unreadable);
        }
        rows.sort();
        rows.dedup();
        Ok(rows)
    }

    /// Applies `change` to the stored rule (tool, id) and records `action` by `origin`, with
    /// the rule before and after, together. `None` when there is no such rule; when `change`
    /// reports no change the rule is returned as it is and nothing is recorded. Backends
    /// implement this once; revoke, restore and confirm are built on it.
    async fn change_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
        change: RuleChange,
    ) -> Result<Option<ToolMemoryRule>>;

    /// Removes the rule (tool, id) and records `action` by `origin` with the rule as it was,
    /// together; `true` when it existed. Backends implement this once; delete and expire are
    /// built on it.
    async fn remove_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
    ) -> Result<bool>;

    /// Deletes a rule; `true` when it existed. Its history stays.
    async fn delete(&self, tool_name: &str, id: &str, origin: &Origin) -> Result<bool> {
        self.remove_rule(tool_name, id, HistoryAction::Delete, origin)
            .await
    }

    /// Lifts a rule without deleting it. `None` when there is no such rule; an already revoked
    /// rule is returned unchanged, with no new history line.
    async fn revoke(
        &self,
        tool_name: &str,
        id: &str,
        origin: &Origin,
    ) -> Result<Option<ToolMemoryRule>> {
        self.change_rule(tool_name, id, HistoryAction::Revoke, origin, mark_revoked)
            .await
    }

    /// Reinstates a revoked rule. `None` when there is no such rule; an active rule is returned
    /// unchanged, with no new history line.
    async fn restore(
        &self,
        tool_name: &str,
        id: &str,
        origin: &Origin,
    ) -> Result<Option<ToolMemoryRule>> {
        self.change_rule(tool_name, id, HistoryAction::Restore, origin, |meta, _| {
            mark_restored(meta)
        })
        .await
    }

    /// Confirms a proposed rule, which then applies at its priority. `None` when there is no
    /// such rule.
    async fn confirm(
        &self,
        tool_name: &str,
        id: &str,
        origin: &Origin,
    ) -> Result<Option<ToolMemoryRule>> {
        self.change_rule(tool_name, id, HistoryAction::Confirm, origin, |meta, _| {
            mark_confirmed(meta)
        })
        .await
    }

    /// Removes an expired observation, recording `expire` (not `delete`) in the history.
    async fn expire(&self, tool_name: &str, id: &str) -> Result<bool> {
        self.remove_rule(tool_name, id, HistoryAction::Expire, &Origin::Expiry)
            .await
    }

    /// History lines of a tool (or of one rule), newest first: at most `limit`, and only lines
    /// older than `before` (a `seq`) when given.
    async fn history(
        &self,
        tool_name: &str,
        id: Option<&str>,
        limit: usize,
        before: Option<i64>,
    ) -> Result<Vec<HistoryEntry>>;

    /// Appends a line that records something other than a change, such as a guard decision.
    async fn append_history(&self, event: HistoryEvent) -> Result<HistoryEntry>;

    /// Tools that hold at least one row, sorted, without the no-tool sentinel.
    async fn list_tool_names(&self) -> Result<Vec<String>>;

    /// The eager rules for the pinned prompt. `tools` empty means every tool; otherwise the
    /// named tools (normalised, duplicates ignored). Rules under the no-tool sentinel apply to
    /// any tool and are always included; revoked and expired rules never are. With `max_rules`,
    /// high rules fill what critical rules
    /// leave of the limit; a critical rule is never left out.
    async fn rules_for_prompt(
        &self,
        tools: &[String],
        max_rules: Option<usize>,
    ) -> Result<PromptSelection>;

    /// Writes a rule exactly as given, timestamps and state included, replacing any rule with
    /// the same tool and id. For import and migration; ordinary writes go through
    /// [`RuleStore::put`].
    async fn import(&self, rule: ToolMemoryRule, origin: &Origin) -> Result<()>;

    /// Rules of one tool whose text matches the keywords of `query`, most relevant first, at
    /// most `limit`. A query with no keywords matches nothing.
    /// The default ranks the tool's listing by keywords (distinct keywords, then hits, then
    /// listing order); a backend with a full-text index ranks with it instead.
    async fn search(
        &self,
        tool_name: &str,
        query: &str,
        limit: usize,
    ) -> Result<Vec<ToolMemoryRule>> {
        Ok(rank_by_keywords(&self.list(tool_name).await?, query, limit))
    }

    /// Applies a whole turn in one transaction: its revocations, statistics, rules and the
    /// expiry of its tools' observations, each decided by [`crate::backend::plan_turn`] on the rows
    /// read inside that transaction, with every history line as the single operations write
    /// them. The turn's key, when it has one, is recorded in the same transaction; a turn
    /// whose key is recorded already changes nothing and comes back `already_applied`. When
    /// any part fails (an invalid rule, a row this version cannot read), nothing of the turn
    /// is stored and its key is not recorded.
    async fn apply_turn(&self, changes: TurnChanges) -> Result<TurnOutcome>;

    /// Adds a turn's call counts to a tool's statistics and returns the new totals.
    async fn record_stats(&self, delta: &ToolStats) -> Result<ToolStats>;

    /// A tool's statistics, if it was ever seen.
    async fn tool_stats(&self, tool_name: &str) -> Result<Option<ToolStats>>;

    /// A value that changes whenever the stored rules change, through this store or (for a
    /// shared database) any other writer, so callers can cache what they derive from the rules.
    /// `None` when the backend cannot tell, and nothing may be cached.
    async fn version(&self) -> Result<Option<u64>> {
        Ok(None)
    }

    /// Inserts a new rule with a fresh id.
    async fn record(
        &self,
        tool_name: &str,
        body: &str,
        priority: ToolMemoryPriority,
        source: ToolMemorySource,
        tags: Vec<String>,
    ) -> Result<ToolMemoryRule> {
        self.put(
            RulePut::new(tool_name, body)
                .with_priority(priority)
                .with_source(source)
                .with_tags(tags),
        )
        .await
    }

    /// Every tool's rule counts (the tools of [`RuleStore::list_tool_names`]), by tool name.
    /// The default lists each tool; a backend that can count in one query does that instead.
    async fn tool_counts(&self) -> Result<Vec<crate::ToolCounts>> {
        let mut all = Vec::new();
        for tool in self.list_tool_names().await? {
            let mut counts = crate::ToolCounts::new(tool.clone());
            for rule in self.list_including_revoked(&tool).await?.iter() {
                counts.add_rule(rule);
            }
            all.push(counts);
        }
        Ok(all)
    }
}

/// Marks a rule revoked at `now`; `false` when it already was (nothing to record).
pub fn mark_revoked(meta: &mut RuleMeta, now: Timestamp) -> bool {
    if meta.revoked_at.is_some() {
        return false;
    }
    meta.revoked_at = Some(now);
    true
}

/// Lifts a revocation; `false` when the rule was active (nothing to record).
pub fn mark_restored(meta: &mut RuleMeta) -> bool {
    meta.revoked_at.take().is_some()
}

/// Confirms a proposed rule; `false` when it was confirmed already (nothing to record).
pub fn mark_confirmed(meta: &mut RuleMeta) -> bool {
    std::mem::take(&mut meta.proposed)
}

/// A column that does not hold the form asked for (text where an integer is stored, a NULL
/// where a value is required): the decoder turns it into a reason naming the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongForm;

/// One stored rule row as [`rule_from_row`] reads it. Each SQL backend says how to read a
/// column in the few forms a rule's columns take; the decoder knows which column is which.
pub trait RuleColumns {
    /// A required text column.
    fn text(&self, index: usize) -> std::result::Result<&str, WrongForm>;
    /// A text column that may be NULL.
    fn optional_text(&self, index: usize) -> std::result::Result<Option<&str>, WrongForm>;
    /// `created_at` or `updated_at`, in the backend's stored form.
    fn instant(&self, index: usize) -> std::result::Result<Timestamp, WrongForm>;
    /// An integer column that may be NULL.
    fn optional_integer(&self, index: usize) -> std::result::Result<Option<i64>, WrongForm>;
    /// A boolean column.
    fn flag(&self, index: usize) -> std::result::Result<bool, WrongForm>;
}

/// Builds a rule from its fourteen columns, in the order every SQL backend reads them: id,
/// tool_name, rule, priority, source, tags, created_at, updated_at, revoked_at, expires_at,
/// retire_after_successes, proposed, constraint_json, constraint_explicit. The error names the
/// column that did not parse and what is wrong with it, never its value (which may be rule
/// text, or anything a damaged row holds), so it can go to logs and verdicts.
pub fn rule_from_row(row: &impl RuleColumns) -> std::result::Result<ToolMemoryRule, String> {
    let column = |index: usize, field: &str| {
        row.text(index)
            .map_err(|WrongForm| not_readable(field, "text"))
    };
    let optional_text = |index: usize, field: &str| {
        row.optional_text(index)
            .map_err(|WrongForm| not_readable(field, "text"))
    };
    let timestamp = |index: usize, field: &str| -> std::result::Result<Option<Timestamp>, String> {
        optional_text(index, field)?
            .map(|text| Timestamp::parse(text).map_err(|_| not_readable(field, "a timestamp")))
            .transpose()
    };
    let instant = |index: usize, field: &str| {
        row.instant(index)
            .map_err(|WrongForm| not_readable(field, "a timestamp"))
    };
    let flag = |index: usize, field: &str| {
        row.flag(index)
            .map_err(|WrongForm| not_readable(field, "a boolean"))
    };
    Ok(ToolMemoryRule {
        id: column(0, "id")?.to_owned(),
        tool_name: column(1, "tool_name")?.to_owned(),
        rule: column(2, "rule")?.to_owned(),
        priority: column(3, "priority")?
            .parse()
            .map_err(|_| unknown_value("priority"))?,
        source: column(4, "source")?
            .parse()
            .map_err(|_| unknown_value("source"))?,
        tags: serde_json::from_str(column(5, "tags")?)
            .map_err(|_| not_readable("tags", "a JSON list of strings"))?,
        created_at: instant(6, "created_at")?,
        updated_at: instant(7, "updated_at")?,
        meta: RuleMeta {
            revoked_at: timestamp(8, "revoked_at")?,
            expires_at: timestamp(9, "expires_at")?,
            retire_after_successes: row
                .optional_integer(10)
                .map_err(|WrongForm| not_readable("retire_after_successes", "an integer"))?
                .map(|count| u64::try_from(count).unwrap_or_default()),
            proposed: flag(11, "proposed")?,
            // Written from a `RawJson` by the store: checked, not parsed into a value, per read.
            constraint: optional_text(12, "constraint")?
                .map(|text| {
                    RawJson::from_stored(text.to_owned())
                        .map_err(|_| not_readable("constraint", "JSON"))
                })
                .transpose()?,
            constraint_explicit: flag(13, "constraint_explicit")?,
        },
    })
}

/// The reason of a row whose `field` holds something other than `expected` ("a timestamp"):
/// damaged, or written in a form this version does not know. Names no value.
pub fn not_readable(field: &str, expected: &str) -> String {
    format!("{field}: not {expected}")
}

/// The reason of a row whose `field` holds a value this version does not know, as a newer
/// toolmem writes when it adds one (a priority, a source). Names no value.
pub fn unknown_value(field: &str) -> String {
    format!("{field}: a value this version does not know (a newer toolmem may have written it)")
}

/// Builds a history line from its number and the text of its other columns, in the order every
/// SQL backend reads them (seq, at, tool_name, rule_id, action, origin, the before image as
/// JSON, after_json, detail); the error says what did not parse.
pub fn history_from_columns(
    seq: i64,
    text: impl Fn(usize) -> std::result::Result<Option<String>, String>,
) -> std::result::Result<HistoryEntry, String> {
    let rule = |index: usize| -> std::result::Result<Option<ToolMemoryRule>, String> {
        text(index)?
            .map(|json| serde_json::from_str(&json).map_err(|err| err.to_string()))
            .transpose()
    };
    let action = text(4)?.unwrap_or_default();
    Ok(HistoryEntry {
        seq,
        at: Timestamp::parse(&text(1)?.unwrap_or_default()).map_err(|err| err.to_string())?,
        tool_name: text(2)?.unwrap_or_default(),
        rule_id: text(3)?.unwrap_or_default(),
        action: serde_json::from_value(serde_json::Value::String(action))
            .map_err(|err| err.to_string())?,
        origin: serde_json::from_str(&text(5)?.unwrap_or_default())
            .map_err(|err| err.to_string())?,
        // A line that names another for its before image (SQLite since schema 8) still says
        // what changed when that image is one this version cannot read (a newer toolmem
        // wrote the rule); the change itself must not drop out of the audit trail.
        before: rule(6).unwrap_or_else(|reason| {
            tracing::warn!(seq, reason, "a history line's before image is unreadable");
            None
        }),
        after: rule(7)?,
        detail: text(8)?,
    })
}

/// A row as a backend read it: a rule, or where it is and why this version cannot read it.
pub type StoredRow = std::result::Result<ToolMemoryRule, UnreadableRow>;

/// The readable rules of `rows`, and the rows that were not, by tool then id: an unreadable
/// row is skipped and reported (tool, id and reason, never its text), never deleted, and
/// never hides the others.
pub fn keep_readable(
    rows: impl IntoIterator<Item = StoredRow>,
) -> (Vec<ToolMemoryRule>, Vec<UnreadableRow>) {
    let mut rules = Vec::new();
    let mut unreadable = Vec::new();
    for row in rows {
        match row {
            Ok(rule) => rules.push(rule),
            Err(row) => {
                tracing::warn!(
                    tool_name = row.tool_name,
                    id = row.id,
                    reason = row.reason,
                    "a stored tool rule this version cannot read: its tool's checks ask for confirmation; run `toolmem doctor`"
                );
                unreadable.push(row);
            }
        }
    }
    unreadable.sort();
    (rules, unreadable)
}

/// Keeps the rules that apply at `now` (not revoked, not expired).
pub fn active_at(rules: Vec<ToolMemoryRule>, now: Timestamp) -> Vec<ToolMemoryRule> {
    rules
        .into_iter()
        .filter(|rule| rule.is_active(now))
        .collect()
}

/// The set of tool identities a prompt query asks for: normalised, without blanks and
/// duplicates, plus the sentinel. `None` means every tool.
pub fn prompt_tool_filter(tools: &[String]) -> Option<BTreeSet<String>> {
    if tools.is_empty() {
        return None;
    }
    let mut names: BTreeSet<String> = tools
        .iter()
        .map(|name| normalize_tool_name(name))
        .filter(|name| !name.is_empty())
        .collect();
    names.insert(UNSCOPED_TOOL.to_owned());
    Some(names)
}

/// Orders eager rules for the prompt and applies the limit: every critical rule stays; high
/// rules fill the rest in order; proposals from pasted material are left out. The unreadable rows all stay, by tool then id.
pub fn select_for_prompt(
    mut rules: Vec<ToolMemoryRule>,
    max_rules: Option<usize>,
    mut unreadable: Vec<UnreadableRow>,
) -> PromptSelection {
    // A proposal from pasted material is somebody else's words: it waits for a person, and
    // is never pinned where the model reads it as the user's.
    rules.retain(|rule| rule.priority.is_eager() && !rule.is_material_proposal());
    rules.sort_by(|a, b| {
        b.priority
            .cmp(&a.priority)
            .then_with(|| a.tool_name.cmp(&b.tool_name))
            .then_with(|| a.rule.cmp(&b.rule))
            .then_with(|| a.id.cmp(&b.id))
    });
    let mut omitted_high = 0;
    if let Some(limit) = max_rules {
        let critical = rules
            .iter()
            .filter(|rule| rule.priority == ToolMemoryPriority::Critical)
            .count();
        let keep = limit.max(critical);
        if rules.len() > keep {
            omitted_high = rules.len() - keep;
            rules.truncate(keep);
            tracing::warn!(
                omitted_high,
                limit,
                "high-priority tool rules left out of the prompt selection; they stay recallable"
            );
        }
    }
    unreadable.sort();
    unreadable.dedup();
    if !unreadable.is_empty() {
        tracing::warn!(
            unreadable = unreadable.len(),
            "tool rules this version cannot read: the prompt shows a line in each one's place"
        );
    }
    PromptSelection {
        rules,
        omitted_high,
        unreadable,
    }
}

/// The lower-cased words of a text: runs of letters and digits. Shared by the keyword search of
/// the backends without a full-text index, so they rank alike.
pub fn keywords(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Ranks rules by how many query keywords their text holds (distinct keywords first, then
/// total hits), then by listing order. Rules that hold none are left out.
pub fn rank_by_keywords(
    rules: &[ToolMemoryRule],
    query: &str,
    limit: usize,
) -> Vec<ToolMemoryRule> {
    let mut wanted = keywords(query);
    wanted.sort();
    wanted.dedup();
    if wanted.is_empty() {
        return Vec::new();
    }
    // A store's listing is in this order already; a host's own slice may not be.
    let mut rules: Vec<&ToolMemoryRule> = rules.iter().collect();
    rules.sort_by(|a, b| tool_memory_core::compare_for_listing(a, b));
    let mut scored: Vec<((usize, usize), &ToolMemoryRule)> = rules
        .into_iter()
        .filter_map(|rule| {
            let words = keywords(&rule.rule);
            let distinct = wanted.iter().filter(|word| words.contains(word)).count();
            let hits = words.iter().filter(|word| wanted.contains(word)).count();
            (distinct > 0).then_some(((distinct, hits), rule))
        })
        .collect();
    // A stable sort keeps listing order among equal scores.
    scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    scored
        .into_iter()
        .take(limit)
        .map(|(_, rule)| rule.clone())
        .collect()
}
