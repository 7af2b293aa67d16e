//! Tool attribution: which tool an edict is about.
//!
//! In order: (1) a tool of the turn or the catalogue named in the edict, as a whole word
//! (`send_email` also matches "send email", `WebSearch` also "web search"), then a tool one of
//! whose distinctive name words the edict uses ("whatsapp" for `whatsapp_send`); (2) a word
//! from the alias table ("email", "terminal", "channel", "sudo", …) that resolves to a tool
//! which exists; (3) the first tool that ran in the turn; (4) [`UNSCOPED_TOOL`]. Every match is on
//! word boundaries, so "admin" is not "dm", `ls` is not inside "tools" and "mailbox" is not
//! "mail".

use std::cmp::Reverse;
use std::collections::HashMap;
use std::sync::LazyLock;

use tool_memory_core::{ToolFamily, UNSCOPED_TOOL, split_words, validate_tool_name};

use crate::TurnRecord;
use crate::route::{Need, VERB_TOOL_NAMES, need_of};
use crate::text::is_word_char;

/// A tool the edict may be attributed to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The normalised name.
    pub(crate) name: String,
    /// Phrases that name the tool: the name itself, and spaced forms of it.
    forms: Vec<String>,
    /// The words of the name, for the alias table.
    tokens: Vec<String>,
}

/// The tools an edict can land on: the turn's tools in call order, then the catalogue.
#[derive(Debug, Clone, Default)]
pub(crate) struct Candidates {
    tools: Vec<Candidate>,
    first_ran: Option<String>,
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
                candidates.tools.push(Candidate::new(raw, name));
            }
        }
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
    /// the rule is about ([`need_of`]: `git` and `npm` go to the shell, `edit` to the edit
    /// tool), then the alias table, then the fallback.
    pub(crate) fn attribute_rule(&self, text: &str, form: &str) -> String {
        if let Some(tool) = self.named(form).or_else(|| self.by_name_word(form)) {
            return tool;
        }
        let alias = self.by_alias(form);
        // A dedicated tool the alias table finds (`git_commit`, `execute_sql`, `kubectl`) is
        // more specific than a family's general tool; a family tool it finds is only a guess
        // from a common noun, which the rule's own evidence outranks.
        if let Some(tool) = &alias
            && ToolFamily::of(tool).is_none()
            && !self.only_by_server(tool, form)
        {
            return tool.clone();
        }
        need_of(text)
            .and_then(|need| self.by_need(need))
            .or(alias)
            .unwrap_or_else(|| self.fallback())
    }

    /// Whether `tool` is an MCP tool (`mcp__github__create_pull_request`) none of whose own
    /// words (`create`, `pull`, `request`) the rule uses: the alias table found it by its
    /// server's name alone, which says nothing about what the tool does.
    fn only_by_server(&self, tool: &str, form: &str) -> bool {
        let Some(rest) = tool.strip_prefix("mcp__") else {
            return false;
        };
        let Some((_, own)) = rest.split_once("__") else {
            return false;
        };
        !split_words(own, false)
            .iter()
            .any(|word| find_word(form, word, ALIAS_SUFFIXES).is_some())
    }

    /// The catalogue's tool for `need`: the first of its family in call and catalogue order,
    /// with the edit family split by what the rule does (a write tool for new files, a delete
    /// tool for deleting, an edit tool otherwise).
    fn by_need(&self, need: Need) -> Option<String> {
        let family = need.family();
        let members: Vec<&Candidate> = self
            .tools
            .iter()
            .filter(|tool| {
                ToolFamily::of(&tool.name) == Some(family)
                    || (family == ToolFamily::Shell && SHELL_GROUP.claims(tool))
            })
            .collect();
        let has = |tool: &Candidate, words: &[&str]| {
            tool.tokens
                .iter()
                .any(|token| words.contains(&token.as_str()))
        };
        let chosen = match need {
            Need::Edit { create, delete } => {
                let preferred: &[&str] = if delete {
                    &["delete", "remove"]
                } else if create {
                    &["write", "create"]
                } else {
                    &["edit", "multiedit", "replace", "patch"]
                };
                members
                    .iter()
                    .find(|tool| has(tool, preferred))
                    .or_else(|| {
                        members
                            .iter()
                            .find(|tool| delete || !has(tool, &["delete", "remove"]))
                    })
                    .copied()
            }
            Need::Read => members
                .iter()
                .find(|tool| has(tool, &["read", "view"]))
                .or(members.first())
                .copied(),
            _ => members.first().copied(),
        };
        chosen.map(|tool| tool.name.clone())
    }

    /// The tool `form` names or aliases, if any (attribution steps 1 and 2).
    pub(crate) fn attribute_explicit(&self, form: &str) -> Option<String> {
        self.named(form)
            .or_else(|| self.by_name_word(form))
            .or_else(|| self.by_alias(form))
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
    fn named(&self, form: &str) -> Option<String> {
        let mut best: Option<(usize, Reverse<usize>, &Candidate)> = None;
        for tool in &self.tools {
            // `Read`, `Edit`, `Write`: the word names the action; the family step routes it.
            for phrase in tool
                .forms
                .iter()
                .filter(|phrase| !VERB_TOOL_NAMES.contains(&phrase.as_str()))
            {
                if let Some(position) = find_word(form, phrase, NAME_SUFFIXES) {
                    let key = (position, Reverse(phrase.len()));
                    if best.is_none_or(|(at, length, _)| key < (at, length)) {
                        best = Some((key.0, key.1, tool));
                    }
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
    fn by_name_word(&self, form: &str) -> Option<String> {
        let mut best: Option<(usize, Reverse<usize>, &Candidate)> = None;
        for tool in &self.tools {
            let earliest = tool
                .tokens
                .iter()
                .filter(|token| {
                    token.chars().count() >= 3 && !GENERIC_NAME_WORDS.contains(&token.as_str())
                })
                .filter_map(|token| find_word(form, token, ALIAS_SUFFIXES))
                .min();
            let Some(position) = earliest else {
                continue;
            };
            let key = (position, Reverse(tool.words_in(form)));
            if best.is_none_or(|(at, score, _)| key < (at, score)) {
                best = Some((key.0, key.1, tool));
            }
        }
        best.map(|(_, _, tool)| tool.name.clone())
    }

    /// The alias group mentioned first that resolves to an existing tool: product and
    /// program names before common nouns, then the earliest mention, then the longest phrase.
    fn by_alias(&self, form: &str) -> Option<String> {
        let mut mentioned: Vec<(bool, usize, Reverse<usize>, usize)> = alias_mentions(form)
            .into_iter()
            .enumerate()
            .filter_map(|(group_index, earliest)| {
                earliest.map(|(weak, position, length)| (weak, position, length, group_index))
            })
            .collect();
        mentioned.sort_unstable();
        mentioned
            .into_iter()
            .find_map(|(_, _, _, group_index)| self.resolve(&ALIAS_GROUPS[group_index], form))
    }

    /// The group's tool whose name words the edict also uses most ("never delete files" picks
    /// `delete_file` over `read_file`); call order breaks ties.
    fn resolve(&self, group: &AliasGroup, form: &str) -> Option<String> {
        let mut best: Option<(usize, &Candidate)> = None;
        for tool in self.tools.iter().filter(|tool| group.claims(tool)) {
            let score = tool.words_in(form);
            if best.is_none_or(|(best_score, _)| score > best_score) {
                best = Some((score, tool));
            }
        }
        best.map(|(_, tool)| tool.name.clone())
    }
}

impl Candidate {
    fn new(raw: &str, name: String) -> Candidate {
        let spaced = split_words(&name, false).join(" ");
        let camel = split_words(raw.trim(), true).join(" ");
        let mut forms = Vec::new();
        // An MCP tool is named by its own part too: `run_query` for `mcp__db__run_query`.
        let tail = name
            .rsplit_once("__")
            .filter(|_| name.starts_with("mcp__"))
            .map(|(_, tail)| tail.to_owned())
            .filter(|tail| tail.len() >= 4 && tail.contains('_'))
            .unwrap_or_default();
        for form in [name.clone(), spaced, camel, tail] {
            if form.chars().count() >= 2
                && !STOP_NAMES.contains(&form.as_str())
                && !forms.contains(&form)
            {
                forms.push(form);
            }
        }
        let mut tokens = split_words(&name, false);
        for token in split_words(raw.trim(), true) {
            if !tokens.contains(&token) {
                tokens.push(token);
            }
        }
        Candidate {
            name,
            forms,
            tokens,
        }
    }

    /// How many of the tool's name words the edict uses.
    fn words_in(&self, form: &str) -> usize {
        self.tokens
            .iter()
            .filter(|token| find_word(form, token, ALIAS_SUFFIXES).is_some())
            .count()
    }
}

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

/// Name words too generic to identify a tool on their own.
const GENERIC_NAME_WORDS: &[&str] = &[
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

/// Tool names too common as English words to count as naming the tool.
const STOP_NAMES: &[&str] = &[
    "a", "an", "the", "to", "do", "it", "is", "in", "on", "at", "of", "or", "and", "me", "my",
    "no", "not", "you", "go", "up", "be", "as", "by", "if", "so", "all", "any", "that", "this",
];

const NAME_SUFFIXES: &[&str] = &["", "s", "'s"];
const ALIAS_SUFFIXES: &[&str] = &[
    "", "s", "es", "ing", "ed", "d", "ting", "ted", "ming", "med", "'s", "'ing", "'d", "'ed",
];

/// The byte position of the first whole-word occurrence of `needle` (optionally followed by
/// one of `suffixes`) in `haystack`.
pub(crate) fn find_word(haystack: &str, needle: &str, suffixes: &[&str]) -> Option<usize> {
    // Called for every name of the catalogue on every rule, with short needles and short
    // haystacks: a scan for the needle's first byte beats building a substring searcher each
    // time. The first byte of a UTF-8 needle is a lead byte, so every candidate start is a
    // char boundary of the haystack.
    let bytes = haystack.as_bytes();
    let &first = needle.as_bytes().first()?;
    let mut from = 0;
    while let Some(found) = bytes[from..].iter().position(|&byte| byte == first) {
        let start = from + found;
        if word_at(haystack, start, needle, suffixes) {
            return Some(start);
        }
        from = start + needle.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// Whether `needle` stands at byte `start` of `haystack` as whole words: after a non-word
/// char (or the start), and followed by one of `suffixes` and then a non-word char (or the end).
fn word_at(haystack: &str, start: usize, needle: &str, suffixes: &[&str]) -> bool {
    if !haystack.as_bytes()[start..].starts_with(needle.as_bytes()) {
        return false;
    }
    let starts_word = haystack[..start]
        .chars()
        .next_back()
        .is_none_or(|ch| !is_word_char(ch));
    let rest = &haystack[start + needle.len()..];
    starts_word
        && suffixes.iter().any(|suffix| {
            rest.strip_prefix(suffix)
                .is_some_and(|after| after.chars().next().is_none_or(|ch| !is_word_char(ch)))
        })
}

/// One phrase of the alias table: its group, and whether it is a common noun (`phrases`)
/// rather than a product or program name (`strong`).
struct AliasPhrase {
    group: usize,
    weak: bool,
    phrase: &'static str,
}

/// The alias table's phrases by their first word, built once: a rule is then read word by
/// word with one lookup each, instead of one scan of the rule per phrase of the table.
static ALIAS_INDEX: LazyLock<HashMap<&'static str, Vec<AliasPhrase>>> = LazyLock::new(|| {
    let mut index: HashMap<&'static str, Vec<AliasPhrase>> = HashMap::new();
    for (group, aliases) in ALIAS_GROUPS.iter().enumerate() {
        let strong = aliases.strong.iter().map(|phrase| (false, *phrase));
        let weak = aliases.phrases.iter().map(|phrase| (true, *phrase));
        for (weak, phrase) in strong.chain(weak) {
            index
                .entry(first_word(phrase))
                .or_default()
                .push(AliasPhrase {
                    group,
                    weak,
                    phrase,
                });
        }
    }
    index
});

/// The leading run of word chars of `text`.
fn first_word(text: &str) -> &str {
    let end = text
        .char_indices()
        .find(|&(_, ch)| !is_word_char(ch))
        .map_or(text.len(), |(at, _)| at);
    &text[..end]
}

/// For each group of the alias table, its earliest mention in `form` as (weak, byte position,
/// longest phrase there), or `None`: the same as looking for each phrase with [`find_word`].
/// A phrase can only start where a word starts, and its first word is that word or that word
/// without one of [`ALIAS_SUFFIXES`] ("emailing" → "email"), so each word start costs a few
/// lookups.
fn alias_mentions(form: &str) -> Vec<Option<(bool, usize, Reverse<usize>)>> {
    let mut earliest: Vec<Option<(bool, usize, Reverse<usize>)>> = vec![None; ALIAS_GROUPS.len()];
    let mut previous_is_word = false;
    for (start, ch) in form.char_indices() {
        let is_word = is_word_char(ch);
        let word_start = is_word && !previous_is_word;
        previous_is_word = is_word;
        if !word_start {
            continue;
        }
        let word = first_word(&form[start..]);
        let stems = ALIAS_SUFFIXES.iter().filter_map(|suffix| match *suffix {
            "" => Some(word),
            suffix => word.strip_suffix(suffix).filter(|stem| !stem.is_empty()),
        });
        for stem in stems {
            for entry in ALIAS_INDEX.get(stem).into_iter().flatten() {
                if !word_at(form, start, entry.phrase, ALIAS_SUFFIXES) {
                    continue;
                }
                let key = (entry.weak, start, Reverse(entry.phrase.len()));
                let slot = &mut earliest[entry.group];
                if slot.is_none_or(|best| key < best) {
                    *slot = Some(key);
                }
            }
        }
    }
    earliest
}

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

impl AliasGroup {
    fn claims(&self, tool: &Candidate) -> bool {
        self.tool_names.contains(&tool.name.as_str())
            || tool
                .tokens
                .iter()
                .any(|token| self.tool_words.contains(&token.as_str()))
    }
}

/// The shell's group of the alias table: the name words that make a host's own tool a shell
/// (`run_in_terminal`, `exec_cmd`) when the family table does not know it.
static SHELL_GROUP: &AliasGroup = &ALIAS_GROUPS[1];

/// The alias table, documented in `docs/capture.md`.
pub(crate) const ALIAS_GROUPS: &[AliasGroup] = &[
    // Mail.
    AliasGroup {
        strong: &["gmail", "outlook"],
        phrases: &["email", "e-mail", "mail", "inbox", "cc", "bcc"],
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolCallRecord;
    use crate::text::match_form;

    /// The alias index finds, for every group, the mention a scan for each of its phrases
    /// finds: the index is only a faster way to read the same table.
    #[test]
    fn alias_index_agrees_with_a_scan_per_phrase() {
        let scan = |form: &str| -> Vec<Option<(bool, usize, Reverse<usize>)>> {
            ALIAS_GROUPS
                .iter()
                .map(|group| {
                    let strong = group.strong.iter().map(|phrase| (false, phrase));
                    let weak = group.phrases.iter().map(|phrase| (true, phrase));
                    strong
                        .chain(weak)
                        .filter_map(|(weak, phrase)| {
                            find_word(form, phrase, ALIAS_SUFFIXES)
                                .map(|position| (weak, position, Reverse(phrase.len())))
                        })
                        .min()
                })
                .collect()
        };
        let mut forms: Vec<String> = [
            "never email sarah, and stop emailing bob's inbox",
            "don't run rm -rf or kill -9 as root in the terminal",
            "e-mails, cc'd and bcc'ing: mailbox is not mail",
            "no sudo; use the command-line interface, not the cli's scripts",
            "ping the admin in the slack channel, then call me",
            "",
        ]
        .map(str::to_owned)
        .to_vec();
        // Every phrase of the table, alone and inside a sentence, with a suffix and without.
        for group in ALIAS_GROUPS {
            for phrase in group.strong.iter().chain(group.phrases) {
                forms.push(format!("never {phrase}s or {phrase}"));
                forms.push(format!("x{phrase} {phrase}ing"));
            }
        }
        for form in &forms {
            assert_eq!(alias_mentions(form), scan(form), "{form:?}");
        }
    }

    /// The edict `edict`, in a turn that called `ran` with catalogue `catalogue`, lands on
    /// `expected`.
    fn check(edict: &str, ran: &[&str], catalogue: &[&str], expected: &str) {
        let turn = TurnRecord {
            user_message: edict.to_owned(),
            tool_calls: ran
                .iter()
                .map(|name| ToolCallRecord::new(*name, true, "ok"))
                .collect(),
            session_id: None,
            turn: None,
            available_tools: catalogue.iter().map(|name| (*name).to_owned()).collect(),
        };
        let tool = Candidates::of_turn(&turn).attribute(&match_form(edict));
        assert_eq!(tool, expected, "{edict:?} with {ran:?} + {catalogue:?}");
    }

    #[test]
    fn named_tools_win() {
        check(
            "Don't run shell commands with sudo.",
            &["shell", "browser"],
            &[],
            "shell",
        );
        check(
            "Stop using browser for that.",
            &["shell", "browser"],
            &[],
            "browser",
        );
        check(
            "never use send email for this",
            &["bash"],
            &["Send_Email"],
            "send_email",
        );
        check(
            "never call WebSearch twice",
            &[],
            &["WebSearch", "bash"],
            "websearch",
        );
        check(
            "never use web search for names",
            &["bash"],
            &["WebSearch"],
            "websearch",
        );
        check("Never deploy on Fridays", &["deploy"], &[], "deploy");
        check("never use ls on the tools dir", &["bash"], &["ls"], "ls");
        check("never install more tools", &["bash"], &["ls"], "bash");
    }

    #[test]
    fn aliases_resolve_only_to_existing_tools() {
        check(
            "Never email Sarah.",
            &["bash", "send_email"],
            &[],
            "send_email",
        );
        check("Never run rm -rf.", &["send_email", "bash"], &[], "bash");
        check(
            "Please never ping the admin channel",
            &["send_email", "slack_post"],
            &[],
            "slack_post",
        );
        check(
            "never use the website builder",
            &["web_fetch", "send_email"],
            &[],
            "web_fetch",
        );
        check(
            "never use the website builder",
            &["send_email"],
            &[],
            "send_email",
        );
        check("Never check my mailbox", &["bash"], &["read_mail"], "bash");
        check(
            "never open a terminal for this",
            &["execute_sql"],
            &[],
            "execute_sql",
        );
        check(
            "never open a terminal for this",
            &["execute_sql"],
            &["exec_command"],
            "exec_command",
        );
        check(
            "Never delete files in /etc.",
            &["read_file", "delete_file"],
            &[],
            "delete_file",
        );
        check(
            "Never touch the production database.",
            &["deploy", "query_db"],
            &[],
            "query_db",
        );
        check(
            "Always cc me when you email a client.",
            &["stripe_invoice", "gmail_send"],
            &[],
            "gmail_send",
        );
        check(
            "Never send WhatsApp voice notes.",
            &["send_email", "whatsapp_send"],
            &[],
            "whatsapp_send",
        );
        check(
            "Please post in Slack only once a day.",
            &["slack_read_channel", "slack_post"],
            &[],
            "slack_post",
        );
        check(
            "Never rsync my home folder.",
            &["list_dir", "bash"],
            &[],
            "bash",
        );
        check(
            "Never google my name",
            &[],
            &["browser_open"],
            "browser_open",
        );
    }

    #[test]
    fn falls_back_to_the_first_tool_then_unscoped() {
        check(
            "Never do that automatically.",
            &["calendar", "bash"],
            &[],
            "calendar",
        );
        check("Never do that.", &[], &[], UNSCOPED_TOOL);
        check("Never do that.", &[], &["bash"], UNSCOPED_TOOL);
        check("Never do that.", &["  ", "Bash"], &[], "bash");
    }

    #[test]
    fn whole_words_only() {
        assert_eq!(find_word("ping the admin", "dm", ALIAS_SUFFIXES), None);
        assert_eq!(find_word("my mailbox", "mail", ALIAS_SUFFIXES), None);
        assert_eq!(find_word("stop emailing", "email", ALIAS_SUFFIXES), Some(5));
        assert_eq!(
            find_word("auto_send_email", "send_email", NAME_SUFFIXES),
            None
        );
        assert_eq!(find_word("dm's", "dm", ALIAS_SUFFIXES), Some(0));
    }
}
