//! The words of a name (a tool name, an argument key): split at separators and, on request, at
//! camel-case humps, lower-cased. Capture attributes an edict to a tool by these words and the
//! guard indexes a call by them, so both must split a name the same way.

/// The words of `name`, lower-cased: split at every character that is not alphanumeric
/// (`send_email`, `send-email`, `send.email` → `send`, `email`) and, when `camel` is set, where
/// a lower-case letter or a digit meets an upper-case one (`WebSearch` → `web`, `search`).
pub fn split_words(name: &str, camel: bool) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for ch in name.chars() {
        if !ch.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if camel && ch.is_uppercase() && previous_lower && !current.is_empty() {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, camel: bool, expected: &[&str]) {
        assert_eq!(
            split_words(name, camel),
            expected,
            "{name:?}, camel {camel}"
        );
    }

    #[test]
    fn splits_at_separators_and_optionally_at_humps() {
        check("send_email", false, &["send", "email"]);
        check("send-email.v2 now", true, &["send", "email", "v2", "now"]);
        check("WebSearch", false, &["websearch"]);
        check("WebSearch", true, &["web", "search"]);
        check("getHTTPResponse", true, &["get", "httpresponse"]);
        check("s3Bucket", true, &["s3", "bucket"]);
        check("__x__", true, &["x"]);
        check("", true, &[]);
        check("Überweisung_Ärger", true, &["überweisung", "ärger"]);
    }
}
