//! The capture on/off switch, parsed purely; reading the environment is the facade's job.

/// The environment variable that turns capture on or off, the reference's name.
pub const CAPTURE_ENABLED_ENV: &str = "OPENHUMAN_LEARNING_TOOL_MEMORY_CAPTURE_ENABLED";

/// Capture is on unless switched off: rules the user states should not need an opt-in.
pub const CAPTURE_ENABLED_BY_DEFAULT: bool = true;

/// Parses a switch value: `1/true/yes/on` is on, `0/false/no/off` is off, trimmed and
/// case-insensitive. Anything else is `None`; the caller logs a warning and keeps its setting.
pub fn parse_capture_switch(value: &str) -> Option<bool> {
    let value = value.trim();
    let is = |word: &str| value.eq_ignore_ascii_case(word);
    if ["1", "true", "yes", "on"].into_iter().any(is) {
        Some(true)
    } else if ["0", "false", "no", "off"].into_iter().any(is) {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(value: &str, expected: Option<bool>) {
        assert_eq!(parse_capture_switch(value), expected, "{value:?}");
    }

    #[test]
    fn parses_the_reference_spellings() {
        check("1", Some(true));
        check(" TRUE ", Some(true));
        check("Yes", Some(true));
        check("on\n", Some(true));
        check("0", Some(false));
        check("False", Some(false));
        check(" no", Some(false));
        check("OFF", Some(false));
        check("", None);
        check("enabled", None);
        check("2", None);
        check("o n", None);
    }
}
