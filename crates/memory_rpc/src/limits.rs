//! Every bound the RPC layer puts on one request body, with the reason for its number: the
//! size of a batch and of a prompt request (the request), and the bytes and work of the reply
//! (what one body may make the server produce). A 95 KB batch of 1,000 prompt requests once
//! made an 846 MB reply; the reply bounds are what keeps a small body from being an amplifier.
//!
//! The reply bounds are [`RpcLimits`], configurable per handler; the constants are their
//! defaults.

/// Most requests in one batch. Requests of a batch run one after another while the client
/// waits, so an unbounded batch would let one body hold the store for as long as it likes.
pub const MAX_BATCH_LEN: usize = 1000;

/// Most tool names in one `memory.tool_rules_for_prompt` request. An agent has dozens of tools,
/// not thousands; the bound keeps one request from fanning out into unbounded store reads.
pub const MAX_PROMPT_TOOLS: usize = 1000;

/// Most bytes of text in one `memory.tool_rules_import`. An export of 10,000 ordinary rules
/// is about 4 MB; the HTTP body bound (`--max-body`, 1 MiB by default) is usually the one a
/// page meets first, and this one holds where there is none (stdio).
pub const MAX_IMPORT_BYTES: usize = 8 * 1024 * 1024;

/// Most non-blank lines in one `memory.tool_rules_import`. Every line is a store read and
/// usually a write, run while the caller waits, and each is one line of the report; 10,000 is
/// a large tool's export, and bigger files go through `toolmem import`, or in parts.
pub const MAX_IMPORT_LINES: usize = 10_000;

/// Default for [`RpcLimits::max_response_bytes`]: 16 MiB of reply per request body. The
/// largest reply a real client needs is one listing of a big tool: 10,000 rules of 1,000
/// characters with their constraints is about 14 MB (10,000 rules of ordinary length, about
/// 4 MB). The prompt for 1,000 tools at the default budget is under 1 MB. 16 MiB is what a
/// server can hold for a few concurrent clients; the reported attack made 846 MB.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

/// Default for [`RpcLimits::max_batch_work`]: 100,000 units of work per request body. A
/// request costs one unit, plus one per rule (or history entry) it returns, plus one per tool
/// a prompt request names. So a batch may list 100 tools of 1,000 rules, put 1,000 rules
/// (2,000 units) fifty times over, or ask for 100 prompts naming 1,000 tools; 1,000 prompt
/// requests for 1,000 tools (the reported attack, at least a million units) stop a tenth of
/// the way. 100,000 rules is also about what fits in the default reply bytes.
pub const DEFAULT_MAX_BATCH_WORK: usize = 100_000;

/// The bounds on the reply to one request body, single request or batch.
///
/// Past either bound, every later element of the batch is refused without running (writes
/// included) and answered with [`LIMIT_EXCEEDED_CODE`](crate::LIMIT_EXCEEDED_CODE); elements
/// already answered keep their results, and the batch keeps its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RpcLimits {
    /// Most bytes of results in one reply. A result that would pass it is replaced by the
    /// limit error (its request ran, and the error says so), and nothing after it runs. The
    /// refusals themselves come on top: each is its id and under 250 bytes.
    pub max_response_bytes: usize,
    /// Most work one body may spend (see [`DEFAULT_MAX_BATCH_WORK`] for the units). An element
    /// runs only while the body has work left, and its cost is counted when it finishes, so a
    /// body overruns by at most one request. A single request always runs.
    pub max_batch_work: usize,
}

impl Default for RpcLimits {
    fn default() -> RpcLimits {
        RpcLimits {
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            max_batch_work: DEFAULT_MAX_BATCH_WORK,
        }
    }
}

impl RpcLimits {
    /// These limits with another reply size bound.
    pub fn with_max_response_bytes(mut self, bytes: usize) -> RpcLimits {
        self.max_response_bytes = bytes;
        self
    }

    /// These limits with another work budget.
    pub fn with_max_batch_work(mut self, work: usize) -> RpcLimits {
        self.max_batch_work = work;
        self
    }
}

/// Which reply bound a request ran into, for its error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Limit {
    ResponseBytes(usize),
    BatchWork(usize),
}

impl Limit {
    /// The name `data.limit` carries: the field of [`RpcLimits`].
    pub(crate) fn name(self) -> &'static str {
        match self {
            Limit::ResponseBytes(_) => "max_response_bytes",
            Limit::BatchWork(_) => "max_batch_work",
        }
    }

    pub(crate) fn max(self) -> usize {
        match self {
            Limit::ResponseBytes(max) | Limit::BatchWork(max) => max,
        }
    }
}

/// What one request body has spent of its limits so far.
#[derive(Debug)]
pub(crate) struct ReplyBudget {
    limits: RpcLimits,
    /// Bytes of the reply so far, brackets and commas included.
    bytes: usize,
    responses: usize,
    work: usize,
    /// The bound reached first; from then on nothing runs.
    spent: Option<Limit>,
}

impl ReplyBudget {
    /// A fresh budget for a single request or a batch (whose reply has brackets and commas).
    pub(crate) fn new(limits: RpcLimits, batch: bool) -> ReplyBudget {
        ReplyBudget {
            limits,
            bytes: if batch { 2 } else { 0 },
            responses: 0,
            work: 0,
            spent: None,
        }
    }

    /// The bytes a response of `len` bytes adds to the reply: its comma after the first.
    fn added(&self, len: usize) -> usize {
        len + usize::from(self.responses > 0)
    }

    /// The bound already reached, if any: the next element must not run.
    pub(crate) fn spent(&self) -> Option<Limit> {
        self.spent
    }

    /// Counts the work of an element that ran.
    pub(crate) fn add_work(&mut self, work: usize) {
        self.work = self.work.saturating_add(work);
        if self.work >= self.limits.max_batch_work && self.spent.is_none() {
            self.spent = Some(Limit::BatchWork(self.limits.max_batch_work));
        }
    }

    /// Takes the bytes of a response carrying a result; `false` (and nothing runs after)
    /// when they do not fit.
    pub(crate) fn take_result(&mut self, len: usize) -> bool {
        let total = self.bytes.saturating_add(self.added(len));
        if total > self.limits.max_response_bytes {
            self.spent = Some(Limit::ResponseBytes(self.limits.max_response_bytes));
            return false;
        }
        self.bytes = total;
        self.responses += 1;
        true
    }

    /// Counts the bytes of an error response, which is always sent.
    pub(crate) fn add_error(&mut self, len: usize) {
        self.bytes = self.bytes.saturating_add(self.added(len));
        self.responses += 1;
    }
}
