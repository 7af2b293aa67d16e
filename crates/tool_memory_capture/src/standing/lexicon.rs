//! The word lists of the markerless standing rules (see `standing.rs`): the copulas, bans,
//! gates and choices a statement of how things are to be done is made of, and the subjects
//! that make a sentence a description instead. Data only.

/// Phrases that keep an action for the user's approval, wherever the sentence opens.
pub(crate) const GATE_PHRASES: &[&[&str]] = &[
    &["needs", "a", "thumbs", "up"],
    &["need", "a", "thumbs", "up"],
    &["needs", "a", "thumbs-up"],
    &["need", "a", "thumbs-up"],
    &["needs", "a", "yes", "from"],
    &["need", "a", "yes", "from"],
    &["needs", "a", "green", "light"],
    &["need", "a", "green", "light"],
    &["needs", "my", "approval"],
    &["needs", "my", "ok"],
    &["needs", "my", "okay"],
    &["needs", "my", "sign-off"],
    &["needs", "my", "go-ahead"],
    &["needs", "my", "review"],
    &["need", "my", "approval"],
    &["need", "my", "ok"],
    &["need", "my", "okay"],
    &["need", "my", "sign-off"],
    &["need", "my", "go-ahead"],
    &["need", "my", "review"],
    &["requires", "my", "approval"],
    &["requires", "my", "ok"],
    &["requires", "my", "sign-off"],
    &["requires", "my", "go-ahead"],
    &["requires", "my", "review"],
    &["require", "my", "approval"],
    &["require", "my", "ok"],
    &["require", "my", "sign-off"],
    &["require", "my", "review"],
    &["needs", "sign-off"],
    &["need", "sign-off"],
    &["requires", "sign-off"],
    &["require", "sign-off"],
    &["needs", "explicit", "approval"],
    &["requires", "explicit", "approval"],
    &["needs", "my", "explicit", "approval"],
    &["needs", "my", "explicit", "ok"],
    &["needs", "my", "explicit", "go-ahead"],
    &["needs", "my", "explicit", "sign-off"],
    &["need", "my", "explicit", "approval"],
    &["need", "my", "explicit", "ok"],
    &["need", "my", "explicit", "go-ahead"],
    &["need", "my", "explicit", "sign-off"],
    &["requires", "my", "explicit", "approval"],
    &["requires", "my", "explicit", "ok"],
    &["requires", "my", "explicit", "go-ahead"],
    &["requires", "my", "explicit", "sign-off"],
    &["require", "my", "explicit", "approval"],
    &["require", "my", "explicit", "go-ahead"],
    // German: "`git push` auf `main` nur nach Rückfrage bei mir", "nur mit meiner Freigabe".
    &["nach", "rückfrage"],
    &["nach", "rücksprache"],
    &["mit", "meiner", "freigabe"],
    &["nach", "meiner", "freigabe"],
    &["nach", "freigabe"],
    // "the real upgrade waits for me", "the apply waits for my OK".
    &["waits", "for", "me"],
    &["wait", "for", "me"],
    &["waits", "for", "my"],
    &["wait", "for", "my"],
    &["waits", "on", "me"],
    &["wait", "on", "me"],
    // "`x` you only run after asking me".
    &["after", "asking", "me"],
    &["after", "checking", "with", "me"],
    &["only", "after", "i"],
    &["only", "once", "i"],
    &["only", "once", "i've"],
    &["only", "when", "i", "approve"],
    &["only", "when", "i", "say", "so"],
    &["needs", "approval"],
    &["need", "approval"],
    &["requires", "approval"],
    &["require", "approval"],
    &["only", "with", "approval"],
    &["only", "with", "explicit", "approval"],
    &["only", "with", "my", "explicit", "approval"],
    &["only", "with", "my", "approval"],
    &["only", "with", "my", "ok"],
    &["only", "with", "my", "sign-off"],
];

/// Words of a permission that an exception can follow: "is fine except …".
pub(crate) const PERMITTING: &[&str] = &["fine", "ok", "okay", "allowed", "permitted", "free"];

/// Subjects that make a sentence about the user or a fact, not a rule: "I only use vim", "it
/// must be the cache", "there must be a bug".
pub(crate) const FIRST_PERSON: &[&str] = &[
    "i", "i'm", "i've", "we", "we're", "we've", "it", "it's", "there", "that", "that's", "this",
    "he", "she", "they", "you", "what", "why", "how", "who", "which", "when", "where", "is",
    "does", "do", "can", "could", "should", "would",
];

/// Words after a copula that ban what the subject names.
pub(crate) const BANS: &[&[&str]] = &[
    &["off", "limits"],
    &["off-limits"],
    // "Archiving a project is off the table", "Deleting contacts is out of the question".
    &["off", "the", "table"],
    &["out", "of", "the", "question"],
    &["forbidden"],
    &["prohibited"],
    &["banned"],
    &["not", "allowed"],
    &["never", "allowed"],
    &["not", "permitted"],
    &["read-only"],
    &["readonly"],
    &["read", "only"],
    &["a", "no-go"],
    // After "darf" / "doit" ([`COPULAS`]): "darf nicht verändert werden", "doit pas".
    &["nicht"],
    &["pas"],
    &["out", "of", "bounds"],
    &["not", "to", "be", "touched"],
    &["not", "to", "be", "used"],
    &["untouchable"],
];

/// With the modal verbs that ban in German and French ("`.env` darf nicht verändert werden",
/// "`config.yml` ne doit pas être modifié"), whose negation is in [`BANS`].
pub(crate) const COPULAS: &[&str] = &[
    "is", "are", "stays", "stay", "remains", "remain", "being", "darf", "dürfen", "doit", "doivent",
];

/// Adverbs that may stand between the copula and the ban ("is strictly off limits", "are
/// still never OK", "is obviously not an option").
pub(crate) const INTENSIFIERS: &[&str] = &[
    "strictly",
    "absolutely",
    "completely",
    "totally",
    "always",
    "still",
    "also",
    "definitely",
    "certainly",
    "obviously",
    "really",
    "simply",
];

pub(crate) const GATES: &[&[&str]] = &[
    &["is", "reserved", "for"],
    &["are", "reserved", "for"],
    &["needs", "my"],
    &["need", "my"],
    &["requires", "my"],
    &["require", "my"],
    &["needs", "approval"],
    &["requires", "approval"],
    &["needs", "a", "human"],
];

/// Words after "only" that keep it an exclusive choice of means ("only with `--atomic`").
pub(crate) const ONLY_MEANS: &[&str] =
    &["as", "with", "via", "through", "from", "in", "on", "using"];

/// How a thing must not be changed, at the end of a statement about it: "`go.sum` changes
/// only through `go mod tidy`, never by hand", "The lockfile is regenerated, not manually".
pub(crate) const BY_HAND: &[&[&str]] = &[
    &["never", "by", "hand"],
    &["never", "manually"],
    &["not", "by", "hand"],
    &["not", "manually"],
];

/// Words that join a short ban to what came before it: "Also no deploys on Fridays", "Still
/// no deletes, obviously".
pub(crate) const SHAPE_LEADS: &[&str] = &["again", "also", "and", "but", "plus", "so", "still"];

/// Judgements after a copula that ban what the subject names: "is never OK".
pub(crate) const JUDGEMENTS: &[&[&str]] = &[
    // Passive bans: "`CHANGELOG.md` is never edited by hand", "`legacy/` is frozen".
    &["frozen"],
    &["never", "edited"],
    &["never", "touched"],
    &["never", "modified"],
    &["never", "changed"],
    &["never", "run"],
    &["never", "deployed"],
    &["never", "committed"],
    &["not", "to", "be", "edited"],
    &["not", "to", "be", "run"],
    &["never", "ok"],
    &["never", "okay"],
    &["never", "acceptable"],
    &["never", "fine"],
    &["never", "an", "option"],
    &["not", "acceptable"],
    &["not", "ok"],
    &["not", "okay"],
    &["not", "an", "option"],
    &["unacceptable"],
];

/// Settings of place that may open a declared ban: "In this project you don't run …".
pub(crate) const DECLARED_SETTINGS: &[&[&str]] = &[
    &["in", "this", "project"],
    &["in", "this", "repo"],
    &["in", "this", "repository"],
    &["in", "this", "codebase"],
    &["in", "this", "workspace"],
    &["on", "this", "project"],
    &["on", "this", "team"],
    &["here"],
];

/// Words after "you never / don't" that make a remark, not a ban: "you never know", "you don't
/// need to", "you don't have to".
pub(crate) const DECLARED_NOT_VERBS: &[&str] = &[
    "always",
    "care",
    "even",
    "ever",
    "get",
    "have",
    "know",
    "listen",
    "mind",
    "need",
    "really",
    "remember",
    "say",
    "see",
    "seem",
    "think",
    "understand",
    "usually",
    "want",
    "worry",
];

/// Phrases that say what the user does not want, near the start of a sentence.
pub(crate) const UNWANTED: &[&[&str]] = &[
    &["thing", "i", "don't", "want", "is"],
    &["thing", "i", "do", "not", "want", "is"],
    &["what", "i", "don't", "want", "is"],
    &["what", "i", "do", "not", "want", "is"],
    &["last", "thing", "i", "want", "is"],
];

/// States of the environment after "must be": "Docker must be running", "the VPN must be up".
/// A requirement of the machine, not an order to the agent.
pub(crate) const STATES: &[&str] = &[
    "available",
    "configured",
    "installed",
    "listening",
    "logged",
    "on",
    "online",
    "open",
    "present",
    "reachable",
    "running",
    "started",
    "up",
];

/// Lead-ins of a list of bans that can carry their items on the same line: "Forbidden:
/// `npm publish`, `git push --tags`".
pub(crate) const COLON_BANS: &[&[&str]] = &[
    &["banned"],
    &["blocked"],
    &["disallowed"],
    &["forbidden"],
    &["never"],
    &["not", "allowed"],
    &["not", "fine"],
    &["not", "ok"],
    &["not", "okay"],
    &["off", "limits"],
    &["off-limits"],
    &["prohibited"],
];

/// Words after "No" that make a phrase, not a ban: "No idea why", "No worries".
pub(crate) const NO_NOT_RULES: &[&str] = &[
    "clue",
    "doubt",
    "exceptions",
    "idea",
    "issue",
    "longer",
    "luck",
    "matter",
    "more",
    "need",
    "one",
    "problem",
    "problems",
    "rush",
    "thanks",
    "way",
    "worries",
];

/// Verbs that open an order done at every event ("Run `npm run check` after every change",
/// "Sign off every commit") or a choice ("Install deps with `npm ci` (not `npm install`)",
/// "Use `uv` for everything").
pub(crate) const RECURRING_VERBS: &[&str] = &[
    "add",
    "build",
    "bump",
    "check",
    "commit",
    "format",
    "install",
    "lint",
    "log",
    "open",
    "pull",
    "push",
    "read",
    "rebase",
    "regenerate",
    "rerun",
    "review",
    "run",
    "sign",
    "squash",
    "sync",
    "tag",
    "test",
    "update",
    "use",
    "validate",
    "verify",
    "write",
];

/// Words after a recurring verb's word that make it the subject of a statement, not an order:
/// "Lint is run by the hook on every commit", "Build runs on every push", "Deploy happens on
/// every merge". Whether such a sentence orders anything is for the other readers to say
/// ("Review is required for every merge").
pub(crate) const SUBJECT_VERBS: &[&str] = &[
    "are", "fires", "gets", "happens", "is", "kicks", "occurs", "runs", "starts", "was", "were",
];

/// Words that make a statement of what is done at every event an order after all: "Review is
/// required for every merge", "Lint is never skipped on any commit".
pub(crate) const STATEMENT_ORDERS: &[&str] = &[
    "always",
    "compulsory",
    "expected",
    "mandatory",
    "must",
    "needed",
    "never",
    "not",
    "obligatory",
    "only",
    "required",
];

/// Events an order can be done at, after "every" or "each": "after every change", "each
/// task".
pub(crate) const EVENTS: &[&str] = &[
    "build", "change", "commit", "deploy", "edit", "merge", "pr", "push", "release", "run",
    "session", "task", "time",
];

/// Policies that govern a code span standing right before them, or as the predicate of a line
/// that opens with one ("`kubectl drain` — never", "`migrations/`: frozen", "`rm -rf`
/// interdit", "`helm rollback` -> ask me"): bans, choices and consent phrases in any of the
/// few languages instruction files mix in. A policy word must end its part of the line or
/// stand before a word of [`POLICY_SCOPES`]; one before a noun modifies a description ("`logs/`
/// — immutable audit trail"). "`x` needs my OK" is a gate of [`GATES`] already.
pub(crate) const CODE_POLICIES: &[&[&str]] = &[
    &["ask", "me"],
    &["ask", "first"],
    &["banned"],
    &["check", "with", "me"],
    &["confirm", "first"],
    &["don't"],
    &["forbidden"],
    &["frozen"],
    &["hands", "off"],
    &["immutable"],
    &["interdit"],
    &["interdite"],
    &["interdits"],
    &["never"],
    &["no"],
    &["no-go"],
    &["nope"],
    &["not"],
    &["not", "allowed"],
    &["not", "fine"],
    &["not", "ok"],
    &["not", "okay"],
    &["off", "limits"],
    &["off-limits"],
    &["only"],
    &["prohibido"],
    &["prohibited"],
    &["read", "only"],
    &["read-only"],
    &["readonly"],
    &["tabu"],
    &["taboo"],
    &["untouchable"],
    &["verboten"],
    &["with", "my", "approval"],
    &["with", "my", "consent"],
    &["with", "my", "ok"],
    &["with", "my", "okay"],
    &["with", "my", "permission"],
    &["with", "my", "sign-off"],
];

/// Words that may follow a policy about a code span and keep it the line's predicate: a scope
/// ("only to `backup-01`", "never on any cluster", "not here", "never by hand"), not the
/// object or verb of a description ("only pushes the branch", "no output files").
pub(crate) const POLICY_SCOPES: &[&str] = &[
    "after", "again", "against", "anywhere", "as", "at", "before", "by", "during", "ever",
    "except", "first", "for", "from", "here", "in", "inside", "on", "once", "outside", "there",
    "through", "to", "under", "unless", "until", "using", "via", "when", "with", "within",
    "without",
];

/// The narrower scopes after a bare `not` or `no` about a code span ("not here", "no, not
/// without asking me"): "not in git", "not on PATH" say where a thing is, not a policy.
pub(crate) const NEGATION_SCOPES: &[&str] = &[
    "again", "anywhere", "before", "ever", "except", "here", "outside", "there", "unless", "until",
    "without",
];

/// Prepositions that open the qualifier of a code span before the line's predicate: "`git
/// rebase -i` on shared branches — no", "`psql` against prod | read-only".
pub(crate) const SPAN_QUALIFIERS: &[&str] = &[
    "against", "at", "for", "from", "in", "inside", "into", "on", "outside", "over", "to", "under",
    "via", "with", "within",
];

/// Third-person verbs ending in `s` that state a policy about the code span before them rather
/// than describe what it does ("`bq rm` needs my OK", "`vendor/` stays frozen").
pub(crate) const POLICY_VERBS_IN_S: &[&str] = &["is", "needs", "remains", "requires", "stays"];

/// Bare refusals that end a ban stated by its consequence ("…, so don't", "… — avoid it").
pub(crate) const CONSEQUENCE_REFUSALS: &[&[&str]] = &[
    &["ask", "first"],
    &["ask", "me", "first"],
    &["avoid", "it"],
    &["avoid", "that"],
    &["banned"],
    &["confirm", "first"],
    &["do", "not"],
    &["don't"],
    &["don't", "do", "it"],
    &["don't", "run", "it"],
    &["forbidden"],
    &["never"],
    &["not", "allowed"],
];

/// Prepositions of time or condition that may open a ban's scope ("During the release freeze,
/// do not merge anything", "On weekends no deploys").
pub(crate) const SCOPE_OPENERS: &[&str] = &[
    "after", "before", "between", "during", "on", "outside", "until", "while",
];

/// Participles of what an agent does to a thing, which a negated passive bans ("`prisma
/// migrate reset` is not run, ever", "Contacts are never deleted, only archived", "queues are
/// not to be cleared"). Verbs of what a system does on its own ("logged", "cached", "shown")
/// are not here: "Errors are never logged" describes.
pub(crate) const PASSIVE_ACTIONS: &[&str] = &[
    "run",
    "executed",
    "deleted",
    "removed",
    "dropped",
    "truncated",
    "wiped",
    "purged",
    "erased",
    "edited",
    "changed",
    "modified",
    "touched",
    "altered",
    "rewritten",
    "overwritten",
    "updated",
    "upgraded",
    "downgraded",
    "installed",
    "uninstalled",
    "pushed",
    "force-pushed",
    "merged",
    "deployed",
    "published",
    "released",
    "applied",
    "cleared",
    "flushed",
    "reset",
    "restarted",
    "stopped",
    "paused",
    "killed",
    "rebased",
    "committed",
    "amended",
    "tagged",
    "yanked",
    "regenerated",
    "reformatted",
    "renamed",
    "moved",
    "disabled",
    "closed",
    "archived",
    "cancelled",
    "canceled",
    "rolled",
    "scaled",
    "migrated",
    "seeded",
    "sent",
    "emailed",
    "posted",
    "shared",
    "uploaded",
    "opened",
    "created",
    "bumped",
    "marked",
    // Reading the web: "Links with session tokens are not to be fetched".
    "fetched",
    "visited",
    "followed",
    "clicked",
    "downloaded",
    "scraped",
    "crawled",
];

/// Where an order comes from, after "from" in a negated passive: "not run from a terminal
/// here", "not updated from the CLI", "not pushed from a laptop". "from the cache" or "from
/// the server" says where a thing goes, not who may do it.
pub(crate) const PASSIVE_ORIGINS: &[&str] = &[
    "cli",
    "terminal",
    "shell",
    "console",
    "laptop",
    "machine",
    "workstation",
    "here",
    "local",
    "locally",
    "desktop",
    "box",
    "repl",
    "chat",
    "agent",
    "agents",
    "you",
];

/// Who an order is kept from, after "by" in a negated passive: "not changed by you", "never
/// cleared by the agent". "not run by CI" says who does it instead.
pub(crate) const PASSIVE_AGENTS: &[&str] = &[
    "you",
    "yourself",
    "agents",
    "agent",
    "ai",
    "assistant",
    "claude",
    "codex",
    "gemini",
    "copilot",
    "cursor",
    "hand",
];

/// Words after a negated passive that make it a rule about the agent's work, not a
/// description: "not run, ever", "not edited without a ticket", "not run against either
/// cluster", "never applied manually".
pub(crate) const PASSIVE_SCOPES: &[&str] = &[
    "ever", "without", "against", "manually", "locally", "directly", "here", "anymore", "unless",
    "again",
];
