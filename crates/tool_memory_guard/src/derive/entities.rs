//! The entities derivation reads from tokens: command phrases (a program, its subcommands and
//! flags, "force push", "X with sudo"), people named after a verb of contact, and hosts after
//! `ssh` or `server`.

use crate::MatcherKind;
use crate::call::option_takes_a_value;
use crate::derive::lexicon::*;
use crate::derive::tokens::{Token, TokenKind, flag_value, is_flag, is_word, is_word_in};

#[derive(Debug, Clone)]
pub(crate) struct CommandPhrase {
    pub(crate) offset: usize,
    /// Said as "force push": every way to force a push (`--force`, `-f`,
    /// `--force-with-lease`, a `+branch` refspec), not the one flag a user typed.
    pub(crate) force_words: bool,
    pub(crate) words: Vec<String>,
    pub(crate) adjacent_flags: Vec<String>,
    pub(crate) loose_flags: Vec<String>,
}

impl CommandPhrase {
    pub(crate) fn value(&self, extra_flag: Option<&str>) -> String {
        let mut parts = self.words.clone();
        parts.extend(self.adjacent_flags.iter().cloned());
        parts.extend(extra_flag.map(str::to_owned));
        parts.join(" ")
    }
}

/// Finds command phrases; returns them and marks the token indices they consumed.
pub(crate) fn command_phrases(
    tokens: &[Token],
    git_context: bool,
    used: &mut [bool],
) -> Vec<CommandPhrase> {
    let mut phrases = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        let token = &tokens[index];
        if let TokenKind::QuotedCommand(command) = &token.kind {
            let mut words: Vec<String> = Vec::new();
            let mut flags: Vec<String> = Vec::new();
            let mut parts = command.split_whitespace().peekable();
            while let Some(part) = parts.next() {
                if part.starts_with('-') && part.len() > 1 {
                    // `redis-cli -h prod`, `kubectl -n prod delete`: an option that takes a
                    // value keeps it, so the command is the one with that value, not one whose
                    // subcommand is the value.
                    let value = words
                        .first()
                        .filter(|program| {
                            !part.contains('=') && option_takes_a_value(program, words.get(1), part)
                        })
                        .and_then(|_| parts.next_if(|next| !next.starts_with('-')));
                    flags.push(match value {
                        Some(value) => format!("{part} {value}"),
                        None => part.to_owned(),
                    });
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
        // "delete remote branches", "ask before deleting any branch": every way git deletes
        // one, whether or not the text says git (a heading above it often does instead): a
        // local branch with `git branch -d`/`-D`, a remote one with `git push --delete` or a
        // `:ref` refspec. "local" or "remote" alone keeps to that side.
        if matches!(token.kind, TokenKind::Word)
            && is_word(token, DELETE_VERB)
            && let Some(object) = tokens[index + 1..].iter().take(4).position(|next| {
                next.lower.starts_with("branch")
                    || (next.lower.starts_with("ref")
                        && tokens[index + 1..].iter().any(|t| t.lower == "remote"))
            })
            && tokens[index + 1..index + 1 + object]
                .iter()
                .all(|next| matches!(next.kind, TokenKind::Word) && next.class & BRANCH == 0)
        {
            let end = index + object + 2;
            let between = &tokens[index + 1..end - 1];
            let says = |word: &str| between.iter().any(|next| next.lower == word);
            let (local, remote) = (says("local"), says("remote"));
            used[index..end].iter_mut().for_each(|slot| *slot = true);
            let sides: &[&str] = match (local, remote) {
                (true, false) => &["branch"],
                (false, true) => &["push"],
                _ => &["branch", "push"],
            };
            for side in sides {
                phrases.push(CommandPhrase {
                    offset: token.offset,
                    words: vec!["git".to_owned(), (*side).to_owned()],
                    adjacent_flags: vec!["--delete".to_owned()],
                    loose_flags: Vec::new(),
                    force_words: false,
                });
            }
            index = end;
            continue;
        }
        // "Rebasing always needs my go-ahead", "Pushing requires my OK": a gerund of git's that
        // opens the rule is its subject, git's verb ([`GIT_GERUND_SUBJECTS`]).
        if index == 0
            && matches!(token.kind, TokenKind::Word)
            && let Some((_, subcommand)) = GIT_GERUND_SUBJECTS
                .iter()
                .find(|(gerund, _)| *gerund == token.lower.as_ref())
            && tokens.get(1).is_some_and(|next| {
                matches!(next.kind, TokenKind::Word)
                    && GERUND_SUBJECT_FOLLOWERS.contains(&next.lower.as_ref())
            })
        {
            used[index] = true;
            phrases.push(git_verb_phrase(token.offset, subcommand));
            index += 1;
            continue;
        }
        // "Never push with `--force`", "don't rebase using `--onto`": git's verb said without
        // git with an option binds the option to that subcommand (`git fetch --force` and `rm
        // --force` are other commands).
        if matches!(token.kind, TokenKind::Word)
            && let Some(subcommand) = GIT_VERBS_WITH_OPTIONS
                .iter()
                .find(|verb| is_form_of(&token.lower, verb))
            && tokens
                .get(index + 1)
                .is_some_and(|next| matches!(next.lower.as_ref(), "with" | "using"))
            && let Some(TokenKind::Entity(MatcherKind::Flag, flag)) =
                tokens.get(index + 2).map(|next| &next.kind)
        {
            used[index] = true;
            used[index + 1] = true;
            used[index + 2] = true;
            phrases.push(CommandPhrase {
                offset: token.offset,
                words: vec!["git".to_owned(), (*subcommand).to_owned()],
                adjacent_flags: vec![flag.clone()],
                loose_flags: Vec::new(),
                force_words: false,
            });
            index += 3;
            continue;
        }
        // "never tag releases by hand", "don't tag a release": git's verbs said without git,
        // with an object only git gives them.
        if matches!(token.kind, TokenKind::Word)
            && let Some((subcommand, objects)) = GIT_VERB_OBJECTS
                .iter()
                .find(|(verb, _)| is_form_of(&token.lower, verb))
                .map(|(verb, objects)| (*verb, *objects))
            && tokens[index + 1..]
                .iter()
                .take(3)
                .any(|next| objects.contains(&next.lower.as_ref()))
        {
            used[index] = true;
            phrases.push(CommandPhrase {
                offset: token.offset,
                words: vec!["git".to_owned(), subcommand.to_owned()],
                adjacent_flags: Vec::new(),
                loose_flags: Vec::new(),
                force_words: false,
            });
            // "Never tag a release": creating a GitHub or GitLab release creates its tag.
            if subcommand == "tag"
                && tokens[index + 1..]
                    .iter()
                    .take(3)
                    .any(|next| next.lower.starts_with("release"))
            {
                for forge in RELEASE_CREATORS {
                    phrases.push(CommandPhrase {
                        offset: token.offset,
                        words: forge.split(' ').map(str::to_owned).collect(),
                        adjacent_flags: Vec::new(),
                        loose_flags: Vec::new(),
                        force_words: false,
                    });
                }
            }
            index += 1;
            continue;
        }
        // "Don't push.", "Never cherry-pick.", "No rebasing, ever", "ask me before you tag",
        // "do not push without asking": git's verb said bare right after the order, with
        // nothing after it but the clause's end or a word of circumstance, is that
        // subcommand. An object after it makes it English ("push back on bad ideas", "commit
        // to a design", "stash secrets in the code").
        if matches!(token.kind, TokenKind::Word)
            && opens_a_bare_order(
                &tokens[index.saturating_sub(BARE_ORDER_REACH)..index]
                    .iter()
                    .map(|token| token.lower.as_ref())
                    .collect::<Vec<_>>(),
            )
            && let Some(subcommand) = GIT_BARE_ORDER_VERBS
                .iter()
                .find(|verb| is_form_of(&token.lower, verb))
            && bare_at_the_end(&tokens[index..])
        {
            used[index] = true;
            phrases.push(git_verb_phrase(token.offset, subcommand));
            index += 1;
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
        // "git fetch/pull", "kubectl apply/delete": subcommands written as one word with
        // slashes are one command each, not every use of the program.
        let mut alternatives: Vec<String> = Vec::new();
        while let Some(candidate) = tokens.get(next) {
            if words.len() == 1
                && let Some(parts) = slashed_subcommands(candidate, known)
            {
                alternatives = parts;
                used[next] = true;
                next += 1;
                break;
            }
            if is_word_in(candidate, known) {
                words.push(candidate.lower.to_string());
                used[next] = true;
                next += 1;
            } else if let Some(subcommand) = (words.len() == 1)
                .then(|| noun_form_of(candidate, known))
                .flatten()
            {
                // "no docker pushes", "no npm publishes", "no helm upgrades": the subcommand
                // said as a noun, not every use of the program.
                words.push(subcommand.to_owned());
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
        for alternative in &alternatives {
            let mut words = words.clone();
            words.push(alternative.clone());
            phrases.push(CommandPhrase {
                offset: token.offset,
                words,
                adjacent_flags: adjacent_flags.clone(),
                loose_flags: Vec::new(),
                force_words: false,
            });
        }
        if alternatives.is_empty() {
            phrases.push(CommandPhrase {
                offset: token.offset,
                words,
                adjacent_flags,
                loose_flags: Vec::new(),
                force_words: false,
            });
        }
        index = next;
    }
    merge_wrappers(tokens, phrases)
}

/// The subcommands of `known` a word lists with slashes (`fetch/pull`, `apply/delete`), each
/// one of them; `None` unless every part is one.
fn slashed_subcommands(token: &Token, known: &[&str]) -> Option<Vec<String>> {
    let lower = token.lower.as_ref();
    if !lower.contains('/') || matches!(token.kind, TokenKind::QuotedCommand(_)) {
        return None;
    }
    let parts: Vec<&str> = lower.split('/').collect();
    (parts.len() <= 4 && parts.iter().all(|part| known.contains(part)))
        .then(|| parts.iter().map(|part| (*part).to_owned()).collect())
}

/// The subcommand of `known` that a word names as a noun or a gerund: `pushes`, `publishes`,
/// `upgrades`, `deploying`.
fn noun_form_of(token: &Token, known: &[&'static str]) -> Option<&'static str> {
    if !matches!(token.kind, TokenKind::Word)
        || !(token.lower.ends_with('s') || token.lower.ends_with("ing"))
    {
        return None;
    }
    known
        .iter()
        .find(|subcommand| {
            subcommand.len() >= 3
                && token.lower.as_ref() != **subcommand
                && is_form_of(&token.lower, subcommand)
        })
        .copied()
}

/// Commands that create a release, and with it its tag, on a forge.
const RELEASE_CREATORS: &[&str] = &["gh release create", "glab release create"];

/// Whether `word` is `verb` or one of its forms: `tag`, `tags`, `tagging`, `tagged`;
/// `rebase`, `rebases`, `rebasing`, `rebased`.
/// git's verbs that, said bare with an option ("push with `--force`"), are git's subcommands:
/// no other common tool is told to "rebase" or "push" with a flag in a rule about git.
const GIT_VERBS_WITH_OPTIONS: &[&str] = &[
    "checkout",
    "cherry-pick",
    "clean",
    "commit",
    "merge",
    "pull",
    "push",
    "rebase",
    "reset",
];

/// git's verbs that people give as a whole order without git ("Never merge.", "Don't
/// stash."): the ones no other common tool is told to do bare in a rule.
const GIT_BARE_ORDER_VERBS: &[&str] = &[
    "cherry-pick",
    "commit",
    "merge",
    "push",
    "rebase",
    "reset",
    "stash",
    "tag",
];

/// How many words before a bare verb [`opens_a_bare_order`] looks at: "Check with me before
/// you tag" is five.
pub(crate) const BARE_ORDER_REACH: usize = 6;

/// Whether the words right before a bare verb (`before`, nearest last) open an order about it:
/// "never", "don't", "no" right before it, or "before (you)" after a word of asking ("Ask me
/// before you push", "check with me before merging"). "before you push" after anything else is
/// the time of another order ("Don't forget to run the tests before you push").
pub(crate) fn opens_a_bare_order(before: &[&str]) -> bool {
    let Some((last, rest)) = before.split_last() else {
        return false;
    };
    if BARE_ORDER_OPENERS.contains(last) {
        return true;
    }
    let rest = match *last {
        "you" => match rest.split_last() {
            Some((&"before", rest)) => rest,
            _ => return false,
        },
        "before" => rest,
        _ => return false,
    };
    rest.iter().any(|word| BARE_ORDER_ASKING.contains(word))
}

/// Whether the verb that opens `tokens` ends its order: the clause ends after it, or after
/// adverbs ([`BARE_ORDER_ADVERBS`]), or a word of circumstance follows.
fn bare_at_the_end(tokens: &[Token]) -> bool {
    let mut index = 0;
    loop {
        if tokens[index].ends_clause {
            return true;
        }
        match tokens.get(index + 1) {
            None => return true,
            Some(next) if !matches!(next.kind, TokenKind::Word) => return false,
            Some(next) if BARE_ORDER_FOLLOWERS.contains(&next.lower.as_ref()) => return true,
            Some(next) if BARE_ORDER_ADVERBS.contains(&next.lower.as_ref()) => index += 1,
            Some(_) => return false,
        }
    }
}

fn is_form_of(word: &str, verb: &str) -> bool {
    let Some(rest) = word.strip_prefix(verb.trim_end_matches('e')) else {
        return false;
    };
    let doubled = verb
        .chars()
        .next_back()
        .map(String::from)
        .unwrap_or_default();
    let rest = rest
        .strip_prefix(doubled.as_str())
        .filter(|_| !verb.ends_with('e'))
        .unwrap_or(rest);
    matches!(rest, "" | "e" | "s" | "es" | "ing" | "ed" | "d")
        && (word.len() >= verb.len() || verb.ends_with('e'))
}

/// "npm install with sudo" means `sudo npm install`: a wrapper named after `with`, `using`
/// or `via` wraps the command before it, instead of being forbidden on its own.
pub(crate) fn merge_wrappers(tokens: &[Token], phrases: Vec<CommandPhrase>) -> Vec<CommandPhrase> {
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

pub(crate) fn is_name_word(token: &Token) -> bool {
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

pub(crate) fn strip_possessive(text: &str) -> &str {
    text.strip_suffix("'s")
        .or_else(|| text.strip_suffix("’s"))
        .unwrap_or(text)
}

/// A lower-case word right after a direct-contact verb that reads as a name.
pub(crate) fn is_lowercase_name(token: &Token) -> bool {
    matches!(token.kind, TokenKind::Word)
        && token.text.chars().count() >= 3
        && token
            .text
            .chars()
            .all(|ch| ch.is_lowercase() && ch.is_alphabetic())
        && token.class & (NOT_NAME | PERSON_FILLER | COMMON_WORD) == 0
}

/// People named after a verb of contact: "email Sarah", "send anything to Sarah or Tom".
pub(crate) fn person_names(tokens: &[Token], used: &[bool]) -> Vec<(usize, String)> {
    let mut names: Vec<(usize, String)> = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        if used[index] || !is_word(&tokens[index], PERSON_VERB) {
            index += 1;
            continue;
        }
        // "don't email tomasz.wojcik": a handle of the person's name (not a command the rule
        // names: "kill processes with `Stop-Process`").
        if let Some(name) = tokens
            .get(index + 1)
            .filter(|next| !used[index + 1] && !matches!(next.kind, TokenKind::QuotedCommand(_)))
            .and_then(|next| handle_name(next.text))
        {
            if !names.iter().any(|(_, known)| *known == name) {
                names.push((tokens[index + 1].offset, name));
            }
            index += 2;
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
        next = names_at(tokens, next, &mut names);
        index = next.max(index + 1);
    }
    names
}

/// The capitalised names (up to three words each) that start at token `next`, in a list
/// joined by commas, "and" or "or" ("Sarah Connor, Tom or Ana"), added to `names` once each;
/// returns the index after the last.
pub(crate) fn names_at(
    tokens: &[Token],
    mut next: usize,
    names: &mut Vec<(usize, String)>,
) -> usize {
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
    next
}

/// The name a chat or mail handle spells, lower-case words joined by spaces: `@TomaszWojcik`,
/// `tomasz.wojcik`, `tomasz_wojcik` are "tomasz wojcik". `None` unless it is two or three
/// words of letters (a name, not `config.yaml` or `@everyone`).
pub(crate) fn handle_name(text: &str) -> Option<String> {
    let handle = text
        .trim_matches('`')
        .strip_prefix('@')
        .unwrap_or(text.trim_matches('`'));
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for ch in handle.chars() {
        if ".-_".contains(ch) {
            words.push(std::mem::take(&mut word));
        } else if ch.is_alphabetic() {
            if ch.is_uppercase() && previous_lower {
                words.push(std::mem::take(&mut word));
            }
            word.extend(ch.to_lowercase());
        } else {
            return None;
        }
        previous_lower = ch.is_lowercase();
    }
    words.push(word);
    let named = (2..=3).contains(&words.len())
        && words.iter().all(|word| word.chars().count() >= 2)
        && words
            .iter()
            .all(|word| word_class(word) & (COMMON_WORD | NOT_NAME) == 0)
        && !FILE_EXTENSIONS.contains(&words.last().map_or("", String::as_str));
    named.then(|| words.join(" "))
}

/// Host names after `ssh`, `ssh into`, `log into`, `host`, `server`: `prod-db-1`.
pub(crate) fn host_names(tokens: &[Token], used: &[bool]) -> Vec<(usize, String)> {
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

/// git's verb said without git ("Never cherry-pick.", "tag releases"): `git <subcommand>`.
fn git_verb_phrase(offset: usize, subcommand: &str) -> CommandPhrase {
    CommandPhrase {
        offset,
        words: vec!["git".to_owned(), subcommand.to_owned()],
        adjacent_flags: Vec::new(),
        loose_flags: Vec::new(),
        force_words: false,
    }
}
