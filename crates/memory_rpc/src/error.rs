//! JSON-RPC error codes, the crate's one `Error` enum, and [`error_object`], the one function
//! that turns any error into the error object of either envelope.
//!
//! Codes are named constants here and nowhere else, as in jsonrpsee, so a reader finds every
//! code a client can see in one place.

use serde::Serialize;
use serde_json::{Value, json};

use crate::envelope::Envelope;
use crate::limits::Limit;

/// The body is not valid JSON.
pub const PARSE_ERROR_CODE: i32 = -32700;
/// The JSON is not a valid request object (or the batch is empty).
pub const INVALID_REQUEST_CODE: i32 = -32600;
/// No `memory.*` method has this name.
pub const METHOD_NOT_FOUND_CODE: i32 = -32601;
/// The params are not an object, miss a required field, carry an unknown one, or hold a value
/// of the wrong type or out of range. `data.field` names the field when there is one.
pub const INVALID_PARAMS_CODE: i32 = -32602;
/// A failure that is toolmem's fault rather than the caller's or the store's.
pub const INTERNAL_ERROR_CODE: i32 = -32603;
/// The only code of the `openhuman.memory_*` envelope: the reference reports every failure,
/// whatever its kind, with `-32000` and `data: null`.
pub const REFERENCE_ERROR_CODE: i32 = -32000;
/// The store failed: SQLite busy, locked or broken, a key/value backend down, a database
/// written by a newer toolmem, or a stored row this version cannot read. Often transient;
/// retrying later may succeed.
pub const STORAGE_ERROR_CODE: i32 = -32002;
/// The request body reached one of its reply bounds ([`crate::RpcLimits`]): the reply would
/// have grown past `max_response_bytes`, or a batch spent its `max_batch_work`. `data.limit`
/// names the bound, `data.max` gives its value and `data.ran` says whether this request ran
/// (only a request whose own result did not fit has; every later one has not).
pub const LIMIT_EXCEEDED_CODE: i32 = -32003;
/// A lifecycle change (`memory.tool_rule_revoke`, `_restore`, `_confirm`) named a rule that does
/// not exist. (`get` answers `null` and `delete` answers `false` instead, as in the reference.)
pub const RULE_NOT_FOUND_CODE: i32 = -32001;

/// Why a request failed. Messages are the native envelope's; [`error_object`] words them the
/// reference's way when the call came through `openhuman.memory_*`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// The body is not JSON.
    #[error("parse error: {0}")]
    Parse(String),
    /// The JSON is not a request object.
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// No method has this name.
    #[error("method not found: {method}")]
    MethodNotFound { method: String },
    /// `params` is neither an object nor null.
    #[error("invalid params: params must be an object or null, got {got}")]
    ParamsNotObject { got: &'static str },
    /// A required param is absent (or, natively, null).
    #[error("invalid params: {field} is required")]
    MissingParam {
        field: &'static str,
        /// The param's description, which the reference quotes in its message.
        comment: &'static str,
    },
    /// A param the method does not declare.
    #[error("invalid params: unknown param '{key}'")]
    UnknownParam {
        key: String,
        /// The native name of the method, which the reference quotes in its message.
        method: &'static str,
    },
    /// A param of the wrong JSON type; `message` is serde's.
    #[error("invalid params: {field} is invalid: {message}")]
    ParamType {
        field: &'static str,
        message: String,
    },
    /// A param of the right type whose value is not acceptable.
    #[error("invalid params: {0}")]
    InvalidParam(#[source] tool_memory_core::Error),
    /// The facade failed.
    #[error(transparent)]
    Facade(#[from] active_memory_client::Error),
    /// A lifecycle change named a rule that does not exist.
    #[error("rule not found: no rule `{id}` on tool `{tool_name}`")]
    RuleNotFound { tool_name: String, id: String },
    /// A result could not be encoded.
    #[error("internal error: {0}")]
    Internal(String),
    /// A reply bound of the request body was reached.
    #[error("{}", limit_message(*limit, *ran))]
    LimitExceeded { limit: Limit, ran: bool },
}

fn limit_message(limit: Limit, ran: bool) -> String {
    let what = match limit {
        Limit::ResponseBytes(max) => {
            format!("the reply would be larger than max_response_bytes ({max} bytes)")
        }
        Limit::BatchWork(max) => {
            format!("the request body has spent its max_batch_work ({max} units)")
        }
    };
    let outcome = if ran {
        "this request ran, but its result is not sent"
    } else {
        "this request did not run"
    };
    format!("limit exceeded: {what}; {outcome}")
}

/// A JSON-RPC error object. `data` is omitted natively when there is nothing to say, and is
/// always `null` in the reference envelope.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ErrorObject {
    pub(crate) code: i32,
    pub(crate) message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) data: Option<Value>,
}

/// The error object a client sees for `error` in `envelope`: the single mapping from errors
/// (the facade's included) to codes and messages.
pub(crate) fn error_object(error: &Error, envelope: Envelope) -> ErrorObject {
    if envelope == Envelope::Reference {
        return ErrorObject {
            code: REFERENCE_ERROR_CODE,
            message: reference_message(error),
            data: Some(Value::Null),
        };
    }
    let (code, message, field) = match error {
        Error::Parse(_) => (PARSE_ERROR_CODE, error.to_string(), None),
        Error::InvalidRequest(_) => (INVALID_REQUEST_CODE, error.to_string(), None),
        Error::MethodNotFound { .. } => (METHOD_NOT_FOUND_CODE, error.to_string(), None),
        Error::ParamsNotObject { .. } => (INVALID_PARAMS_CODE, error.to_string(), None),
        Error::MissingParam { field, .. } | Error::ParamType { field, .. } => {
            (INVALID_PARAMS_CODE, error.to_string(), Some(*field))
        }
        Error::UnknownParam { key, .. } => {
            return ErrorObject {
                code: INVALID_PARAMS_CODE,
                message: error.to_string(),
                data: Some(json!({ "field": key })),
            };
        }
        Error::InvalidParam(invalid) => (
            INVALID_PARAMS_CODE,
            error.to_string(),
            Some(invalid.field()),
        ),
        Error::Facade(facade) => match (facade.validation(), facade) {
            (Some(invalid), _) => (
                INVALID_PARAMS_CODE,
                format!("invalid params: {invalid}"),
                Some(invalid.field()),
            ),
            (None, active_memory_client::Error::Store(_)) => {
                (STORAGE_ERROR_CODE, format!("storage error: {facade}"), None)
            }
            (None, _) => (
                INTERNAL_ERROR_CODE,
                format!("internal error: {facade}"),
                None,
            ),
        },
        Error::RuleNotFound { .. } => (RULE_NOT_FOUND_CODE, error.to_string(), None),
        Error::Internal(_) => (INTERNAL_ERROR_CODE, error.to_string(), None),
        Error::LimitExceeded { limit, ran } => {
            return ErrorObject {
                code: LIMIT_EXCEEDED_CODE,
                message: error.to_string(),
                data: Some(json!({"limit": limit.name(), "max": limit.max(), "ran": ran})),
            };
        }
    };
    ErrorObject {
        code,
        message,
        data: field.map(|field| json!({ "field": field })),
    }
}

/// The reference's wording (§5.1 of the reference spec). Its validator and store produced
/// these strings; clients may match on them, so they are reproduced exactly.
fn reference_message(error: &Error) -> String {
    match error {
        Error::MethodNotFound { method } => format!("unknown method: {method}"),
        Error::ParamsNotObject { got } => {
            format!("invalid params: expected object or null, got {got}")
        }
        Error::MissingParam { field, comment } => {
            format!("missing required param '{field}': {comment}")
        }
        Error::UnknownParam { key, method } => format!("unknown param '{key}' for {method}"),
        Error::ParamType { message, .. } => format!("invalid params: {message}"),
        Error::InvalidParam(invalid) => reference_validation_message(invalid),
        Error::Facade(facade) => match facade.validation() {
            Some(invalid) => reference_validation_message(invalid),
            None => facade.to_string(),
        },
        Error::Parse(_)
        | Error::InvalidRequest(_)
        | Error::RuleNotFound { .. }
        | Error::Internal(_)
        | Error::LimitExceeded { .. } => error.to_string(),
    }
}

/// The reference store said "rule body is required" where toolmem's core says "rule is
/// required"; every other validation message has no reference counterpart and is kept.
fn reference_validation_message(invalid: &tool_memory_core::Error) -> String {
    match invalid {
        tool_memory_core::Error::Required { field: "rule" } => "rule body is required".to_owned(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(error: Error, native: Value, reference: &str) {
        let actual = serde_json::to_value(error_object(&error, Envelope::Native)).unwrap();
        assert_eq!(actual, native, "native object for {error:?}");
        let actual = error_object(&error, Envelope::Reference);
        let expected = ErrorObject {
            code: REFERENCE_ERROR_CODE,
            message: reference.to_owned(),
            data: Some(Value::Null),
        };
        assert_eq!(actual, expected, "reference object for {error:?}");
    }

    fn required(field: &'static str) -> tool_memory_core::Error {
        tool_memory_core::Error::Required { field }
    }

    #[test]
    fn protocol_errors() {
        check(
            Error::Parse("EOF while parsing".into()),
            json!({"code": -32700, "message": "parse error: EOF while parsing"}),
            "parse error: EOF while parsing",
        );
        check(
            Error::InvalidRequest("empty batch".into()),
            json!({"code": -32600, "message": "invalid request: empty batch"}),
            "invalid request: empty batch",
        );
        check(
            Error::MethodNotFound {
                method: "memory.nope".into(),
            },
            json!({"code": -32601, "message": "method not found: memory.nope"}),
            "unknown method: memory.nope",
        );
    }

    #[test]
    fn param_errors() {
        check(
            Error::ParamsNotObject { got: "array" },
            json!({"code": -32602, "message": "invalid params: params must be an object or null, got array"}),
            "invalid params: expected object or null, got array",
        );
        check(
            Error::MissingParam {
                field: "tool_name",
                comment: "Tool the rule applies to.",
            },
            json!({"code": -32602, "message": "invalid params: tool_name is required", "data": {"field": "tool_name"}}),
            "missing required param 'tool_name': Tool the rule applies to.",
        );
        check(
            Error::UnknownParam {
                key: "foo".into(),
                method: "memory.tool_rule_put",
            },
            json!({"code": -32602, "message": "invalid params: unknown param 'foo'", "data": {"field": "foo"}}),
            "unknown param 'foo' for memory.tool_rule_put",
        );
        check(
            Error::ParamType {
                field: "tags",
                message: "invalid type: null, expected a sequence".into(),
            },
            json!({"code": -32602, "message": "invalid params: tags is invalid: invalid type: null, expected a sequence", "data": {"field": "tags"}}),
            "invalid params: invalid type: null, expected a sequence",
        );
        check(
            Error::InvalidParam(required("id")),
            json!({"code": -32602, "message": "invalid params: id is required", "data": {"field": "id"}}),
            "id is required",
        );
    }

    #[test]
    fn facade_errors() {
        check(
            Error::Facade(required("rule").into()),
            json!({"code": -32602, "message": "invalid params: rule is required", "data": {"field": "rule"}}),
            "rule body is required",
        );
        check(
            Error::Facade(required("tool_name").into()),
            json!({"code": -32602, "message": "invalid params: tool_name is required", "data": {"field": "tool_name"}}),
            "tool_name is required",
        );
        let no_client = active_memory_client::Error::NoActiveClient;
        let text = no_client.to_string();
        check(
            Error::Facade(no_client),
            json!({"code": -32603, "message": format!("internal error: {text}")}),
            &text,
        );
        let busy = active_memory_client::Error::Store(tool_memory_store::Error::Worker(
            "database is locked".into(),
        ));
        check(
            Error::Facade(busy),
            json!({"code": -32002, "message": "storage error: storage worker failed: database is locked"}),
            "storage worker failed: database is locked",
        );
        check(
            Error::Internal("boom".into()),
            json!({"code": -32603, "message": "internal error: boom"}),
            "internal error: boom",
        );
    }

    #[test]
    fn limit_errors_name_the_limit() {
        let bytes = "limit exceeded: the reply would be larger than max_response_bytes (100 bytes); this request ran, but its result is not sent";
        check(
            Error::LimitExceeded {
                limit: Limit::ResponseBytes(100),
                ran: true,
            },
            json!({"code": -32003, "message": bytes, "data": {"limit": "max_response_bytes", "max": 100, "ran": true}}),
            bytes,
        );
        let work = "limit exceeded: the request body has spent its max_batch_work (7 units); this request did not run";
        check(
            Error::LimitExceeded {
                limit: Limit::BatchWork(7),
                ran: false,
            },
            json!({"code": -32003, "message": work, "data": {"limit": "max_batch_work", "max": 7, "ran": false}}),
            work,
        );
    }
}
