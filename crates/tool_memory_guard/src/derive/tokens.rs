//! The tokenizer of derivation: a rule's words and quoted spans (code spans, quotes), each
//! classified once as a literal of a matcher kind (address, domain, URL, path, host, flag,
//! channel), a quoted command, or a plain word with the word lists it is on.

use std::borrow::Cow;

use crate::MatcherKind;
use crate::derive::lexicon::{NOT_FILES, POWERSHELL_VERBS, PROGRAM, SQL_KEYWORDS, word_class};
use crate::normalize::{flag_of_key, is_domain_like, is_ipv4, normalize_email, normalize_url};

#[derive(Debug, Clone)]
pub(crate) enum TokenKind {
    Entity(MatcherKind, String),
    /// A quoted command (`git push origin main`).
    QuotedCommand(String),
    Word,
}

#[derive(Debug, Clone)]
pub(crate) struct Token<'a> {
    pub(crate) kind: TokenKind,
    /// The word as written (punctuation trimmed).
    pub(crate) text: &'a str,
    /// Borrowed from the lower-case text where that has the same offsets (an ASCII text).
    pub(crate) lower: Cow<'a, str>,
    /// The word lists `lower` is on ([`word_class`]).
    pub(crate) class: u32,
    pub(crate) offset: usize,
    pub(crate) trailing_comma: bool,
    /// The word ends its clause or sentence (a comma, a semicolon, a colon, a full stop, a
    /// question or an exclamation mark after it).
    pub(crate) ends_clause: bool,
}

/// An IPv4 network written as a prefix (`10.*`, `192.168.*`) or in CIDR form at an octet
/// boundary (`10.0.0.0/8`, `192.168.0.0/16`), as the prefix form a `host` matcher takes.
fn ipv4_network(lower: &str) -> Option<String> {
    let octets = |text: &str| {
        text.split('.')
            .all(|part| !part.is_empty() && part.len() <= 3 && part.parse::<u8>().is_ok())
    };
    if let Some(prefix) = lower.strip_suffix(".*") {
        let count = prefix.split('.').count();
        return ((1..=3).contains(&count) && octets(prefix)).then(|| lower.to_owned());
    }
    let (address, bits) = lower.split_once('/')?;
    if !is_ipv4(address) {
        return None;
    }
    let kept = match bits {
        "8" => 1,
        "16" => 2,
        "24" => 3,
        _ => return None,
    };
    let prefix: Vec<&str> = address.split('.').take(kept).collect();
    Some(format!("{}.*", prefix.join(".")))
}

/// Classifies one trimmed, lower-case token; `None` for a plain word.
pub(crate) fn classify(lower: &str) -> Option<(MatcherKind, String)> {
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
        // "order #A-55120", "issue #1234": the `#` marks a number in prose, and a call names
        // the id without it (`{"order_id": "A-55120"}`); a name (`#general`) keeps it.
        let id = if rest.chars().any(|ch| ch.is_ascii_digit()) {
            rest
        } else {
            lower
        };
        return Some((MatcherKind::Literal, id.to_owned()));
    }
    let mut chars = lower.chars();
    let (first, second, third) = (chars.next(), chars.next(), chars.next());
    if first == Some('-')
        && (second.is_some_and(char::is_alphanumeric)
            || (second == Some('-') && third.is_some_and(char::is_alphabetic)))
    {
        // `-auto-approve=false`: a boolean turned off keeps its value (the flag alone is
        // true, the opposite); any other value is the flag's name alone (`-lock=true` is
        // `-lock`).
        let (name, value) = lower.split_once('=').unwrap_or((lower, ""));
        // `--env=production`, `--stage=prod`: an option given a word of its own is about
        // that value, not every value of the option (`--env=testing`).
        if value == "false" || names_a_value(value) {
            return Some((MatcherKind::Flag, lower.to_owned()));
        }
        return Some((MatcherKind::Flag, name.to_owned()));
    }
    let host_part = lower.split(':').next().unwrap_or_default();
    if is_ipv4(host_part) {
        return Some((MatcherKind::Host, host_part.to_owned()));
    }
    // `10.*`, `192.168.*`, `10.0.0.0/8`: every address of a network.
    if let Some(network) = ipv4_network(lower) {
        return Some((MatcherKind::Host, network));
    }
    // `paypal.me/scammer`: a host followed by a path is a URL without its scheme.
    if let Some((host, _)) = lower.split_once('/')
        && is_domain_like(host)
        && normalize_url(&format!("https://{lower}")).is_some()
    {
        return Some((MatcherKind::Url, format!("https://{lower}")));
    }
    // `*.internal.acme.dev`: every host under a domain.
    if let Some(domain) = lower.strip_prefix("*.")
        && is_domain_like(domain)
    {
        return Some((MatcherKind::Domain, domain.to_owned()));
    }
    if is_path_like(lower) {
        return Some((MatcherKind::Path, lower.to_owned()));
    }
    if is_domain_like(lower) {
        return Some((MatcherKind::Domain, lower.to_owned()));
    }
    None
}

/// Whether an option's value in a rule is a name the option is about (`production`, `prod`,
/// `us-east-1`), not a boolean or a number that only turns it on (`true`, `1`, `yes`) nor a
/// placeholder (`<name>`, `...`, `x`).
fn names_a_value(value: &str) -> bool {
    const ON_WORDS: &[&str] = &["true", "yes", "on", "1", "y", "enabled", "always"];
    value.len() >= 2
        && !ON_WORDS.contains(&value)
        && value.chars().any(|ch| ch.is_ascii_alphabetic())
        && value
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || "-_.".contains(ch))
}

/// File extensions longer than five letters, which a dotted name ends with far more often
/// than a name does (`tomasz.wojcik` is a handle; `build.gradle` a file).
const LONG_EXTENSIONS: &[&str] = &["gradle", "groovy", "sqlite", "svelte", "tfvars"];

/// Whether the word contains `://`. Looking for the colon first is cheaper on the usual word
/// that has none than a substring search.
pub(crate) fn has_scheme(lower: &str) -> bool {
    lower.contains(':') && lower.contains("://")
}

/// Whether a word holds a glob character: `*`, or a `?` before its last character (a last
/// `?` ends a question).
fn has_glob(lower: &str) -> bool {
    lower.contains('*') || lower.strip_suffix('?').unwrap_or(lower).contains('?')
}

/// `id_rsa*`, `*secret*`, `backup-??`: a glob whose other characters are a file name's.
fn is_bare_glob(lower: &str) -> bool {
    has_glob(lower)
        && lower.chars().filter(|ch| ch.is_alphanumeric()).count() >= 3
        && lower
            .chars()
            .all(|ch| ch.is_alphanumeric() || "_-*?".contains(ch))
}

pub(crate) fn is_path_like(lower: &str) -> bool {
    if has_scheme(lower) || NOT_FILES.contains(&lower) {
        return false;
    }
    let glob = has_glob(lower);
    let path_chars = |text: &str| {
        text.chars()
            .all(|ch| ch.is_alphanumeric() || "/._-~*\\:".contains(ch) || (glob && ch == '?'))
    };
    if !path_chars(lower) {
        return false;
    }
    // A glob (`*.key`, `secrets/**`, `.eslintrc.*`, `secret?.txt`) names the files it matches.
    if glob && lower.contains(['.', '/']) && lower.chars().any(char::is_alphanumeric) {
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
            && ((1..=5).contains(&extension.len()) || LONG_EXTENSIONS.contains(&extension))
            && extension.chars().all(|ch| ch.is_ascii_alphanumeric())
            && extension.chars().any(|ch| ch.is_ascii_alphabetic())
            && !is_domain_like(lower);
    }
    false
}

/// Quotes the guard reads as literal delimiters, with their closing partners.
pub(crate) fn closing_quote(open: char) -> Option<char> {
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
/// A span's content without a last word that is an ellipsis (`...`, `…`).
fn without_trailing_placeholder(content: &str) -> &str {
    match content.rsplit_once(char::is_whitespace) {
        Some((before, last)) if is_ellipsis(last) => before.trim_end(),
        _ => content,
    }
}

/// Whether a word is an ellipsis, the placeholder for any further words of a command.
pub(crate) fn is_ellipsis(word: &str) -> bool {
    word == "…" || (word.len() >= 3 && word.chars().all(|ch| ch == '.'))
}

pub(crate) fn quoted_spans(text: &str) -> Vec<(usize, usize, &str, bool)> {
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
                // `nomad job stop -namespace=prod ...`: a trailing placeholder says "and the
                // rest of the call"; the command is what comes before it.
                let content = without_trailing_placeholder(content);
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
pub(crate) fn offset_in(text: &str, part: &str) -> usize {
    part.as_ptr().addr() - text.as_ptr().addr()
}

/// The tokens of `text`, whose lower-case form is `lower_text`.
pub(crate) fn tokenize<'a>(text: &'a str, lower_text: &'a str) -> Vec<Token<'a>> {
    let spans = quoted_spans(text);
    // A short flag keeps its case (`git branch -D` is not `-d`), unless the rule is written in
    // capitals throughout, where case says nothing ("NEVER RUN RM -RF").
    let flag_case = text.chars().any(char::is_lowercase);
    // About one token per five bytes of prose: enough room for most rules at once.
    let mut tokens = Vec::with_capacity(spans.len() + text.len() / 5);
    for &(start, _, content, backtick) in &spans {
        let lower = content.to_lowercase();
        let first = lower.split_whitespace().next().unwrap_or_default();
        let first_is_program = word_class(first) & PROGRAM != 0;
        let single = !content.contains(char::is_whitespace);
        let kind = if single {
            match classify(content) {
                Some((MatcherKind::Flag, value)) if flag_case => {
                    TokenKind::Entity(MatcherKind::Flag, short_flag_case(content, value))
                }
                Some((kind, value)) => TokenKind::Entity(kind, value),
                None if backtick && (first_is_program || is_powershell_command(content)) => {
                    TokenKind::QuotedCommand(command_case(content, &lower, flag_case))
                }
                // A quoted glob of a bare file name (`id_rsa*`, `*secret*`) names files, even
                // without the dot or slash a glob in prose needs to be read as one.
                None if is_bare_glob(&lower) => TokenKind::Entity(MatcherKind::Path, lower.clone()),
                None => TokenKind::Entity(MatcherKind::Literal, lower.clone()),
            }
        } else if let Some(flag) = property_flag(content) {
            // `requires_approval: true`, `SafeToAutoRun: true`: the flag a `true` argument sets.
            TokenKind::Entity(MatcherKind::Flag, flag)
        } else if let Some(flag) = flag_with_value(content, flag_case) {
            // `--context staging`: the flag given that value.
            TokenKind::Entity(MatcherKind::Flag, flag)
        } else if SQL_KEYWORDS.contains(&first) {
            // `ALTER TABLE`, `DROP DATABASE`: a statement's words, not a program.
            TokenKind::Entity(MatcherKind::Literal, lower.clone())
        } else if backtick || first_is_program {
            TokenKind::QuotedCommand(command_case(content, &lower, flag_case))
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
            ends_clause: false,
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
        let ends_clause = raw
            .trim_end_matches(['"', '\'', ')', '*', '_'])
            .ends_with([',', ';', ':', '.', '!', '?']);
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
            Some((MatcherKind::Flag, value)) if flag_case => {
                TokenKind::Entity(MatcherKind::Flag, short_flag_case(trimmed, value))
            }
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
            ends_clause,
        });
    }
    // The words come in text order; only quoted spans (listed first) need sorting in.
    if !spans.is_empty() {
        tokens.sort_by_key(|token| token.offset);
        slashes_between_spans(text, &mut tokens);
        elided_commands(text, &mut tokens);
        commands_by_place(text, &mut tokens);
    }
    tokens
}

/// "Never `rm -rf ~/.npm` or `~/.m2`": a path alone in code, listed after a command whose last
/// argument is a path, is that command on this path (the words said once for both), not a
/// second condition on the first command.
fn elided_commands(text: &str, tokens: &mut [Token<'_>]) {
    let path_like = |word: &str| word.contains('/') || word.starts_with(['~', '.', '$']);
    for index in 1..tokens.len() {
        let TokenKind::Entity(MatcherKind::Path, path) = &tokens[index].kind else {
            continue;
        };
        if !text[tokens[index].offset..].starts_with('`') {
            continue;
        }
        // The command before: across "or"/"and"/"nor", or right after it with a comma.
        let before = match tokens[index - 1].lower.as_ref() {
            "or" | "and" | "nor" if index >= 2 => index - 2,
            _ => index - 1,
        };
        let TokenKind::QuotedCommand(command) = &tokens[before].kind else {
            continue;
        };
        if before == index - 1 {
            let start = tokens[before].offset + 1;
            let gap = text[start..]
                .find('`')
                .map_or("", |end| &text[start + end + 1..tokens[index].offset]);
            if gap.trim() != "," {
                continue;
            }
        }
        let mut words: Vec<&str> = command.split_whitespace().collect();
        if words.len() < 2 || !words.last().is_some_and(|last| path_like(last)) {
            continue;
        }
        let path = path.clone();
        words.pop();
        let spelled = format!("{} {path}", words.join(" "));
        tokens[index].kind = TokenKind::QuotedCommand(spelled);
    }
}

/// "No `cap deploy` / `cap rollback`": a slash alone between two code spans lists them, as "or"
/// does, and is no path (the root) the rule names.
fn slashes_between_spans(text: &str, tokens: &mut [Token<'_>]) {
    let quoted = |token: &Token| text[token.offset..].starts_with('`');
    for index in 1..tokens.len().saturating_sub(1) {
        if tokens[index].text == "/" && quoted(&tokens[index - 1]) && quoted(&tokens[index + 1]) {
            tokens[index].kind = TokenKind::Word;
            tokens[index].lower = Cow::Borrowed("or");
            tokens[index].class = word_class("or");
        }
    }
}

/// A backticked word the grammar does not know as a program (`truncate`, `pytest`,
/// `yarn10`) is a command where its place says so: after a verb of running or using ("always
/// run `pytest` with `-x`"), or in a list with a command ("never `truncate` or `rm`", "don't
/// use `pm10 install` or `yarn10`"), or before "calls" or "commands" ("`Rscript` calls must
/// use ..."). Elsewhere it stays a literal (`main`, `db-prod-2`).
fn commands_by_place(text: &str, tokens: &mut [Token<'_>]) {
    // A program's name as people type it: lower-case letters, digits and hyphens (`DELETE` is
    // a statement, `merge_pull_request` a tool).
    let program_like = |token: &Token| {
        matches!(&token.kind, TokenKind::Entity(MatcherKind::Literal, value)
            if value.len() >= 2
                && value.starts_with(|ch: char| ch.is_ascii_lowercase())
                && value.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'))
            && token.text.chars().all(|ch| !ch.is_uppercase())
            && text[token.offset..].starts_with('`')
    };
    let is_command = |token: &Token| matches!(token.kind, TokenKind::QuotedCommand(_));
    let joiner = |token: &Token| matches!(token.lower.as_ref(), "or" | "and" | "nor");
    let lower_text = text.to_lowercase();
    let is_choice = ["instead of", "rather than", "in place of", "prefer"]
        .iter()
        .any(|marker| lower_text.contains(marker));
    for index in 0..tokens.len() {
        // "`Rscript` calls must use `--vanilla`": a word in code that calls or commands are
        // of is a program, whatever its case.
        let called = tokens.get(index + 1).is_some_and(|token| {
            matches!(token.kind, TokenKind::Word)
                && matches!(
                    token.lower.as_ref(),
                    "call" | "calls" | "command" | "commands" | "invocation" | "invocations"
                )
        }) && matches!(&tokens[index].kind, TokenKind::Entity(MatcherKind::Literal, value)
            if value.len() >= 2
                && value.starts_with(|ch: char| ch.is_ascii_lowercase())
                && value.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'))
            && text[tokens[index].offset..].starts_with('`');
        if called {
            let value = tokens[index].lower.clone().into_owned();
            tokens[index].kind = TokenKind::QuotedCommand(value);
            continue;
        }
        if !program_like(&tokens[index]) {
            continue;
        }
        let before = index.checked_sub(1).map(|at| &tokens[at]);
        let after_verb = before.is_some_and(|token| {
            matches!(token.kind, TokenKind::Word)
                && RUN_OR_USE_VERBS.contains(&token.lower.as_ref())
        });
        // "`rg` over `grep`", "`bun test` rather than `jest`": the other side of a choice
        // between two ways to run something.
        let chosen_against = before.is_some_and(|token| {
            matches!(token.kind, TokenKind::Word)
                && matches!(token.lower.as_ref(), "of" | "over" | "than")
        }) && is_choice;
        // The list's neighbours: across "or"/"and", or a comma.
        let listed_after = before.is_some_and(|token| {
            (joiner(token) && index >= 2 && is_command(&tokens[index - 2]))
                || (is_command(token) && token.trailing_comma)
        });
        let listed_before = tokens.get(index + 1).is_some_and(|token| {
            (joiner(token) && tokens.get(index + 2).is_some_and(is_command))
                || (tokens[index].trailing_comma && is_command(token))
        });
        // "`mongosh` against the `atlas-prod` cluster": what is run against something.
        let run_against = tokens
            .get(index + 1)
            .is_some_and(|token| matches!(token.kind, TokenKind::Word) && token.lower == "against");
        // "Always pass `--replicas N` to `scalectl`": the program an option is passed to,
        // the last thing the rule names.
        let passed_to = before.is_some_and(|token| {
            matches!(token.kind, TokenKind::Word) && matches!(token.lower.as_ref(), "to" | "with")
        }) && tokens[index + 1..]
            .iter()
            .all(|token| matches!(token.kind, TokenKind::Word))
            && tokens[..index]
                .iter()
                .any(|token| text[token.offset..].starts_with("`-"));
        if after_verb || listed_after || listed_before || chosen_against || run_against || passed_to
        {
            let value = tokens[index].lower.clone().into_owned();
            tokens[index].kind = TokenKind::QuotedCommand(value);
        }
    }
}

/// Whether a word is a PowerShell command: a cmdlet's `Verb-Noun` name, capitalised, with one
/// of PowerShell's approved verbs (`Stop-Process`, `Remove-Item`), or a .NET static method
/// (`[Environment]::SetEnvironmentVariable`).
fn is_powershell_command(word: &str) -> bool {
    if let Some((class, method)) = word.split_once("]::") {
        return class.starts_with('[')
            && class.len() > 1
            && !method.is_empty()
            && method.chars().all(char::is_alphanumeric);
    }
    let Some((verb, noun)) = word.split_once('-') else {
        return false;
    };
    let capitalised = |part: &str| {
        part.starts_with(|ch: char| ch.is_ascii_uppercase())
            && part.len() >= 2
            && part.chars().all(|ch| ch.is_ascii_alphanumeric())
    };
    capitalised(verb)
        && capitalised(noun)
        && POWERSHELL_VERBS.contains(&verb.to_ascii_lowercase().as_str())
}

/// Verbs after which a backticked word is a program run (see [`commands_by_place`]).
const RUN_OR_USE_VERBS: &[&str] = &[
    "call", "execute", "invoke", "launch", "pipe", "piping", "run", "start", "type", "use", "using",
];

/// An argument set to `true`, written `key: true` or `key=true` (`requires_approval: true`):
/// the flag a call's `{"key": true}` sets ([`flag_of_key`]); `None` for anything else.
fn property_flag(content: &str) -> Option<String> {
    let (key, value) = content.split_once([':', '='])?;
    let key = key.trim();
    let identifier = key.starts_with(|ch: char| ch.is_ascii_alphabetic())
        && key
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    (identifier && value.trim().eq_ignore_ascii_case("true")).then(|| flag_of_key(key))
}

/// A quoted flag and its value (`--context staging`, `-n web`) as one flag matcher value,
/// `--context=staging`; `None` for anything else.
fn flag_with_value(content: &str, keep_case: bool) -> Option<String> {
    let mut words = content.split_whitespace();
    let (flag, value) = (words.next()?, words.next()?);
    if words.next().is_some() || value.starts_with('-') || flag.contains('=') {
        return None;
    }
    let lower = flag.to_lowercase();
    let Some((MatcherKind::Flag, name)) = classify(&lower) else {
        return None;
    };
    let name = if keep_case {
        short_flag_case(flag, name)
    } else {
        name
    };
    // `-e "DROP`: the value as the program gets it, without the quote that opens it.
    let value = value.trim_matches(['"', '\'']).to_lowercase();
    (!value.is_empty()).then(|| format!("{name}={value}"))
}

/// A flag's name (`value`, lower-case) with the case `written` gives it when it is a short
/// flag (`-D`): long flags are compared lower-case.
fn short_flag_case(written: &str, value: String) -> String {
    let name = written.split('=').next().unwrap_or_default();
    if name.starts_with("--") || name.len() != value.len() {
        value
    } else {
        name.to_owned()
    }
}

/// A quoted command's words lower-case, but for its short flags, which keep the case they are
/// written in when `keep` (see [`tokenize`]).
fn command_case(content: &str, lower: &str, keep: bool) -> String {
    if !keep || !content.contains(" -") {
        return lower.to_owned();
    }
    let written: Vec<&str> = content.split_whitespace().collect();
    let lowered: Vec<&str> = lower.split_whitespace().collect();
    if written.len() != lowered.len() {
        return lower.to_owned();
    }
    written
        .iter()
        .zip(&lowered)
        .map(|(written, lowered)| {
            if written.starts_with('-') && !written.starts_with("--") {
                *written
            } else {
                *lowered
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub(crate) fn is_flag(token: &Token) -> bool {
    matches!(token.kind, TokenKind::Entity(MatcherKind::Flag, _))
}

pub(crate) fn flag_value<'t>(token: &'t Token<'_>) -> Option<&'t str> {
    match &token.kind {
        TokenKind::Entity(MatcherKind::Flag, value) => Some(value),
        _ => None,
    }
}

/// Whether the token is a plain word on one of the lists of `class` ([`word_class`]).
pub(crate) fn is_word(token: &Token, class: u32) -> bool {
    matches!(token.kind, TokenKind::Word) && token.class & class != 0
}

/// Whether the token is a plain word in `words`.
pub(crate) fn is_word_in(token: &Token, words: &[&str]) -> bool {
    matches!(token.kind, TokenKind::Word) && words.contains(&token.lower.as_ref())
}
