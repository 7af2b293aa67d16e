//! Transport-agnostic JSON-RPC 2.0 dispatch over the toolmem facade.
//!
//! [`RpcHandler`] takes one request body (a single request or a batch) and returns the
//! response body, or nothing when only notifications were sent. It serves two spellings of
//! every rule method:
//!
//! - `memory.*`: plain JSON-RPC 2.0, results as they are, standard error codes and the
//!   application codes of [`STORAGE_ERROR_CODE`] and friends;
//! - `openhuman.memory_*`: the reference's envelope byte for byte, results wrapped as
//!   `{"result": …, "logs": ["…"]}` and every error `-32000` with the reference's messages.
//!
//! The reply to one body is bounded ([`RpcLimits`]: bytes of results, and work per batch), as
//! is the request (`MAX_BATCH_LEN`, `MAX_PROMPT_TOOLS`); every bound lives in one module.
//!
//! The method table, params, results and errors are documented in `docs/rpc.md`.

mod envelope;
mod error;
mod handler;
mod limits;
mod methods;
mod params;

pub use crate::error::{
    INTERNAL_ERROR_CODE, INVALID_PARAMS_CODE, INVALID_REQUEST_CODE, LIMIT_EXCEEDED_CODE,
    METHOD_NOT_FOUND_CODE, PARSE_ERROR_CODE, REFERENCE_ERROR_CODE, RULE_NOT_FOUND_CODE,
    STORAGE_ERROR_CODE,
};
pub use crate::handler::RpcHandler;
pub use crate::limits::{
    DEFAULT_MAX_BATCH_WORK, DEFAULT_MAX_RESPONSE_BYTES, MAX_BATCH_LEN, MAX_IMPORT_BYTES,
    MAX_IMPORT_LINES, MAX_PROMPT_TOOLS, RpcLimits,
};
