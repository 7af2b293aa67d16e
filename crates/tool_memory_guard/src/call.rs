//! The guard's view of a proposed tool call: every string of the arguments (lower-cased, with
//! whether it sits under a recipient-like key), the command invocations found in them, and
//! the flags set by boolean arguments.
//!
//! Built once per check, and only when some rule is a candidate, so a call that no rule can
//! touch costs no more than the token walk in the index.

use serde_json::Value;

use crate::normalize::{canonical_flag, expand_flag, flag_of_key, program_name};

/// Keys whose values name who a call reaches. Address-like matchers (e-mail, person) look
/// only here when a call has any, so a body that mentions Sarah is not an e-mail to Sarah.
const RECIPIENT_KEYS: &[&str] = &[
    "to",
    "cc",
    "bcc",
    "recipient",
    "recipients",
    "attendee",
    "attendees",
    "participant",
    "participants",
    "invitee",
    "invitees",
    "guest",
    "guests",
    "user",
    "users",
    "username",
    "channel",
    "channels",
    "name",
    "contact",
    "contacts",
    "people",
    "member",
    "members",
    "assignee",
    "assignees",
    "reviewer",
    "reviewers",
    "payee",
    "beneficiary",
    "handle",
    "email",
    "emails",
    "dm",
    "person",
    "mention",
    "mentions",
    "phone",
    "number",
    "receiver",
    "addressee",
];

/// Programs that run another program: `sudo rm -rf /` runs both `sudo` and `rm`.
const WRAPPERS: &[&str] = &[
    "sudo",
    "doas",
    "env",
    "nohup",
    "time",
    "exec",
    "nice",
    "ionice",
    "command",
    "builtin",
    "xargs",
    "watch",
    "timeout",
    "strace",
    "caffeinate",
    "su",
];

/// Flags that take the next word as their value, so that word is not a subcommand
/// (`git -C repo push`, `kubectl -n prod delete`).
const VALUE_FLAGS: &[&str] = &[
    "-c",
    "-C",
    "--git-dir",
    "--work-tree",
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "--profile",
    "--region",
    "--project",
    "-u",
    "-g",
    "--user",
    "-h",
    "--host",
    "-p",
    "--port",
];

/// How deep quoted commands are unpacked (`ssh host "sudo sh -c 'rm -rf /'"`).
const MAX_NESTING: usize = 3;

/// One string of a call, lower-cased.
#[derive(Debug, Clone)]
pub(crate) struct Text {
    pub(crate) lower: String,
    /// Under a recipient-like key.
    pub(crate) recipient: bool,
    /// A joined argv array, used only to find invocations (its elements are texts too).
    pub(crate) command_only: bool,
}

/// One program run by a command line: `git -C x push --force origin main`.
#[derive(Debug, Clone)]
pub(crate) struct Invocation {
    /// Base name, lower-case.
    pub(crate) program: String,
    /// Words after the program that are not flags or flag values: subcommands, then
    /// arguments.
    pub(crate) positional: Vec<String>,
    /// Flags, expanded and in the program's canonical spelling.
    pub(crate) flags: Vec<String>,
    /// The invocation's own words, joined, as a one-element text list.
    pub(crate) texts: Vec<Text>,
}

/// Everything the matchers look at.
#[derive(Debug, Clone, Default)]
pub(crate) struct CallView {
    /// The tool name's words (`git_push` → `git`, `push`); a tool can be a command.
    pub(crate) tool_words: Vec<String>,
    pub(crate) texts: Vec<Text>,
    /// Parsed on first use: most rules (addresses, names, URLs) never need them.
    invocations: std::cell::OnceCell<Vec<Invocation>>,
    /// Flags set by `true` arguments: `{"force": true}` → `--force`.
    pub(crate) bool_flags: Vec<String>,
    pub(crate) has_recipients: bool,
}

impl CallView {
    pub(crate) fn new(tool_name: &str, arguments: &Value) -> CallView {
        let mut view = CallView {
            tool_words: tool_words(tool_name),
            ..CallView::default()
        };
        view.walk(arguments, false);
        view.has_recipients = view.texts.iter().any(|text| text.recipient);
        view
    }

    /// Every invocation in every string of the call.
    pub(crate) fn invocations(&self) -> &[Invocation] {
        self.invocations.get_or_init(|| {
            let mut invocations = Vec::new();
            for text in &self.texts {
                parse_command_line(&text.lower, 0, &mut invocations);
            }
            invocations
        })
    }

    fn walk(&mut self, value: &Value, recipient: bool) {
        match value {
            Value::String(text) => self.texts.push(Text {
                lower: text.to_lowercase(),
                recipient,
                command_only: false,
            }),
            Value::Array(items) => {
                // An argv array is one command line: `["git", "push", "--force"]`.
                if !recipient && items.len() > 1 && items.iter().all(Value::is_string) {
                    let joined: Vec<String> = items
                        .iter()
                        .filter_map(Value::as_str)
                        .map(|item| {
                            if item.contains(char::is_whitespace) {
                                format!("'{item}'")
                            } else {
                                item.to_owned()
                            }
                        })
                        .collect();
                    self.texts.push(Text {
                        lower: joined.join(" ").to_lowercase(),
                        recipient: false,
                        command_only: true,
                    });
                }
                for item in items {
                    self.walk(item, recipient);
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    if item == &Value::Bool(true) {
                        self.bool_flags.push(flag_of_key(key));
                    }
                    self.walk(item, recipient || is_recipient_key(key));
                }
            }
            Value::Number(number) => self.texts.push(Text {
                lower: number.to_string(),
                recipient,
                command_only: false,
            }),
            Value::Bool(_) | Value::Null => {}
        }
    }
}

/// The words of a tool name, split on `_`, `-`, `.`, spaces and camel case.
pub(crate) fn tool_words(tool_name: &str) -> Vec<String> {
    split_words(tool_name)
}

fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for ch in text.chars() {
        if !ch.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if ch.is_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = ch.is_lowercase() || ch.is_ascii_digit();
        current.extend(ch.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

pub(crate) fn is_recipient_key(key: &str) -> bool {
    split_words(key)
        .iter()
        .any(|word| RECIPIENT_KEYS.contains(&word.as_str()))
}

enum Piece {
    Word { text: String, quoted_space: bool },
    Separator,
}

/// Splits a command line into words and separators (`;`, `&&`, `|`, newlines, `$(`,
/// backticks), honouring quotes and backslashes.
fn shell_pieces(line: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted_space = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    let flush =
        |pieces: &mut Vec<Piece>, word: &mut String, in_word: &mut bool, quoted: &mut bool| {
            if *in_word {
                pieces.push(Piece::Word {
                    text: std::mem::take(word),
                    quoted_space: *quoted,
                });
            }
            *in_word = false;
            *quoted = false;
        };
    while let Some(ch) = chars.next() {
        if let Some(open) = quote {
            if ch == open {
                quote = None;
            } else if ch == '\\' && open == '"' {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
            } else {
                quoted_space |= ch.is_whitespace();
                word.push(ch);
            }
            continue;
        }
        match ch {
            '\'' | '"' => {
                quote = Some(ch);
                in_word = true;
            }
            '\\' => {
                if let Some(next) = chars.next() {
                    word.push(next);
                    in_word = true;
                }
            }
            ';' | '|' | '&' | '\n' | '(' | ')' | '`' | '{' | '}' => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
            }
            '$' if chars.peek() == Some(&'(') => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
            }
            ch if ch.is_whitespace() => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
            }
            _ => {
                word.push(ch);
                in_word = true;
            }
        }
    }
    flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
    pieces
}

/// Finds every invocation in a (lower-case) command line, including those inside quoted
/// arguments such as `bash -c '...'` or `ssh host "..."`.
pub(crate) fn parse_command_line(line: &str, depth: usize, out: &mut Vec<Invocation>) {
    let pieces = shell_pieces(line);
    let mut segment: Vec<String> = Vec::new();
    let mut nested: Vec<String> = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Word { text, quoted_space } => {
                if quoted_space {
                    nested.push(text.clone());
                }
                segment.push(text);
            }
            Piece::Separator => {
                segment_invocations(&segment, out);
                segment.clear();
            }
        }
    }
    segment_invocations(&segment, out);
    if depth < MAX_NESTING {
        for inner in nested {
            parse_command_line(&inner, depth + 1, out);
        }
    }
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name
                    .chars()
                    .next()
                    .is_some_and(|ch| ch.is_alphabetic() || ch == '_')
                && name.chars().all(|ch| ch.is_alphanumeric() || ch == '_')
        }
        None => false,
    }
}

fn segment_invocations(words: &[String], out: &mut Vec<Invocation>) {
    let mut index = 0;
    while index < words.len() && is_assignment(&words[index]) {
        index += 1;
    }
    while index < words.len() {
        out.push(invocation(&words[index..]));
        let program = program_name(&words[index]);
        if !WRAPPERS.contains(&program.as_str()) {
            break;
        }
        index += 1;
        // Skip the wrapper's own options, assignments and (for timeout, nice -n) values.
        while index < words.len() {
            let word = &words[index];
            if VALUE_FLAGS.contains(&word.as_str()) {
                index += 2;
            } else if word.starts_with('-')
                || is_assignment(word)
                || (program == "timeout"
                    && word.chars().next().is_some_and(|ch| ch.is_ascii_digit()))
            {
                index += 1;
            } else {
                break;
            }
        }
    }
}

fn invocation(words: &[String]) -> Invocation {
    let first = &words[0];
    let (program, rest) = if first.starts_with('-') {
        (String::new(), words)
    } else {
        (program_name(first), &words[1..])
    };
    let mut positional = Vec::new();
    let mut flags = Vec::new();
    let mut expanded = Vec::new();
    let mut skip_value = false;
    let mut options_done = false;
    for word in rest {
        if skip_value {
            skip_value = false;
            continue;
        }
        if !options_done && word == "--" {
            options_done = true;
            continue;
        }
        if !options_done && word.len() > 1 && word.starts_with('-') {
            expanded.clear();
            expand_flag(word, &mut expanded);
            flags.extend(expanded.iter().map(|flag| canonical_flag(&program, flag)));
            skip_value = !word.contains('=') && VALUE_FLAGS.contains(&word.as_str());
            continue;
        }
        positional.push(word.clone());
    }
    Invocation {
        program,
        positional,
        flags,
        texts: vec![Text {
            lower: words.join(" "),
            recipient: false,
            command_only: false,
        }],
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn programs(line: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
        let mut out = Vec::new();
        parse_command_line(&line.to_lowercase(), 0, &mut out);
        out.into_iter()
            .map(|inv| (inv.program, inv.positional, inv.flags))
            .collect()
    }

    fn check_programs(line: &str, expected: &[&str]) {
        let found: Vec<String> = programs(line)
            .into_iter()
            .map(|(program, ..)| program)
            .collect();
        assert_eq!(found, expected, "{line}");
    }

    #[test]
    fn finds_programs_behind_wrappers_separators_and_quotes() {
        check_programs("sudo rm -rf /tmp/x", &["sudo", "rm"]);
        check_programs("FOO=1 /usr/bin/git push", &["git"]);
        check_programs(
            "cd repo && git push; ls | wc -l",
            &["cd", "git", "ls", "wc"],
        );
        check_programs("echo $(whoami)", &["echo", "whoami"]);
        check_programs("bash -c 'rm -rf build'", &["bash", "rm"]);
        check_programs("sudo -u root timeout 5 rm x", &["sudo", "timeout", "rm"]);
        check_programs("echo pseudocode", &["echo"]);
    }

    #[test]
    fn separates_subcommands_from_flags_and_flag_values() {
        let found = programs("git -C /repo push --force origin main");
        assert_eq!(found[0].1, ["push", "origin", "main"]);
        assert_eq!(found[0].2, ["-c", "--force"]);
        let found = programs("git push -f origin feature");
        assert_eq!(found[0].2, ["--force"]);
        let found = programs("rm -Rf dir");
        assert_eq!(found[0].2, ["-rf", "-r", "-f"]);
        let found = programs("terraform -chdir=infra apply -auto-approve");
        assert_eq!(found[0].1, ["apply"]);
    }

    #[test]
    fn walks_nested_arguments_and_marks_recipients() {
        let view = CallView::new(
            "send_email",
            &json!({"to": ["Sarah <S@x.com>"], "meta": {"attendees": [{"name": "Bob"}]},
                     "body": "Hi", "dry_run": true, "argv": ["git", "push"], "count": 3}),
        );
        let mut recipients: Vec<&str> = view
            .texts
            .iter()
            .filter(|text| text.recipient)
            .map(|text| text.lower.as_str())
            .collect();
        recipients.sort_unstable();
        assert_eq!(recipients, ["bob", "sarah <s@x.com>"]);
        assert_eq!(view.bool_flags, ["--dry-run"]);
        assert!(
            view.invocations()
                .iter()
                .any(|inv| inv.program == "git" && inv.positional == ["push"])
        );
        assert_eq!(view.tool_words, ["send", "email"]);
        assert!(is_recipient_key("toRecipients"));
        assert!(!is_recipient_key("body"));
    }
}
