//! The guards the facade keeps: one per tool, built from the tool's stored rules and the
//! no-tool group's, valid for one store version and until the first of its rules expires. A
//! module of its own so that the client holds the cache without depending on the checks
//! (`guard.rs`) that use it.

use std::collections::HashMap;
use std::sync::Arc;

use tool_memory_core::{Timestamp, ToolMemoryPriority, ToolMemoryRule};
use tool_memory_guard::Guard;
use tool_memory_store::UnreadableRow;

/// Built guards by tool, all for one store version.
#[derive(Debug, Default)]
pub(crate) struct GuardCache {
    version: Option<u64>,
    guards: HashMap<String, CachedGuard>,
}

/// A guard and the first instant one of its rules expires, after which it must be rebuilt
/// even though the store has not changed.
#[derive(Debug)]
struct CachedGuard {
    guard: Arc<ToolGuard>,
    until: Option<Timestamp>,
}

/// What a tool's checks are decided from: the guard over its readable rules (and the no-tool
/// group's), and the rows of both that the store could not read.
#[derive(Debug)]
pub(crate) struct ToolGuard {
    pub(crate) guard: Guard,
    pub(crate) unreadable: Vec<UnreadableRow>,
}

/// Most tools whose guards are kept at once.
const GUARD_CACHE_TOOLS: usize = 256;

impl GuardCache {
    /// The guard built for `tool` at store `version`, unless one of its rules has expired
    /// since.
    pub(crate) fn get(&self, version: u64, tool: &str, now: Timestamp) -> Option<Arc<ToolGuard>> {
        let cached = self.guards.get(tool)?;
        (self.version == Some(version) && cached.until.is_none_or(|until| now < until))
            .then(|| Arc::clone(&cached.guard))
    }

    /// Keeps the guard built for `tool` at store `version`, valid until `until`. A new
    /// version, or a full cache, empties it first.
    pub(crate) fn insert(
        &mut self,
        version: u64,
        tool: &str,
        guard: Arc<ToolGuard>,
        until: Option<Timestamp>,
    ) {
        if self.version != Some(version) || self.guards.len() >= GUARD_CACHE_TOOLS {
            self.guards.clear();
            self.version = Some(version);
        }
        self.guards
            .insert(tool.to_owned(), CachedGuard { guard, until });
    }
}

impl ToolGuard {
    /// The guard over `rules` as they apply at `now`, with the rows the store could not read,
    /// and the first instant one of those rules expires.
    pub(crate) fn build(
        rules: Vec<ToolMemoryRule>,
        unreadable: Vec<UnreadableRow>,
        now: Timestamp,
    ) -> (ToolGuard, Option<Timestamp>) {
        let until = rules
            .iter()
            .filter(|rule| rule.is_active(now))
            .filter_map(|rule| rule.meta.expires_at)
            .min();
        let guard = ToolGuard {
            guard: build_guard(rules, now),
            unreadable,
        };
        (guard, until)
    }
}

/// The guard over the rules that apply at `now`, each with the constraint the guard crate
/// decides for a stored rule. A captured edict awaiting confirmation is advice only: it takes
/// part as a normal rule, which never blocks.
fn build_guard(rules: Vec<ToolMemoryRule>, now: Timestamp) -> Guard {
    let guard = Guard::from_stored(rules.into_iter().filter(|rule| rule.is_active(now)).map(
        |mut rule| {
            if rule.meta.proposed {
                rule.priority = ToolMemoryPriority::Normal;
            }
            rule
        },
    ));
    for rule in guard.stored_unreadable() {
        // Its text's constraint is enforced instead. The parse error can quote the
        // constraint's literals (addresses), so only the rule is named.
        tracing::warn!(
            tool = rule.tool_name,
            id = rule.id,
            "stored constraint unreadable; deriving it again"
        );
    }
    guard
}
