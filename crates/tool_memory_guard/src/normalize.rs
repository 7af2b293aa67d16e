//! Normal forms of the literals the guard compares: e-mail addresses, URLs, hosts, paths and
//! flags, plus the chunking of free text into candidate literals and the name words of a
//! recipient.
//!
//! Rule values and call values go through the same functions, so a match is an equality (or
//! a prefix at a component boundary) between two normal forms, never a raw substring search.
//! That is what keeps `sarah@example.com` away from `sarah.connor@example.com`.

mod lexicon;
mod lookalike;
mod paths;
mod words;

#[cfg(test)]
pub(crate) use self::lexicon::FLAG_ALIASES as OPTION_SPELLINGS;
pub(crate) use self::lexicon::PsParameter;
pub(crate) use self::lexicon::SCRIPT_EXTENSIONS;
use self::lexicon::{
    COMMAND_GROUPS, FLAG_ALIASES, FLAG_MEANINGS, KUBECTL_RESOURCES, MULTI_TASK_PROGRAMS,
    OPERATION_SPELLINGS, PACKAGE_BINS, POWERSHELL_CMDLETS, POWERSHELL_COMMON_PARAMETERS,
    PROGRAM_EQUIVALENTS, SCRIPT_RUNNING_MANAGERS, SUBCOMMAND_ALIASES, SUBCOMMAND_FLAG_ALIASES,
    TLDS, VERSIONED_PROGRAMS,
};
pub(crate) use self::lookalike::folded;
pub(crate) use self::paths::{PathPattern, component_matches, normalize_path, path_candidates};
pub(crate) use self::words::{CueSet, WordMap, WordRuns, WordSet, find_word};

/// Characters that end a chunk of free text. Quotes, brackets and list separators surround
/// literals in prose and in shell commands alike; none of them occurs inside an address, a
/// host or a flag.
fn is_chunk_separator(ch: char) -> bool {
    ch.is_whitespace()
        || matches!(
            ch,
            ',' | ';'
                | '<'
                | '>'
                | '('
                | ')'
                | '['
                | ']'
                | '{'
                | '}'
                | '"'
                | '\''
                | '`'
                | '|'
                | '“'
                | '”'
                | '‘'
                | '’'
        )
}

/// Punctuation that ends a sentence rather than a literal: `mail sarah@example.com.` names
/// `sarah@example.com`.
fn trim_chunk(chunk: &str) -> &str {
    chunk
        .trim_end_matches(['.', ':', '!', '?', '*'])
        .trim_start_matches('*')
}

/// Splits text into candidate literals (addresses, URLs, paths, hosts, flags, words).
pub(crate) fn chunks(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_chunk_separator)
        .map(trim_chunk)
        .filter(|chunk| !chunk.is_empty())
}

/// Maximal runs of alphanumeric characters, the unit of the guard's token index.
pub(crate) fn alnum_runs(text: &str) -> impl Iterator<Item = &str> {
    text.split(|ch: char| !ch.is_alphanumeric())
        .filter(|run| !run.is_empty())
}

/// A shell variable's name when `word` is a reference to it, `$NAME` or `${NAME}`
/// (lower-case): the one form a rule's literal is compared in.
pub(crate) fn variable_reference(word: &str) -> Option<&str> {
    let name = word.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|inner| inner.strip_suffix('}'))
        .unwrap_or(name);
    is_variable_name(name).then_some(name)
}

fn is_variable_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
        && name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

/// Whether a (lower-case) text expands the shell variable `name` however it is spelled:
/// `$NAME`, `${NAME}`, `"${NAME}"`, `${NAME:-default}`, but never a longer name
/// (`$NAME_RO`), since the shell reads the longest name it can.
pub(crate) fn expands_variable(text: &str, name: &str) -> bool {
    text.match_indices('$').any(|(at, _)| {
        let rest = &text[at + 1..];
        let (braced, rest) = match rest.strip_prefix('{') {
            Some(inner) => (true, inner),
            None => (false, rest),
        };
        let Some(after) = rest.strip_prefix(name) else {
            return false;
        };
        let next = after.chars().next();
        if braced {
            // `${NAME}`, or an expansion of it: `${NAME:-x}`, `${NAME#x}`, `${NAME/a/b}`.
            next.is_some_and(|ch| "}:-=?+#%/[@^,".contains(ch))
        } else {
            next.is_none_or(|ch| !(ch.is_ascii_alphanumeric() || ch == '_'))
        }
    })
}

/// The first alphanumeric run of a normalised value, lower-cased; the key a matcher is
/// indexed under.
pub(crate) fn first_run(value: &str) -> Option<String> {
    alnum_runs(value).next().map(str::to_lowercase)
}

fn is_local_part_char(ch: char) -> bool {
    ch.is_alphanumeric() || "._%+-'!#$&*=^{}~/".contains(ch)
}

fn is_host_char(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '-' || ch == '.'
}

/// The normal form of an e-mail address: lower-case, no `mailto:`, no `Name <...>` wrapper, no
/// `+tag` (plus-addressing reaches the same mailbox). `None` when the text is not an address.
///
/// The provider's own equivalences are applied too (see `docs/guard.md`): `%2E`-style
/// percent-encoding is decoded, and for Gmail, whose documentation says dots in the local
/// part are ignored and googlemail.com is the same service, `j.doe@googlemail.com` is
/// `jdoe@gmail.com`.
pub(crate) fn normalize_email(raw: &str) -> Option<String> {
    let mut text = raw.trim().to_lowercase();
    if text.contains('%') {
        text = percent_decoded(&text);
    }
    if let (Some(open), Some(close)) = (text.find('<'), text.rfind('>'))
        && open < close
    {
        text = text[open + 1..close].to_owned();
    }
    let mut text = text.trim_matches(|ch: char| is_chunk_separator(ch) || ch == '.');
    if let Some(rest) = text.strip_prefix("mailto:") {
        text = rest;
    }
    if let Some(query) = text.find('?') {
        text = &text[..query];
    }
    let at = text.rfind('@')?;
    let (mut local, domain) = (&text[..at], &text[at + 1..]);
    // `to=sarah@example.com` and `--to=sarah@...` name the address after the `=`.
    if let Some(eq) = local.rfind(['=', ':']) {
        local = &local[eq + 1..];
    }
    if let Some(plus) = local.find('+')
        && plus > 0
    {
        local = &local[..plus];
    }
    let domain = domain.trim_end_matches('.');
    let domain = if domain == "googlemail.com" {
        "gmail.com"
    } else {
        domain
    };
    let undotted;
    if domain == "gmail.com" && local.contains('.') {
        undotted = local.replace('.', "");
        local = &undotted;
    }
    if local.is_empty()
        || domain.is_empty()
        || !local.chars().all(is_local_part_char)
        || !domain.chars().all(is_host_char)
        || domain.starts_with(['.', '-'])
        || !domain.chars().any(char::is_alphanumeric)
    {
        return None;
    }
    Some(format!("{local}@{domain}"))
}

/// `text` with each `%XX` escape decoded; an escape that is not one, or that decodes to
/// something other than UTF-8 text, is kept as written.
pub(crate) fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%'
            && let Some(hex) = text.get(at + 1..at + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            at += 3;
            continue;
        }
        out.push(bytes[at]);
        at += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// A URL reduced to what identifies a resource for the guard: host, explicit non-default
/// port and path. Scheme, `www.`, user info, query, fragment and trailing slashes are dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UrlParts {
    pub(crate) host: String,
    pub(crate) port: Option<String>,
    /// Empty or `/a/b`, never ending in `/`.
    pub(crate) path: String,
}

impl UrlParts {
    /// The display form: `host[:port][/path]`.
    pub(crate) fn display(&self) -> String {
        let mut out = self.host.clone();
        if let Some(port) = &self.port {
            out.push(':');
            out.push_str(port);
        }
        out.push_str(&self.path);
        out
    }

    /// Whether `other` (a call's URL) is this URL or lies below it.
    pub(crate) fn covers(&self, other: &UrlParts) -> bool {
        self.host == other.host
            && (self.port.is_none() || self.port == other.port)
            && (self.path.is_empty()
                || other.path == self.path
                || other
                    .path
                    .strip_prefix(self.path.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
                || (self.path.contains('*') && path_glob_covers(&self.path, &other.path)))
    }
}

/// Whether the glob path `pattern` (`/acme/*`, `/acme/api-*`: a `*` within one segment) is
/// `path` or lies above it: each of its segments matches the path's in turn.
fn path_glob_covers(pattern: &str, path: &str) -> bool {
    let mut segments = path.split('/');
    pattern.split('/').all(|wanted| {
        segments
            .next()
            .is_some_and(|given| segment_glob(wanted, given))
    })
}

/// One path segment against a pattern with `*` for any run of characters.
fn segment_glob(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

impl UrlParts {
    /// A container image's reference (`ghcr.io/acme/api:1.4`, `registry.local:5000/x@sha256:..`)
    /// as the place it is pushed to or pulled from: the registry's host and the repository's
    /// path, without its tag or digest. `None` for a word without a registry host (a dotted
    /// name or a port before the first `/`) or with a scheme.
    pub(crate) fn of_image(word: &str) -> Option<UrlParts> {
        if word.len() > 512 {
            return None;
        }
        // (`https://x`: the registry would be `https:`, a port of no digits.)
        let (registry, repository) = word.split_once('/')?;
        let (host, port) = match registry.split_once(':') {
            Some((host, port))
                if !port.is_empty() && port.chars().all(|ch| ch.is_ascii_digit()) =>
            {
                (host, Some(port.to_owned()))
            }
            Some(_) => return None,
            None => (registry, None),
        };
        let labels_ok = host.split('.').count() >= 2
            && host.split('.').all(|label| {
                !label.is_empty()
                    && label
                        .chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
            });
        if !(labels_ok || (host == "localhost" && port.is_some())) {
            return None;
        }
        let repository = repository.split('@').next().unwrap_or_default();
        let repository = match repository.rsplit_once(':') {
            Some((name, tag)) if !tag.contains('/') => name,
            _ => repository,
        };
        if repository.is_empty()
            || !repository
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "-_./".contains(ch))
        {
            return None;
        }
        Some(UrlParts {
            host: host.to_lowercase(),
            port,
            path: format!("/{}", repository.trim_end_matches('/').to_lowercase()),
        })
    }
}

/// Parses `scheme://host/path` or `www.host/path`. `None` for anything else.
pub(crate) fn normalize_url(raw: &str) -> Option<UrlParts> {
    let text = raw.trim().to_lowercase();
    let text = text.trim_end_matches(['.', ',', ')']);
    let rest = match text.find("://") {
        Some(index) => {
            let scheme = &text[..index];
            if scheme.is_empty()
                || !scheme
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || "+-.".contains(ch))
            {
                return None;
            }
            &text[index + 3..]
        }
        None if text.starts_with("www.") => text,
        None => return None,
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let mut authority = &rest[..end];
    if let Some(at) = authority.rfind('@') {
        authority = &authority[at + 1..];
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|ch| ch.is_ascii_digit()) => (host, Some(port)),
        _ => (authority, None),
    };
    let host = host.trim_end_matches('.');
    let host = host.strip_prefix("www.").unwrap_or(host);
    if host.is_empty() || !host.chars().all(|ch| is_host_char(ch) || ch == '_') {
        return None;
    }
    let port = port.filter(|port| !port.is_empty() && *port != "80" && *port != "443");
    let tail = &rest[end..];
    let path_end = tail.find(['?', '#']).unwrap_or(tail.len());
    let path = collapse_slashes(&tail[..path_end]);
    let path = path.trim_end_matches('/').to_owned();
    Some(UrlParts {
        host: host.to_owned(),
        port: port.map(str::to_owned),
        path,
    })
}

fn collapse_slashes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut previous_slash = false;
    for ch in text.chars() {
        if ch == '/' && previous_slash {
            continue;
        }
        previous_slash = ch == '/';
        out.push(ch);
    }
    out
}

/// Whether a lower-case dotted name looks like a host or domain: labels of letters, digits
/// and hyphens, and a final label from [`TLDS`].
pub(crate) fn is_domain_like(text: &str) -> bool {
    let mut labels = text.split('.');
    let Some(last) = text.rsplit('.').next() else {
        return false;
    };
    text.contains('.')
        && labels.all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && label.chars().all(|ch| ch.is_alphanumeric() || ch == '-')
        })
        && TLD_SET.contains(last)
}

/// [`TLDS`] as a set: every dotted word of a rule and of a call is checked against it.
static TLD_SET: std::sync::LazyLock<WordSet> =
    std::sync::LazyLock::new(|| TLDS.iter().copied().collect());

/// Whether the text is a dotted-quad IPv4 address.
pub(crate) fn is_ipv4(text: &str) -> bool {
    // Counted rather than collected: derivation asks this of nearly every word of a rule.
    let mut parts = 0;
    text.split('.').all(|part| {
        parts += 1;
        parts <= 4 && !part.is_empty() && part.len() <= 3 && part.parse::<u8>().is_ok()
    }) && parts == 4
}

/// The host a chunk of a call names, if any: the domain of an address, the host of a URL, a
/// bare dotted host name or an IP address (with `user@` and `:port` removed).
pub(crate) fn host_of_chunk(chunk: &str) -> Option<String> {
    let lower = chunk.to_lowercase();
    if lower.contains("://") || lower.starts_with("www.") {
        return normalize_url(&lower).map(|url| dotted_ipv4(&url.host).unwrap_or(url.host));
    }
    if lower.contains('@') {
        return normalize_email(&lower)
            .map(|email| email.rsplit('@').next().unwrap_or_default().to_owned())
            .or_else(|| {
                // `deploy@web-3.example.com:/srv/`: the host of a copy's or a login's target
                // (`scp`, `rsync`, `ssh`), which is no address.
                let (_, target) = lower.rsplit_once('@')?;
                let (host, _) = target.split_once(':')?;
                (is_domain_like(host) || is_ipv4(host)).then(|| host.to_owned())
            });
    }
    let bare = bare_host(&lower);
    (is_domain_like(bare) || is_ipv4(bare)).then(|| bare.to_owned())
}

/// An IPv4 address a URL writes as one number (`http://167772161/`, `http://0x0a000001/`) or
/// with hexadecimal or octal parts (`0x0a.0.0.1`, `012.0.0.1`), which resolvers read as the
/// address, in dotted decimal form; `None` for any other host (a dotted decimal address is
/// already in that form).
pub(crate) fn dotted_ipv4(host: &str) -> Option<String> {
    let number = |part: &str| -> Option<u64> {
        if let Some(hex) = part.strip_prefix("0x") {
            u64::from_str_radix(hex, 16).ok()
        } else if part.len() > 1 && part.starts_with('0') {
            u64::from_str_radix(&part[1..], 8).ok()
        } else if !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit()) {
            part.parse().ok()
        } else {
            None
        }
    };
    // `[::ffff:10.0.0.1]`: an IPv4 address mapped into IPv6 is that address.
    let address = host
        .strip_prefix("[::ffff:")
        .and_then(|rest| rest.strip_suffix(']'))
        .unwrap_or(host);
    let numbers: Vec<u64> = address.split('.').map(number).collect::<Option<_>>()?;
    // As `inet_aton` reads them: the last part fills the bytes the others leave (`10.1` is
    // `10.0.0.1`, `192.168.257` is `192.168.1.1`, `167772161` is `10.0.0.1`).
    let (last, leading) = numbers.split_last()?;
    if leading.len() > 3 || leading.iter().any(|part| *part > 255) {
        return None;
    }
    let last_bits = 8 * (4 - leading.len() as u32);
    if *last >= 1u64 << last_bits {
        return None;
    }
    let value = (leading.iter().fold(0u64, |value, part| (value << 8) | part) << last_bits) | last;
    let dotted = format!(
        "{}.{}.{}.{}",
        value >> 24,
        (value >> 16) & 255,
        (value >> 8) & 255,
        value & 255
    );
    (dotted != host).then_some(dotted)
}

/// Strips a path, a `:port` and a leading `user@` from a host-like chunk (`deploy@db-1:22`).
pub(crate) fn bare_host(chunk: &str) -> &str {
    let chunk = chunk.rsplit_once('@').map_or(chunk, |(_, host)| host);
    let chunk = chunk.split('/').next().unwrap_or_default();
    let chunk = chunk.split(':').next().unwrap_or_default();
    chunk.trim_end_matches('.')
}

/// The normal form of a domain written in a rule: lower-case, without `@`, `*.`, `www.` or a
/// trailing dot.
pub(crate) fn normalize_domain(raw: &str) -> String {
    let lower = raw.trim().to_lowercase();
    let text = lower.trim_start_matches('@').trim_start_matches("*.");
    let text = text.strip_prefix("www.").unwrap_or(text);
    text.trim_end_matches('.').to_owned()
}

/// Whether `host` is `domain` or one of its subdomains (`mail.example.com` for `example.com`,
/// never `notexample.com`).
pub(crate) fn host_in_domain(host: &str, domain: &str) -> bool {
    host == domain
        || host
            .strip_suffix(domain)
            .is_some_and(|rest| rest.ends_with('.'))
}

/// A flag name in the case it is compared in: a long flag (`--Force`) lower-case, a short one
/// (`-D`, `-Rf`, `-auto-approve`) as written, since programs tell `-d` from `-D`.
pub(crate) fn flag_case(name: &str) -> std::borrow::Cow<'_, str> {
    if name.starts_with("--") && name.bytes().any(|byte| byte.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(name.to_lowercase())
    } else if name.starts_with("--") || name.is_ascii() {
        std::borrow::Cow::Borrowed(name)
    } else {
        std::borrow::Cow::Owned(name.to_lowercase())
    }
}

/// Expands one flag token into the flags it sets: `--force=yes` → `--force`; `-rf` → `-rf`,
/// `-r`, `-f` (short clusters of up to four letters); long flags lower-case, short ones in
/// their own case ([`flag_case`]).
pub(crate) fn expand_flag(token: &str, out: &mut Vec<String>) {
    let name = flag_case(token.split('=').next().unwrap_or_default());
    if name.len() < 2 || !name.starts_with('-') {
        return;
    }
    out.push(name.clone().into_owned());
    if !name.starts_with("--") {
        let letters = &name[1..];
        if (2..=4).contains(&letters.len()) && letters.chars().all(|ch| ch.is_ascii_alphabetic()) {
            out.extend(letters.chars().map(|ch| format!("-{ch}")));
        }
    }
}

/// The canonical spelling of `flag` for `program`. Borrowed, since a check asks this of every
/// flag of every invocation for each flag rule.
pub(crate) fn canonical_flag<'a>(program: &str, flag: &'a str) -> &'a str {
    if matches!(program, "pwsh" | "powershell")
        && let Some(parameter) = pwsh_parameter(flag)
    {
        return parameter;
    }
    FLAG_ALIASES
        .iter()
        .find(|(alias_program, from, _)| *alias_program == program && *from == flag)
        .map_or(flag, |(_, _, to)| to)
}

/// The parameters of `pwsh` and `powershell` themselves (not of a cmdlet), as documented.
const POWERSHELL_PARAMETERS: &[&str] = &[
    "-Command",
    "-ConfigurationName",
    "-CustomPipeName",
    "-EncodedCommand",
    "-ExecutionPolicy",
    "-File",
    "-InputFormat",
    "-Interactive",
    "-Login",
    "-MTA",
    "-NoExit",
    "-NoLogo",
    "-NonInteractive",
    "-NoProfile",
    "-OutputFormat",
    "-STA",
    "-SettingsFile",
    "-Version",
    "-WindowStyle",
    "-WorkingDirectory",
];

/// The documented aliases of [`POWERSHELL_PARAMETERS`] that are no prefix of theirs.
const POWERSHELL_PARAMETER_ALIASES: &[(&str, &str)] = &[
    ("-ec", "-EncodedCommand"),
    ("-ep", "-ExecutionPolicy"),
    ("-ex", "-ExecutionPolicy"),
    ("-wd", "-WorkingDirectory"),
];

/// The parameter of `pwsh` a flag names (issue 21, twelfth round, P5): PowerShell reads a
/// parameter case-blind and by any unambiguous prefix (`-exec`, `-EXECUTIONPOLICY`), besides
/// its documented aliases (`-ep`). `None` for a flag that names none or several.
fn pwsh_parameter(flag: &str) -> Option<&'static str> {
    let name = flag.strip_prefix("--").or_else(|| flag.strip_prefix('-'))?;
    if name.is_empty() || !name.is_ascii() {
        return None;
    }
    if let Some((_, parameter)) = POWERSHELL_PARAMETER_ALIASES
        .iter()
        .find(|(alias, _)| alias[1..].eq_ignore_ascii_case(name))
    {
        return Some(parameter);
    }
    let mut found = POWERSHELL_PARAMETERS.iter().filter(|parameter| {
        parameter.len() > name.len() && parameter[1..=name.len()].eq_ignore_ascii_case(name)
            || parameter[1..].eq_ignore_ascii_case(name)
    });
    let first = found.next()?;
    // An exact name wins over the longer ones it is a prefix of (`-Login`).
    if first[1..].eq_ignore_ascii_case(name) {
        return Some(first);
    }
    match found.next() {
        Some(second) if second[1..].eq_ignore_ascii_case(name) => Some(second),
        Some(_) => None,
        None => Some(first),
    }
}

/// Whether `flag` of `program` is a parameter of `pwsh` that takes a value
/// (`-ExecutionPolicy Bypass`, `-ep Bypass`).
pub(crate) fn pwsh_takes_a_value(program: &str, flag: &str) -> bool {
    matches!(program, "pwsh" | "powershell")
        && pwsh_parameter(flag).is_some_and(|parameter| {
            !matches!(
                parameter,
                "-Interactive"
                    | "-Login"
                    | "-MTA"
                    | "-NoExit"
                    | "-NoLogo"
                    | "-NonInteractive"
                    | "-NoProfile"
                    | "-STA"
            )
        })
}

/// The flags `flag` sets for `program`, canonical: those of [`FLAG_MEANINGS`] (`git -D` is
/// `--delete` and `--force`), or its [`canonical_flag`] spelling.
pub(crate) fn flag_meanings<'a>(program: &str, flag: &'a str) -> impl Iterator<Item = &'a str> {
    let implied = FLAG_MEANINGS
        .iter()
        .find(|(known, short, _)| *known == program && *short == flag)
        .map(|(_, _, meanings)| *meanings);
    let own = implied.is_none().then(|| canonical_flag(program, flag));
    implied.into_iter().flatten().copied().chain(own)
}

/// [`flag_meanings`] for a flag given after `subcommand` (`git commit -n` is `--no-verify`,
/// [`SUBCOMMAND_FLAG_ALIASES`]).
pub(crate) fn flag_meanings_after<'a>(
    program: &str,
    subcommand: Option<&str>,
    flag: &'a str,
) -> impl Iterator<Item = &'a str> {
    let own = subcommand.and_then(|subcommand| {
        SUBCOMMAND_FLAG_ALIASES
            .iter()
            .find(|(known, sub, from, _)| *known == program && *sub == subcommand && *from == flag)
            .map(|(_, _, _, to)| *to)
    });
    let general = own.is_none().then(|| flag_meanings(program, flag));
    own.into_iter().chain(general.into_iter().flatten())
}

/// Whether an invocation of `program` with the (canonical) `flags` sets `flag`: every flag
/// `flag` stands for is among them.
pub(crate) fn sets_flag(program: &str, flag: &str, flags: &[String]) -> bool {
    flag_meanings(program, flag).all(|meaning| flags.iter().any(|seen| seen == meaning))
}

/// Every spelling a flag may take in a call, for the index: the flag itself and whatever
/// aliases to it under any program.
pub(crate) fn flag_spellings(flag: &str) -> Vec<String> {
    let mut spellings = vec![flag.to_owned()];
    let mut add = |spelling: &str| {
        if !spellings.iter().any(|known| known == spelling) {
            spellings.push(spelling.to_owned());
        }
    };
    for (_, from, to) in FLAG_ALIASES {
        if *to == flag {
            add(from);
        }
    }
    for (_, _, from, to) in SUBCOMMAND_FLAG_ALIASES {
        if *to == flag {
            add(from);
        }
    }
    // A parameter of `pwsh` is spelt by its aliases and by any prefix (`-ep`, `-Exec`).
    if POWERSHELL_PARAMETERS.contains(&flag) {
        for (alias, parameter) in POWERSHELL_PARAMETER_ALIASES {
            if *parameter == flag {
                add(alias);
            }
        }
        for end in 3..flag.len() {
            add(&flag[..end]);
        }
    }
    // `-D` is set by `--delete --force`, and sets `--delete`: each way of setting a flag is a
    // spelling of it.
    for (_, short, meanings) in FLAG_MEANINGS {
        if *short == flag {
            for meaning in *meanings {
                add(meaning);
                for (_, from, to) in FLAG_ALIASES {
                    if to == meaning {
                        add(from);
                    }
                }
            }
        } else if meanings.contains(&flag) {
            add(short);
        }
    }
    spellings
}

/// The flag a boolean argument sets: `{"dry_run": true}` and `{"dryRun": true}` both set
/// `--dry-run`.
pub(crate) fn flag_of_key(key: &str) -> String {
    let mut out = String::from("--");
    let mut previous_lower = false;
    for ch in key.chars() {
        if ch == '_' || ch == ' ' {
            out.push('-');
        } else if ch.is_uppercase() && previous_lower {
            out.push('-');
            out.extend(ch.to_lowercase());
        } else {
            out.extend(ch.to_lowercase());
        }
        previous_lower = ch.is_lowercase();
    }
    out
}

/// The program a command token runs: its base name (`/usr/bin/rm` → `rm`), lower-case, with
/// a versioned spelling of a program named by its version (`pip3`, `pip3.12`, `python3.11`)
/// read as the program itself: `pip3 install` is `pip install`.
pub(crate) fn program_name(token: &str) -> String {
    // A package named for what a runner runs (`firebase-tools@13` runs `firebase`).
    let lower = token.to_lowercase();
    let package = match lower.rsplit_once('@') {
        Some((name, _)) if !name.is_empty() => name,
        _ => lower.as_str(),
    };
    if let Ok(at) = PACKAGE_BINS.binary_search_by(|(known, _)| (*known).cmp(package)) {
        return PACKAGE_BINS[at].1.to_owned();
    }
    let base = token.rsplit('/').next().unwrap_or(token).to_lowercase();
    // A package runner's `name@version` (`npx yarn@1.22.19`, `bunx wrangler@3`) runs `name`.
    let base = match base.split_once('@') {
        Some((name, version)) if !name.is_empty() && !version.is_empty() => name.to_owned(),
        _ => base,
    };
    // A script is its name without the extension (`kafka-topics.sh` is `kafka-topics`,
    // `esptool.py` is `esptool`): the same program installed as a script or as a command,
    // as distributions ship both.
    let base = match base.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() && SCRIPT_EXTENSIONS.contains(&extension) => {
            stem.to_owned()
        }
        _ => base,
    };
    match versionless(&base) {
        Some(program) => program.to_owned(),
        None => base,
    }
}

/// The program a program's name is compared as, and the subcommand words the name stands for
/// ([`PROGRAM_EQUIVALENTS`]): `docker-compose` is `docker compose`, `mvnw` is `mvn`. A
/// PowerShell cmdlet that does a Unix program's job is that program ([`powershell_cmdlet`]).
pub(crate) fn equivalent_program(program: String) -> (String, &'static [&'static str]) {
    if let Some((compared, _)) = powershell_cmdlet(&program) {
        return (compared.to_owned(), &[]);
    }
    match PROGRAM_EQUIVALENTS.binary_search_by(|(known, ..)| (*known).cmp(program.as_str())) {
        Ok(at) => (
            PROGRAM_EQUIVALENTS[at].1.to_owned(),
            PROGRAM_EQUIVALENTS[at].2,
        ),
        Err(_) => (program, &[]),
    }
}

/// The program a PowerShell cmdlet (lower-case) is compared as, and its parameters
/// ([`POWERSHELL_CMDLETS`]).
pub(crate) fn powershell_cmdlet(
    cmdlet: &str,
) -> Option<(&'static str, &'static [(&'static str, PsParameter)])> {
    POWERSHELL_CMDLETS
        .binary_search_by(|(known, ..)| (*known).cmp(cmdlet))
        .ok()
        .map(|at| (POWERSHELL_CMDLETS[at].1, POWERSHELL_CMDLETS[at].2))
}

/// The parameters of the cmdlet a program is compared as (`rm` is `Remove-Item`): PowerShell's
/// aliases (`rm`, `ri`, `kill`) take the cmdlet's parameters (`rm -Recurse -Force`).
pub(crate) fn cmdlet_parameters_of(
    program: &str,
) -> Option<&'static [(&'static str, PsParameter)]> {
    POWERSHELL_CMDLETS
        .iter()
        .find(|(_, compared, _)| *compared == program)
        .map(|(_, _, parameters)| *parameters)
}

/// Whether a word can only be a PowerShell parameter, not a cluster of short flags: one dash
/// (or an en or em dash) and more letters than a cluster has (`-Recurse`, `–Force`).
pub(crate) fn is_long_powershell_word(word: &str) -> bool {
    let letters = word
        .strip_prefix('-')
        .or_else(|| word.strip_prefix('\u{2013}'))
        .or_else(|| word.strip_prefix('\u{2014}'))
        .unwrap_or_default();
    let name = letters.split(':').next().unwrap_or_default();
    (name.len() > 4 || word.starts_with(['\u{2013}', '\u{2014}']))
        && name.chars().all(|ch| ch.is_ascii_alphabetic())
}

/// The name of a PowerShell parameter a word gives, lower-case: `-Recurse`, `-fo`, `–Force`
/// (PowerShell takes an en or em dash for the hyphen), `-Path:C:\x`. `None` for a word that is
/// no parameter.
pub(crate) fn powershell_parameter_name(word: &str) -> Option<String> {
    let rest = word
        .strip_prefix('-')
        .or_else(|| word.strip_prefix('\u{2013}'))
        .or_else(|| word.strip_prefix('\u{2014}'))?;
    let name = rest.split(':').next().unwrap_or_default();
    (name.starts_with(|ch: char| ch.is_alphabetic())
        && name.chars().all(|ch| ch.is_alphanumeric() || ch == '-'))
    .then(|| name.to_lowercase())
}

/// What a cmdlet's parameter named `name` (or a unique prefix of its name, as PowerShell
/// reads it) does; `None` when no parameter of the cmdlet, or several, have that name.
pub(crate) fn powershell_parameter(
    parameters: &[(&str, PsParameter)],
    name: &str,
) -> Option<PsParameter> {
    if let Some((_, parameter)) = parameters.iter().find(|(known, _)| *known == name) {
        return Some(*parameter);
    }
    let mut matching = parameters
        .iter()
        .filter(|(known, _)| known.starts_with(name));
    let first = matching.next()?;
    let common = POWERSHELL_COMMON_PARAMETERS
        .iter()
        .any(|known| known.starts_with(name));
    (matching.next().is_none() && !common).then_some(first.1)
}

/// The subcommand an invocation's flags belong to: its first word, or for a program's command
/// group the word after it (`docker compose down -v`: `down`, [`COMMAND_GROUPS`]).
pub(crate) fn flags_subcommand<'a>(program: &str, positional: &'a [String]) -> Option<&'a str> {
    let first = positional.first()?;
    if COMMAND_GROUPS
        .iter()
        .any(|(known, group)| *known == program && group == first)
        && let Some(second) = positional.get(1)
    {
        return Some(second);
    }
    Some(first)
}

/// The platforms fastlane takes before a lane (`fastlane ios beta`), from its docs.
const FASTLANE_PLATFORMS: &[&str] = &["android", "ios", "mac"];

/// An invocation's words in the form commands are compared in, once they are all read (the
/// same for a call's invocation and a rule's command): `service nginx restart` is `systemctl
/// restart nginx`; `terragrunt run-all apply` (`terraform run-all apply`) is `terraform
/// apply`; a Gradle task path is its task (`:db:flywayClean` is `flywayclean`); a package
/// script a package manager runs by its name is run by `run` (`pnpm db:reset` is `pnpm run
/// db:reset`, [`SCRIPT_RUNNING_MANAGERS`]).
pub(crate) fn canonical_words(program: &mut String, positional: &mut Vec<String>) {
    if program == "service" && positional.len() >= 2 {
        "systemctl".clone_into(program);
        positional.swap(0, 1);
    }
    match program.as_str() {
        "terraform" if positional.first().is_some_and(|word| word == "run-all") => {
            positional.remove(0);
        }
        // Capistrano takes the stage before the task (`cap production deploy`): the task is
        // compared first, the stage after it, so `cap rollback` names it on every stage.
        "cap"
            if positional.len() >= 2
                && !is_cap_task(&positional[0])
                && is_cap_task(&positional[1]) =>
        {
            positional.swap(0, 1);
        }
        // fastlane takes the platform before the lane (`fastlane ios release`): the lane is
        // compared first, the platform after it, so `fastlane release` names it on every
        // platform, and `fastlane ios release` on iOS only.
        "fastlane"
            if positional.len() >= 2 && FASTLANE_PLATFORMS.contains(&positional[0].as_str()) =>
        {
            positional.swap(0, 1);
        }
        // `kubectl delete deploy/api` is `kubectl delete deployment api`: a resource type
        // under its full singular name, split from the object it names.
        "kubectl" if positional.len() >= 2 => {
            if let Some((kind, name)) = positional[1].split_once('/')
                && !kind.is_empty()
                && !name.is_empty()
                && !name.contains('/')
            {
                let (kind, name) = (kind.to_owned(), name.to_owned());
                positional[1] = kind;
                positional.insert(2, name);
            }
            if let Ok(at) = KUBECTL_RESOURCES
                .binary_search_by(|(alias, _)| (*alias).cmp(positional[1].as_str()))
            {
                KUBECTL_RESOURCES[at].1.clone_into(&mut positional[1]);
            }
        }
        // `gcloud config set core/project x` is `gcloud config set project x`: `core` is the
        // section a bare property name is in.
        "gcloud"
            if positional.len() >= 3
                && positional[0] == "config"
                && matches!(
                    positional[1].as_str(),
                    "set" | "get" | "unset" | "get-value"
                ) =>
        {
            if let Some(property) = positional[2].strip_prefix("core/") {
                let property = property.to_owned();
                positional[2] = property;
            }
        }
        // `mix do deps.get, ecto.reset` runs each task.
        "mix" if positional.first().is_some_and(|word| word == "do") => {
            let tasks: Vec<String> = positional[1..]
                .iter()
                .flat_map(|word| word.split(','))
                .filter(|task| !task.is_empty())
                .map(str::to_owned)
                .collect();
            *positional = tasks;
        }
        "gradle" => {
            for word in positional.iter_mut() {
                if let Some((_, task)) = word.rsplit_once(':')
                    && !task.is_empty()
                {
                    *word = task.to_owned();
                }
            }
        }
        _ => {}
    }
    if let Some((_, commands)) = SCRIPT_RUNNING_MANAGERS
        .iter()
        .find(|(manager, _)| manager == program)
        && let Some(first) = positional.first()
        && !commands.contains(&first.as_str())
        && !first.starts_with(['.', '/', '-'])
    {
        positional.insert(0, "run".to_owned());
    }
}

/// Whether a word is a Capistrano task: one of its own, or a namespaced one (`deploy:check`).
fn is_cap_task(word: &str) -> bool {
    word.contains(':')
        || matches!(
            word,
            "deploy" | "rollback" | "install" | "invoke" | "doctor" | "console" | "setup"
        )
}

/// The other ways a call may spell a command (its words in compared form, [`canonical_words`]):
/// under each name the program has (`mvnw deploy` for `mvn deploy`, `remove-item` for `rm`,
/// `service nginx restart` for `systemctl restart nginx`) and without the `run` a package
/// manager needs no word for (`pnpm db:reset`). For the index, which must find a rule under
/// any spelling a call may use.
pub(crate) fn command_spellings(words: &[String]) -> Vec<Vec<String>> {
    let Some((program, rest)) = words.split_first() else {
        return Vec::new();
    };
    let mut spellings: Vec<Vec<String>> = Vec::new();
    // `terraform destroy` as `terraform apply -destroy`: the words a call gives (its flag
    // needs no word of the index).
    for (known, given, _, operation) in OPERATION_SPELLINGS {
        if known == program
            && rest.starts_with(
                &operation
                    .iter()
                    .map(|word| (*word).to_owned())
                    .collect::<Vec<_>>(),
            )
        {
            let mut spelling = vec![program.clone()];
            spelling.extend(given.iter().map(|word| (*word).to_owned()));
            spelling.extend(rest[operation.len()..].iter().cloned());
            spellings.push(spelling);
        }
    }
    // `rm -rf build` as `find build -delete` or `find build -exec rm -rf {} +`, which the call
    // side reads as the removal (`call/shell.rs`): its places under `find`, without the flags.
    if program == "rm" {
        let mut spelling = vec!["find".to_owned()];
        spelling.extend(rest.iter().filter(|word| !word.starts_with('-')).cloned());
        spellings.push(spelling);
    }
    // `kubectl delete deployment` as `kubectl delete deploy`.
    if program == "kubectl" && rest.len() >= 2 {
        for (alias, full) in KUBECTL_RESOURCES {
            if *full == rest[1] {
                let mut spelling = vec![program.clone(), rest[0].clone(), (*alias).to_owned()];
                spelling.extend(rest[2..].iter().cloned());
                spellings.push(spelling);
            }
        }
    }
    if program == "systemctl" && rest.len() >= 2 {
        let mut spelling = vec!["service".to_owned(), rest[1].clone(), rest[0].clone()];
        spelling.extend(rest[2..].iter().cloned());
        spellings.push(spelling);
    }
    if rest.first().is_some_and(|word| word == "run")
        && SCRIPT_RUNNING_MANAGERS
            .iter()
            .any(|(manager, _)| manager == program)
    {
        let mut spelling = vec![program.clone()];
        spelling.extend(rest[1..].iter().cloned());
        spellings.push(spelling);
    }
    // `hadoop fs -rm` for `hdfs dfs -rm`: a subcommand's short name under each name of the
    // program ([`SUBCOMMAND_ALIASES`]).
    if let Some(subcommand) = rest.first() {
        let named: Vec<Vec<String>> = spellings
            .iter()
            .filter(|spelling| spelling.get(1) == Some(subcommand))
            .cloned()
            .chain(std::iter::once(words.to_vec()))
            .collect();
        for (known, alias, full) in SUBCOMMAND_ALIASES {
            if known == program && full == subcommand {
                for spelling in &named {
                    let mut aliased = spelling.clone();
                    aliased[1] = (*alias).to_owned();
                    spellings.push(aliased);
                }
            }
        }
    }
    // Every spelling under each other name of its program (`k delete ns` for `kubectl delete
    // namespace`, `Remove-Item` for `rm`): a call may use the other name with any of them.
    let named: Vec<Vec<String>> = std::iter::once(words.to_vec())
        .chain(spellings.iter().cloned())
        .collect();
    for spelling in &named {
        let (program, rest) = spelling.split_first().expect("a spelling has its program");
        for (from, to, prefix) in PROGRAM_EQUIVALENTS {
            if to == program
                && rest
                    .iter()
                    .map(String::as_str)
                    .take(prefix.len())
                    .eq(prefix.iter().copied())
            {
                let mut other = vec![(*from).to_owned()];
                other.extend(rest[prefix.len()..].iter().cloned());
                spellings.push(other);
            }
        }
        for (cmdlet, compared, _) in POWERSHELL_CMDLETS {
            if compared == program && cmdlet != program {
                let mut other = vec![(*cmdlet).to_owned()];
                other.extend(rest.iter().cloned());
                spellings.push(other);
            }
        }
    }
    spellings
}

/// The words of the operation an invocation spells another way ([`OPERATION_SPELLINGS`]):
/// `terraform apply -destroy` gives `destroy`.
pub(crate) fn operation_spelled(
    program: &str,
    positional: &[String],
    flags: &[String],
) -> Option<Vec<String>> {
    OPERATION_SPELLINGS
        .iter()
        .find(|(known, given, flag, _)| {
            *known == program
                && positional.len() >= given.len()
                && positional
                    .iter()
                    .zip(given.iter())
                    .all(|(seen, word)| seen == word)
                && flags.iter().any(|seen| seen == flag)
        })
        .map(|(_, given, _, operation)| {
            operation
                .iter()
                .map(|word| (*word).to_owned())
                .chain(positional[given.len()..].iter().cloned())
                .collect()
        })
}

/// Whether `program` takes tasks in any order ([`MULTI_TASK_PROGRAMS`]).
pub(crate) fn takes_tasks(program: &str) -> bool {
    MULTI_TASK_PROGRAMS.contains(&program)
}

/// Whether a package manager's first word (`drizzle-kit` in `pnpm drizzle-kit push`) is none of
/// its own commands, which it runs as a script or, failing that, as a package's program.
pub(crate) fn runs_unknown_word(program: &str, word: &str) -> bool {
    SCRIPT_RUNNING_MANAGERS
        .iter()
        .find(|(manager, _)| *manager == program)
        .is_some_and(|(_, commands)| {
            !commands.contains(&canonical_subcommand(program, word)) && !word.starts_with('-')
        })
}

/// The commands of the packages of [`PACKAGE_BINS`] a text names.
pub(crate) fn package_bins_in(text: &str) -> impl Iterator<Item = &'static str> {
    let lower = text.to_ascii_lowercase();
    PACKAGE_BINS
        .iter()
        .filter(move |(package, _)| lower.contains(package))
        .map(|(_, bin)| *bin)
}

/// The full name of a program's subcommand given by a short name (`npm i` is `npm install`,
/// [`SUBCOMMAND_ALIASES`]); the word itself otherwise.
pub(crate) fn canonical_subcommand<'a>(program: &str, word: &'a str) -> &'a str {
    SUBCOMMAND_ALIASES
        .binary_search_by(|(known, alias, _)| (*known, *alias).cmp(&(program, word)))
        .map_or(word, |at| SUBCOMMAND_ALIASES[at].2)
}

/// Whether a program's subcommand has short names, so a call may spell it without its word.
pub(crate) fn has_aliases(program: &str, subcommand: &str) -> bool {
    SUBCOMMAND_ALIASES
        .iter()
        .any(|(known, _, full)| *known == program && *full == subcommand)
}

/// The program a versioned name (`pip3`, `python3.11`) is, for the index's word lookup.
pub(crate) fn versionless(word: &str) -> Option<&'static str> {
    // Asked of every word of every call: most end in a letter and are no versioned program.
    if !word.ends_with(|ch: char| ch.is_ascii_digit()) {
        return None;
    }
    VERSIONED_PROGRAMS.iter().copied().find(|program| {
        // `get`, not indexing: a word of any script may have no character boundary there
        // (`ééé1` panicked the check).
        word.get(..program.len())
            .zip(word.get(program.len()..))
            .is_some_and(|(name, version)| {
                name.eq_ignore_ascii_case(program)
                    && version.starts_with(|ch: char| ch.is_ascii_digit())
                    && version.chars().all(|ch| ch.is_ascii_digit() || ch == '.')
            })
    })
}

/// The name words of a recipient value: display names and the local part of addresses
/// (`sarah.j@corp.com` → `sarah`, `j`), never the domain.
pub(crate) fn person_tokens(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    for chunk in chunks(text) {
        let name_part = match chunk.rsplit_once('@') {
            // `@kevin` is a handle: the name follows the sigil.
            Some(("", handle)) => handle,
            Some((local, _)) => local.strip_prefix("mailto:").unwrap_or(local),
            None => chunk,
        };
        tokens.extend(
            name_part
                .split(|ch: char| !ch.is_alphanumeric())
                .filter(|word| !word.is_empty()),
        );
    }
    tokens
}

#[cfg(test)]
mod tests {

    fn canonical(command: &[&str]) -> Vec<String> {
        let mut program = command[0].to_owned();
        let mut positional: Vec<String> = command[1..].iter().map(|w| (*w).to_owned()).collect();
        canonical_words(&mut program, &mut positional);
        std::iter::once(program).chain(positional).collect()
    }

    #[test]
    fn reads_an_image_reference_as_its_registry_and_repository() {
        let image = |word: &str| UrlParts::of_image(word).map(|url| url.display());
        assert_eq!(
            image("ghcr.io/acme/api:1.4.0").as_deref(),
            Some("ghcr.io/acme/api")
        );
        assert_eq!(
            image("registry.local:5000/team/web@sha256:abc").as_deref(),
            Some("registry.local:5000/team/web")
        );
        // No registry host: a path, an image of Docker Hub, a URL.
        assert_eq!(image("build/out"), None);
        assert_eq!(image("acme/api:1"), None);
        assert_eq!(image("https://ghcr.io/acme/api"), None);
        let rule = normalize_url("https://ghcr.io/acme/*").expect("a URL");
        let covered = |word: &str| UrlParts::of_image(word).is_some_and(|url| rule.covers(&url));
        assert!(covered("ghcr.io/acme/api:2"));
        assert!(covered("ghcr.io/acme/web/worker"));
        assert!(!covered("ghcr.io/acme-evil/api"));
        assert!(!covered("ghcr.io/other/api"));
        assert!(!covered("ghcr.io/acme"));
        assert!(segment_glob("api-*", "api-web") && !segment_glob("api-*", "web-api"));
    }

    #[test]
    fn lanes_and_tasks_are_compared_by_their_name() {
        assert_eq!(
            canonical(&["fastlane", "ios", "release"]),
            ["fastlane", "release", "ios"]
        );
        assert_eq!(canonical(&["fastlane", "release"]), ["fastlane", "release"]);
        assert_eq!(
            canonical(&["gradle", ":app:publish"]),
            ["gradle", "publish"]
        );
        assert_eq!(
            canonical(&["gradle", ":app:publishtomavenlocal"]),
            ["gradle", "publishtomavenlocal"]
        );
        assert_eq!(
            canonical(&["git", "stash", "push"]),
            ["git", "stash", "push"]
        );
    }

    #[test]
    fn a_variable_is_one_name_however_it_is_spelled() {
        assert_eq!(super::variable_reference("${db_url}"), Some("db_url"));
        assert_eq!(super::variable_reference("$db_url"), Some("db_url"));
        assert_eq!(super::variable_reference("$1x"), None);
        for text in [
            "psql \"${db_url}\"",
            "psql $db_url -c x",
            "u=${db_url:-x} psql",
        ] {
            assert!(super::expands_variable(text, "db_url"), "{text}");
        }
        for text in [
            "psql $db_url_ro",
            "psql ${db_url_ro}",
            "psql db_url",
            "psql $db_ur",
        ] {
            assert!(!super::expands_variable(text, "db_url"), "{text}");
        }
    }

    #[test]
    fn aliases_of_resources_properties_and_tasks_are_their_full_names() {
        assert!(
            KUBECTL_RESOURCES
                .windows(2)
                .all(|pair| pair[0].0 < pair[1].0),
            "KUBECTL_RESOURCES must be sorted for lookup"
        );
        assert_eq!(
            canonical(&["kubectl", "delete", "deploy", "api"]),
            ["kubectl", "delete", "deployment", "api"]
        );
        assert_eq!(
            canonical(&["kubectl", "delete", "statefulsets/redis"]),
            ["kubectl", "delete", "statefulset", "redis"]
        );
        assert_eq!(
            canonical(&["kubectl", "get", "pods"]),
            ["kubectl", "get", "pod"]
        );
        assert_eq!(
            canonical(&["kubectl", "apply", "./k8s/a.yaml"]),
            ["kubectl", "apply", "./k8s/a.yaml"]
        );
        assert_eq!(
            canonical(&["gcloud", "config", "set", "core/project", "x"]),
            ["gcloud", "config", "set", "project", "x"]
        );
        assert_eq!(
            canonical(&["gcloud", "config", "set", "compute/zone", "x"]),
            ["gcloud", "config", "set", "compute/zone", "x"]
        );
        assert_eq!(
            canonical(&["mix", "do", "deps.get,", "ecto.reset"]),
            ["mix", "deps.get", "ecto.reset"]
        );
        assert_eq!(equivalent_program("micromamba".to_owned()).0, "conda");
        assert_eq!(equivalent_program("flyctl".to_owned()).0, "fly");
        let flags = |list: &[&str]| list.iter().map(|f| (*f).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            operation_spelled("terraform", &flags(&["apply"]), &flags(&["-destroy"])),
            Some(flags(&["destroy"]))
        );
        assert_eq!(
            operation_spelled("terraform", &flags(&["apply"]), &[]),
            None
        );
        assert_eq!(
            operation_spelled("conda", &flags(&["remove", "legacy"]), &flags(&["--all"])),
            Some(flags(&["env", "remove", "legacy"]))
        );
    }

    #[test]
    fn an_address_written_as_a_number_is_its_dotted_form() {
        assert_eq!(dotted_ipv4("167772161").as_deref(), Some("10.0.0.1"));
        assert_eq!(dotted_ipv4("0x0a000001").as_deref(), Some("10.0.0.1"));
        assert_eq!(dotted_ipv4("0xc0.0xa8.1.1").as_deref(), Some("192.168.1.1"));
        assert_eq!(dotted_ipv4("012.0.0.1").as_deref(), Some("10.0.0.1"));
        assert_eq!(dotted_ipv4("10.0.0.1"), None);
        assert_eq!(dotted_ipv4("example.com"), None);
        assert_eq!(dotted_ipv4("99999999999"), None);
        assert_eq!(dotted_ipv4("10.1").as_deref(), Some("10.0.0.1"));
        assert_eq!(dotted_ipv4("192.168.257").as_deref(), Some("192.168.1.1"));
        assert_eq!(
            dotted_ipv4("[::ffff:10.0.0.1]").as_deref(),
            Some("10.0.0.1")
        );
        assert_eq!(dotted_ipv4("1.2.3.4.5"), None);
        assert_eq!(dotted_ipv4("10.256.0.1"), None);
        assert_eq!(
            host_of_chunk("http://3232235777/admin").as_deref(),
            Some("192.168.1.1")
        );
    }

    use super::*;

    fn check_email(raw: &str, expected: Option<&str>) {
        assert_eq!(normalize_email(raw).as_deref(), expected, "{raw}");
    }

    #[test]
    fn subcommands_by_their_short_names() {
        assert!(
            SUBCOMMAND_ALIASES
                .windows(2)
                .all(|pair| (pair[0].0, pair[0].1) < (pair[1].0, pair[1].1)),
            "SUBCOMMAND_ALIASES must be sorted for lookup"
        );
        assert_eq!(canonical_subcommand("npm", "i"), "install");
        assert_eq!(canonical_subcommand("npm", "isntall"), "install");
        assert_eq!(canonical_subcommand("helm", "delete"), "uninstall");
        assert_eq!(canonical_subcommand("yarn", "i"), "i");
        assert!(has_aliases("npm", "install"));
        assert!(!has_aliases("npm", "ci"));
    }

    #[test]
    fn a_versioned_program_is_the_program() {
        assert_eq!(versionless("pip3"), Some("pip"));
        assert_eq!(versionless("Python3.11"), Some("python"));
        assert_eq!(versionless("pipx"), None);
        assert_eq!(versionless("pip"), None);
        // Words of any script, with no character boundary where a program name would end.
        assert_eq!(versionless("ééé1"), None);
        assert_eq!(versionless("pé1"), None);
        assert_eq!(program_name("/usr/bin/ééé1"), "ééé1");
        assert_eq!(program_name("yarn@1.22.19"), "yarn");
        assert_eq!(program_name("@cloudflare/wrangler@3"), "wrangler");
        assert_eq!(program_name("firebase-tools@13.0.2"), "firebase");
        assert_eq!(program_name("@angular/cli"), "ng");
        assert!(PACKAGE_BINS.windows(2).all(|pair| pair[0].0 < pair[1].0));
    }

    #[test]
    fn normalises_email_addresses() {
        check_email("Sarah@Example.COM", Some("sarah@example.com"));
        check_email("mailto:sarah@example.com", Some("sarah@example.com"));
        check_email("Sarah Lee <sarah@example.com>", Some("sarah@example.com"));
        check_email("sarah+news@example.com", Some("sarah@example.com"));
        check_email("sarah@example.com.", Some("sarah@example.com"));
        check_email("--to=sarah@example.com", Some("sarah@example.com"));
        check_email(
            "mailto:sarah@example.com?subject=hi",
            Some("sarah@example.com"),
        );
        check_email("sarah.connor@example.com", Some("sarah.connor@example.com"));
        check_email("@example.com", None);
        check_email("sarah@", None);
        check_email("not an address", None);
    }

    fn check_url(raw: &str, expected: Option<&str>) {
        assert_eq!(
            normalize_url(raw).map(|url| url.display()).as_deref(),
            expected,
            "{raw}"
        );
    }

    #[test]
    fn normalises_urls() {
        check_url("https://www.Example.com/", Some("example.com"));
        check_url("http://example.com:80/a//b/?q=1#x", Some("example.com/a/b"));
        check_url("https://example.com:443/admin", Some("example.com/admin"));
        check_url("http://localhost:8080/x", Some("localhost:8080/x"));
        check_url("www.example.com/pricing", Some("example.com/pricing"));
        check_url("https://user:pw@host.internal/", Some("host.internal"));
        check_url("example.com", None);
        check_url("not a url", None);
    }

    #[test]
    fn url_prefixes_stop_at_path_boundaries() {
        let rule = normalize_url("https://intranet.corp/admin").unwrap();
        let covers = |call: &str| rule.covers(&normalize_url(call).unwrap());
        assert!(covers("http://www.intranet.corp/admin/"));
        assert!(covers("https://intranet.corp/admin/users?id=1"));
        assert!(!covers("https://intranet.corp/administrator"));
        assert!(!covers("https://intranet.corp/"));
        assert!(!covers("https://other.corp/admin"));
    }

    #[test]
    fn domains_match_subdomains_only() {
        assert!(host_in_domain("example.com", "example.com"));
        assert!(host_in_domain("mail.example.com", "example.com"));
        assert!(!host_in_domain("notexample.com", "example.com"));
        assert!(!host_in_domain("example.com.evil.io", "example.com"));
        assert_eq!(normalize_domain("@Corp.com"), "corp.com");
        assert_eq!(normalize_domain("*.corp.com"), "corp.com");
        assert!(is_domain_like("mail.example.com"));
        assert!(!is_domain_like("config.yaml"));
        assert!(!is_domain_like("main.rs"));
        assert!(is_ipv4("10.0.0.5"));
        assert!(!is_ipv4("10.0.0"));
        assert_eq!(
            host_of_chunk("deploy@db.prod.internal").as_deref(),
            Some("db.prod.internal")
        );
        assert_eq!(host_of_chunk("https://www.x.io/a").as_deref(), Some("x.io"));
        assert_eq!(host_of_chunk("10.0.0.5:22").as_deref(), Some("10.0.0.5"));
        assert_eq!(host_of_chunk("notes.txt"), None);
    }

    fn check_path(rule: &str, call: &str, expected: bool) {
        let pattern = PathPattern::new(rule);
        assert_eq!(
            pattern.covers(&normalize_path(call)),
            expected,
            "{rule} vs {call}"
        );
    }

    #[test]
    fn globs_match_with_glob_semantics() {
        for (rule, call, expected) in [
            ("~/.aws/*", "/home/dev/.aws/credentials", true),
            ("~/.aws/*", "~/.aws/config", true),
            ("~/.aws/*", "/home/dev/.awsome/x", false),
            ("*.key", "/srv/app/certs/tls.key", true),
            ("*.key", "tls.key", true),
            ("*.key", "config/api.keys.example", false),
            ("*.key", "src/keyboard.rs", false),
            ("secrets/**", "secrets/prod/db.yaml", true),
            ("secrets/**", "/repo/secrets/prod/db.yaml", true),
            ("secrets/**", "docs/secrets.md", false),
            (".github/workflows/*.yml", ".github/workflows/ci.yml", true),
            (
                ".github/workflows/*.yml",
                "/repo/.github/workflows/release.yml",
                true,
            ),
            (".github/workflows/*.yml", ".github/codeowners", false),
            (".eslintrc.*", "/repo/.eslintrc.cjs", true),
            (".eslintrc.*", "/repo/eslintrc.cjs", false),
            ("~/.ssh/id_*", "/home/dev/.ssh/id_ed25519", true),
            ("~/.ssh/id_*", "/home/dev/.ssh/config", false),
            ("src/**/test?.rs", "/repo/src/a/b/test1.rs", true),
            ("src/**/test?.rs", "/repo/src/test1.rs", true),
            ("src/**/test?.rs", "/repo/src/a/test12.rs", false),
            ("/etc/*.conf", "/etc/nginx.conf", true),
            ("/etc/*.conf", "/srv/etc/nginx.conf", false),
        ] {
            check_path(rule, call, expected);
        }
    }

    #[test]
    fn paths_match_at_component_boundaries() {
        assert_eq!(normalize_path("./a//b/./c/"), "a/b/c");
        assert_eq!(normalize_path("/tmp/../etc/passwd"), "/etc/passwd");
        assert_eq!(normalize_path("C:\\Users\\Me"), "c:/users/me");
        check_path("/etc", "/etc/passwd", true);
        check_path("/etc/", "//etc//", true);
        check_path("/etc", "/etcetera", false);
        check_path("/etc", "/home/etc", false);
        check_path("/", "/", true);
        check_path("/", "/tmp/build", false);
        check_path(".env", "/app/.env", true);
        check_path(".env", "./.env", true);
        check_path(".env", ".env.example", false);
        check_path("~/.ssh", "/home/bob/.ssh/id_rsa", true);
        check_path("~/.ssh/", "~/.ssh/config", true);
        check_path("secrets/", "./secrets/prod.key", true);
        check_path("secrets", "my-secrets/x", false);
        check_path("/tmp/../etc/shadow", "/etc/shadow", true);
    }

    #[test]
    fn flags_expand_and_alias_per_program() {
        let mut out = Vec::new();
        expand_flag("-rf", &mut out);
        assert_eq!(out, ["-rf", "-r", "-f"]);
        out.clear();
        expand_flag("--force=true", &mut out);
        assert_eq!(out, ["--force"]);
        out.clear();
        expand_flag("-auto-approve", &mut out);
        assert_eq!(out, ["-auto-approve"]);
        assert_eq!(canonical_flag("git", "-f"), "--force");
        assert_eq!(canonical_flag("tar", "-f"), "-f");
        assert_eq!(canonical_flag("pwsh", "-ep"), "-ExecutionPolicy");
        assert_eq!(canonical_flag("powershell", "-Exec"), "-ExecutionPolicy");
        assert_eq!(
            canonical_flag("pwsh", "-executionpolicy"),
            "-ExecutionPolicy"
        );
        assert_eq!(canonical_flag("pwsh", "-No"), "-No");
        assert_eq!(canonical_flag("pwsh", "-nop"), "-NoProfile");
        assert_eq!(canonical_flag("rm", "--recursive"), "-r");
        assert_eq!(flag_of_key("dry_run"), "--dry-run");
        assert_eq!(flag_of_key("dryRun"), "--dry-run");
        assert_eq!(flag_of_key("force"), "--force");
        assert!(flag_spellings("--force").contains(&"-f".to_owned()));
    }

    #[test]
    fn finds_whole_words_only() {
        assert_eq!(find_word("git push origin main", "main"), Some(16));
        assert_eq!(find_word("origin/main", "main"), Some(7));
        assert_eq!(find_word("head:main", "main"), Some(5));
        assert_eq!(find_word("maintenance", "main"), None);
        assert_eq!(find_word("main-fix", "main"), None);
        assert_eq!(find_word("the main.", "main"), Some(4));
        assert_eq!(find_word("x.main", "main"), None);
        assert_eq!(
            find_word("project falcon launch", "project falcon"),
            Some(0)
        );
        assert_eq!(find_word("#general", "#general"), Some(0));
        assert_eq!(find_word("#general-chat", "#general"), None);
    }

    /// Looking up through the runs must find what a search of the text finds.
    #[test]
    fn word_runs_and_cue_sets_find_what_find_word_finds() {
        let texts = [
            "git push origin main",
            "x.main then main",
            "don't, do not (or dont)",
            "main-fix and main_fix; main",
            "a.b.main .main main.",
            "never-never, never",
            "push to  main, then to main",
            "çà İstanbul to main — never",
            "#general and #general-chat",
            "",
        ];
        let needles = [
            "main", "do not", "don't", "dont", "never", "to main", "git", "b.main", "#general",
            "istanbul",
        ];
        let cues = CueSet::new([&needles[..3], &needles[3..7], &needles[7..]]);
        for text in texts {
            let words = WordRuns::new(text);
            for needle in needles {
                assert_eq!(
                    words.find(needle),
                    find_word(text, needle),
                    "{text:?} / {needle}"
                );
            }
            let expected = [&needles[..3], &needles[3..7], &needles[7..]]
                .map(|list| list.iter().filter_map(|cue| find_word(text, cue)).min());
            assert_eq!(cues.first_in(&words), expected, "{text:?}");
        }
    }
}
