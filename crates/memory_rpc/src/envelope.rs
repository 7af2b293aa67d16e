//! The two envelopes a method can be called through, chosen by the spelling of its name.

use serde::Serialize;
use serde_json::value::RawValue;

/// How a call's result and errors are presented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Envelope {
    /// `memory.*`: plain JSON-RPC 2.0 results and standard error codes.
    Native,
    /// `openhuman.memory_*`: results wrapped with a log line, every error `-32000`.
    Reference,
}

/// Every reference method name starts with this; the reference host answers any other name
/// under it with its own "unknown method" error, so toolmem does too.
pub(crate) const REFERENCE_PREFIX: &str = "openhuman.";

impl Envelope {
    /// The envelope a method name asks for.
    pub(crate) fn of_method(method: &str) -> Envelope {
        if method.starts_with(REFERENCE_PREFIX) {
            Envelope::Reference
        } else {
            Envelope::Native
        }
    }
}

/// The reference's success value: every tool-memory handler attaches exactly one log line, so
/// the result is always wrapped. Field order is the reference's.
#[derive(Debug, Serialize)]
pub(crate) struct ReferenceOutcome<'a> {
    pub(crate) result: &'a RawValue,
    pub(crate) logs: [&'static str; 1],
}
