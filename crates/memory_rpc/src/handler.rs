//! `RpcHandler`: one request body in, one response body out. Checks the JSON-RPC 2.0
//! envelope, handles batches and notifications, resolves the method, shapes the reply for
//! the envelope the method name asks for, and keeps the reply within its [`RpcLimits`].

use std::sync::OnceLock;

use active_memory_client::ActiveMemoryClient;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::envelope::{Envelope, ReferenceOutcome};
use crate::error::{Error, ErrorObject, INTERNAL_ERROR_CODE, STORAGE_ERROR_CODE, error_object};
use crate::limits::{MAX_BATCH_LEN, ReplyBudget, RpcLimits};
use crate::methods::{Answer, METHODS, find};
use crate::params::{Params, json_kind};

/// Serves the toolmem JSON-RPC methods over an [`ActiveMemoryClient`], for any transport: the
/// caller moves bodies, the handler does the rest. Cheap to clone.
///
/// Batches are answered in request order and run one request after another, so a batch that
/// puts and then lists sees its own write. The reply to one body is bounded by [`RpcLimits`]
/// (the defaults unless [`RpcHandler::with_limits`] says otherwise).
#[derive(Debug, Clone)]
pub struct RpcHandler {
    client: ActiveMemoryClient,
    limits: RpcLimits,
}

/// One response object; fields in the order JSON-RPC examples show them.
#[derive(Debug, Serialize)]
struct Response {
    jsonrpc: &'static str,
    id: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorObject>,
}

/// What goes back for one body.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Reply {
    Single(Response),
    Batch(Vec<Response>),
}

impl Response {
    fn success(id: Value, result: Box<RawValue>) -> Response {
        Response {
            jsonrpc: "2.0",
            id,
            result: Some(result),
            error: None,
        }
    }

    fn failure(id: Value, error: &Error, envelope: Envelope) -> Response {
        Response {
            jsonrpc: "2.0",
            id,
            result: None,
            error: Some(error_object(error, envelope)),
        }
    }

    /// The bytes this response takes in the reply.
    fn encoded_len(&self) -> usize {
        match &self.result {
            // `{"jsonrpc":"2.0","id":` + id + `,"result":` + result + `}`, counted without
            // encoding again a result that may be megabytes long.
            Some(result) => {
                let id = serde_json::to_string(&self.id).map_or(0, |id| id.len());
                22 + id + 10 + result.get().len() + 1
            }
            None => serde_json::to_string(self).map_or(0, |text| text.len()),
        }
    }
}

impl RpcHandler {
    /// A handler over `client`, with the default [`RpcLimits`].
    pub fn new(client: ActiveMemoryClient) -> RpcHandler {
        RpcHandler {
            client,
            limits: RpcLimits::default(),
        }
    }

    /// This handler with other reply bounds (a transport's setting, say).
    pub fn with_limits(mut self, limits: RpcLimits) -> RpcHandler {
        self.limits = limits;
        self
    }

    /// The reply bounds this handler keeps.
    pub fn limits(&self) -> RpcLimits {
        self.limits
    }

    /// One request body (single or batch) in, the response body out; `None` when nothing is to
    /// be sent (notifications only). A body that is not JSON gets a `-32700` error.
    pub async fn handle_text(&self, body: &str) -> Option<String> {
        let reply = match serde_json::from_str::<Value>(body) {
            Ok(request) => self.handle(request).await?,
            Err(err) => Reply::Single(Response::failure(
                Value::Null,
                &Error::Parse(err.to_string()),
                Envelope::Native,
            )),
        };
        Some(serde_json::to_string(&reply).expect("responses always serialise"))
    }

    /// [`handle_text`](Self::handle_text) for raw bytes, as a transport receives them. A body
    /// that is not UTF-8 is not JSON either, so it gets the same `-32700` reply and nothing
    /// runs (a lossy conversion would run a request whose text was silently changed).
    pub async fn handle_bytes(&self, body: &[u8]) -> Option<String> {
        match std::str::from_utf8(body) {
            Ok(text) => self.handle_text(text).await,
            Err(err) => {
                let reply = Reply::Single(Response::failure(
                    Value::Null,
                    &Error::Parse(format!("the body is not UTF-8: {err}")),
                    Envelope::Native,
                ));
                Some(serde_json::to_string(&reply).expect("responses always serialise"))
            }
        }
    }

    /// [`handle_text`](Self::handle_text) for an already parsed body.
    pub async fn handle_value(&self, request: Value) -> Option<Value> {
        let reply = self.handle(request).await?;
        Some(serde_json::to_value(&reply).expect("responses always serialise"))
    }

    /// Every served method name: the `memory.*` names, then the `openhuman.memory_*` ones.
    pub fn method_names() -> &'static [&'static str] {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        NAMES.get_or_init(|| {
            let native = METHODS.iter().map(|method| method.name);
            let reference = METHODS
                .iter()
                .filter_map(|method| method.reference.as_ref().map(|r| r.name));
            native.chain(reference).collect()
        })
    }

    async fn handle(&self, request: Value) -> Option<Reply> {
        match request {
            Value::Array(requests) if requests.is_empty() => {
                Some(Reply::Single(Response::failure(
                    Value::Null,
                    &Error::InvalidRequest("empty batch".to_owned()),
                    Envelope::Native,
                )))
            }
            // Refused whole, before any element runs: a half-applied batch would be harder for
            // the caller to recover from than none.
            Value::Array(requests) if requests.len() > MAX_BATCH_LEN => {
                Some(Reply::Single(Response::failure(
                    Value::Null,
                    &Error::InvalidRequest(format!(
                        "batch of {} requests, at most {MAX_BATCH_LEN} are allowed",
                        requests.len()
                    )),
                    Envelope::Native,
                )))
            }
            Value::Array(requests) => {
                let mut budget = ReplyBudget::new(self.limits, true);
                let mut responses = Vec::with_capacity(requests.len());
                for request in requests {
                    responses.extend(self.handle_one(request, &mut budget).await);
                }
                // A batch of notifications only gets no reply at all, not an empty array.
                (!responses.is_empty()).then_some(Reply::Batch(responses))
            }
            request => {
                let mut budget = ReplyBudget::new(self.limits, false);
                self.handle_one(request, &mut budget)
                    .await
                    .map(Reply::Single)
            }
        }
    }

    /// One request object, within what the body has left of its `budget`; error replies are
    /// counted too.
    async fn handle_one(&self, request: Value, budget: &mut ReplyBudget) -> Option<Response> {
        let response = self.answer_one(request, budget).await?;
        if response.error.is_some() {
            budget.add_error(response.encoded_len());
        }
        Some(response)
    }

    /// One request object. A malformed one is always answered (with the id when it is
    /// usable), because without a valid request there is no notification to keep quiet about.
    async fn answer_one(&self, request: Value, budget: &mut ReplyBudget) -> Option<Response> {
        let invalid = |id: Value, message: String| {
            Some(Response::failure(
                id,
                &Error::InvalidRequest(message),
                Envelope::Native,
            ))
        };
        let Value::Object(mut request) = request else {
            return invalid(
                Value::Null,
                format!("expected an object, got {}", json_kind(&request)),
            );
        };
        // No `id` member at all makes a notification; `"id": null` is an ordinary request.
        let id = match request.remove("id") {
            None => None,
            Some(id @ (Value::String(_) | Value::Number(_) | Value::Null)) => Some(id),
            Some(other) => {
                return invalid(
                    Value::Null,
                    format!(
                        "id must be a string, number or null, got {}",
                        json_kind(&other)
                    ),
                );
            }
        };
        let reply_id = id.clone().unwrap_or(Value::Null);
        match request.get("jsonrpc") {
            Some(Value::String(version)) if version == "2.0" => {}
            Some(other) => {
                return invalid(reply_id, format!("jsonrpc must be \"2.0\", got {other}"));
            }
            None => return invalid(reply_id, "jsonrpc must be \"2.0\", got nothing".to_owned()),
        }
        let method = match request.remove("method") {
            Some(Value::String(method)) => method,
            Some(other) => {
                return invalid(
                    reply_id,
                    format!("method must be a string, got {}", json_kind(&other)),
                );
            }
            None => return invalid(reply_id, "method is missing".to_owned()),
        };
        let envelope = Envelope::of_method(&method);
        let outcome = match budget.spent() {
            // Once a bound is reached nothing more runs, writes included: a client can tell
            // from the errors exactly which requests took effect.
            Some(limit) => Err(Error::LimitExceeded { limit, ran: false }),
            None => self
                .call(&method, envelope, request.remove("params"))
                .await
                .map(|answer| {
                    budget.add_work(1 + answer.work);
                    answer.result
                }),
        };
        if let Err(error) = &outcome {
            log_failure(&method, error, envelope, id.is_none());
        }
        // A notification gets nothing back, even when it failed.
        let id = id?;
        Some(match outcome {
            Ok(result) => {
                let response = Response::success(id, result);
                if budget.take_result(response.encoded_len()) {
                    response
                } else {
                    // The result does not fit: the request ran, the error says so, and
                    // nothing after it runs.
                    let limit = budget.spent().expect("take_result records its bound");
                    let error = Error::LimitExceeded { limit, ran: true };
                    log_failure(&method, &error, envelope, false);
                    Response::failure(response.id, &error, envelope)
                }
            }
            Err(error) => Response::failure(id, &error, envelope),
        })
    }

    async fn call(
        &self,
        name: &str,
        envelope: Envelope,
        params: Option<Value>,
    ) -> Result<Answer, Error> {
        let method = find(name, envelope).ok_or_else(|| Error::MethodNotFound {
            method: name.to_owned(),
        })?;
        let params = Params::check(params, method.name, method.params, envelope)?;
        let answer = (method.call)(&self.client, params).await?;
        match (&method.reference, envelope) {
            (Some(reference), Envelope::Reference) => {
                let outcome = ReferenceOutcome {
                    result: &answer.result,
                    logs: [reference.log],
                };
                let result = serde_json::value::to_raw_value(&outcome)
                    .map_err(|err| Error::Internal(err.to_string()))?;
                Ok(Answer {
                    result,
                    work: answer.work,
                })
            }
            _ => Ok(answer),
        }
    }
}

/// Caller mistakes are the caller's to see; storage and internal failures are also the
/// operator's, so they are logged where an operator looks.
///
/// A rejected call is logged by code and field only: its message quotes the offending value
/// (serde's "invalid type: string \"...\"", an unknown priority), which may be rule text or a
/// tool argument, and those never reach the logs. An unknown method name is the caller's text
/// too, so only its length is logged.
fn log_failure(method: &str, error: &Error, envelope: Envelope, notification: bool) {
    let object = error_object(error, Envelope::Native);
    let code = object.code;
    let served = RpcHandler::method_names().contains(&method);
    let method_len = method.len();
    let method = if served { method } else { "(unknown)" };
    if code == STORAGE_ERROR_CODE || code == INTERNAL_ERROR_CODE {
        // Store and internal messages carry SQLite's words, tool names and ids, never content.
        tracing::warn!(method, code, notification, %error, "[tool-memory] rpc call failed");
    } else {
        let field = object
            .data
            .as_ref()
            .and_then(|data| data.get("field"))
            .and_then(Value::as_str)
            .filter(|_| !matches!(error, Error::UnknownParam { .. }))
            .unwrap_or("");
        tracing::debug!(
            method,
            method_len,
            code,
            field,
            ?envelope,
            notification,
            "[tool-memory] rpc call rejected"
        );
    }
}
