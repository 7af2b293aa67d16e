//! The word lists of tool attribution: the alias table (the words users say for a kind of
//! tool, and the name words that mark a tool as that kind) and the name words too generic or
//! too common to name a tool. Data only; `attribution.rs` and `attribution/alias.rs` read it.

/// Words users say for a kind of tool, and the name words that mark a tool as that kind. An
/// alias only ever maps to a tool that exists in the turn or catalogue. `strong` phrases name a
/// product or program (`gmail`, `sudo`, `rsync`) and outrank the common nouns in `phrases`
/// (`folder`, `page`) wherever they stand in the edict.
#[derive(Debug)]
pub(crate) struct AliasGroup {
    pub(crate) strong: &'static [&'static str],
    pub(crate) phrases: &'static [&'static str],
    pub(crate) tool_words: &'static [&'static str],
    pub(crate) tool_names: &'static [&'static str],
}

/// The alias table, documented in `docs/capture.md`.
pub(crate) const ALIAS_GROUPS: &[AliasGroup] = &[
    // Mail.
    AliasGroup {
        strong: &["gmail", "outlook"],
        phrases: &[
            "email",
            "e-mail",
            "mail",
            "inbox",
            "cc",
            "bcc",
            "reply to",
            "reply-all",
            "reply all",
        ],
        tool_words: &[
            "email", "emails", "mail", "gmail", "outlook", "smtp", "imap", "inbox", "sendgrid",
            "mailgun", "mailer", "mailbox",
        ],
        tool_names: &[],
    },
    // Shell.
    AliasGroup {
        strong: &[
            "sudo",
            "rm -rf",
            "rm",
            "bash",
            "zsh",
            "chmod",
            "chown",
            "powershell",
            "rsync",
            "ssh",
            "scp",
            "npm",
            "pip",
            "docker",
            "apt-get",
            "brew",
            "kill -9",
        ],
        phrases: &[
            "shell",
            "terminal",
            "command line",
            "command-line",
            "command",
            "cli",
            "script",
            "as root",
        ],
        tool_words: &[
            "bash",
            "sh",
            "zsh",
            "fish",
            "shell",
            "terminal",
            "exec",
            "cmd",
            "command",
            "commands",
            "console",
            "powershell",
            "pwsh",
            "tty",
            "subprocess",
            "cli",
        ],
        tool_names: &[],
    },
    // Web search, listed before the browser so "google" prefers a search tool.
    AliasGroup {
        strong: &["google", "bing", "duckduckgo"],
        phrases: &["search", "look up", "search engine"],
        tool_words: &[
            "search",
            "google",
            "bing",
            "serp",
            "websearch",
            "serper",
            "tavily",
            "duckduckgo",
        ],
        tool_names: &[],
    },
    // Browser and web fetch.
    AliasGroup {
        strong: &["chrome", "firefox", "safari", "google"],
        phrases: &[
            "browser", "browse", "web", "website", "web page", "webpage", "page", "url", "link",
            "site", "internet", "online", "http", "https", "domain",
        ],
        tool_words: &[
            "browser",
            "browse",
            "web",
            "http",
            "https",
            "url",
            "chrome",
            "navigate",
            "playwright",
            "puppeteer",
            "selenium",
            "scrape",
            "scraper",
            "crawl",
            "crawler",
            "websearch",
            "webfetch",
            "internet",
        ],
        tool_names: &["fetch", "curl", "wget"],
    },
    // Team chat.
    AliasGroup {
        strong: &["slack", "discord", "mattermost", "microsoft teams"],
        phrases: &["dm", "direct message", "channel", "chat"],
        tool_words: &[
            "slack",
            "discord",
            "teams",
            "mattermost",
            "chat",
            "irc",
            "zulip",
        ],
        tool_names: &[],
    },
    // Phone messaging.
    AliasGroup {
        strong: &["sms", "whatsapp", "imessage", "telegram"],
        phrases: &["text message", "text", "message", "messaging", "signal"],
        tool_words: &[
            "sms",
            "whatsapp",
            "imessage",
            "telegram",
            "twilio",
            "message",
            "messages",
            "messaging",
            "text",
            "texts",
            "signal",
            "mms",
        ],
        tool_names: &[],
    },
    // Calendar.
    AliasGroup {
        strong: &["calendly"],
        phrases: &[
            "calendar",
            "meeting",
            "invite",
            "invitation",
            "event",
            "appointment",
            "schedule",
            "reschedule",
            "standup",
            "booking",
        ],
        tool_words: &[
            "calendar",
            "gcal",
            "cal",
            "event",
            "events",
            "meeting",
            "meetings",
            "schedule",
            "scheduler",
            "invite",
            "appointment",
            "calendly",
            "booking",
        ],
        tool_names: &[],
    },
    // Files.
    AliasGroup {
        strong: &[],
        phrases: &[
            "file",
            "folder",
            "directory",
            "directories",
            "dir",
            "filesystem",
            "file system",
            "disk",
            "path",
            "home directory",
            "downloads",
        ],
        tool_words: &[
            "file",
            "files",
            "fs",
            "filesystem",
            "folder",
            "directory",
            "dir",
            "path",
            "disk",
        ],
        tool_names: &[],
    },
    // Object storage.
    AliasGroup {
        strong: &["s3", "gcs"],
        phrases: &["bucket", "object storage", "blob storage"],
        tool_words: &["s3", "bucket", "gcs", "blob", "storage"],
        tool_names: &[],
    },
    // Version control.
    AliasGroup {
        strong: &["git", "github", "gitlab"],
        phrases: &[
            "commit",
            "push",
            "force-push",
            "force push",
            "branch",
            "merge",
            "rebase",
            "pull request",
            "pr",
            "repo",
            "repository",
            "main branch",
            "master",
        ],
        tool_words: &[
            "git",
            "github",
            "gitlab",
            "bitbucket",
            "commit",
            "repo",
            "vcs",
            "pr",
            "branch",
        ],
        tool_names: &[],
    },
    // Payments.
    AliasGroup {
        strong: &["stripe", "paypal"],
        phrases: &[
            "payment",
            "pay",
            "charge",
            "refund",
            "invoice",
            "card",
            "credit card",
            "transaction",
            "purchase",
            "billing",
            "subscription",
            "money",
            "buy",
            "spend",
        ],
        tool_words: &[
            "pay",
            "payment",
            "payments",
            "stripe",
            "paypal",
            "charge",
            "refund",
            "billing",
            "invoice",
            "checkout",
            "purchase",
            "transfer",
            "transaction",
            "wallet",
            "buy",
        ],
        tool_names: &[],
    },
    // Databases.
    AliasGroup {
        strong: &["postgres", "mysql", "sqlite", "sql", "drop table"],
        phrases: &[
            "database",
            "db",
            "query",
            "queries",
            "table",
            "production database",
            "prod db",
            "production db",
            "prod database",
            "schema",
            "migration",
        ],
        tool_words: &[
            "sql",
            "db",
            "database",
            "postgres",
            "postgresql",
            "mysql",
            "sqlite",
            "query",
            "mongo",
            "mongodb",
            "redis",
            "supabase",
            "bigquery",
            "snowflake",
        ],
        tool_names: &[],
    },
    // Deployment.
    AliasGroup {
        strong: &["kubernetes", "k8s", "kubectl"],
        phrases: &[
            "deploy",
            "deployment",
            "production",
            "prod",
            "release",
            "rollout",
            "rollback",
            "cluster",
        ],
        tool_words: &[
            "deploy",
            "deployment",
            "release",
            "kubectl",
            "k8s",
            "vercel",
            "netlify",
            "heroku",
            "helm",
            "rollout",
        ],
        tool_names: &[],
    },
    // Issue trackers.
    AliasGroup {
        strong: &["jira"],
        phrases: &["ticket", "issue", "bug report", "backlog"],
        tool_words: &[
            "jira", "issue", "issues", "ticket", "tickets", "linear", "tracker",
        ],
        tool_names: &[],
    },
    // Social media.
    AliasGroup {
        strong: &[
            "twitter",
            "linkedin",
            "facebook",
            "instagram",
            "mastodon",
            "bluesky",
        ],
        phrases: &["tweet", "social media"],
        tool_words: &[
            "twitter",
            "tweet",
            "linkedin",
            "facebook",
            "instagram",
            "social",
            "mastodon",
            "bluesky",
        ],
        tool_names: &[],
    },
    // Documents.
    AliasGroup {
        strong: &["google drive", "google docs", "notion", "confluence"],
        phrases: &[
            "drive",
            "docs",
            "document",
            "doc",
            "spreadsheet",
            "sheet",
            "wiki",
        ],
        tool_words: &[
            "drive",
            "gdrive",
            "docs",
            "doc",
            "document",
            "documents",
            "notion",
            "sheets",
            "sheet",
            "spreadsheet",
            "confluence",
            "wiki",
        ],
        tool_names: &[],
    },
    // Phone calls.
    AliasGroup {
        strong: &[],
        phrases: &["phone", "call", "voicemail", "dial"],
        tool_words: &["phone", "call", "dial", "voice", "telephony"],
        tool_names: &[],
    },
];

/// Name words too generic to identify a tool on their own.
pub(super) const GENERIC_NAME_WORDS: &[&str] = &[
    "get",
    "set",
    "send",
    "create",
    "read",
    "write",
    "list",
    "run",
    "make",
    "update",
    "delete",
    "remove",
    "add",
    "post",
    "put",
    "fetch",
    "search",
    "open",
    "close",
    "edit",
    "new",
    "execute",
    "exec",
    "query",
    "tool",
    "tools",
    "api",
    "use",
    "check",
    "find",
    "view",
    "show",
    "upload",
    "download",
    "manage",
    "modify",
    "trigger",
    "sync",
    "save",
    "load",
    "move",
    "copy",
    "info",
    "data",
    "item",
    "items",
    "for",
    "from",
    "and",
    "the",
    "all",
    "share",
    "start",
    "stop",
    "apply",
    "submit",
    "request",
    "reply",
    "mcp",
    "server",
    "client",
    "v2",
    "one",
    "batch",
    "do",
    "action",
    "task",
    "service",
    "app",
    "user",
    "users",
    "file",
    "files",
    "dir",
    "directory",
    "content",
    "many",
    "name",
    "names",
    "code",
    "definition",
    "definitions",
    "by",
];

/// Name words of an agent's own interaction tools: asking the user, finishing or planning a
/// task, keeping a to-do list, handing work to a sub-agent, memory, skills. Such a tool does
/// no action a rule could be about, so it takes a rule only when the rule spells its name
/// (`AskUserQuestion`, `attempt_completion`, "the Agent tool"); a rule that says "ask me
/// before …" belongs to the tool that does the thing asked about. MCP tools are never
/// interaction tools: `mcp__asana__create_task` does real work.
pub(super) const INTERACTION_NAME_WORDS: &[&str] = &[
    "agent",
    "agents",
    "ask",
    "completion",
    "followup",
    "memory",
    "plan",
    "question",
    "skill",
    "subagent",
    "subagents",
    "task",
    "todo",
    "todos",
];

/// Whole names of interaction tools none of whose words says so (Cline's mode replies and
/// housekeeping): `respond` alone is a calendar's or a mailer's word.
pub(super) const INTERACTION_NAMES: &[&str] = &[
    "act_mode_respond",
    "condense",
    "focus_chain",
    "report_bug",
    "suggested_responses",
];

/// Tools through which an agent calls any MCP server's tools (Cline's and Roo Code's
/// `use_mcp_tool`): they take the rules about MCP servers the catalogue has no
/// `mcp__server__tool` names for.
pub(super) const MCP_GATEWAYS: &[&str] = &["call_mcp_tool", "use_mcp_tool"];

/// Products an agent reaches only through an MCP server (no agent has a built-in tool for
/// them): with a gateway (`use_mcp_tool`) and no tool of the catalogue for them, a rule about
/// one ("never transition Jira tickets", "don't refund anything through Stripe") is the
/// gateway's. Lower-case, sorted.
pub(super) const MCP_SERVICES: &[&str] = &[
    "airtable",
    "asana",
    "confluence",
    "datadog",
    "figma",
    "hubspot",
    "jira",
    "linear",
    "notion",
    "pagerduty",
    "salesforce",
    "sentry",
    "slack",
    "stripe",
    "supabase",
    "trello",
    "zendesk",
];

/// Words before "server" that make it a thing the shell runs, not an MCP server: "the dev
/// server", "a web server", "the database server".
pub(super) const SHELL_SERVERS: &[&str] = &[
    "api",
    "app",
    "application",
    "backend",
    "build",
    "database",
    "db",
    "dev",
    "development",
    "file",
    "frontend",
    "game",
    "http",
    "https",
    "language",
    "local",
    "lsp",
    "mail",
    "node",
    "prod",
    "production",
    "proxy",
    "remote",
    "smtp",
    "ssh",
    "staging",
    "test",
    "vite",
    "web",
    "webpack",
];

/// Tool names too common as English words to count as naming the tool.
pub(super) const STOP_NAMES: &[&str] = &[
    "a", "an", "the", "to", "do", "it", "is", "in", "on", "at", "of", "or", "and", "me", "my",
    "no", "not", "you", "go", "up", "be", "as", "by", "if", "so", "all", "any", "that", "this",
];

/// Permissions a rule can open with before it turns to a ban ("You may read the logs, but
/// never restart the service"), lower-case, whole words.
pub(super) const PERMISSIONS: &[&str] = &[
    "are allowed to",
    "are fine",
    "are free to",
    "are ok",
    "can",
    "feel free to",
    "go ahead and",
    "is allowed",
    "is fine",
    "is ok",
    "is okay",
    "may",
    "you're allowed to",
    "you're free to",
];

/// What turns a permission to a ban: a conjunction or a clause mark.
pub(super) const BAN_TURNS: &[&str] =
    &[", but ", " but ", "; ", ", however, ", " - ", " — ", " – "];

/// Markers that open the ban after the turn.
pub(super) const BAN_OPENERS: &[&str] = &[
    "avoid", "do not", "don't", "dont", "don’t", "must not", "never", "no", "not",
];

/// Markers that open a later order of a sentence with its own tool ("…, and don't write to
/// `seed/`"), lower-case.
pub(super) const CLAUSE_ORDERS: &[&str] = &[
    "always", "avoid", "do not", "don't", "dont", "don’t", "never",
];

/// Modal bans that open a ban after a statement, the subject read off: "(you) must not".
pub(super) const MODAL_BANS: &[&str] = &[
    "may never",
    "may not",
    "must never",
    "should never",
    "should not",
    "shouldn't",
    "mustn't",
    "cannot",
    "can't",
];

/// Words of a part of a sentence that make it an order (or a permission) of its own, so a ban
/// after it does not decide alone.
pub(super) const ORDER_WORDS: &[&str] = &[
    "always", "ask", "avoid", "can", "don't", "dont", "don’t", "may", "must", "never", "no", "not",
    "only", "please", "should", // "Be sure to …", "make sure you …".
    "sure",
];

/// Words that open a condition before the order: "When you change X, always run Y".
pub(super) const CONDITIONS: &[&str] = &[
    "after", "before", "if", "once", "unless", "when", "whenever", "while",
];

/// Words after which "it" is the object that points back at a tool: "through it", "call it".
pub(super) const POINTING_BACK: &[&str] = &[
    "call", "into", "invoke", "on", "pass", "run", "through", "to", "use", "via", "with",
];

/// What users say for a word of an MCP tool's own name (`transition` of `transition_issue`,
/// `worklog` of `add_worklog`), when they do not say the word itself: "never move an issue to
/// Done", "don't log work on my behalf", "don't reassign tickets". Each entry is the name
/// word, whether it is the tool's action (a verb) or its thing (a noun), and the words or
/// phrases users say for it. One word counts only beside another word of the same tool's
/// name or another synonym ("move an issue", "reassign tickets", not "move the files" or
/// "the ticket number"); a phrase of several words counts alone. Sorted by name word; a word
/// listed under two name words says the earlier one first ("move": `transition`, then
/// `update` when the catalogue has no transition tool).
pub(super) const NAME_WORD_SYNONYMS: &[(&str, NameWordKind, &[&str])] = &[
    ("assign", NameWordKind::Action, &["reassign", "unassign"]),
    // "Invitations to external guests need my sign-off": an invitation goes out when an event
    // is created with guests.
    ("create", NameWordKind::Action, &["invitation", "invite"]),
    (
        "delete",
        NameWordKind::Action,
        &["cancel", "discard", "purge", "trash", "wipe"],
    ),
    (
        "email",
        NameWordKind::Thing,
        &["e-mail", "mail", "message", "replies", "reply", "thread"],
    ),
    (
        "event",
        NameWordKind::Thing,
        &[
            "1:1",
            "appointment",
            "invitation",
            "invite",
            "meeting",
            "standup",
        ],
    ),
    ("issue", NameWordKind::Thing, &["bug", "ticket"]),
    // Not "mail": a chat server's `post_message` must not take a rule about e-mail.
    (
        "message",
        NameWordKind::Thing,
        &["replies", "reply", "thread"],
    ),
    (
        "respond",
        NameWordKind::Action,
        &["accept", "decline", "rsvp"],
    ),
    (
        "transition",
        NameWordKind::Action,
        &["close", "move", "reopen", "resolve"],
    ),
    (
        "update",
        NameWordKind::Action,
        &[
            "move",
            "postpone",
            "reassign",
            "relabel",
            "reprioritise",
            "reprioritize",
            "reschedule",
            "shift",
        ],
    ),
    (
        "send",
        NameWordKind::Action,
        &["forward", "replies", "reply"],
    ),
    (
        "worklog",
        NameWordKind::Thing,
        &["log hours", "log time", "log work", "time log"],
    ),
];

/// Words of a tool's name that say nothing of what it does (`respond_to_event`), which a rule
/// using them does not count as naming the tool: "invitations to guests" is not about
/// responding.
pub(super) const NAME_FUNCTION_WORDS: &[&str] = &[
    "a", "and", "by", "for", "in", "of", "on", "or", "the", "to", "with",
];

/// Whether a word of a tool's name is its action or its thing ([`NAME_WORD_SYNONYMS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NameWordKind {
    Action,
    Thing,
}
