//! Bans on killing processes by name: "never kill node processes (`pkill node`, `killall
//! node`, `taskkill /IM node.exe /F`)". The examples are ways, not the ban: every command that
//! kills processes is concerned when its line names the process (`pkill -f 'node server.js'`,
//! `kill -9 $(pgrep node)`, `Stop-Process -Name node`), and only those (`pkill python`,
//! `node --version`).

use super::entities::CommandPhrase;
use crate::{Constraint, Matcher, MatcherKind};

/// Commands that kill processes, on every system: the name a ban gives is looked for in each.
const KILLERS: &[&str] = &[
    "kill",
    "killall",
    "pkill",
    "skill",
    "stop-process",
    "taskkill",
];

/// Killers that take the process's name as their first word (`pkill node`).
const BY_NAME: &[&str] = &["killall", "pkill", "skill"];

/// The process names a rule's words and commands give: the name after a killer by name, the
/// value of `taskkill /IM` and `Stop-Process -Name` (without `.exe`), and "kill X processes".
fn process_names(lower: &str, phrases: &[CommandPhrase]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        let name = name
            .trim_matches(|ch: char| !ch.is_alphanumeric())
            .trim_end_matches(".exe")
            .to_lowercase();
        if name.len() >= 2 && !name.starts_with('-') && !names.contains(&name) {
            names.push(name);
        }
    };
    for phrase in phrases {
        match phrase.words.as_slice() {
            [program, name, ..] if BY_NAME.contains(&program.as_str()) => add(name),
            [program, rest @ ..] if program == "taskkill" || program == "stop-process" => {
                if let Some(name) = rest.iter().find(|word| !word.starts_with(['/', '-'])) {
                    add(name);
                }
            }
            _ => {}
        }
    }
    // ("kill the postgres process", "stop any running java processes": the words that only
    // point at the process are no part of its name.)
    let words: Vec<&str> = lower
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '-' || ch == '.'))
        .map(|word| word.trim_end_matches('.'))
        .filter(|word| {
            !word.is_empty() && !matches!(*word, "a" | "all" | "any" | "the" | "running" | "my")
        })
        .collect();
    for window in words.windows(3) {
        if matches!(
            window[0],
            "kill" | "killing" | "stop" | "stopping" | "terminate"
        ) && matches!(window[2], "process" | "processes")
        {
            add(window[1]);
        }
    }
    names
}

/// The ban on killing the processes a rule names, or `None` when it names no process or
/// names other commands beside its killers.
pub(crate) fn kill_ban(lower: &str, phrases: &[CommandPhrase]) -> Option<Constraint> {
    let only_killers = phrases
        .iter()
        .all(|phrase| KILLERS.contains(&phrase.words[0].as_str()));
    if !only_killers {
        return None;
    }
    let names = process_names(lower, phrases);
    if names.is_empty() {
        return None;
    }
    Some(
        // (Windows names the image: `taskkill /IM node.exe`.)
        Constraint::forbid(
            names
                .into_iter()
                .flat_map(|name| {
                    let image = format!("{name}.exe");
                    [
                        Matcher::new(MatcherKind::Literal, name),
                        Matcher::new(MatcherKind::Literal, image),
                    ]
                })
                .collect(),
        )
        .with_when(
            KILLERS
                .iter()
                .map(|killer| Matcher::new(MatcherKind::Command, *killer))
                .collect(),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_processes_a_ban_names() {
        let phrase = |words: &[&str], flags: &[&str]| CommandPhrase {
            offset: 0,
            force_words: false,
            words: words.iter().map(|word| (*word).to_owned()).collect(),
            adjacent_flags: flags.iter().map(|flag| (*flag).to_owned()).collect(),
            loose_flags: Vec::new(),
        };
        assert_eq!(process_names("never kill node processes.", &[]), ["node"]);
        assert_eq!(
            process_names("don't kill the postgres process", &[]),
            ["postgres"]
        );
        assert_eq!(
            process_names(
                "",
                &[
                    phrase(&["pkill", "node"], &[]),
                    phrase(&["taskkill", "/IM", "Node.exe", "/F"], &[]),
                    phrase(&["stop-process", "java"], &["-Name"]),
                ]
            ),
            ["node", "java"]
        );
        assert!(kill_ban("never run `rm -rf`", &[phrase(&["rm"], &["-rf"])]).is_none());
    }
}
