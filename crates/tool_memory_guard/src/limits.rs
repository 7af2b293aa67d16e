//! The bounds on the work of one check, and the budget that counts against them.
//!
//! A check reads a call that anyone may have written, so every step that grows with the call
//! is bounded here and nowhere else: how deep the arguments nest and how much they hold, how
//! many wrappers and quoted commands are unpacked, how many words the parsed commands hold,
//! and how much text the candidate rules look at. A call past a bound is not checked further
//! and gets `confirm` (a `deny` found before the bound still wins): a check that gave up must
//! never read as `allow`. The numbers sit far above what a person or an agent writes, so a
//! legitimate call is always checked in full (see `docs/guard.md`).

use std::cell::Cell;

/// Most wrappers (`sudo`, `env`, `xargs`, `timeout`, ...) unpacked in one command. Each
/// wrapper's invocation holds the whole command it wraps, so unpacking costs the square of
/// the wrappers: 4,000 nested `sudo` took 330 MB for one check. Real commands stack two or
/// three (`sudo -u deploy env FOO=1 timeout 5 nice -n 5 cmd` is five); sixteen leaves room for
/// any of those. The program after the sixteenth wrapper is still read; when it is a wrapper
/// again, the rest of the command is not.
pub const MAX_WRAPPERS: usize = 16;

/// Most levels of quoted commands unpacked inside each other (`ssh host "sudo sh -c 'rm x'"`
/// is two). Each level reads its quoted text again, so the parser reads a call's text at most
/// nine times. A person's deepest real case, `ssh` into `sudo sh -c` into `docker exec ... sh
/// -c`, is four; past eight, the quoting needs escapes no one types by hand.
pub const MAX_COMMAND_NESTING: usize = 8;

/// Most words held by the invocations parsed from one call, over all its strings and nesting
/// levels: a word held by a wrapper's invocation and by the program it wraps counts twice,
/// and each invocation counts [`INVOCATION_OVERHEAD_WORDS`] more for itself. This is what the
/// memory of a check grows with, at about 37 bytes a word, so 250,000 is about 9 MB. A 100 KB
/// file of Rust parses into about 5,500 invocations holding 10,000 words (54,000 here), a
/// 4 KB script of 50 commands into under 2,000: the bound is more than four times the first.
pub const MAX_INVOCATION_WORDS: usize = 250_000;

/// What an invocation weighs in [`MAX_INVOCATION_WORDS`] besides its words: its own
/// allocations (program, flags, joined text) weigh about as much as eight words, so a call of
/// many one-word commands (`a;a;a;...`) is bounded like one of long commands.
pub const INVOCATION_OVERHEAD_WORDS: usize = 8;

/// Deepest nesting of arrays and objects read in a call's arguments (the arguments object
/// itself is level 1). Tool arguments nest a handful of levels; the JSON-RPC parser already
/// refuses more than 128 for the whole request, and a caller of the library could pass any
/// depth, which the guard's recursive walks must not follow.
pub const MAX_ARGUMENT_DEPTH: usize = 64;

/// Most strings, numbers and object keys read from a call's arguments. Every one becomes a
/// text the matchers look at. 100,000 is a list of 100,000 recipients or paths, far more than
/// any tool takes, and at most 100 MB of work through the largest body the server accepts.
pub const MAX_ARGUMENT_VALUES: usize = 100_000;

/// Most bytes of string content read from a call's arguments: four times the server's default
/// body limit (1 MiB), so no HTTP request reaches it; it bounds what a library or stdio caller
/// can make one check copy and scan.
pub const MAX_ARGUMENT_BYTES: usize = 4 * 1024 * 1024;

/// Most work spent evaluating candidate rules on one call, in bytes (and words) of the call
/// looked at: each matcher evaluated against a part of the call costs that part's size.
/// Evaluation costs the candidate rules times the size of the call, so a call of 1 MiB that
/// names the words of 1,000 rules would cost a gigabyte of scanning. 64 Mi is a 100 KB file
/// body checked by 640 matchers, or the largest HTTP body by 64, at about 50 ms of work at
/// most; the benchmark's call (1,000 rules, about 200 bytes) spends a few hundred.
pub const MAX_EVALUATION_WORK: usize = 64 * 1024 * 1024;

/// The first bound a check ran into, which names it in the verdict's reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    Wrappers,
    CommandNesting,
    InvocationWords,
    ArgumentDepth,
    ArgumentValues,
    ArgumentBytes,
    EvaluationWork,
}

impl Bound {
    /// What made the call too complex, for the reason line.
    pub(crate) fn describe(self) -> String {
        match self {
            Bound::Wrappers => format!(
                "a command runs through more than {MAX_WRAPPERS} wrappers such as sudo, env or xargs"
            ),
            Bound::CommandNesting => {
                format!("its quoted commands nest more than {MAX_COMMAND_NESTING} deep")
            }
            Bound::InvocationWords => {
                format!("its commands hold more than {MAX_INVOCATION_WORDS} words")
            }
            Bound::ArgumentDepth => {
                format!("its arguments nest more than {MAX_ARGUMENT_DEPTH} deep")
            }
            Bound::ArgumentValues => {
                format!("its arguments hold more than {MAX_ARGUMENT_VALUES} values")
            }
            Bound::ArgumentBytes => {
                format!("its arguments hold more than {MAX_ARGUMENT_BYTES} bytes of text")
            }
            Bound::EvaluationWork => format!(
                "checking it against the candidate rules would take more than {MAX_EVALUATION_WORK} units of work"
            ),
        }
    }
}

/// What one check has spent, and the first bound it ran into. Interior mutability, because
/// the call's view is shared by reference while its commands are parsed on demand.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    invocation_words: Cell<usize>,
    evaluation_work: Cell<usize>,
    exceeded: Cell<Option<Bound>>,
}

impl Budget {
    /// Records that `bound` was reached; the first one is kept for the reason.
    pub(crate) fn exceed(&self, bound: Bound) {
        if self.exceeded.get().is_none() {
            self.exceeded.set(Some(bound));
        }
    }

    /// The first bound reached, if any: the check is then incomplete.
    pub(crate) fn exceeded(&self) -> Option<Bound> {
        self.exceeded.get()
    }

    /// Takes `words` (and the overhead) for a new invocation; `false` (and the bound recorded)
    /// when they do not fit.
    pub(crate) fn take_invocation_words(&self, words: usize) -> bool {
        let total = self.invocation_words.get() + words + INVOCATION_OVERHEAD_WORDS;
        if total > MAX_INVOCATION_WORDS {
            self.exceed(Bound::InvocationWords);
            return false;
        }
        self.invocation_words.set(total);
        true
    }

    /// Takes `work` for one matcher evaluation; `false` (and the bound recorded) when it does
    /// not fit, and for every later request once it did not.
    pub(crate) fn take_work(&self, work: usize) -> bool {
        if self.exceeded.get() == Some(Bound::EvaluationWork) {
            return false;
        }
        let total = self.evaluation_work.get().saturating_add(work);
        if total > MAX_EVALUATION_WORK {
            self.exceed(Bound::EvaluationWork);
            return false;
        }
        self.evaluation_work.set(total);
        true
    }

    /// Whether evaluation has run out of work; later candidates are not evaluated.
    pub(crate) fn work_spent(&self) -> bool {
        self.exceeded.get() == Some(Bound::EvaluationWork)
    }
}

/// Counts the values and bytes of a walk over a call's arguments. The index walk and the
/// call's view walk the arguments in the same order with one of these each, so both stop at
/// the same value.
#[derive(Debug, Default)]
pub(crate) struct ArgumentCount {
    values: usize,
    bytes: usize,
}

impl ArgumentCount {
    /// Takes one value of `bytes` bytes; the bound it would pass otherwise.
    pub(crate) fn take(&mut self, bytes: usize) -> Result<(), Bound> {
        if self.values + 1 > MAX_ARGUMENT_VALUES {
            return Err(Bound::ArgumentValues);
        }
        if self.bytes + bytes > MAX_ARGUMENT_BYTES {
            return Err(Bound::ArgumentBytes);
        }
        self.values += 1;
        self.bytes += bytes;
        Ok(())
    }

    /// Whether these strings would all fit, without taking them.
    pub(crate) fn fits<'a>(&self, strings: impl Iterator<Item = &'a str>) -> bool {
        let (mut values, mut bytes) = (self.values, self.bytes);
        for text in strings {
            values += 1;
            bytes += text.len();
            if values > MAX_ARGUMENT_VALUES || bytes > MAX_ARGUMENT_BYTES {
                return false;
            }
        }
        true
    }
}
