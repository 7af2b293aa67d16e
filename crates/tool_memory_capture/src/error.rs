//! The one error type of the capture crate. Capturing itself cannot fail (bad input yields
//! fewer proposals, never an error); only reading a labelled corpus can.

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong while reading capture inputs from text.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A corpus line is not a valid JSON case.
    #[error("corpus line {line} is not a valid case: {source}")]
    CorpusLine {
        /// One-based line number.
        line: usize,
        /// The JSON error.
        source: serde_json::Error,
    },
}
