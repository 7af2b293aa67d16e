//! Derivation of a [`Constraint`] from a rule's words: the literals a user names (addresses,
//! domains, URLs, paths, hosts, commands, flags, quoted text, people) and the words that say
//! whether they are forbidden or required.
//!
//! Derivation is deliberately conservative: it keeps only what the user wrote literally, so a
//! rule it cannot read ("don't email my landlord") stays advice rather than becoming a guess.
//! `docs/guard.md` lists the cue words; the unit tests below are the grammar's examples.

use std::borrow::Cow;
use std::sync::LazyLock;

use tool_memory_core::ToolMemoryRule;

use crate::normalize::{
    CueSet, WordMap, WordRuns, is_domain_like, is_ipv4, normalize_email, normalize_url,
};
use crate::rule_text::ordering_clauses;
use crate::{Constraint, MAX_MATCHERS, Matcher, MatcherKind};

/// Derives the constraint a rule's text states, or `None` when the text names nothing the
/// guard can look for (the rule then only advises).
pub fn derive_constraint(rule: &ToolMemoryRule) -> Option<Constraint> {
    derive_from_text(&rule.rule, &rule.tool_name)
}

const FORBID_CUES: &[&str] = &[
    "never",
    "don't",
    "dont",
    "do not",
    "does not",
    "doesn't",
    "no",
    "not",
    "avoid",
    "stop",
    "must not",
    "mustn't",
    "cannot",
    "can't",
    "shouldn't",
    "should not",
    "forbidden",
    "prohibited",
    "off-limits",
    "off limits",
    "refrain",
    "under no circumstances",
    "won't",
    "nobody",
    "banned",
    "not allowed",
    "disallowed",
    "block",
];
const REQUIRE_CUES: &[&str] = &[
    "always",
    "must",
    "make sure",
    "ensure",
    "remember to",
    "be sure to",
    "every time",
    "each time",
    "need to",
    "needs to",
    "has to",
    "have to",
    "required",
    "requires",
    "should",
];
/// A forbid cue followed by one of these is a requirement: "never forget --dry-run".
const DOUBLE_NEGATIVES: &[&str] = &[
    "never forget",
    "don't forget",
    "do not forget",
    "never skip",
    "don't skip",
    "do not skip",
    "never omit",
    "don't omit",
    "do not omit",
    "never leave out",
    "don't leave out",
];
/// The user wants to be asked, not refused.
const ASK_CUES: &[&str] = &[
    "without asking",
    "without checking",
    "without confirming",
    "without my",
    "without explicit",
    "without approval",
    "without permission",
    "without a confirmation",
    "without confirmation",
    "unless i",
    "ask me",
    "ask first",
    "ask before",
    "asking first",
    "asking me",
    "check with me",
    "confirm with me",
    "get my",
    "get approval",
    "get permission",
    "first ask",
    "unless approved",
    "unless explicitly",
    "without consulting",
];

/// Programs recognised in prose as the start of a command.
const PROGRAMS: &[&str] = &[
    "sudo",
    "rm",
    "git",
    "terraform",
    "kubectl",
    "docker",
    "docker-compose",
    "podman",
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "pip",
    "pip3",
    "curl",
    "wget",
    "chmod",
    "chown",
    "dd",
    "mkfs",
    "ssh",
    "scp",
    "rsync",
    "helm",
    "aws",
    "gcloud",
    "gsutil",
    "az",
    "cargo",
    "brew",
    "apt",
    "apt-get",
    "yum",
    "dnf",
    "systemctl",
    "psql",
    "mysql",
    "redis-cli",
    "shutdown",
    "reboot",
    "killall",
    "pkill",
    "crontab",
    "iptables",
    "fdisk",
    "heroku",
    "vercel",
    "ansible-playbook",
    "pulumi",
    "eval",
    "su",
    "doas",
];
/// Programs that are also English words: commands only when a flag follows.
const AMBIGUOUS_PROGRAMS: &[&str] = &["kill", "mv", "cp", "find", "make", "cat", "chattr"];

fn subcommands(program: &str) -> &'static [&'static str] {
    match program {
        "git" => &[
            "push",
            "reset",
            "clean",
            "rebase",
            "commit",
            "checkout",
            "merge",
            "branch",
            "tag",
            "stash",
            "gc",
            "pull",
            "fetch",
            "cherry-pick",
            "revert",
            "restore",
            "switch",
            "filter-branch",
            "add",
            "rm",
            "drop",
            "clear",
            "prune",
        ],
        "terraform" | "pulumi" => &[
            "apply",
            "plan",
            "destroy",
            "import",
            "state",
            "init",
            "taint",
            "untaint",
            "workspace",
            "refresh",
            "rm",
            "delete",
            "up",
        ],
        "kubectl" => &[
            "delete",
            "apply",
            "exec",
            "drain",
            "scale",
            "rollout",
            "edit",
            "patch",
            "cordon",
            "replace",
            "create",
            "restart",
            "undo",
            "namespace",
            "ns",
            "pod",
            "pods",
            "deployment",
            "deployments",
        ],
        "docker" | "podman" | "docker-compose" => &[
            "rm",
            "rmi",
            "system",
            "prune",
            "push",
            "run",
            "kill",
            "stop",
            "volume",
            "image",
            "container",
            "compose",
            "down",
            "exec",
            "build",
            "pull",
            "login",
        ],
        "npm" | "pnpm" | "yarn" | "pip" | "pip3" | "cargo" | "brew" | "apt" | "apt-get" | "yum"
        | "dnf" => &[
            "publish",
            "install",
            "uninstall",
            "update",
            "upgrade",
            "audit",
            "unpublish",
            "deprecate",
            "add",
            "remove",
            "purge",
            "autoremove",
            "yank",
            "fix",
        ],
        "helm" => &["install", "uninstall", "upgrade", "delete", "rollback"],
        "aws" => &[
            "s3",
            "rm",
            "rb",
            "ec2",
            "terminate-instances",
            "cloudformation",
            "delete-stack",
            "iam",
            "rds",
            "delete-db-instance",
            "lambda",
            "delete-function",
        ],
        "gcloud" => &["compute", "instances", "delete", "projects", "sql"],
        "systemctl" => &[
            "stop", "restart", "disable", "mask", "kill", "reboot", "poweroff",
        ],
        "heroku" => &["apps", "destroy", "pg", "reset", "run"],
        "vercel" => &["deploy", "remove", "rm"],
        _ => &[],
    }
}

const PERSON_VERBS: &[&str] = &[
    "email",
    "e-mail",
    "emailing",
    "emails",
    "mail",
    "message",
    "messaging",
    "msg",
    "text",
    "texting",
    "call",
    "calling",
    "phone",
    "ring",
    "invite",
    "inviting",
    "pay",
    "paying",
    "dm",
    "dming",
    "ping",
    "pinging",
    "contact",
    "contacting",
    "cc",
    "bcc",
    "cc'ing",
    "reply",
    "forward",
    "send",
    "sending",
    "book",
    "schedule",
    "meet",
    "venmo",
    "wire",
    "transfer",
    "refund",
    "tag",
    "mention",
    "notify",
    "share",
    "add",
    "include",
    "loop",
    "to",
    "with",
];
/// Words between a verb and a name: "send anything to Sarah", "pay money to Bob".
const PERSON_FILLERS: &[&str] = &[
    "anything",
    "anyone",
    "a",
    "an",
    "the",
    "any",
    "money",
    "payments",
    "payment",
    "messages",
    "message",
    "emails",
    "email",
    "invites",
    "invite",
    "meeting",
    "meetings",
    "files",
    "it",
    "them",
    "stuff",
    "docs",
    "documents",
    "reports",
    "updates",
    "texts",
    "dms",
    "calls",
    "invoices",
    "my",
    "our",
    "ex",
    "boss",
    "manager",
    "landlord",
    "colleague",
    "friend",
    "brother",
    "sister",
    "mom",
    "dad",
    "wife",
    "husband",
    "partner",
    "coworker",
    "client",
    "links",
    "mail",
    "in",
    "on",
];
/// Capitalised words that are not people.
const NOT_NAMES: &[&str] = &[
    "i",
    "me",
    "you",
    "we",
    "they",
    "it",
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "my",
    "our",
    "your",
    "their",
    "anyone",
    "everyone",
    "someone",
    "nobody",
    "no",
    "never",
    "don't",
    "do",
    "always",
    "please",
    "ever",
    "legal",
    "hr",
    "finance",
    "sales",
    "support",
    "marketing",
    "engineering",
    "security",
    "ceo",
    "cto",
    "cfo",
    "coo",
    "vp",
    "customers",
    "clients",
    "us",
    "uk",
    "eu",
    "english",
    "api",
    "sms",
    "email",
    "pdf",
    "ok",
    "okay",
    "slack",
    // Assistants and models are not people: "Claude, never email Priya", "ask Gemini".
    "ai",
    "assistant",
    "bot",
    "chatgpt",
    "claude",
    "cline",
    "codex",
    "copilot",
    "cursor",
    "gemini",
    "gpt",
    "llm",
    "windsurf",
    "teams",
    "zoom",
    "gmail",
    "outlook",
    "google",
    "github",
    "gitlab",
    "jira",
    "linear",
    "notion",
    "stripe",
    "paypal",
    "venmo",
    "aws",
    "azure",
    "gcp",
    "docker",
    "kubernetes",
    "terraform",
    "git",
    "prod",
    "production",
    "staging",
    "main",
    "master",
    "develop",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "weekend",
    "weekends",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "mr",
    "mrs",
    "ms",
    "dr",
    "prof",
    "all",
    "any",
    "them",
    "him",
    "her",
    "whatsapp",
    "telegram",
    "signal",
    "discord",
    "calendar",
    "drive",
    "dropbox",
    "sharepoint",
    "excel",
    "word",
    "chrome",
    "safari",
    "firefox",
    "linkedin",
    "twitter",
    "x",
    "facebook",
    "instagram",
    "tiktok",
    "reddit",
    "youtube",
    "amazon",
    "apple",
    "microsoft",
    "it's",
    "without",
    "unless",
    "before",
    "after",
    "again",
    "external",
    "internal",
];
/// Verbs of direct contact after which a lower-case word is still read as a name
/// ("never email sarah"); the match is weak, so a wrong guess only asks.
const DIRECT_CONTACT_VERBS: &[&str] = &[
    "email", "e-mail", "mail", "message", "text", "dm", "ping", "venmo", "pay", "invite", "cc",
    "bcc", "call", "phone", "contact",
];
/// Lower-case words that follow contact verbs without being names.
const COMMON_WORDS: &[&str] = &[
    "anyone",
    "anybody",
    "everyone",
    "people",
    "clients",
    "customers",
    "users",
    "them",
    "him",
    "her",
    "me",
    "us",
    "support",
    "sales",
    "team",
    "teams",
    "more",
    "again",
    "back",
    "about",
    "after",
    "before",
    "during",
    "without",
    "unless",
    "with",
    "to",
    "at",
    "on",
    "in",
    "from",
    "outside",
    "external",
    "internal",
    "vendors",
    "vendor",
    "recruiters",
    "strangers",
    "my",
    "our",
    "your",
    "their",
    "this",
    "that",
    "these",
    "those",
    "every",
    "each",
    "all",
    "twice",
    "late",
    "early",
    "first",
    "directly",
    "personally",
    "anything",
    "someone",
    "somebody",
    "nobody",
    "home",
    "work",
    "here",
    "there",
    "now",
    "today",
    "tomorrow",
    "tonight",
    "while",
    "when",
    "if",
    "or",
    "and",
    "the",
    "a",
    "an",
    "for",
    "of",
    "please",
    "ever",
    "until",
    "people",
    "anymore",
    "again",
    "out",
    "up",
    "apis",
    "api",
    "services",
    "service",
    "numbers",
    "random",
    "unknown",
    "new",
    "old",
    "other",
    "others",
    "family",
    "friends",
    "colleagues",
    "coworkers",
    "managers",
    "investors",
    "press",
    "reporters",
    "journalists",
    "candidates",
    "contacts",
    "landlord",
    "boss",
    "manager",
    "ex",
    "mom",
    "dad",
    "mum",
    "wife",
    "husband",
    "partner",
];
const TITLES: &[&str] = &["mr", "mrs", "ms", "dr", "prof", "mr.", "mrs.", "ms.", "dr."];
const BRANCHES: &[&str] = &[
    "main",
    "master",
    "production",
    "prod",
    "release",
    "develop",
    "trunk",
    "gh-pages",
];
const PUSH_WORDS: &[&str] = &["push", "pushing", "pushes", "pushed"];
const FORCE_PUSH_WORDS: &[&str] = &[
    "force-push",
    "force-pushing",
    "force-pushes",
    "force-pushed",
    "forcepush",
];
/// A clause that turns to what the user wants instead.
const POSITIVE_TURNS: &[&str] = &[
    ", use ",
    "; use ",
    ". use ",
    ", prefer ",
    "; prefer ",
    " but use ",
    " and use ",
    ", try ",
    " use instead",
    ", just use ",
];
const SQL_PHRASES: &[&str] = &[
    "drop table",
    "drop database",
    "drop schema",
    "truncate table",
];
/// Words that say one command's output goes into another.
const PIPE_WORDS: &[&str] = &["pipe", "piped", "pipes", "piping"];
/// Programs that run what they read: the end of a pipe a rule forbids.
const INTERPRETERS: &[&str] = &[
    "bash", "dash", "fish", "node", "perl", "php", "pwsh", "python", "python3", "ruby", "sh",
    "sudo", "zsh",
];

/// SQL's statement keywords. Written in capitals in prose ("never DROP or TRUNCATE
/// anything"), or opening a code span (`ALTER TABLE`), they name the statement.
const SQL_KEYWORDS: &[&str] = &[
    "alter", "delete", "drop", "grant", "insert", "revoke", "truncate", "update",
];
const HOST_TRIGGERS: &[&str] = &["host", "server", "machine", "box"];
const NOT_HOSTS: &[&str] = &[
    "the",
    "a",
    "an",
    "any",
    "into",
    "to",
    "on",
    "as",
    "with",
    "without",
    "prod",
    "production",
    "servers",
    "hosts",
    "machines",
    "boxes",
    "root",
    "anything",
    "it",
    "them",
];
/// Abbreviations that look like file names.
const NOT_FILES: &[&str] = &["e.g", "i.e", "a.m", "p.m", "etc", "vs", "approx", "u.s"];
/// Words after which a wrapper (`sudo`) wraps the command before it: "npm install with sudo".
const WRAPPER_JOINS: &[&str] = &["with", "using", "via", "under"];
/// Words that join one name to the next: "Sarah or Tom".
const NAME_JOINS: &[&str] = &["or", "and", "nor"];

/// Which of the word lists above a lower-case word is on, one bit per list (see
/// [`word_class`]). Derivation asks about every word of a rule against a dozen lists; one
/// lookup per word replaces a scan of each list.
const PROGRAM: u32 = 1 << 0;
const AMBIGUOUS_PROGRAM: u32 = 1 << 1;
const PUSH_WORD: u32 = 1 << 2;
const FORCE_PUSH_WORD: u32 = 1 << 3;
const PERSON_VERB: u32 = 1 << 4;
const PERSON_FILLER: u32 = 1 << 5;
const NOT_NAME: u32 = 1 << 6;
const DIRECT_CONTACT_VERB: u32 = 1 << 7;
const COMMON_WORD: u32 = 1 << 8;
const TITLE: u32 = 1 << 9;
const BRANCH: u32 = 1 << 10;
const HOST_TRIGGER: u32 = 1 << 11;
const NOT_HOST: u32 = 1 << 12;
const WRAPPER_JOIN: u32 = 1 << 13;
const NAME_JOIN: u32 = 1 << 14;

static WORD_CLASSES: LazyLock<WordMap<u32>> = LazyLock::new(|| {
    let lists: [(&[&'static str], u32); 15] = [
        (PROGRAMS, PROGRAM),
        (AMBIGUOUS_PROGRAMS, AMBIGUOUS_PROGRAM),
        (PUSH_WORDS, PUSH_WORD),
        (FORCE_PUSH_WORDS, FORCE_PUSH_WORD),
        (PERSON_VERBS, PERSON_VERB),
        (PERSON_FILLERS, PERSON_FILLER),
        (NOT_NAMES, NOT_NAME),
        (DIRECT_CONTACT_VERBS, DIRECT_CONTACT_VERB),
        (COMMON_WORDS, COMMON_WORD),
        (TITLES, TITLE),
        (BRANCHES, BRANCH),
        (HOST_TRIGGERS, HOST_TRIGGER),
        (NOT_HOSTS, NOT_HOST),
        (WRAPPER_JOINS, WRAPPER_JOIN),
        (NAME_JOINS, NAME_JOIN),
    ];
    let mut classes = WordMap::default();
    for (words, bit) in lists {
        for &word in words {
            *classes.entry(word).or_insert(0) |= bit;
        }
    }
    classes
});

/// The lists of [`WORD_CLASSES`] that `lower` is on; 0 for none.
/// Whether `word` (lower-case) is a program the grammar knows as the start of a command.
pub(crate) fn is_program(word: &str) -> bool {
    word_class(word) & PROGRAM != 0
}

fn word_class(lower: &str) -> u32 {
    WORD_CLASSES.get(lower).copied().unwrap_or(0)
}

#[derive(Debug, Clone)]
enum TokenKind {
    Entity(MatcherKind, String),
    /// A quoted command (`git push origin main`).
    QuotedCommand(String),
    Word,
}

#[derive(Debug, Clone)]
struct Token<'a> {
    kind: TokenKind,
    /// The word as written (punctuation trimmed).
    text: &'a str,
    /// Borrowed from the lower-case text where that has the same offsets (an ASCII text).
    lower: Cow<'a, str>,
    /// The word lists `lower` is on ([`word_class`]).
    class: u32,
    offset: usize,
    trailing_comma: bool,
}

#[derive(Debug, Clone)]
struct CommandPhrase {
    offset: usize,
    /// Said as "force push": every way to force a push (`--force`, `-f`,
    /// `--force-with-lease`, a `+branch` refspec), not the one flag a user typed.
    force_words: bool,
    words: Vec<String>,
    adjacent_flags: Vec<String>,
    loose_flags: Vec<String>,
}

impl CommandPhrase {
    fn value(&self, extra_flag: Option<&str>) -> String {
        let mut parts = self.words.clone();
        parts.extend(self.adjacent_flags.iter().cloned());
        parts.extend(extra_flag.map(str::to_owned));
        parts.join(" ")
    }
}

/// "to main", "to master", ...: a push target names a git context.
static TO_BRANCHES: LazyLock<Vec<String>> = LazyLock::new(|| {
    BRANCHES
        .iter()
        .map(|branch| format!("to {branch}"))
        .collect()
});
/// Every fixed word and phrase derivation looks for in a text, looked up together in one
/// pass over the text's words; [`CueSet::first_in`] answers in this order.
static CUES: LazyLock<CueSet<6>> = LazyLock::new(|| {
    let git_context: Vec<&'static str> = ["git", "branch"]
        .into_iter()
        .chain(TO_BRANCHES.iter().map(String::as_str))
        .collect();
    CueSet::new([
        DOUBLE_NEGATIVES,
        ASK_CUES,
        FORBID_CUES,
        REQUIRE_CUES,
        &git_context,
        SQL_PHRASES,
    ])
});

/// Where the first word or phrase of each list occurs in a text, as a whole word.
#[derive(Debug, Clone, Copy)]
struct Cues {
    double_negative: Option<usize>,
    ask: Option<usize>,
    forbid: Option<usize>,
    require: Option<usize>,
    /// "git", "branch", "to main"...
    git_context: Option<usize>,
    sql_phrase: Option<usize>,
}

impl Cues {
    fn of(words: &WordRuns<'_>) -> Cues {
        let [
            double_negative,
            ask,
            forbid,
            require,
            git_context,
            sql_phrase,
        ] = CUES.first_in(words);
        // "Leave INC-4411 alone", "leave `db-prod-2` alone": an order not to touch, whose two
        // words stand apart.
        let forbid = forbid.or_else(|| words.find("alone").and_then(|_| words.find("leave")));
        Cues {
            double_negative,
            ask,
            forbid,
            require,
            git_context,
            sql_phrase,
        }
    }
}

/// Classifies one trimmed, lower-case token; `None` for a plain word.
fn classify(lower: &str) -> Option<(MatcherKind, String)> {
    // Every shape below needs one of these characters or a leading dash, and most words
    // (`never`, `17-3`, `don't`) have none. (They are ASCII, so a byte is one of them only
    // where a character is.)
    if !lower.starts_with('-')
        && !lower
            .bytes()
            .any(|byte| matches!(byte, b'@' | b':' | b'/' | b'.' | b'#'))
    {
        return None;
    }
    if lower.contains('@') && !lower.starts_with('@') && normalize_email(lower).is_some() {
        let email = lower.strip_prefix("mailto:").unwrap_or(lower);
        return Some((MatcherKind::Email, email.to_owned()));
    }
    if let Some(rest) = lower.strip_prefix('@') {
        if is_domain_like(rest) {
            return Some((MatcherKind::Domain, rest.to_owned()));
        }
        if !rest.is_empty()
            && rest
                .chars()
                .all(|ch| ch.is_alphanumeric() || "-_.".contains(ch))
        {
            return Some((MatcherKind::Literal, lower.to_owned()));
        }
        return None;
    }
    if (has_scheme(lower) || lower.starts_with("www.")) && normalize_url(lower).is_some() {
        return Some((MatcherKind::Url, lower.to_owned()));
    }
    if let Some(rest) = lower.strip_prefix('#')
        && !rest.is_empty()
        && rest
            .chars()
            .all(|ch| ch.is_alphanumeric() || "-_".contains(ch))
    {
        return Some((MatcherKind::Literal, lower.to_owned()));
    }
    let mut chars = lower.chars();
    let (first, second, third) = (chars.next(), chars.next(), chars.next());
    if first == Some('-')
        && (second.is_some_and(char::is_alphanumeric)
            || (second == Some('-') && third.is_some_and(char::is_alphabetic)))
    {
        let name = lower.split('=').next().unwrap_or_default();
        return Some((MatcherKind::Flag, name.to_owned()));
    }
    let host_part = lower.split(':').next().unwrap_or_default();
    if is_ipv4(host_part) {
        return Some((MatcherKind::Host, host_part.to_owned()));
    }
    // `paypal.me/scammer`: a host followed by a path is a URL without its scheme.
    if let Some((host, _)) = lower.split_once('/')
        && is_domain_like(host)
        && normalize_url(&format!("https://{lower}")).is_some()
    {
        return Some((MatcherKind::Url, format!("https://{lower}")));
    }
    if is_path_like(lower) {
        return Some((MatcherKind::Path, lower.to_owned()));
    }
    if is_domain_like(lower) {
        return Some((MatcherKind::Domain, lower.to_owned()));
    }
    None
}

/// Whether the word contains `://`. Looking for the colon first is cheaper on the usual word
/// that has none than a substring search.
fn has_scheme(lower: &str) -> bool {
    lower.contains(':') && lower.contains("://")
}

fn is_path_like(lower: &str) -> bool {
    if has_scheme(lower) || NOT_FILES.contains(&lower) {
        return false;
    }
    let path_chars = |text: &str| {
        text.chars()
            .all(|ch| ch.is_alphanumeric() || "/._-~*\\:".contains(ch))
    };
    if !path_chars(lower) {
        return false;
    }
    // A glob (`*.key`, `secrets/**`, `.eslintrc.*`) names the files it matches.
    if lower.contains('*') && lower.contains(['.', '/']) && lower.chars().any(char::is_alphanumeric)
    {
        return true;
    }
    if lower == "/"
        || lower.starts_with("~/")
        || lower.starts_with("./")
        || lower.starts_with("../")
    {
        return true;
    }
    if lower.starts_with('/') {
        return lower
            .chars()
            .nth(1)
            .is_some_and(|ch| ch.is_alphanumeric() || ch == '.' || ch == '*');
    }
    let mut chars = lower.chars();
    if chars.next().is_some_and(|ch| ch.is_ascii_alphabetic()) && lower[1..].starts_with(":\\") {
        return true;
    }
    if let Some(rest) = lower.strip_prefix('.') {
        return rest.chars().next().is_some_and(char::is_alphabetic);
    }
    if lower.contains('/') {
        return lower.chars().any(char::is_alphanumeric)
            && (lower.contains(['.', '_'])
                || lower.ends_with('/')
                || lower.matches('/').count() >= 2);
    }
    // A file name with an extension that is not a known top-level domain.
    if let Some((stem, extension)) = lower.rsplit_once('.') {
        return stem.chars().count() >= 2
            && stem.chars().any(char::is_alphabetic)
            && (1..=5).contains(&extension.len())
            && extension.chars().all(|ch| ch.is_ascii_alphanumeric())
            && extension.chars().any(|ch| ch.is_ascii_alphabetic())
            && !is_domain_like(lower);
    }
    false
}

/// Quotes the guard reads as literal delimiters, with their closing partners.
fn closing_quote(open: char) -> Option<char> {
    match open {
        '"' => Some('"'),
        '`' => Some('`'),
        '\'' => Some('\''),
        '“' => Some('”'),
        '‘' => Some('’'),
        _ => None,
    }
}

/// Finds quoted spans. Apostrophes inside words (`don't`, `Sarah's`) are not quotes: an
/// opening quote must follow a non-word character and a closing one precede one.
fn quoted_spans(text: &str) -> Vec<(usize, usize, &str, bool)> {
    // Most rules have no opening quote, and then no span to look for.
    if !text.contains(['"', '`', '\'', '“', '‘']) {
        return Vec::new();
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut spans = Vec::new();
    let mut index = 0;
    while index < chars.len() {
        let (start, ch) = chars[index];
        let Some(close) = closing_quote(ch) else {
            index += 1;
            continue;
        };
        let before_ok = index == 0 || !chars[index - 1].1.is_alphanumeric();
        if !before_ok {
            index += 1;
            continue;
        }
        let mut end_index = None;
        for (candidate, &(_, other)) in chars.iter().enumerate().skip(index + 1) {
            let after_ok = chars
                .get(candidate + 1)
                .is_none_or(|(_, next)| !next.is_alphanumeric());
            let is_close = other == close || (close == '’' && other == '\'');
            if is_close && after_ok {
                end_index = Some(candidate);
                break;
            }
        }
        match end_index {
            Some(end) if end > index + 1 => {
                let content_start = chars[index + 1].0;
                let content_end = chars[end].0;
                // A backtick the span did not pair (``` ``rm -rf /` ```) is no part of it.
                let content = text[content_start..content_end]
                    .trim()
                    .trim_matches('`')
                    .trim();
                let end_byte = chars[end].0 + chars[end].1.len_utf8();
                if !content.is_empty() && content.chars().count() <= 200 {
                    spans.push((start, end_byte, content, ch == '`'));
                }
                index = end + 1;
            }
            _ => index += 1,
        }
    }
    spans
}

/// Where `part`, a slice of `text`, starts in it.
fn offset_in(text: &str, part: &str) -> usize {
    part.as_ptr().addr() - text.as_ptr().addr()
}

/// The tokens of `text`, whose lower-case form is `lower_text`.
fn tokenize<'a>(text: &'a str, lower_text: &'a str) -> Vec<Token<'a>> {
    let spans = quoted_spans(text);
    // About one token per five bytes of prose: enough room for most rules at once.
    let mut tokens = Vec::with_capacity(spans.len() + text.len() / 5);
    for &(start, _, content, backtick) in &spans {
        let lower = content.to_lowercase();
        let first = lower.split_whitespace().next().unwrap_or_default();
        let first_is_program = word_class(first) & PROGRAM != 0;
        let single = !content.contains(char::is_whitespace);
        let kind = if single {
            match classify(content) {
                Some((kind, value)) => TokenKind::Entity(kind, value),
                None if backtick && first_is_program => TokenKind::QuotedCommand(lower.clone()),
                None => TokenKind::Entity(MatcherKind::Literal, lower.clone()),
            }
        } else if SQL_KEYWORDS.contains(&first) {
            // `ALTER TABLE`, `DROP DATABASE`: a statement's words, not a program.
            TokenKind::Entity(MatcherKind::Literal, lower.clone())
        } else if backtick || first_is_program {
            TokenKind::QuotedCommand(lower.clone())
        } else {
            TokenKind::Entity(MatcherKind::Literal, lower.clone())
        };
        tokens.push(Token {
            kind,
            text: content,
            class: word_class(&lower),
            lower: Cow::Owned(lower),
            offset: start,
            trailing_comma: false,
        });
    }
    let inside = |offset: usize| {
        spans
            .iter()
            .any(|(start, end, ..)| offset >= *start && offset < *end)
    };
    // In an ASCII text a word's lower-case form is the lower-case text at the word's offsets,
    // so it is borrowed rather than built again; elsewhere lower-casing may change lengths.
    let same_offsets = text.is_ascii();
    for raw in text.split_whitespace() {
        let at = offset_in(text, raw);
        if inside(at) {
            continue;
        }
        let trailing_comma = raw.trim_end_matches(['"', '\'', ')']).ends_with([',', ';']);
        let trimmed = raw
            .trim_start_matches(['(', '[', '{', '"', '“', '‘', '\''])
            .trim_end_matches([',', ';', ':', '!', '?', ')', ']', '}', '"', '”', '’', '\'']);
        let trimmed = if trimmed.len() > 1 {
            trimmed.trim_end_matches('.')
        } else {
            trimmed
        };
        let trimmed = trimmed.trim_end_matches([',', ';', ':', '!', '?', ')']);
        if trimmed.is_empty() {
            continue;
        }
        // The text's typographic apostrophes are already plain ones (see `derive_from_text`).
        let lower = if same_offsets {
            let start = offset_in(text, trimmed);
            Cow::Borrowed(&lower_text[start..start + trimmed.len()])
        } else {
            Cow::Owned(trimmed.to_lowercase())
        };
        let kind = match classify(&lower) {
            Some((kind, value)) => TokenKind::Entity(kind, value),
            None => TokenKind::Word,
        };
        tokens.push(Token {
            kind,
            text: trimmed,
            class: word_class(&lower),
            lower,
            offset: at,
            trailing_comma,
        });
    }
    // The words come in text order; only quoted spans (listed first) need sorting in.
    if !spans.is_empty() {
        tokens.sort_by_key(|token| token.offset);
    }
    tokens
}

fn is_flag(token: &Token) -> bool {
    matches!(token.kind, TokenKind::Entity(MatcherKind::Flag, _))
}

fn flag_value<'t>(token: &'t Token<'_>) -> Option<&'t str> {
    match &token.kind {
        TokenKind::Entity(MatcherKind::Flag, value) => Some(value),
        _ => None,
    }
}

/// Whether the token is a plain word on one of the lists of `class` ([`word_class`]).
fn is_word(token: &Token, class: u32) -> bool {
    matches!(token.kind, TokenKind::Word) && token.class & class != 0
}

/// Whether the token is a plain word in `words`.
fn is_word_in(token: &Token, words: &[&str]) -> bool {
    matches!(token.kind, TokenKind::Word) && words.contains(&token.lower.as_ref())
}

/// Finds command phrases; returns them and marks the token indices they consumed.
fn command_phrases(tokens: &[Token], git_context: bool, used: &mut [bool]) -> Vec<CommandPhrase> {
    let mut phrases = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        let token = &tokens[index];
        if let TokenKind::QuotedCommand(command) = &token.kind {
            let mut words = Vec::new();
            let mut flags = Vec::new();
            for part in command.split_whitespace() {
                if part.starts_with('-') && part.len() > 1 {
                    flags.push(part.to_owned());
                } else {
                    words.push(part.to_owned());
                }
            }
            used[index] = true;
            phrases.push(CommandPhrase {
                offset: token.offset,
                words,
                adjacent_flags: flags,
                loose_flags: Vec::new(),
                force_words: false,
            });
            index += 1;
            continue;
        }
        let program = token.lower.as_ref();
        let is_program = is_word(token, PROGRAM)
            || (is_word(token, AMBIGUOUS_PROGRAM) && tokens.get(index + 1).is_some_and(is_flag));
        // "force push" is git's word alone: it needs no git context to mean `git push --force`.
        let force_push = is_word(token, FORCE_PUSH_WORD)
            || (matches!(token.kind, TokenKind::Word)
                && program == "force"
                && tokens
                    .get(index + 1)
                    .is_some_and(|next| is_word(next, PUSH_WORD)));
        let plain_push = git_context && is_word(token, PUSH_WORD);
        if force_push || plain_push {
            used[index] = true;
            let mut next = index + 1;
            if program == "force" {
                used[next] = true;
                next += 1;
            }
            phrases.push(CommandPhrase {
                offset: token.offset,
                words: vec!["git".to_owned(), "push".to_owned()],
                adjacent_flags: if force_push {
                    vec!["--force".to_owned()]
                } else {
                    Vec::new()
                },
                loose_flags: Vec::new(),
                force_words: force_push,
            });
            index = next;
            continue;
        }
        if !is_program {
            index += 1;
            continue;
        }
        used[index] = true;
        let mut words = vec![program.to_owned()];
        let known = subcommands(program);
        let mut next = index + 1;
        while let Some(candidate) = tokens.get(next) {
            if is_word_in(candidate, known) {
                words.push(candidate.lower.to_string());
                used[next] = true;
                next += 1;
            } else if program == "git" && is_word(candidate, FORCE_PUSH_WORD) {
                words.push("push".to_owned());
                used[next] = true;
                next += 1;
            } else {
                break;
            }
        }
        let mut adjacent_flags = Vec::new();
        while let Some(candidate) = tokens.get(next) {
            if let Some(value) = flag_value(candidate) {
                adjacent_flags.push(value.to_owned());
            } else if matches!(candidate.kind, TokenKind::Word)
                && candidate.lower.chars().all(|ch| ch.is_ascii_digit())
            {
                // A numeric argument is part of what the user named: `chmod 777`.
                words.push(candidate.lower.to_string());
            } else {
                break;
            }
            used[next] = true;
            next += 1;
        }
        phrases.push(CommandPhrase {
            offset: token.offset,
            words,
            adjacent_flags,
            loose_flags: Vec::new(),
            force_words: false,
        });
        index = next;
    }
    merge_wrappers(tokens, phrases)
}

/// "npm install with sudo" means `sudo npm install`: a wrapper named after `with`, `using`
/// or `via` wraps the command before it, instead of being forbidden on its own.
fn merge_wrappers(tokens: &[Token], phrases: Vec<CommandPhrase>) -> Vec<CommandPhrase> {
    let mut merged: Vec<CommandPhrase> = Vec::new();
    for phrase in phrases {
        let wrapper = matches!(phrase.words.as_slice(), [only] if only == "sudo" || only == "doas");
        let joined_by = tokens
            .iter()
            .rev()
            .find(|token| token.offset < phrase.offset)
            .is_some_and(|token| is_word(token, WRAPPER_JOIN));
        match merged.last_mut() {
            Some(previous) if wrapper && joined_by && previous.words[0] != "sudo" => {
                let mut words = phrase.words.clone();
                words.append(&mut previous.words);
                previous.words = words;
                previous.adjacent_flags.extend(phrase.adjacent_flags);
            }
            _ => merged.push(phrase),
        }
    }
    merged
}

fn is_name_word(token: &Token) -> bool {
    if !matches!(token.kind, TokenKind::Word) {
        return false;
    }
    let name = strip_possessive(token.text);
    // Without a possessive, the name's lower-case form is the token's, already classed.
    let class = if name.len() == token.text.len() {
        token.class
    } else {
        word_class(&name.to_lowercase())
    };
    let mut chars = name.chars();
    chars.next().is_some_and(char::is_uppercase)
        && name.chars().count() >= 2
        && name
            .chars()
            .all(|ch| ch.is_alphabetic() || ch == '-' || ch == '\'')
        && class & NOT_NAME == 0
}

fn strip_possessive(text: &str) -> &str {
    text.strip_suffix("'s")
        .or_else(|| text.strip_suffix("’s"))
        .unwrap_or(text)
}

/// A lower-case word right after a direct-contact verb that reads as a name.
fn is_lowercase_name(token: &Token) -> bool {
    matches!(token.kind, TokenKind::Word)
        && token.text.chars().count() >= 3
        && token
            .text
            .chars()
            .all(|ch| ch.is_lowercase() && ch.is_alphabetic())
        && token.class & (NOT_NAME | PERSON_FILLER | COMMON_WORD) == 0
}

/// People named after a verb of contact: "email Sarah", "send anything to Sarah or Tom".
fn person_names(tokens: &[Token], used: &[bool]) -> Vec<(usize, String)> {
    let mut names: Vec<(usize, String)> = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        if used[index] || !is_word(&tokens[index], PERSON_VERB) {
            index += 1;
            continue;
        }
        if is_word(&tokens[index], DIRECT_CONTACT_VERB)
            && let Some(next) = tokens
                .get(index + 1)
                .filter(|token| is_lowercase_name(token))
        {
            if !names.iter().any(|(_, known)| *known == next.lower) {
                names.push((next.offset, next.lower.clone().into_owned()));
            }
            index += 2;
            continue;
        }
        let mut next = index + 1;
        let mut fillers = 0;
        while fillers < 3
            && tokens.get(next).is_some_and(|token| {
                // "Mom" written as a name is a name, "my mom" is a filler.
                let lower_case = token.text.starts_with(char::is_lowercase);
                (lower_case && is_word(token, PERSON_FILLER)) || is_word(token, TITLE)
            })
        {
            next += 1;
            fillers += 1;
        }
        loop {
            let start = next;
            let mut parts = Vec::new();
            while parts.len() < 3 && tokens.get(next).is_some_and(is_name_word) {
                let token = &tokens[next];
                parts.push(strip_possessive(token.text).to_lowercase());
                next += 1;
                if token.trailing_comma || token.text != strip_possessive(token.text) {
                    break;
                }
            }
            if parts.is_empty() {
                break;
            }
            let name = parts.join(" ");
            if !names.iter().any(|(_, known)| *known == name) {
                names.push((tokens[start].offset, name));
            }
            let continues = tokens[next - 1].trailing_comma
                || tokens
                    .get(next)
                    .is_some_and(|token| is_word(token, NAME_JOIN));
            if !continues {
                break;
            }
            if !tokens[next - 1].trailing_comma {
                next += 1;
            }
        }
        index = next.max(index + 1);
    }
    names
}

/// Host names after `ssh`, `ssh into`, `log into`, `host`, `server`: `prod-db-1`.
fn host_names(tokens: &[Token], used: &[bool]) -> Vec<(usize, String)> {
    let mut hosts = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        if used[index] || !matches!(token.kind, TokenKind::Word) {
            continue;
        }
        let previous = index.checked_sub(1).map(|i| tokens[i].lower.as_ref());
        let before_previous = index.checked_sub(2).map(|i| tokens[i].lower.as_ref());
        let after_ssh = previous == Some("ssh")
            || (matches!(previous, Some("into" | "to" | "onto"))
                && matches!(before_previous, Some("ssh" | "log" | "connect" | "login")));
        let after_trigger = index
            .checked_sub(1)
            .is_some_and(|i| tokens[i].class & HOST_TRIGGER != 0);
        // Most words follow neither: no need to look at their shape.
        if !after_ssh && !after_trigger {
            continue;
        }
        let lower = token.lower.as_ref();
        let shaped = lower.chars().count() >= 2
            && lower
                .chars()
                .next()
                .is_some_and(|ch| ch.is_ascii_alphanumeric())
            && lower
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
            && token.class & NOT_HOST == 0;
        let distinctive = lower.contains(|ch: char| ch.is_ascii_digit() || ch == '-');
        if shaped && (after_ssh || (after_trigger && distinctive)) {
            hosts.push((token.offset, lower.to_owned()));
        }
    }
    hosts
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cue {
    Forbid {
        ask_first: bool,
    },
    Require,
    /// "use X instead of Y": Y is forbidden.
    InsteadOf(usize),
}

/// The rule's polarity from the cues of its lower-case text `lower`.
fn polarity_cue(cues: &Cues, lower: &str) -> Option<Cue> {
    if cues.double_negative.is_some() {
        return Some(Cue::Require);
    }
    if cues.ask.is_some() {
        return Some(Cue::Forbid { ask_first: true });
    }
    if cues.forbid.is_some() {
        return Some(Cue::Forbid { ask_first: false });
    }
    if let Some(at) = lower.find("instead of") {
        return Some(Cue::InsteadOf(at));
    }
    if cues.require.is_some() {
        return Some(Cue::Require);
    }
    None
}

/// Whether a clause carries a cue of its own: an order, not an explanation.
fn gives_an_order(clause: &str) -> bool {
    let lower = clause.to_lowercase();
    let cues = Cues::of(&WordRuns::new(&lower));
    cues.double_negative.is_some()
        || cues.ask.is_some()
        || cues.forbid.is_some()
        || cues.require.is_some()
        || lower.contains("instead of")
}

/// The grammar behind [`derive_constraint`], on text and a tool name.
/// [`derive_constraint`] for a rule not built yet: its text and (normalised) tool name are all
/// derivation reads.
pub fn derive_from_text(text: &str, tool_name: &str) -> Option<Constraint> {
    let text = if text.contains('’') {
        Cow::Owned(text.replace('’', "'"))
    } else {
        Cow::Borrowed(text)
    };
    let text = ordering_clauses(&text, gives_an_order);
    let lower = text.to_lowercase();
    // The words of the text, built once: derivation looks up over a hundred cues in it.
    let words = WordRuns::new(&lower);
    let cues = Cues::of(&words);
    let cue = polarity_cue(&cues, &lower)?;
    let mut tokens = tokenize(&text, &lower);
    if let Cue::InsteadOf(at) = cue {
        tokens.retain(|token| token.offset > at);
    }
    // An ASCII tool name is searched without lower-casing a copy of it.
    let tool_git = if tool_name.is_ascii() {
        tool_name
            .as_bytes()
            .windows(3)
            .any(|window| window.eq_ignore_ascii_case(b"git"))
    } else {
        tool_name.to_lowercase().contains("git")
    };
    let git_context = tool_git || cues.git_context.is_some();
    let mut used = vec![false; tokens.len()];
    let mut phrases = command_phrases(&tokens, git_context, &mut used);
    // "never create git tags (`git tag`)": the bare program said in passing is the longer
    // command the rule spells out, not every use of the program.
    let spelled_out: Vec<String> = phrases
        .iter()
        .filter(|phrase| phrase.words.len() > 1)
        .map(|phrase| phrase.words[0].clone())
        .collect();
    phrases.retain(|phrase| {
        !(phrase.words.len() == 1
            && phrase.adjacent_flags.is_empty()
            && spelled_out.contains(&phrase.words[0]))
    });

    // Loose flags attach to the nearest command before them (or the first command).
    let mut flags: Vec<(usize, String)> = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        if used[index] {
            continue;
        }
        if let Some(value) = flag_value(token) {
            used[index] = true;
            let owner = phrases
                .iter()
                .rposition(|phrase| phrase.offset < token.offset)
                .or(if phrases.is_empty() { None } else { Some(0) });
            match owner {
                Some(owner) => phrases[owner].loose_flags.push(value.to_owned()),
                None => flags.push((token.offset, value.to_owned())),
            }
        }
    }

    let mut entities: Vec<(usize, Matcher)> = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        if let (false, TokenKind::Entity(kind, value)) = (used[index], &token.kind) {
            entities.push((token.offset, Matcher::new(*kind, value.clone())));
        }
    }
    // The cues found the first SQL phrase; each one found is a literal.
    if cues.sql_phrase.is_some() {
        for phrase in SQL_PHRASES {
            if let Some(at) = words.find(phrase) {
                entities.push((at, Matcher::new(MatcherKind::Literal, *phrase)));
            }
        }
    }
    if phrases.iter().any(|phrase| phrase.words == ["git", "push"]) {
        for (index, token) in tokens.iter().enumerate() {
            if !used[index] && is_word(token, BRANCH) {
                let after_push = phrases.iter().any(|phrase| phrase.offset < token.offset);
                if after_push {
                    used[index] = true;
                    entities.push((
                        token.offset,
                        Matcher::new(MatcherKind::Literal, token.lower.as_ref()),
                    ));
                }
            }
        }
    }
    for (index, token) in tokens.iter().enumerate() {
        if used[index] || !matches!(token.kind, TokenKind::Word) {
            continue;
        }
        let next = tokens.get(index + 1).map(|next| next.lower.as_ref());
        let identifier = token.lower.contains('_')
            && token.lower.starts_with(char::is_alphanumeric)
            && token.lower.ends_with(char::is_alphanumeric)
            && token
                .lower
                .chars()
                .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '-');
        // An account, ticket or host id: letters or digits in hyphen-joined runs, with a digit
        // ("7781-0042", "INC-4411", "web-prod-07"). Another id of the same shape is another
        // thing, so the literal is matched as a whole word.
        let id_shaped = token.lower.len() >= 4
            && token.lower.contains('-')
            && token.lower.contains(|ch: char| ch.is_ascii_digit())
            && token.lower.starts_with(char::is_alphanumeric)
            && token.lower.ends_with(char::is_alphanumeric)
            && !token.lower.contains("--")
            && token
                .lower
                .chars()
                .all(|ch| ch.is_alphanumeric() || ch == '-');
        // A keyword that opens a statement phrase already read (`DROP TABLE`) is that phrase.
        let opens_a_phrase = next.is_some_and(|next| {
            SQL_PHRASES
                .iter()
                .any(|phrase| phrase.split_once(' ') == Some((token.lower.as_ref(), next)))
        });
        let sql_keyword = token.text.len() >= 4
            && token.text.chars().all(|ch| ch.is_ascii_uppercase())
            && SQL_KEYWORDS.contains(&token.lower.as_ref())
            && !opens_a_phrase;
        let named_container = matches!(next, Some("folder" | "directory" | "dir"))
            && token
                .lower
                .chars()
                .all(|ch| ch.is_alphanumeric() || "_-.".contains(ch))
            && token.class & (COMMON_WORD | PERSON_FILLER) == 0;
        let named_branch = next == Some("branch")
            && (token.class & BRANCH != 0
                || (token.lower.contains(['-', '/', '_'])
                    && token.lower.starts_with(char::is_alphanumeric)));
        if named_container {
            entities.push((
                token.offset,
                Matcher::new(MatcherKind::Path, token.lower.as_ref()),
            ));
        } else if identifier || named_branch || id_shaped || sql_keyword {
            entities.push((
                token.offset,
                Matcher::new(MatcherKind::Literal, token.lower.as_ref()),
            ));
        }
    }
    for (offset, host) in host_names(&tokens, &used) {
        // An id that is a host's name is that host.
        entities.retain(|(_, matcher)| {
            !(matcher.kind == MatcherKind::Literal && matcher.value == host)
        });
        entities.push((offset, Matcher::new(MatcherKind::Host, host)));
    }
    for (offset, name) in person_names(&tokens, &used) {
        entities.push((offset, Matcher::new(MatcherKind::Person, name)));
    }
    entities.sort_by_key(|(offset, _)| *offset);

    // "stop using wget, use curl": what follows a positive directive after a clause break is
    // what the user wants instead, not what is forbidden.
    let mut cue = cue;
    if let Cue::Forbid { .. } = cue
        // Each turn has one of these words on its own: without them, no turn to look for.
        && ["use", "prefer", "try"].iter().any(|word| words.has_run(word))
        && let Some(cut) = POSITIVE_TURNS
            .iter()
            .filter_map(|turn| lower.find(turn))
            .min()
        && Cues::of(&WordRuns::new(&lower[..cut])).forbid.is_some()
    {
        entities.retain(|(offset, _)| *offset < cut);
        flags.retain(|(offset, _)| *offset < cut);
        phrases.retain(|phrase| phrase.offset < cut);
    }
    // "always use https://staging..., never production": every literal sits in the "always"
    // clause, and the "never" clause names nothing, so the rule is a requirement.
    if let (Cue::Forbid { ask_first: false }, Some(require_at), Some(forbid_at)) =
        (cue, cues.require, cues.forbid)
        && require_at < forbid_at
        && entities.iter().all(|(offset, _)| *offset < forbid_at)
        && flags.iter().all(|(offset, _)| *offset < forbid_at)
        && phrases.iter().all(|phrase| phrase.offset < forbid_at)
    {
        cue = Cue::Require;
    }

    // "Don't pipe `curl` into `sh`": the download is fine, running it through a shell is not.
    if let Cue::Forbid { ask_first } = cue
        && PIPE_WORDS.iter().any(|word| words.has_run(word))
        && let Some(source) = phrases.first()
        && let Some(target) = tokens
            .iter()
            .filter(|token| token.offset > source.offset)
            .find(|token| INTERPRETERS.contains(&token.lower.trim_matches('`')))
    {
        let piped = Constraint::forbid(vec![Matcher::new(
            MatcherKind::Command,
            target.lower.trim_matches('`'),
        )])
        .with_when(vec![Matcher::new(MatcherKind::Command, source.value(None))])
        .with_ask_first(ask_first);
        return finish(piped);
    }
    let constraint = match cue {
        Cue::Forbid { ask_first } => {
            // `contains` is cheaper than `find` on the usual miss.
            let without = if ask_first || !lower.contains("without ") {
                None
            } else {
                lower.find("without ")
            };
            let required_after = without.filter(|at| {
                entities.iter().any(|(offset, _)| offset > at)
                    || flags.iter().any(|(offset, _)| offset > at)
                    || phrases.iter().any(|phrase| !phrase.loose_flags.is_empty())
            });
            match required_after {
                Some(at) => require_without(at, &phrases, entities, flags),
                None => forbid(&phrases, entities, flags).with_ask_first(ask_first),
            }
        }
        Cue::InsteadOf(_) => forbid(&phrases, entities, flags),
        Cue::Require => require(&phrases, entities, flags),
    };
    let constraint = finish(constraint).map(|constraint| names_the_tool(constraint, tool_name));
    match (constraint, cue) {
        (Some(constraint), _) => Some(constraint),
        (None, Cue::Forbid { ask_first }) => forbids_the_tool(&words, &lower, tool_name)
            .or_else(|| forbids_an_operation(&words, &lower, tool_name))
            .map(|matcher| Constraint::forbid(vec![matcher]).with_ask_first(ask_first)),
        (None, _) => None,
    }
}

/// The words of what a tool does: the name after an MCP server's prefix
/// (`mcp__github__merge_pull_request` → merge, pull, request). `None` for the tools of a
/// family and the no-tool sentinel: their rules are about what the call runs, not the tool.
fn action_words(tool_name: &str) -> Option<Vec<String>> {
    let tool = tool_name.trim().to_lowercase();
    if tool == tool_memory_core::UNSCOPED_TOOL || tool_memory_core::ToolFamily::of(&tool).is_some()
    {
        return None;
    }
    let action = tool.rsplit("__").next().unwrap_or(&tool);
    let words: Vec<String> = action
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect();
    (!words.is_empty()).then_some(words)
}

/// "Never call `merge_pull_request`" on that tool names the tool itself: the literal becomes
/// the tool's command, which every call of the tool runs.
fn names_the_tool(mut constraint: Constraint, tool_name: &str) -> Constraint {
    let Some(action) = action_words(tool_name) else {
        return constraint;
    };
    let spelled = action.join("_");
    for matcher in &mut constraint.matchers {
        if matcher.kind == MatcherKind::Literal && matcher.value.trim().to_lowercase() == spelled {
            *matcher = Matcher::new(MatcherKind::Command, action.join(" "));
        }
    }
    constraint
}

/// "Don't restart anything", "never deploy anything" on the shell: an operation, named by a
/// subcommand some program has, forbidden for every object. No program is named, so the
/// word is forbidden in whatever command carries it (`kubectl rollout restart`,
/// `systemctl restart nginx`). Only with a universal object, as for [`forbids_the_tool`].
fn forbids_an_operation(words: &WordRuns<'_>, lower: &str, tool_name: &str) -> Option<Matcher> {
    if tool_memory_core::ToolFamily::of(tool_name) != Some(tool_memory_core::ToolFamily::Shell) {
        return None;
    }
    if NARROWING_WORDS.iter().any(|word| words.has_run(word)) {
        return None;
    }
    let rule_words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'' && ch != '-')
        .filter(|word| !word.is_empty())
        .collect();
    rule_words.windows(2).find_map(|pair| {
        let [verb, object] = [pair[0], pair[1]];
        let operation = OPERATION_PROGRAMS
            .iter()
            .any(|program| subcommands(program).contains(&verb));
        (operation && UNIVERSAL_WORDS.contains(&object))
            .then(|| Matcher::new(MatcherKind::Literal, verb))
    })
}

/// Programs whose subcommands are operations a rule may forbid by name alone.
const OPERATION_PROGRAMS: &[&str] = &["git", "kubectl", "docker", "helm", "systemctl", "vercel"];

/// Words that narrow "anyone" or "any" to some of them, which the call's arguments would have
/// to show: a rule with one of them is not about every call.
const NARROWING_WORDS: &[&str] = &[
    "after", "before", "except", "if", "less", "more", "other", "outside", "over", "than", "that",
    "under", "when", "which", "who", "whose",
];
/// Words that make an order about every object of the verb: "never message anyone".
const UNIVERSAL_WORDS: &[&str] = &[
    "all",
    "any",
    "anybody",
    "anyone",
    "anything",
    "every",
    "everybody",
    "everyone",
    "everything",
];

/// A forbid rule that names no literal but forbids what its own tool does, for every object:
/// "Do not merge PRs" on `merge_pull_request`, "never message anyone on Slack" on
/// `post_message`. The rule is about the tool itself, so every call of it is forbidden. A rule
/// with a possessive or narrowed object ("don't email my landlord", "anyone outside the
/// team") names something the guard cannot read, and stays advice.
fn forbids_the_tool(words: &WordRuns<'_>, lower: &str, tool_name: &str) -> Option<Matcher> {
    let action = action_words(tool_name)?;
    let rule_words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
        .filter(|word| !word.is_empty())
        .collect();
    let verb_at = rule_words.iter().position(|word| {
        action
            .iter()
            .any(|action_word| action_word.len() >= 4 && word.starts_with(action_word.as_str()))
    })?;
    if NARROWING_WORDS.iter().any(|word| words.has_run(word)) {
        return None;
    }
    let object = rule_words.get(verb_at + 1).copied().unwrap_or_default();
    let generic_plural = object.len() >= 3
        && object.ends_with('s')
        && !matches!(
            object,
            "his" | "its" | "this" | "us" | "yours" | "ours" | "theirs"
        );
    let every = UNIVERSAL_WORDS.contains(&object) || generic_plural;
    every.then(|| Matcher::new(MatcherKind::Command, action.join(" ")))
}

fn command_matchers(phrases: &[CommandPhrase]) -> Vec<Matcher> {
    let mut matchers = Vec::new();
    for phrase in phrases {
        if phrase.loose_flags.is_empty() {
            matchers.push(Matcher::new(MatcherKind::Command, phrase.value(None)));
            if phrase.force_words {
                let mut lease = phrase.words.join(" ");
                lease.push_str(" --force-with-lease");
                matchers.push(Matcher::new(MatcherKind::Command, lease));
            }
        } else {
            for flag in &phrase.loose_flags {
                matchers.push(Matcher::new(MatcherKind::Command, phrase.value(Some(flag))));
            }
        }
    }
    matchers
}

/// The entities, then the flags, as matchers.
fn literal_matchers(entities: Vec<(usize, Matcher)>, flags: Vec<(usize, String)>) -> Vec<Matcher> {
    let mut matchers = Vec::with_capacity(entities.len() + flags.len());
    matchers.extend(entities.into_iter().map(|(_, matcher)| matcher));
    matchers.extend(
        flags
            .into_iter()
            .map(|(_, flag)| Matcher::new(MatcherKind::Flag, flag)),
    );
    matchers
}

fn forbid(
    phrases: &[CommandPhrase],
    entities: Vec<(usize, Matcher)>,
    flags: Vec<(usize, String)>,
) -> Constraint {
    let matchers = literal_matchers(entities, flags);
    if phrases.is_empty() {
        return Constraint::forbid(matchers);
    }
    let commands = command_matchers(phrases);
    if matchers.is_empty() {
        Constraint::forbid(commands)
    } else {
        Constraint::forbid(matchers).with_when(commands)
    }
}

fn require(
    phrases: &[CommandPhrase],
    entities: Vec<(usize, Matcher)>,
    flags: Vec<(usize, String)>,
) -> Constraint {
    let mut matchers = literal_matchers(entities, flags);
    let mut when = Vec::new();
    for phrase in phrases {
        when.push(Matcher::new(MatcherKind::Command, phrase.words.join(" ")));
        for flag in phrase.adjacent_flags.iter().chain(&phrase.loose_flags) {
            matchers.push(Matcher::new(MatcherKind::Flag, flag.clone()));
        }
    }
    Constraint::require(matchers).with_when(when)
}

/// "never X without Y": Y is required whenever X happens.
fn require_without(
    at: usize,
    phrases: &[CommandPhrase],
    entities: Vec<(usize, Matcher)>,
    flags: Vec<(usize, String)>,
) -> Constraint {
    let mut when: Vec<Matcher> = Vec::new();
    let mut matchers: Vec<Matcher> = Vec::new();
    for phrase in phrases {
        when.push(Matcher::new(MatcherKind::Command, phrase.value(None)));
        matchers.extend(
            phrase
                .loose_flags
                .iter()
                .map(|flag| Matcher::new(MatcherKind::Flag, flag.clone())),
        );
    }
    for (offset, matcher) in entities {
        if offset > at {
            matchers.push(matcher);
        } else if matcher.kind != MatcherKind::Person {
            when.push(matcher);
        }
    }
    for (offset, flag) in flags {
        let matcher = Matcher::new(MatcherKind::Flag, flag);
        if offset > at {
            matchers.push(matcher);
        } else {
            when.push(matcher);
        }
    }
    Constraint::require(matchers).with_when(when)
}

/// Drops invalid or duplicate matchers; `None` when nothing is left to check.
fn finish(mut constraint: Constraint) -> Option<Constraint> {
    // The kept matchers gather, in order, at the front of the list. A matcher equal to an
    // earlier one that was dropped as invalid is invalid too, so comparing with the kept ones
    // finds every duplicate.
    let keep = |list: &mut Vec<Matcher>| {
        let mut kept = 0;
        for index in 0..list.len() {
            if !list[..kept].contains(&list[index]) && list[index].is_valid() {
                list.swap(kept, index);
                kept += 1;
            }
        }
        list.truncate(kept);
    };
    keep(&mut constraint.matchers);
    keep(&mut constraint.when);
    if constraint.matchers.is_empty() {
        return None;
    }
    // Every matcher is valid now; what `validate` has left to check is the list lengths.
    let valid = constraint.matchers.len() <= MAX_MATCHERS && constraint.when.len() <= MAX_MATCHERS;
    debug_assert_eq!(valid, constraint.validate().is_ok(), "{constraint:?}");
    valid.then_some(constraint)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Derives from `text` on `tool` and compares the JSON form (`None` for advice only).
    fn check(tool: &str, text: &str, expected: Option<&str>) {
        let derived = derive_from_text(text, tool).map(|constraint| constraint.to_json());
        assert_eq!(derived.as_deref(), expected, "{tool}: {text}");
    }

    #[test]
    fn addresses_and_names() {
        check(
            "send_email",
            "Never email Sarah at sarah@example.com.",
            Some(
                r#"{"matchers":[{"kind":"person","value":"sarah"},{"kind":"email","value":"sarah@example.com"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "send_email",
            "never email Sarah",
            Some(r#"{"matchers":[{"kind":"person","value":"sarah"}],"polarity":"forbid"}"#),
        );
        check(
            "send_email",
            "Don't send anything to Sarah Connor or Tom.",
            Some(
                r#"{"matchers":[{"kind":"person","value":"sarah connor"},{"kind":"person","value":"tom"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "send_email",
            "Never send anything to legal@acme-corp.co.uk without asking me first.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"email","value":"legal@acme-corp.co.uk"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "send_email",
            "never email anyone @competitor.com",
            Some(
                r#"{"matchers":[{"kind":"domain","value":"competitor.com"}],"polarity":"forbid"}"#,
            ),
        );
        check("send_email", "don't email my landlord, ever", None);
        check(
            "send_email",
            "Don't reply-all on threads with more than ten people.",
            None,
        );
    }

    #[test]
    fn commands_and_flags() {
        check(
            "shell",
            "Don't run shell commands with sudo.",
            Some(r#"{"matchers":[{"kind":"command","value":"sudo"}],"polarity":"forbid"}"#),
        );
        check(
            "shell",
            "never rm -rf",
            Some(r#"{"matchers":[{"kind":"command","value":"rm -rf"}],"polarity":"forbid"}"#),
        );
        check(
            "bash",
            "Don't ever run git reset --hard without asking me first!",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"command","value":"git reset --hard"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "shell",
            "never run git push with --force",
            Some(
                r#"{"matchers":[{"kind":"command","value":"git push --force"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "git_push",
            "never force-push to main",
            Some(
                r#"{"matchers":[{"kind":"literal","value":"main"}],"polarity":"forbid","when":[{"kind":"command","value":"git push --force"},{"kind":"command","value":"git push --force-with-lease"}]}"#,
            ),
        );
        check(
            "git_push",
            "never push to main or master",
            Some(
                r#"{"matchers":[{"kind":"literal","value":"main"},{"kind":"literal","value":"master"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"}]}"#,
            ),
        );
        check(
            "shell",
            "Never use --force",
            Some(r#"{"matchers":[{"kind":"flag","value":"--force"}],"polarity":"forbid"}"#),
        );
    }

    #[test]
    fn requirements() {
        check(
            "shell",
            "always pass --dry-run to terraform",
            Some(
                r#"{"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require","when":[{"kind":"command","value":"terraform"}]}"#,
            ),
        );
        check(
            "shell",
            "always run terraform plan with -lock=true",
            Some(
                r#"{"matchers":[{"kind":"flag","value":"-lock"}],"polarity":"require","when":[{"kind":"command","value":"terraform plan"}]}"#,
            ),
        );
        check(
            "send_email",
            "always cc my manager at boss@corp.com",
            Some(r#"{"matchers":[{"kind":"email","value":"boss@corp.com"}],"polarity":"require"}"#),
        );
        check(
            "shell",
            "never run terraform apply without --dry-run",
            Some(
                r#"{"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require","when":[{"kind":"command","value":"terraform apply"}]}"#,
            ),
        );
        check(
            "terraform",
            "Don't forget --dry-run.",
            Some(r#"{"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require"}"#),
        );
        check("shell", "always run the tests before git push", None);
    }

    #[test]
    fn paths_urls_hosts_and_literals() {
        check(
            "write_file",
            "Never write to /etc or ~/.ssh/",
            Some(
                r#"{"matchers":[{"kind":"path","value":"/etc"},{"kind":"path","value":"~/.ssh/"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "read_file",
            "don't read .env files",
            Some(r#"{"matchers":[{"kind":"path","value":".env"}],"polarity":"forbid"}"#),
        );
        check(
            "browser",
            "Never open https://admin.internal.corp/ or anything on facebook.com",
            Some(
                r#"{"matchers":[{"kind":"url","value":"https://admin.internal.corp/"},{"kind":"domain","value":"facebook.com"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "shell",
            "never ssh into prod-db-1",
            Some(
                r#"{"matchers":[{"kind":"host","value":"prod-db-1"}],"polarity":"forbid","when":[{"kind":"command","value":"ssh"}]}"#,
            ),
        );
        check(
            "send_email",
            "Never mention \"Project Falcon\" in emails",
            Some(
                r#"{"matchers":[{"kind":"literal","value":"project falcon"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "slack_post",
            "don't post in #general",
            Some(r##"{"matchers":[{"kind":"literal","value":"#general"}],"polarity":"forbid"}"##),
        );
        check(
            "execute_sql",
            "Never run DROP TABLE on anything",
            Some(r#"{"matchers":[{"kind":"literal","value":"drop table"}],"polarity":"forbid"}"#),
        );
        check(
            "shell",
            "use trash instead of rm",
            Some(r#"{"matchers":[{"kind":"command","value":"rm"}],"polarity":"forbid"}"#),
        );
        check(
            "shell",
            "stop using wget, use curl",
            Some(r#"{"matchers":[{"kind":"command","value":"wget"}],"polarity":"forbid"}"#),
        );
        check(
            "http_request",
            "always send requests to https://staging.api.corp.com, never production",
            Some(
                r#"{"matchers":[{"kind":"url","value":"https://staging.api.corp.com"}],"polarity":"require"}"#,
            ),
        );
        check(
            "send_payment",
            "Do not send money to paypal.me/scammer",
            Some(
                r#"{"matchers":[{"kind":"url","value":"https://paypal.me/scammer"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "shell",
            "Don't ever kill -9 the postgres process",
            Some(r#"{"matchers":[{"kind":"command","value":"kill -9"}],"polarity":"forbid"}"#),
        );
        check(
            "send_email",
            "Under no circumstances should you email my ex, Jordan.",
            Some(r#"{"matchers":[{"kind":"person","value":"jordan"}],"polarity":"forbid"}"#),
        );
        check(
            "shell",
            "never run npm install with sudo",
            Some(
                r#"{"matchers":[{"kind":"command","value":"sudo npm install"}],"polarity":"forbid"}"#,
            ),
        );
        check("browser", "Stop using browser for that.", None);
        check(
            "shell",
            "Tool failed 2 times in one turn (shell: failed (timeout)). Consider an alternative approach before retrying.",
            None,
        );
    }
}
