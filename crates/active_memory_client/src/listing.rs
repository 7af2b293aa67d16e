//! Listings for a person looking at many rules: every tool's counts from one store read, and
//! one page of a tool's rules, filtered, so that a tool of 10,000 rules is never sent whole.

use serde::Serialize;
use tool_memory_core::ToolMemoryRule;
use tool_memory_store::ToolCounts;

use crate::{ActiveMemoryClient, Result};

/// Which rules of a tool to page through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageRequest {
    /// Also revoked rules.
    pub include_revoked: bool,
    /// Only rules whose text, id or a tag contains this, ignoring case; empty for all.
    pub filter: String,
    /// Only unrevoked rules that wait for a person to confirm them.
    pub proposed_only: bool,
    /// Rules to skip, in listing order.
    pub offset: usize,
    /// Most rules to return.
    pub limit: usize,
}

/// One page of a tool's rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulePage {
    /// The page, in listing order.
    pub rules: Vec<ToolMemoryRule>,
    /// Rules that match the request, over all pages.
    pub total: usize,
    /// Where this page starts.
    pub offset: usize,
}

impl ActiveMemoryClient {
    /// Every tool's rule counts by priority, with proposed and revoked rules apart, by tool
    /// name; read in one store query where the backend can.
    pub async fn tool_counts(&self) -> Result<Vec<ToolCounts>> {
        Ok(self.store.tool_counts().await?)
    }

    /// One page of a tool's rules, in the order of [`ActiveMemoryClient::list`].
    pub async fn list_page(&self, tool_name: &str, request: &PageRequest) -> Result<RulePage> {
        let listing = if request.include_revoked {
            self.list_including_revoked(tool_name).await?
        } else {
            self.list(tool_name).await?
        };
        let needle = request.filter.to_lowercase();
        let matching: Vec<&ToolMemoryRule> = listing
            .iter()
            .filter(|rule| {
                !request.proposed_only || (rule.meta.proposed && rule.meta.revoked_at.is_none())
            })
            .filter(|rule| needle.is_empty() || matches(rule, &needle))
            .collect();
        Ok(RulePage {
            total: matching.len(),
            offset: request.offset,
            rules: matching
                .into_iter()
                .skip(request.offset)
                .take(request.limit)
                .cloned()
                .collect(),
        })
    }
}

/// Whether the rule's text, id or a tag contains `needle` (already lower-case).
fn matches(rule: &ToolMemoryRule, needle: &str) -> bool {
    rule.rule.to_lowercase().contains(needle)
        || rule.id.to_lowercase().contains(needle)
        || rule
            .tags
            .iter()
            .any(|tag| tag.to_lowercase().contains(needle))
}
