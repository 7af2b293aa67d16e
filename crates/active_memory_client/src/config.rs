//! Facade settings, with the capture switch read from the environment.

use std::time::Duration;

use tool_memory_capture::{CAPTURE_ENABLED_BY_DEFAULT, CAPTURE_ENABLED_ENV, parse_capture_switch};
use tool_memory_prompt::DEFAULT_PROMPT_BUDGET_BYTES;

/// How the client behaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    /// Whether `after_turn` captures anything. Turning it off never hides stored rules: the
    /// prompt and every listing still show them (unlike the reference, W-20).
    pub capture_enabled: bool,
    /// Byte budget of the pinned block; critical rules are always rendered regardless.
    pub prompt_budget_bytes: usize,
    /// How long a blocking session-start prefetch may take before it gives up.
    pub prefetch_timeout: Duration,
    /// Store captured edicts as proposed (shown as unconfirmed advice, not enforced as
    /// critical) until the user confirms them through RPC or CLI. Off by default.
    pub confirm_captured_edicts: bool,
    /// How long a repeated-failure observation applies.
    pub observation_ttl: Duration,
    /// Later successful calls of its tool after which an observation retires.
    pub observation_retire_after_successes: u64,
}

/// Environment switch for [`ClientConfig::confirm_captured_edicts`] (same values as the capture
/// switch).
pub const CONFIRM_CAPTURED_EDICTS_ENV: &str = "TOOLMEM_CONFIRM_CAPTURED_EDICTS";
/// Environment override of [`ClientConfig::observation_ttl`], in whole days.
pub const OBSERVATION_TTL_DAYS_ENV: &str = "TOOLMEM_OBSERVATION_TTL_DAYS";
/// Environment override of [`ClientConfig::observation_retire_after_successes`].
pub const OBSERVATION_RETIRE_AFTER_ENV: &str = "TOOLMEM_OBSERVATION_RETIRE_AFTER_SUCCESSES";

/// A positive whole number from the environment; anything else is ignored with a warning.
fn positive_env(variable: &str) -> Option<u64> {
    let value = std::env::var(variable).ok()?;
    match value.trim().parse::<u64>() {
        Ok(number) if number > 0 => Some(number),
        _ => {
            tracing::warn!(
                variable,
                value,
                "invalid number env override ignored; expected a positive whole number"
            );
            None
        }
    }
}

impl Default for ClientConfig {
    fn default() -> ClientConfig {
        ClientConfig {
            capture_enabled: CAPTURE_ENABLED_BY_DEFAULT,
            prompt_budget_bytes: DEFAULT_PROMPT_BUDGET_BYTES,
            prefetch_timeout: Duration::from_secs(2),
            confirm_captured_edicts: false,
            observation_ttl: Duration::from_secs(30 * 24 * 60 * 60),
            observation_retire_after_successes: 20,
        }
    }
}

impl ClientConfig {
    /// The defaults, with `OPENHUMAN_LEARNING_TOOL_MEMORY_CAPTURE_ENABLED` applied when it is
    /// set to a recognised value; anything else is ignored with a warning.
    pub fn from_env() -> ClientConfig {
        let mut config = ClientConfig::default();
        if let Ok(value) = std::env::var(CAPTURE_ENABLED_ENV) {
            config.apply_capture_switch(&value);
        }
        if let Some(days) = positive_env(OBSERVATION_TTL_DAYS_ENV) {
            config.observation_ttl = Duration::from_secs(days.saturating_mul(24 * 60 * 60));
        }
        if let Some(count) = positive_env(OBSERVATION_RETIRE_AFTER_ENV) {
            config.observation_retire_after_successes = count;
        }
        if let Some(confirm) = std::env::var(CONFIRM_CAPTURED_EDICTS_ENV)
            .ok()
            .and_then(|value| switch(CONFIRM_CAPTURED_EDICTS_ENV, &value))
        {
            config.confirm_captured_edicts = confirm;
        }
        config
    }

    /// Applies one value of the capture switch.
    pub fn apply_capture_switch(&mut self, value: &str) {
        if let Some(enabled) = switch(CAPTURE_ENABLED_ENV, value) {
            self.capture_enabled = enabled;
        }
    }
}

/// A boolean switch's value, or `None` with a warning when it is not one.
fn switch(variable: &str, value: &str) -> Option<bool> {
    let parsed = parse_capture_switch(value);
    if parsed.is_none() {
        tracing::warn!(
            variable,
            value,
            "invalid boolean env override ignored; expected 1/true/yes/on or 0/false/no/off"
        );
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_switch_values() {
        let check = |value: &str, expected: bool| {
            let mut config = ClientConfig {
                capture_enabled: !expected,
                ..ClientConfig::default()
            };
            config.apply_capture_switch(value);
            assert_eq!(config.capture_enabled, expected, "{value:?}");
        };
        for off in ["0", "false", " NO ", "Off"] {
            check(off, false);
        }
        for on in ["1", "TRUE", "yes", " on"] {
            check(on, true);
        }
        let mut config = ClientConfig::default();
        config.apply_capture_switch("maybe");
        assert!(
            config.capture_enabled,
            "an invalid value leaves the default"
        );
    }
}
