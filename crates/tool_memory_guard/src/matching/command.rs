//! Command patterns: the program, subcommands and flags a `command` matcher names, and
//! whether an invocation runs it.

use crate::call::{CallView, Invocation};
use crate::normalize::{canonical_flag, chunks, expand_flag, program_name};

/// A command prefix: program, subcommands, and the flags it must carry.
#[derive(Debug, Clone)]
pub(crate) struct CommandPattern {
    pub(crate) words: Vec<String>,
    pub(crate) flags: Vec<String>,
}

impl CommandPattern {
    pub(crate) fn parse(value: &str) -> CommandPattern {
        let lower = value.to_lowercase();
        let mut words = Vec::new();
        let mut raw_flags = Vec::new();
        for token in lower.split_whitespace() {
            // `git checkout -- .`: the end of options, which an invocation does not keep.
            if token == "--" {
                continue;
            }
            if token.len() > 1 && token.starts_with('-') && !words.is_empty() {
                raw_flags.push(token.to_owned());
            } else if words.is_empty() {
                words.push(program_name(token));
            } else {
                words.push(token.to_owned());
            }
        }
        let program = words.first().cloned().unwrap_or_default();
        let mut flags = Vec::new();
        let mut expanded = Vec::new();
        for token in raw_flags {
            expanded.clear();
            expand_flag(&token, &mut expanded);
            // A cluster (`-rf`) requires each of its letters, not the cluster spelling.
            let required = if expanded.len() > 1 {
                &expanded[1..]
            } else {
                &expanded[..]
            };
            for flag in required {
                let flag = canonical_flag(&program, flag).to_owned();
                if !flags.contains(&flag) {
                    flags.push(flag);
                }
            }
        }
        CommandPattern { words, flags }
    }

    pub(crate) fn matches_invocation(&self, invocation: &Invocation) -> bool {
        let Some((program, subcommands)) = self.words.split_first() else {
            return false;
        };
        *program == invocation.program
            && invocation.positional.len() >= subcommands.len()
            && invocation
                .positional
                .iter()
                .zip(subcommands)
                .all(|(a, b)| a == b)
            && self
                .flags
                .iter()
                .all(|flag| invocation.flags.contains(flag))
    }

    /// Whether the tool itself runs this command: a `git_push` tool runs `git push`; a
    /// `terraform` tool with `{"command": "apply"}` runs `terraform apply`. The flags must
    /// then appear anywhere in the call.
    pub(crate) fn matches_tool(&self, view: &CallView, tool_words: &[String]) -> bool {
        let Some(start) = tool_words
            .iter()
            .position(|word| Some(word) == self.words.first())
        else {
            return false;
        };
        for (offset, word) in self.words.iter().enumerate().skip(1) {
            match tool_words.get(start + offset) {
                Some(tool_word) if tool_word == word => {}
                Some(_) => return false,
                None => {
                    let named = view
                        .texts
                        .iter()
                        .any(|text| chunks(&text.lower).any(|chunk| chunk == word));
                    if !named {
                        return false;
                    }
                }
            }
        }
        let program = &self.words[0];
        self.flags.iter().all(|flag| {
            view.bool_flags.contains(flag)
                || view.invocations().iter().any(|invocation| {
                    let canonical = canonical_flag(program, flag);
                    invocation.flags.iter().any(|seen| {
                        seen == flag || seen == canonical || canonical_flag(program, seen) == flag
                    })
                })
        })
    }
}
