//! What capture proposes: rules for the store and statistics for the statistics namespace,
//! kept in two lists because statistics never mix with rules, and the failure classes the
//! statistics carry.

use std::fmt;

use serde::{Deserialize, Serialize};
use tool_memory_core::{Timestamp, ToolMemoryPriority, ToolMemorySource};

/// Tag on every rule captured from a user edict.
pub const EDICT_TAG: &str = "user-edict";
/// Tag on every rule proposed from material the user handed over or pasted (a chat log, an
/// e-mail, a web page, a quotation); a second tag names the shape (`material-transcript`, …).
pub use tool_memory_core::MATERIAL_TAG;
/// Tag on every repeated-failure observation.
pub const REPEATED_FAILURE_TAG: &str = "repeated-failure";
/// Longest edict rule text, in characters; longer sentences are cut at a char boundary.
pub const MAX_EDICT_CHARS: usize = 240;

/// Everything one turn proposes. Field names are part of the wire contract.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CaptureOutput {
    /// Rule upserts: edicts first, in message order, then failure observations by tool name.
    pub rules: Vec<ProposedRule>,
    /// One statistics delta per tool that was called, sorted by tool name.
    pub stats: Vec<StatsDelta>,
    /// Earlier edicts the user lifted in this turn, in message order. Absent from the JSON when
    /// empty, so the output of a turn without revocations reads as before; old JSON without the
    /// key reads as none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub revocations: Vec<ProposedRevocation>,
}

impl CaptureOutput {
    /// Whether the turn proposes nothing at all.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.stats.is_empty() && self.revocations.is_empty()
    }
}

/// A request to revoke earlier rules: "you can email Sarah again", "forget the rule about
/// sudo". Capture does not know the store, so it names the tool and the words the user used;
/// the facade revokes the active rules for which [`revocation_matches`](crate::revocation_matches)
/// holds (or reports that none did).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposedRevocation {
    /// The normalised tool (or `__unscoped__`), attributed like an edict: named tool, alias,
    /// first tool of the turn, `__unscoped__`.
    pub tool_name: String,
    /// Whether the tool was named or aliased in the revocation. When it is only a fallback
    /// (the first tool of the turn or `__unscoped__`), the revocation applies to rules on every
    /// tool and needs a subject.
    pub tool_explicit: bool,
    /// A permission ("you can … again") or a retraction ("forget the rule about …").
    #[serde(default)]
    pub kind: RevocationKind,
    /// The significant words the user named about the rule, lower-cased, possessives dropped,
    /// without the permitted verb, stop words and fillers: `["sarah"]` for "you can email
    /// Sarah again", `["shell"]` for "ignore my earlier rule about the shell". Empty only for a
    /// permission on an explicit tool ("you can email again"), which then lifts the tool's
    /// blanket bans alone.
    pub subject: Vec<String>,
    /// The user's sentence, trimmed, at most [`MAX_EDICT_CHARS`] characters.
    pub text: String,
}

/// The two families of revocation; they differ in how far a subject made only of tool words
/// reaches (see [`revocation_matches`](crate::revocation_matches)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevocationKind {
    /// The user grants an action back: "you can email Sarah again", "feel free to use the
    /// terminal". Lifts the rules that forbid it; with only tool words ("you may use the
    /// browser again") only the tool's blanket bans.
    #[default]
    Permission,
    /// The user names the rule: "forget the rule about the shell", "disregard what I said about
    /// Slack". Lifts every rule on that topic (a rule about a tool is on that tool). A rule
    /// named by a banned action ("my rule about never using the shell") is a permission.
    Retraction,
}

/// A rule to upsert. The facade uses `identity_key` as the rule id, so a repeated edict
/// refreshes one rule instead of adding a copy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposedRule {
    /// The normalised tool name (or `__unscoped__`).
    pub tool_name: String,
    /// The rule text: the user's own sentence for an edict, fixed wording for a failure.
    pub rule: String,
    /// `critical` for edicts, `normal` for failure observations.
    pub priority: ToolMemoryPriority,
    /// `user_explicit` for edicts, `post_turn` for failure observations.
    pub source: ToolMemorySource,
    /// `["user-edict"]` or `["repeated-failure"]`.
    pub tags: Vec<String>,
    /// Deterministic id: `edict-<16 hex>` or `failure-<16 hex>`.
    pub identity_key: String,
    /// Whose words the rule came from. Absent from the JSON for the user's own (and for
    /// failure observations), so the output of a turn without material reads as before.
    #[serde(default, skip_serializing_if = "Trust::is_own")]
    pub trust: Trust,
}

/// Whose words a proposed rule came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trust {
    /// The user's own instruction, or capture's own observation of the tools.
    #[default]
    Own,
    /// An instruction inside material the user handed over or pasted: someone else's words.
    /// It may only be **proposed** for a person to confirm (stored with `proposed: true`, never
    /// over a rule with the same identity that is confirmed or revoked), and material never
    /// yields a revocation.
    Material,
}

impl Trust {
    /// Whether this is [`Trust::Own`].
    pub fn is_own(&self) -> bool {
        *self == Trust::Own
    }
}

/// Call statistics of one tool in one turn, for the `tool_effectiveness/tool/{name}` namespace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsDelta {
    /// The normalised tool name.
    pub tool_name: String,
    /// Calls in the turn.
    pub calls: u64,
    /// Successful calls.
    pub successes: u64,
    /// Failed calls.
    pub failures: u64,
    /// The class of the last failure in call order, if any call failed.
    pub last_failure_class: Option<FailureClass>,
    /// The `now` the turn was captured at.
    pub last_seen: Timestamp,
}

/// Why a tool call failed, as far as its summary tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureClass {
    /// The call timed out.
    Timeout,
    /// A file, page or record was not there.
    NotFound,
    /// Permission was denied.
    PermissionDenied,
    /// The call was rate limited.
    RateLimited,
    /// The network or connection failed.
    ConnectionError,
    /// Input or output did not parse.
    ParseError,
    /// The tool does not exist.
    UnknownTool,
    /// Anything else.
    Error,
}

impl FailureClass {
    /// Every class, in classification order.
    pub const ALL: [FailureClass; 8] = [
        FailureClass::Timeout,
        FailureClass::NotFound,
        FailureClass::PermissionDenied,
        FailureClass::RateLimited,
        FailureClass::ConnectionError,
        FailureClass::ParseError,
        FailureClass::UnknownTool,
        FailureClass::Error,
    ];

    /// The wire spelling, as in the host's `{tool}: failed ({class})` summaries.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureClass::Timeout => "timeout",
            FailureClass::NotFound => "not_found",
            FailureClass::PermissionDenied => "permission_denied",
            FailureClass::RateLimited => "rate_limited",
            FailureClass::ConnectionError => "connection_error",
            FailureClass::ParseError => "parse_error",
            FailureClass::UnknownTool => "unknown_tool",
            FailureClass::Error => "error",
        }
    }
}

impl fmt::Display for FailureClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
