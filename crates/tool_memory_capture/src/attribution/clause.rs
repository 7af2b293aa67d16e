//! Which part of a rule decides its tool: the ban after a permission ("You may read the logs,
//! but never restart the service" is about restarting), and whether the rule points back at
//! a tool the sentence before named ("Never send `INSERT` through it").

use super::alias::Haystack;
use super::lexicon::{
    BAN_OPENERS, BAN_TURNS, CLAUSE_ORDERS, CONDITIONS, MODAL_BANS, ORDER_WORDS, PERMISSIONS,
    POINTING_BACK,
};
use crate::text::is_word_char;

/// The byte offset in `text` of a ban that follows a permission in the same sentence: the
/// permission (`you may`, `feel free to`, `is fine`, …), then a turn (`, but`, `but`, `;`, a
/// dash) and a ban marker (`never`, `don't`, …), emphasis allowed around it. Letters are
/// compared without regard to ASCII case, which keeps every byte offset of `text`.
#[cfg(test)]
pub(super) fn ban_after_permission(text: &str) -> Option<usize> {
    // Without a turn there is no ban after the permission: one look at the bytes rules out
    // nearly every rule before its words are read.
    if !turns(text).0 {
        return None;
    }
    permission_then_ban(text)
}

/// [`ban_after_permission`] of a text that may hold a turn.
fn permission_then_ban(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // The end of the permission that ends first. Every permission opens with a letter, so it
    // can only stand at the start of a word, which is the first letter of a piece between
    // spaces (after any opening marks: "**You may**"); the first whole-word match of each
    // ends before its later ones.
    let mut permission_end: Option<usize> = None;
    for (piece_start, piece) in pieces(text) {
        if permission_end.is_some_and(|end| end <= piece_start) {
            break;
        }
        let Some(offset) = piece.find(|ch: char| is_word_char(ch)) else {
            continue;
        };
        let here = piece_start + offset;
        let lead = bytes[here].to_ascii_lowercase();
        if lead >= 128 || PERMISSION_LEADS & (1 << lead) == 0 {
            continue;
        }
        for phrase in PERMISSIONS {
            let end = here + phrase.len();
            if phrase.as_bytes()[0] == lead
                && starts_with_ignore_case(&bytes[here..], phrase)
                && text[end..]
                    .chars()
                    .next()
                    .is_none_or(|ch| !is_word_char(ch))
                && permission_end.is_none_or(|best| end < best)
            {
                permission_end = Some(end);
            }
        }
    }
    let permission_end = permission_end?;
    BAN_TURNS
        .iter()
        .filter_map(|turn| {
            let at = permission_end + find_ignore_case(&bytes[permission_end..], turn)?;
            let after = at + turn.len();
            let rest = text[after..].trim_start_matches(['*', '_', ' ']);
            BAN_OPENERS
                .iter()
                .any(|ban| {
                    starts_with_ignore_case(rest.as_bytes(), ban)
                        && rest[ban.len()..]
                            .chars()
                            .next()
                            .is_none_or(|ch| !is_word_char(ch))
                })
                .then_some(after)
        })
        .min()
}

/// The byte offset in `text` of the clause that gives the order, when another part of the
/// sentence would mislead attribution:
/// - a ban after a permission ([`ban_after_permission`]): "You may read `x`, but never
///   rewrite it";
/// - the order after a condition that opens the sentence: "When you change anything under
///   `core/`, always run `cargo test`" is about running, not changing;
/// - a ban after a statement with no order of its own: "Config lives in `config/` and you
///   must not read `config/secret.key`", "Read `CHANGELOG.md`; never create another".
pub(super) fn deciding_clause(text: &str) -> Option<usize> {
    if let Some(at) = contrasted(text) {
        return Some(at);
    }
    if let Some(at) = you_do_not_after(text) {
        return Some(at);
    }
    if let Some(at) = routed(text) {
        return Some(at);
    }
    let (ban_turn, statement_turn) = turns(text);
    if ban_turn && let Some(at) = permission_then_ban(text) {
        return Some(at);
    }
    let start = text.find(|ch: char| ch.is_alphanumeric())?;
    let first = text[start..]
        .split(|ch: char| !ch.is_alphanumeric())
        .next()
        .unwrap_or_default();
    if CONDITIONS
        .iter()
        .any(|condition| first.eq_ignore_ascii_case(condition))
    {
        let comma = text[start..].find(", ")?;
        // "Before `ollama pull llama3:70b`, ask; it downloads 40 GB": an order that only asks
        // names nothing; the condition holds what it is about.
        let order = text[start + comma + 2..].trim_start_matches(['*', '_']);
        let asks = ["ask", "check with me", "confirm with me", "talk to me"]
            .iter()
            .any(|ask| {
                order.len() >= ask.len()
                    && order.as_bytes()[..ask.len()].eq_ignore_ascii_case(ask.as_bytes())
                    && order[ask.len()..]
                        .chars()
                        .next()
                        .is_none_or(|ch| !is_word_char(ch))
            });
        if asks {
            return None;
        }
        return Some(start + comma + 2);
    }
    if statement_turn {
        ban_after_statement(text)
    } else {
        None
    }
}

/// The byte offset in `text` of the route a thing is to take, which names the tool: "Infra
/// changes = a PR to `infra-live`" is about the pull request, "Schema changes ship with the
/// migration runner" about running it, not about changing.
fn routed(text: &str) -> Option<usize> {
    // The route's verb stays in the clause: "goes through `bin/purge`" runs a script.
    const ROUTES: &[&str] = &[
        "go through ",
        "goes through ",
        "go via ",
        "goes via ",
        "go out with ",
        "goes out with ",
        "ship with ",
        "ships with ",
    ];
    let equals = text.find(" = ").map(|at| at + 3);
    // Most rules hold no route's verb: a search for its letters comes first.
    if !text.contains(" go") && !text.contains(" ship") {
        return equals;
    }
    // One look at each space before a `g` or an `s`: most rules hold no route.
    let bytes = text.as_bytes();
    let verb = (1..bytes.len())
        .filter(|&at| bytes[at - 1] == b' ' && matches!(bytes[at], b'g' | b's'))
        .find(|&at| {
            ROUTES
                .iter()
                .any(|route| bytes[at..].starts_with(route.as_bytes()))
        });
    match (equals, verb) {
        (Some(equals), Some(verb)) => Some(equals.min(verb)),
        (equals, verb) => equals.or(verb),
    }
}

/// The byte offset in `text` of the last part of a contrast, which ends in a copula and
/// "not": "`vercel` is fine for previews; `vercel --prod` is not", "mongosh is allowed for
/// reading; `db.dropDatabase()` and `deleteMany({})` are NOT".
fn contrasted(text: &str) -> Option<usize> {
    let mut end = text.len();
    while end > 0 && matches!(text.as_bytes()[end - 1], b'.' | b'!' | b' ' | b'*') {
        end -= 1;
    }
    let trimmed = &text[..end];
    let bytes = trimmed.as_bytes();
    // "not", "isn't", "aren't": most rules end otherwise.
    if !bytes
        .last()
        .is_some_and(|byte| byte.eq_ignore_ascii_case(&b't'))
    {
        return None;
    }
    let ends = [" is not", " are not", " isn't", " aren't"]
        .iter()
        .any(|end| {
            bytes.len() > end.len()
                && bytes[bytes.len() - end.len()..].eq_ignore_ascii_case(end.as_bytes())
        });
    if !ends {
        return None;
    }
    let turn = trimmed.rfind([';', ','])?;
    Some(turn + 1)
}

/// The byte offset in `text` of "you do not / don't …" after a comma or a semicolon, which
/// bans what the part before allows: "you draft them, you do not submit" is about submitting.
fn you_do_not_after(text: &str) -> Option<usize> {
    // Most rules hold no "you d": one search rules them out.
    if !text.contains("you d") && !text.contains("You d") && !text.contains("YOU D") {
        return None;
    }
    let bytes = text.as_bytes();
    (1..bytes.len())
        .filter(|&at| bytes[at] == b' ' && matches!(bytes[at - 1], b',' | b';'))
        .map(|at| at + 1)
        .find(|&at| {
            ["you do not ", "you don't ", "you don’t ", "you dont "]
                .iter()
                .any(|phrase| {
                    bytes.len() > at + phrase.len()
                        && bytes[at..at + phrase.len()].eq_ignore_ascii_case(phrase.as_bytes())
                })
        })
}

/// The byte offset in `text` of a ban after a part with no order of its own ("Config lives
/// in `config/` and you must not read …"), read piece by piece between spaces: a word of an
/// order before any turn ends the search, since every later head holds it too.
fn ban_after_statement(text: &str) -> Option<usize> {
    let mut pieces = pieces(text).peekable();
    while let Some((start, piece)) = pieces.next() {
        let word = piece.trim_matches(|ch: char| !ch.is_alphanumeric() && ch != '\'' && ch != '’');
        if !word.is_empty() && is_order_word(word) {
            return None;
        }
        // A turn: a comma, a semicolon, a colon or a period that ends the piece, or a piece that is
        // "but", "and" or a dash.
        let after = if piece.ends_with([',', ';', '.', ':']) {
            start + piece.len() + 1
        } else {
            match pieces.peek() {
                Some(&(next, "but" | "But" | "and" | "—" | "–")) => {
                    pieces.next();
                    next + text[next..]
                        .find(' ')
                        .map_or(text.len() - next, |space| space + 1)
                }
                _ => continue,
            }
        };
        if after >= text.len() {
            return None;
        }
        let rest = text[after..].trim_start_matches(['*', '_', ' ']);
        let rest = ["but ", "and ", "you "].iter().fold(rest, |rest, lead| {
            if starts_with_ignore_case(rest.as_bytes(), lead) {
                &rest[lead.len()..]
            } else {
                rest
            }
        });
        let ban = BAN_OPENERS.iter().chain(MODAL_BANS).any(|ban| {
            starts_with_ignore_case(rest.as_bytes(), ban)
                && rest[ban.len()..]
                    .chars()
                    .next()
                    .is_none_or(|ch| !is_word_char(ch))
        });
        if ban {
            return Some(text.len() - rest.len());
        }
    }
    None
}

/// The byte offsets in `text` where a later order of its own starts, after a comma, a
/// semicolon, "and" or "or": "Don't run `firebase firestore:delete`, and don't write to
/// `seed/`", "Never push to main and don't edit `gen/`". Each such clause may be about
/// another tool. Only a sentence whose first part is an order itself is cut (a permission
/// before a ban is [`deciding_clause`]'s), and only before a marker of [`CLAUSE_ORDERS`].
pub(super) fn order_clauses(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = Vec::new();
    // Where the first order word ends: a later order must stand after it. Read once, and
    // only when a turn followed by a marker is found (most rules hold none).
    let mut first_order: Option<Option<usize>> = None;
    let mut at = 0;
    while at < bytes.len() {
        let after = match bytes[at] {
            b',' | b';' => at + 1,
            b' ' if starts_with_ignore_case(&bytes[at + 1..], "and ") => at + 5,
            b' ' if starts_with_ignore_case(&bytes[at + 1..], "or ") => at + 4,
            _ => {
                at += 1;
                continue;
            }
        };
        at = after;
        let mut rest = after;
        while bytes.get(rest) == Some(&b' ') {
            rest += 1;
        }
        for lead in ["and ", "or ", "also "] {
            if starts_with_ignore_case(&bytes[rest..], lead) {
                rest += lead.len();
                break;
            }
        }
        let opens = CLAUSE_ORDERS.iter().any(|order| {
            starts_with_ignore_case(&bytes[rest..], order)
                && text[rest + order.len()..]
                    .chars()
                    .next()
                    .is_none_or(|ch| !is_word_char(ch))
        });
        if !opens {
            continue;
        }
        let ordered = *first_order.get_or_insert_with(|| {
            pieces(text)
                .find(|(_, piece)| {
                    let word = piece
                        .trim_matches(|ch: char| !ch.is_alphanumeric() && ch != '\'' && ch != '’');
                    !word.is_empty() && is_order_word(word)
                })
                .map(|(start, piece)| start + piece.len())
        });
        if ordered.is_some_and(|end| end <= after) && starts.last() != Some(&rest) {
            starts.push(rest);
        }
    }
    starts
}

/// Whether `text` may hold a turn of [`BAN_TURNS`] ("but", "however", a semicolon, a spaced
/// hyphen, a dash) and whether it may hold the end of a statement (a comma, a period before
/// more text, "and", or any of those): one look at each byte rules out most rules before
/// their words are read.
fn turns(text: &str) -> (bool, bool) {
    let bytes = text.as_bytes();
    let mut statement = false;
    for (at, &byte) in bytes.iter().enumerate() {
        match byte {
            b';' | 0xE2 => return (true, true),
            b',' | b':' => statement = true,
            b'.' => statement |= bytes.get(at + 1) == Some(&b' '),
            b' ' => {
                let rest = &bytes[at + 1..];
                let word = |word: &[u8]| {
                    rest.len() >= word.len() && rest[..word.len()].eq_ignore_ascii_case(word)
                };
                if word(b"but") || word(b"- ") || word(b"however") {
                    return (true, true);
                }
                statement |= word(b"and ");
            }
            _ => {}
        }
    }
    (false, statement)
}

/// The pieces of `text` between single spaces, with the byte offset of each.
fn pieces(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(' ')
        .scan(0, |offset, piece| {
            let start = *offset;
            *offset += piece.len() + 1;
            Some((start, piece))
        })
        .filter(|(_, piece)| !piece.is_empty())
}

/// Whether a word makes the part of a sentence it stands in an order (or a permission) of
/// its own.
fn is_order_word(word: &str) -> bool {
    word.len() <= 7
        && word.as_bytes()[0].is_ascii()
        && ORDER_LEADS & (1 << word.as_bytes()[0].to_ascii_lowercase()) != 0
        && ORDER_WORDS
            .iter()
            .any(|marker| word.eq_ignore_ascii_case(marker))
}

/// The first bytes of the words of an order, as a set of ASCII bytes: most words open with
/// none.
const ORDER_LEADS: u128 = {
    let mut leads = 0u128;
    let mut index = 0;
    while index < ORDER_WORDS.len() {
        leads |= 1 << ORDER_WORDS[index].as_bytes()[0];
        index += 1;
    }
    leads
};

/// The first bytes of the permissions, as a set of ASCII bytes: most words open with none.
const PERMISSION_LEADS: u128 = {
    let mut leads = 0u128;
    let mut index = 0;
    while index < PERMISSIONS.len() {
        leads |= 1 << PERMISSIONS[index].as_bytes()[0];
        index += 1;
    }
    leads
};

/// Whether `bytes` opens with `needle` (lower-case), ASCII letters in either case.
fn starts_with_ignore_case(bytes: &[u8], needle: &str) -> bool {
    bytes.len() >= needle.len() && bytes[..needle.len()].eq_ignore_ascii_case(needle.as_bytes())
}

/// The first offset in `bytes` where `needle` (lower-case, short) stands, ASCII letters in
/// either case.
fn find_ignore_case(bytes: &[u8], needle: &str) -> Option<usize> {
    let length = needle.len();
    if length > bytes.len() {
        return None;
    }
    (0..=bytes.len() - length).find(|&at| starts_with_ignore_case(&bytes[at..], needle))
}

/// Whether the rule (its match form, read) points back at a tool with "it" as the object of
/// a verb or a preposition: "through it", "with it", "call it".
pub(super) fn points_back(form: &Haystack<'_>) -> bool {
    let mut previous: Option<&str> = None;
    for word in form.words() {
        if word == "it" && previous.is_some_and(|previous| POINTING_BACK.contains(&previous)) {
            return true;
        }
        previous = Some(word);
    }
    false
}

/// How many words of `text` start before byte `at`: positions in a rule as written and in its
/// match form compare by word, since the match form drops emphasis and collapses spaces.
pub(super) fn word_index(text: &str, at: usize) -> usize {
    let mut count = 0;
    let mut previous_is_word = false;
    for (offset, ch) in text.char_indices() {
        if offset >= at {
            break;
        }
        let is_word = is_word_char(ch);
        if is_word && !previous_is_word {
            count += 1;
        }
        previous_is_word = is_word;
    }
    count
}
