//! The one reader of JSON-lines text (the labelled corpora of capture and of the guard): one
//! value a line, blank lines and `//` comments skipped, and a bad line named by its number. It
//! takes text, never a path: reading the file is the caller's.

use serde::de::DeserializeOwned;

/// Reads one `T` from every line of `text` that is neither blank nor a comment (first
/// non-blank characters `//`). The first line that is not a `T` ends the reading with
/// `error(line, source)`: `line` counts from 1 and counts every line, skipped ones included, so
/// it is the number an editor shows.
pub fn parse_json_lines<T, E>(
    text: &str,
    error: impl Fn(usize, serde_json::Error) -> E,
) -> Result<Vec<T>, E>
where
    T: DeserializeOwned,
{
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with("//"))
        .map(|(index, line)| serde_json::from_str(line).map_err(|source| error(index + 1, source)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Vec<u32>, (usize, String)> {
        parse_json_lines(text, |line, source| (line, source.to_string()))
    }

    #[test]
    fn reads_values_and_skips_blank_and_comment_lines() {
        assert_eq!(read("1\n\n  // a note\n2\r\n   \n3"), Ok(vec![1, 2, 3]));
        assert_eq!(read(""), Ok(vec![]));
    }

    #[test]
    fn names_the_first_bad_line_as_an_editor_numbers_it() {
        let (line, message) = read("1\n// note\n\n\"two\"\n{").unwrap_err();
        assert_eq!(line, 4);
        assert!(message.contains("invalid type"), "{message}");
    }
}
