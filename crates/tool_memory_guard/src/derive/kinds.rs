//! Readings of what a critical or high rule names by kind or by an operation on an object,
//! which the literal grammar leaves out (issue 21, sixth round): "CI files" are the CI systems'
//! configuration files, a lockfile named in a ban is also rewritten by its package manager's
//! commands, "secrets go through `op read`, nowhere else" forbids the other secret stores'
//! readers, "adding a dependency" is every package manager's add command, and "don't restart
//! the workers" forbids the restart commands whose target carries the object's word. Each
//! reading is a constraint added beside what the text derives, at guard build (as the
//! fail-safe is), so it decides like any rule. The word lists are data in
//! `lexicon/kinds.rs`.

use super::entities::{BARE_ORDER_REACH, opens_a_bare_order};
use super::lexicon::{
    ADDING, ASKING_WORDS, BANNING_WORDS, BARE_KIND_VERBS, BARE_ORDER_ADVERBS, BARE_ORDER_FOLLOWERS,
    CI_NOUNS, CI_PATHS, CLEARED_BY_NATURE, CLOSING_VERBS, COMMAND_KINDS, Cues, DEPENDENCY_ADDERS,
    DEPENDENCY_NOUNS, EDIT_VERBS, EQUIVALENT_COMMANDS, INSTALL_PURPOSES, INSTALLS_A_LIST,
    LOCKFILE_WRITERS, NETWORK_COMMANDS, NO_OBJECT, OBJECT_FILLERS, ONLY_WAY, OPERATED_BY_NATURE,
    OPERATION_VERBS, OPERATIONS, PACKAGE_INSTALLS, PIPELINE_QUALIFIERS, PUBLIC_ARGUMENTS,
    SECRET_NOUNS, SECRET_OUTPUTS, SECRET_READERS, STATE_KEYS, TASK_PROGRAMS, TRACKED_ITEMS,
};
use crate::normalize::WordRuns;
use crate::{Access, Constraint, Matcher, MatcherKind, Polarity};

/// The longest text read for kinds: a rule and its reason. A pasted section names kinds in
/// passing ("the CI pipeline runs the tests") that are no object of its orders.
const MAX_TEXT_BYTES: usize = 400;

/// The constraints a rule states by kind or by an operation on an object, beside `derived`
/// (what its text derives, whose parts a lockfile reading extends). Empty for most rules.
pub(crate) fn kind_readings(text: &str, derived: Option<&Constraint>) -> Vec<Constraint> {
    let mut readings = Vec::new();
    if let Some(derived) = derived {
        lockfile_writers(derived, &mut readings);
        equivalent_commands(text, derived, &mut readings);
    }
    if text.len() > MAX_TEXT_BYTES {
        return readings;
    }
    let lower = text.replace('’', "'").to_lowercase();
    let cues = Cues::of(&WordRuns::new(&lower));
    let words = words_of(&lower);
    // "Any `publish*` script is release-manager only": what a role alone may run is kept
    // from the agent, as a ban is.
    let reserved = words
        .windows(2)
        .any(|pair| pair[1] == "only" && is_a_role(pair[0]));
    if cues.forbid.is_some() || cues.ask.is_some() || reserved {
        let ask_first = cues.ask.is_some();
        if let Some(ci) = ci_files(&words, ask_first) {
            readings.push(ci);
        }
        if let Some(adding) = adding_dependencies(&lower, &words, ask_first) {
            readings.push(adding);
        }
        // ("No Gradle task whose name starts with `publish`" is of `publish*`.)
        let patterned = super::name_patterns(text);
        readings.extend(task_patterns(
            patterned.as_deref().unwrap_or(text),
            &words,
            ask_first,
        ));
        if let Some(public) = public_arguments(&words, ask_first) {
            readings.push(public);
        }
        readings.extend(kinds_of_commands(&lower, ask_first));
        if let Some(shipping) = bare_kind_orders(&words, ask_first) {
            readings.push(shipping);
        }
        if let Some(closing) = closing_states(&words, ask_first) {
            readings.push(closing);
        }
    } else if NOTHING_THAT.iter().any(|phrase| lower.contains(phrase)) {
        // "Nothing that uploads.": a ban of a kind said without a cue of the grammar's.
        readings.extend(kinds_of_commands(&lower, false));
    }
    if let Some(readers) = other_secret_readers(text, &lower, &words) {
        readings.extend(readers);
    }
    if let Some(required) = required_argument(text, &words) {
        readings.push(required);
    }
    operations_on_objects(&words, &mut readings);
    readings.extend(super::scopes::scope_readings(text));
    readings.retain(|reading| reading.validate().is_ok());
    readings
}

/// "No package installs (npm, pip, brew, apt)": a ban of a kind of commands whose text also
/// lists programs derives each program bare, every use of it (`npm run build`, `pip list`).
/// The base the guard checks instead names each listed program's commands of that kind
/// (`npm install *`, `apt-get install *`); a program the kind has no command of stays bare.
/// `None` where nothing narrows (most rules: no bare program, or no kind named).
pub(crate) fn narrowed_to_kinds(text: &str, derived: &Constraint) -> Option<Constraint> {
    let bare =
        |matcher: &Matcher| matcher.kind == MatcherKind::Command && !matcher.value.contains(' ');
    if derived.polarity != Polarity::Forbid
        || text.len() > MAX_TEXT_BYTES
        || !derived.matchers.iter().any(bare)
    {
        return None;
    }
    let lower = text.replace('’', "'").to_lowercase();
    let kinds = kinds_of_commands(&lower, derived.ask_first);
    if kinds.is_empty() {
        return None;
    }
    let (mut narrowed, mut kept) = (false, false);
    let mut matchers: Vec<Matcher> = Vec::new();
    for matcher in &derived.matchers {
        let program = matcher.value.as_str();
        let of_kind: Vec<&Matcher> = if bare(matcher) && listed_as_example(&lower, program) {
            kinds
                .iter()
                .flat_map(|kind| &kind.matchers)
                .filter(|command| {
                    let first = command.value.split(' ').next().unwrap_or_default();
                    command.value.contains(' ')
                        && (first == program
                            || first
                                .strip_prefix(program)
                                .is_some_and(|rest| rest.starts_with('-')))
                })
                .collect()
        } else {
            Vec::new()
        };
        if of_kind.is_empty() {
            kept = true;
            matchers.push(matcher.clone());
        } else {
            narrowed = true;
            for command in of_kind {
                if !matchers.contains(command) {
                    matchers.push(command.clone());
                }
            }
        }
    }
    if !narrowed {
        return None;
    }
    let mut base = derived.clone();
    base.matchers = matchers;
    // The installers' list forms (`pip install -r`) add no package, as in the kind's reading;
    // not where the base keeps another command, whose `-r` is something else.
    for kind in kinds.iter().filter(|_| !kept) {
        for except in &kind.except {
            if !base.except.contains(except) {
                base.except.push(except.clone());
            }
        }
    }
    base.validate().is_ok().then_some(base)
}

/// Whether a program is written in a list that gives examples of a kind: in parentheses,
/// after a colon, "such as", "like" or "e.g." in its sentence ("No package installs (npm,
/// pip)", "nothing that talks to the network: curl, wget"). A program the order names as the
/// means ("Never install packages with npm; we use pnpm") is banned itself.
fn listed_as_example(lower: &str, program: &str) -> bool {
    lower.match_indices(program).any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + program.len()..].chars().next();
        let bounded = before.is_none_or(|ch| !ch.is_alphanumeric() && ch != '-')
            && after.is_none_or(|ch| !ch.is_alphanumeric() && ch != '-');
        if !bounded {
            return false;
        }
        let sentence_start = [". ", "; ", "! ", "? ", "\n"]
            .iter()
            .filter_map(|mark| lower[..at].rfind(mark).map(|found| found + mark.len()))
            .max()
            .unwrap_or(0);
        let clause = &lower[sentence_start..at];
        let open = clause.rfind('(');
        open > clause.rfind(')')
            || clause.contains(':')
            || [" such as ", " like ", "e.g. ", "e.g., ", "i.e. "]
                .iter()
                .any(|cue| clause.contains(cue))
    })
}

/// "Don't close or cancel Linear issues": the states an update sets to close or cancel an
/// item ([`CLOSING_VERBS`]) under each key a tracker names its state by; another update (a
/// title, a label, "In Progress") is no close.
fn closing_states(words: &[&str], ask_first: bool) -> Option<Constraint> {
    let mut states: Vec<&str> = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let Some((_, closed)) = CLOSING_VERBS.iter().find(|(verb, _)| verb == word) else {
            continue;
        };
        // The item in the same clause, within a few words ("close or cancel Linear issues").
        let item = words[at + 1..]
            .iter()
            .take(5)
            .take_while(|word| !word.is_empty())
            .any(|word| TRACKED_ITEMS.contains(word));
        if item {
            for state in *closed {
                if !states.contains(state) {
                    states.push(state);
                }
            }
        }
    }
    if states.is_empty() {
        return None;
    }
    let matchers = STATE_KEYS
        .iter()
        .flat_map(|key| {
            states
                .iter()
                .map(move |state| Matcher::new(MatcherKind::Argument, format!("{key}={state}")))
        })
        .collect();
    Some(Constraint::forbid(matchers).with_ask_first(ask_first))
}

/// Phrases that open a ban of what does something, without a cue: "nothing that uploads".
const NOTHING_THAT: &[&str] = &["nothing that ", "nothing which ", "no command that "];

/// "No package installs", "nothing that talks to the network": the commands of each kind the
/// rule names ([`COMMAND_KINDS`]); a network ban holds for package installs too. An installer
/// given a list or the project itself (`pip install -r requirements.txt`) adds no package, so
/// a ban of installs leaves it.
fn kinds_of_commands(lower: &str, ask_first: bool) -> Vec<Constraint> {
    let mut readings = Vec::new();
    let mut global = false;
    for (kind, (phrases, commands)) in COMMAND_KINDS.iter().enumerate() {
        let names = phrases.iter().any(|phrase| {
            lower.match_indices(phrase).any(|(at, _)| {
                let before = lower[..at].chars().next_back();
                let after = lower[at + phrase.len()..].chars().next();
                before.is_none_or(|ch| !ch.is_alphanumeric())
                    && after.is_none_or(|ch| !ch.is_alphanumeric())
            })
        });
        // "No global installs" is of the global ones only, not every package install.
        // "Never use npm or yarn for installing packages" bans the programs it names for that
        // purpose (`INSTALL_PURPOSES`, read with the text), not every installer.
        let purpose = INSTALL_PURPOSES.iter().any(|phrase| lower.contains(phrase));
        if !names || ((global || purpose) && commands == &PACKAGE_INSTALLS) {
            continue;
        }
        global |= kind == 0;
        let network = commands == &NETWORK_COMMANDS;
        let matchers = commands
            .iter()
            .chain(if network { PACKAGE_INSTALLS } else { &[] })
            .map(|command| Matcher::new(MatcherKind::Command, *command))
            .collect();
        let mut reading = Constraint::forbid(matchers).with_ask_first(ask_first);
        if commands == &PACKAGE_INSTALLS {
            reading = reading.with_except(
                INSTALLS_A_LIST
                    .iter()
                    .map(|flag| Matcher::new(MatcherKind::Flag, *flag))
                    .collect(),
            );
        }
        readings.push(reading);
    }
    readings
}

/// "Never deploy.", "don't release anything without asking me", "no publishing, ever": a
/// verb of shipping said bare right after the order, with nothing after it but the clause's
/// end or a word of circumstance, is every command of its kind ([`BARE_KIND_VERBS`]); an
/// object after it ("deploy the docs site", "publish the notes") is the grammar's.
fn bare_kind_orders(words: &[&str], ask_first: bool) -> Option<Constraint> {
    let mut matchers: Vec<Matcher> = Vec::new();
    for (index, pair) in words.windows(2).enumerate() {
        let Some((_, commands)) = BARE_KIND_VERBS
            .iter()
            .find(|(forms, _)| forms.contains(&pair[1]))
        else {
            continue;
        };
        let next = words[index + 2..]
            .iter()
            .find(|word| !BARE_ORDER_ADVERBS.contains(word))
            .copied()
            .unwrap_or_default();
        if opens_a_bare_order(&words[(index + 1).saturating_sub(BARE_ORDER_REACH)..=index])
            && (next.is_empty() || BARE_ORDER_FOLLOWERS.contains(&next))
        {
            for command in *commands {
                let matcher = Matcher::new(MatcherKind::Command, *command);
                if !matchers.contains(&matcher) {
                    matchers.push(matcher);
                }
            }
        }
    }
    (!matchers.is_empty()).then(|| Constraint::forbid(matchers).with_ask_first(ask_first))
}

/// "Don't reply publicly", "no public share links": the arguments by which a tool makes what
/// it writes public ([`PUBLIC_ARGUMENTS`]: `visibility: public`, `public: true`, `access:
/// anyone`).
fn public_arguments(words: &[&str], ask_first: bool) -> Option<Constraint> {
    if !words
        .iter()
        .any(|word| matches!(*word, "public" | "publicly"))
    {
        return None;
    }
    let matchers = PUBLIC_ARGUMENTS
        .iter()
        .map(|(key, value)| Matcher::new(MatcherKind::Argument, format!("{key}={value}")))
        .collect();
    Some(Constraint::forbid(matchers).with_ask_first(ask_first))
}

/// "Never run any `publish*` task with Gradle", "no `deploy-*` targets of make": a pattern in
/// code that names tasks of a program that runs tasks ([`TASK_PROGRAMS`]) is that program's
/// command on every task the pattern covers (`./gradlew :app:publishToMavenLocal`).
fn task_patterns(text: &str, words: &[&str], ask_first: bool) -> Vec<Constraint> {
    let tasks = words.iter().any(|word| {
        matches!(
            *word,
            "task" | "tasks" | "target" | "targets" | "goal" | "goals"
        )
    });
    let scripts = words
        .iter()
        .any(|word| matches!(*word, "script" | "scripts"));
    if !tasks && !scripts {
        return Vec::new();
    }
    // The programs whose tasks the pattern names: the one the rule names (rake's tasks run
    // under `rails` too); else a package's scripts ("any `publish*` script"), and for "tasks"
    // said without a program rake's as well ("No `deploy:*` tasks").
    let named = words.iter().find_map(|word| {
        TASK_PROGRAMS
            .iter()
            .find(|(name, _)| name == word)
            .map(|(_, program)| *program)
    });
    let programs: Vec<&str> = match named {
        Some("rake") => vec!["rake", "rails"],
        Some(program) => vec![program],
        None if tasks => vec![
            "npm run", "pnpm run", "yarn run", "bun run", "rake", "rails",
        ],
        None => vec!["npm run", "pnpm run", "yarn run", "bun run"],
    };
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            span.contains('*')
                && span.chars().any(char::is_alphanumeric)
                && span
                    .chars()
                    .all(|ch| ch.is_alphanumeric() || "*:-_".contains(ch))
        })
        .map(|span| {
            // A project path (`:app:publish*`) is read as its task, as a call's is; a
            // namespace (`db:*`, `deploy:*`) is part of the task's name.
            let task = if span.starts_with(':') {
                span.rsplit(':').next().unwrap_or(span).to_lowercase()
            } else {
                span.to_lowercase()
            };
            Constraint::forbid(
                programs
                    .iter()
                    .map(|program| Matcher::new(MatcherKind::Command, format!("{program} {task}")))
                    .collect(),
            )
            .with_ask_first(ask_first)
        })
        .collect()
}

/// Whether a word names a role a rule keeps work for ("release-manager only", "maintainers
/// only").
fn is_a_role(word: &str) -> bool {
    let word = word.trim_end_matches('s');
    [
        "manager",
        "maintainer",
        "admin",
        "human",
        "owner",
        "lead",
        "sre",
        "ops",
        "reviewer",
    ]
    .iter()
    .any(|role| {
        word == *role || word.ends_with(&format!("-{role}")) || word.ends_with(&format!(" {role}"))
    })
}

/// The words of a lower-case text, without their punctuation and markup; a word that ended a
/// clause (`,`, `;`, `.`) is followed by an empty word, so that a window of words does not
/// cross clauses.
fn words_of(lower: &str) -> Vec<&str> {
    let mut words = Vec::new();
    for raw in lower.split_whitespace() {
        let word = raw.trim_matches(|ch: char| !(ch.is_alphanumeric() || "'-_@.".contains(ch)));
        let word = word.trim_end_matches('.');
        if !word.is_empty() {
            words.push(word);
        }
        if raw.ends_with([',', ';', '.', ':', '—', '!', '?']) {
            words.push("");
        }
    }
    words
}

/// "Stop editing CI files", "don't modify our CI pipelines without asking": the CI systems'
/// configuration files (`CI_PATHS`), written only when the rule speaks of changing them.
fn ci_files(words: &[&str], ask_first: bool) -> Option<Constraint> {
    let names_ci = words.windows(2).any(|pair| {
        (pair[0] == "ci" && CI_NOUNS.contains(&pair[1]))
            || (matches!(pair[1], "pipeline" | "pipelines" | "workflows")
                && PIPELINE_QUALIFIERS.contains(&pair[0]))
    });
    if !names_ci {
        return None;
    }
    let writes = words.iter().any(|word| EDIT_VERBS.contains(word));
    let matchers = CI_PATHS
        .iter()
        .map(|path| Matcher::new(MatcherKind::Path, *path))
        .collect();
    Some(
        Constraint::forbid(matchers)
            .with_access(writes.then_some(Access::Write))
            .with_ask_first(ask_first),
    )
}

/// A command forbidden by a part of the derived constraint is forbidden under its other
/// programs' names ([`EQUIVALENT_COMMANDS`]: `pnpm publish` under a ban of `npm publish`), with
/// that part's answer.
fn equivalent_commands(text: &str, derived: &Constraint, readings: &mut Vec<Constraint>) {
    let prose: String = text
        .split('`')
        .step_by(2)
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    for part in derived.parts() {
        if part.polarity != Polarity::Forbid || !part.when.is_empty() {
            continue;
        }
        let mut matchers: Vec<Matcher> = Vec::new();
        for matcher in &part.matchers {
            if matcher.kind != MatcherKind::Command {
                continue;
            }
            let value = matcher.value.to_lowercase();
            for (group, word) in EQUIVALENT_COMMANDS {
                if !word.is_empty()
                    && !prose
                        .split(|ch: char| !ch.is_alphanumeric())
                        .any(|seen| seen == *word)
                {
                    continue;
                }
                let Some(rest) = group.iter().find_map(|member| {
                    value
                        .strip_prefix(member)
                        .filter(|rest| rest.is_empty() || rest.starts_with(' '))
                }) else {
                    continue;
                };
                for member in *group {
                    let command = format!("{member}{rest}");
                    if command != value
                        && !part.matchers.iter().any(|known| known.value == command)
                        && !matchers.iter().any(|known| known.value == command)
                    {
                        matchers.push(Matcher::new(MatcherKind::Command, command));
                    }
                }
            }
        }
        if !matchers.is_empty() {
            readings.push(
                Constraint::forbid(matchers)
                    .with_ask_first(part.ask_first)
                    .with_access(part.access)
                    .with_except(part.except.clone()),
            );
        }
    }
}

/// A lockfile forbidden by a part of the derived constraint is forbidden to the commands that
/// rewrite it, with that part's answer.
fn lockfile_writers(derived: &Constraint, readings: &mut Vec<Constraint>) {
    for part in derived.parts() {
        if part.polarity != Polarity::Forbid || !part.when.is_empty() {
            continue;
        }
        for matcher in &part.matchers {
            if matcher.kind != MatcherKind::Path {
                continue;
            }
            let name = matcher.value.rsplit('/').next().unwrap_or_default();
            let Some((_, writers)) = LOCKFILE_WRITERS
                .iter()
                .find(|(lockfile, _)| lockfile.eq_ignore_ascii_case(name))
            else {
                continue;
            };
            let commands = writers
                .iter()
                .map(|command| Matcher::new(MatcherKind::Command, *command))
                .collect();
            readings.push(Constraint::forbid(commands).with_ask_first(part.ask_first));
        }
    }
}

/// "Ask before adding a dependency to `package.json`", "never pull in new crates": the add
/// commands of the package managers (of the manifest's ecosystem when the rule names one).
fn adding_dependencies(lower: &str, words: &[&str], ask_first: bool) -> Option<Constraint> {
    let noun = words
        .iter()
        .position(|word| DEPENDENCY_NOUNS.contains(word))?;
    // The adding verb before its noun, in the same clause: "adding a dependency", "new
    // packages", not "packages are installed with pnpm; add tests".
    let before = &words[noun.saturating_sub(4)..noun];
    let clause = before
        .iter()
        .rposition(|word| word.is_empty())
        .map_or(before, |end| &before[end + 1..]);
    let adds = clause.iter().enumerate().any(|(at, word)| {
        ADDING.contains(word)
            || clause
                .get(at + 1)
                .is_some_and(|next| ADDING.contains(&format!("{word} {next}").as_str()))
    });
    if !adds {
        return None;
    }
    let named: Vec<&(&str, &[&str])> = DEPENDENCY_ADDERS
        .iter()
        .filter(|(manifest, _)| lower.contains(&manifest.to_lowercase()))
        .collect();
    let ecosystems: Vec<&(&str, &[&str])> = if named.is_empty() {
        DEPENDENCY_ADDERS.iter().collect()
    } else {
        named
    };
    let matchers = ecosystems
        .iter()
        .flat_map(|(_, commands)| commands.iter())
        .map(|command| Matcher::new(MatcherKind::Command, *command))
        .collect();
    let except = INSTALLS_A_LIST
        .iter()
        .map(|flag| Matcher::new(MatcherKind::Flag, *flag))
        .collect();
    Some(
        Constraint::forbid(matchers)
            .with_except(except)
            .with_ask_first(ask_first),
    )
}

/// "Secrets go through `op read`, nowhere else": the other stores' secret readers are
/// forbidden (`kubectl get secret` when it prints the values).
fn other_secret_readers(text: &str, lower: &str, words: &[&str]) -> Option<Vec<Constraint>> {
    if !words.iter().any(|word| SECRET_NOUNS.contains(word))
        || !ONLY_WAY.iter().any(|phrase| lower.contains(phrase))
    {
        return None;
    }
    // The way named: the first command in code.
    let named = text.split('`').nth(1)?.trim().to_lowercase();
    let program = named.split_whitespace().next()?;
    let readers: Vec<Matcher> = SECRET_READERS
        .iter()
        .filter(|reader| reader.split_whitespace().next() != Some(program))
        .map(|reader| Matcher::new(MatcherKind::Command, *reader))
        .collect();
    let mut readings = vec![Constraint::forbid(readers)];
    if program != "kubectl" {
        let outputs = SECRET_OUTPUTS
            .iter()
            .map(|flag| Matcher::new(MatcherKind::Flag, *flag))
            .collect();
        readings.push(Constraint::forbid(outputs).with_when(vec![
            Matcher::new(MatcherKind::Command, "kubectl get secret"),
            Matcher::new(MatcherKind::Command, "kubectl get secrets"),
        ]));
    }
    Some(readings)
}

/// "Use `execute_command` with `requires_approval: true` for every git command that writes":
/// the named argument with its value, required of each invocation of the program (of those
/// that write, when the rule says so). A call without it, or with another value, asks: the
/// call is incomplete rather than forbidden.
fn required_argument(text: &str, words: &[&str]) -> Option<Constraint> {
    let setting = text.split('`').skip(1).step_by(2).find_map(|span| {
        let (key, value) = span.split_once(": ").or_else(|| span.split_once('='))?;
        let (key, value) = (key.trim(), value.trim());
        let is_key = key.starts_with(|ch: char| ch.is_ascii_alphabetic())
            && key
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        let is_value = !value.is_empty()
            && value
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "-_.".contains(ch));
        (is_key && is_value).then(|| format!("{key}={value}"))
    })?;
    // "for every `git` command", "for each kubectl command that changes the cluster".
    let at = words
        .windows(2)
        .position(|pair| pair[0] == "for" && matches!(pair[1], "every" | "each" | "all" | "any"))?;
    let program = words
        .get(at + 2..at + 4)?
        .iter()
        .zip(words.get(at + 3..at + 5)?)
        .find(|(_, next)| matches!(**next, "command" | "commands" | "call" | "calls"))
        .map(|(program, _)| program.trim_matches('`'))?;
    if !super::is_program(program) {
        return None;
    }
    let writes = words[at..].iter().any(|word| {
        EDIT_VERBS.contains(word)
            || matches!(
                *word,
                "writes" | "changes" | "modifies" | "mutates" | "deletes" | "pushes"
            )
    });
    Some(
        Constraint::require(vec![Matcher::new(MatcherKind::Argument, setting)])
            .with_when(vec![Matcher::new(MatcherKind::Command, program)])
            .with_access(writes.then_some(Access::Write))
            .with_ask_first(true),
    )
}

/// "Don't restart the workers", "never flush the cache", "never scale down the ingest
/// deployment": the operation's commands, when their invocation carries the object's word;
/// and, for a queue or a cache, the commands that clear one by nature.
fn operations_on_objects(words: &[&str], readings: &mut Vec<Constraint>) {
    for (at, word) in words.iter().enumerate() {
        let Some((_, operation)) = OPERATION_VERBS.iter().find(|(verb, _)| verb == word) else {
            continue;
        };
        // The ban just before the verb, in its clause: "never restart", "don't ever flush".
        let before = &words[at.saturating_sub(3)..at];
        let before = before
            .iter()
            .rposition(|word| word.is_empty())
            .map_or(before, |end| &before[end + 1..]);
        let ask_first = before.iter().any(|word| ASKING_WORDS.contains(word));
        if !ask_first && !before.iter().any(|word| BANNING_WORDS.contains(word)) {
            continue;
        }
        // "Do not restart IIS (`iisreset`) or app pools": objects restarted by commands of
        // their own.
        let clause: Vec<&str> = words[at + 1..]
            .iter()
            .take_while(|word| !word.is_empty())
            .copied()
            .collect();
        for (_, objects, commands) in OPERATED_BY_NATURE.iter().filter(|(name, objects, _)| {
            name == operation && clause.iter().any(|word| objects.contains(word))
        }) {
            let _ = objects;
            readings.push(
                Constraint::forbid(
                    commands
                        .iter()
                        .map(|command| Matcher::new(MatcherKind::Command, *command))
                        .collect(),
                )
                .with_ask_first(ask_first),
            );
        }
        let mut rest = words[at + 1..].iter().take_while(|word| !word.is_empty());
        let scales_down = *operation == "scale";
        if scales_down {
            let next = rest.next().copied();
            if next != Some("down") {
                continue;
            }
        }
        if *operation == "stop" && words.get(at + 1) == Some(&"down") {
            // "shut down the workers"
            rest.next();
        }
        let object: Vec<&str> = rest
            .take(3)
            .copied()
            .filter(|word| !OBJECT_FILLERS.contains(word))
            .take(2)
            .collect();
        if object.is_empty() || object.iter().any(|word| NO_OBJECT.contains(word)) {
            continue;
        }
        let mut literals: Vec<Matcher> = Vec::new();
        for word in &object {
            if word.len() < 3
                || !word
                    .chars()
                    .all(|ch| ch.is_alphanumeric() || "-_".contains(ch))
            {
                continue;
            }
            let singular = word.strip_suffix('s').filter(|stem| stem.len() >= 3);
            for form in [Some(*word), singular].into_iter().flatten() {
                let matcher = Matcher::new(MatcherKind::Literal, form);
                if !literals.contains(&matcher) {
                    literals.push(matcher);
                }
            }
        }
        if literals.is_empty() {
            continue;
        }
        if scales_down {
            readings.push(
                Constraint::forbid(literals)
                    .with_when(vec![
                        Matcher::new(MatcherKind::Command, "kubectl scale"),
                        Matcher::new(MatcherKind::Flag, "--replicas=0"),
                    ])
                    .with_ask_first(ask_first),
            );
            continue;
        }
        let Some((_, commands)) = OPERATIONS.iter().find(|(name, _)| name == operation) else {
            continue;
        };
        if *operation == "clear"
            && let Some((_, by_nature)) = CLEARED_BY_NATURE
                .iter()
                .find(|(kind, _)| literals.iter().any(|literal| literal.value == *kind))
        {
            readings.push(
                Constraint::forbid(
                    by_nature
                        .iter()
                        .map(|command| Matcher::new(MatcherKind::Command, *command))
                        .collect(),
                )
                .with_ask_first(ask_first),
            );
        }
        readings.push(
            Constraint::forbid(literals)
                .with_when(
                    commands
                        .iter()
                        .map(|command| Matcher::new(MatcherKind::Command, *command))
                        .collect(),
                )
                .with_ask_first(ask_first),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::kind_readings;
    use crate::derive_from_text;

    /// The readings of `text` on `tool` beside what it derives, in JSON form.
    fn readings(tool: &str, text: &str) -> Vec<String> {
        let derived = derive_from_text(text, tool);
        kind_readings(text, derived.as_ref())
            .iter()
            .map(crate::Constraint::to_json)
            .collect()
    }

    #[test]
    fn ci_files_are_the_ci_systems_configuration() {
        let ci = readings(
            "edit",
            "Please stop editing CI files, I review those by hand.",
        );
        assert_eq!(ci.len(), 1, "{ci:?}");
        assert!(ci[0].contains(r#""access":"write""#), "{ci:?}");
        assert!(ci[0].contains(".github/workflows/") && ci[0].contains("Jenkinsfile"));
        let asks = readings("edit", "Don't modify our build pipelines without asking.");
        assert!(asks[0].contains(r#""ask_first":true"#), "{asks:?}");
        // A data pipeline is code, and CI reading a file is no order about CI files.
        assert!(readings("edit", "Never touch the data pipelines module.").is_empty());
        assert!(
            readings("bash", "Don't touch `poetry.lock` — CI still reads it.")
                .iter()
                .all(|reading| !reading.contains("workflows"))
        );
    }

    #[test]
    fn a_verb_of_shipping_said_bare_is_every_command_of_its_kind() {
        let deploys = readings("bash", "Never deploy; I do deploys myself.");
        assert!(
            deploys.iter().any(|reading| reading.contains("fly deploy")),
            "{deploys:?}"
        );
        let releases = readings("bash", "Don't release anything without asking me.");
        assert!(
            releases
                .iter()
                .any(|reading| reading.contains("cargo publish")
                    && reading.contains(r#""ask_first":true"#)),
            "{releases:?}"
        );
        // An object after the verb is the grammar's.
        assert!(
            readings("bash", "Never deploy the docs site by hand.")
                .iter()
                .all(|reading| !reading.contains("fly deploy"))
        );
    }

    #[test]
    fn a_banned_lockfile_bans_its_rewriters() {
        let lock = readings(
            "bash",
            "Leave `Cargo.lock` alone, the release tooling pins it.",
        );
        assert_eq!(
            lock,
            [
                r#"{"matchers":[{"kind":"command","value":"cargo generate-lockfile"},{"kind":"command","value":"cargo update"}],"polarity":"forbid"}"#
            ]
        );
    }

    #[test]
    fn one_way_for_secrets_forbids_the_other_stores() {
        let secrets = readings(
            "bash",
            "Secrets go through `op read` (1Password CLI), nowhere else.",
        );
        assert_eq!(secrets.len(), 2, "{secrets:?}");
        assert!(secrets[0].contains("vault kv get") && !secrets[0].contains("op read"));
        assert!(secrets[1].contains("kubectl get secret"));
        // Without "only"/"nowhere else" it is no rule about the way.
        assert!(readings("bash", "Never print secrets from `vault kv get`.").is_empty());
    }

    #[test]
    fn adding_a_dependency_is_every_add_command() {
        let node = readings(
            "bash",
            "- Ask before adding a dependency to `package.json`.",
        );
        let node = node.last().expect("a reading");
        assert!(
            node.contains("pnpm add *") && !node.contains("cargo add"),
            "{node}"
        );
        assert!(node.contains(r#""ask_first":true"#), "{node}");
        let any = readings(
            "bash",
            "Check with me before you pull in any new dependency.",
        );
        assert!(
            any[0].contains("cargo add *") && any[0].contains("go get *"),
            "{any:?}"
        );
        // Installing is not adding: "never use npm for installing packages" is about npm.
        assert!(readings("bash", "Never use npm or yarn for installing packages.").is_empty());
    }

    #[test]
    fn an_operation_on_a_named_object_is_its_commands_on_it() {
        let ops = readings(
            "bash",
            "Feel free to tail the worker logs, but don't restart the workers and don't clear the queue.",
        );
        assert_eq!(ops.len(), 3, "{ops:?}");
        assert!(ops[0].contains(
            r#"{"kind":"literal","value":"workers"},{"kind":"literal","value":"worker"}"#
        ));
        assert!(ops[0].contains("systemctl restart"));
        assert!(ops[1].contains("celery purge"), "{ops:?}");
        assert!(ops[2].contains("redis-cli del") && ops[2].contains(r#""value":"queue""#));
        let scale = readings("bash", "Never scale down the ingest deployment.");
        assert!(scale[0].contains("--replicas=0") && scale[0].contains(r#""value":"ingest""#));
        // An operation with no object, or not banned, is read by derivation or not at all.
        assert!(readings("bash", "Don't restart anything.").is_empty());
        assert!(readings("bash", "You may restart the workers.").is_empty());
    }
}

#[cfg(test)]
mod argument_tests {
    use super::kind_readings;

    #[test]
    fn a_required_argument_of_a_program_s_commands_asks() {
        let text = "- Use `execute_command` with `requires_approval: true` for every git command that writes.";
        let readings: Vec<String> = kind_readings(text, None)
            .iter()
            .map(crate::Constraint::to_json)
            .collect();
        assert_eq!(
            readings,
            [
                r#"{"access":"write","ask_first":true,"matchers":[{"kind":"argument","value":"requires_approval=true"}],"polarity":"require","when":[{"kind":"command","value":"git"}]}"#
            ]
        );
        assert!(kind_readings("Set `timeout: 30` when you can.", None).is_empty());
    }

    #[test]
    fn a_pattern_of_tasks_is_the_program_s_command_on_each() {
        let readings = |text: &str| -> Vec<String> {
            kind_readings(text, None)
                .iter()
                .map(crate::Constraint::to_json)
                .collect()
        };
        assert_eq!(
            readings("Never run any `publish*` task with Gradle."),
            [r#"{"matchers":[{"kind":"command","value":"gradle publish*"}],"polarity":"forbid"}"#]
        );
        assert_eq!(
            readings("Ask before any `:infra:deploy*` tasks of gradlew."),
            [
                r#"{"ask_first":true,"matchers":[{"kind":"command","value":"gradle deploy*"}],"polarity":"forbid"}"#
            ]
        );
        // A namespace is part of the task's name; rake's tasks run under rails too.
        assert_eq!(
            readings("`db:*` rake tasks need my OK."),
            [
                r#"{"ask_first":true,"matchers":[{"kind":"command","value":"rake db:*"},{"kind":"command","value":"rails db:*"}],"polarity":"forbid"}"#
            ]
        );
        // No program: a package's scripts, and for tasks rake's as well; a role's alone is a ban.
        let any_task = readings("Never run any `deploy:*` task.");
        assert_eq!(any_task.len(), 1);
        assert!(
            any_task[0].contains(r#""npm run deploy:*""#)
                && any_task[0].contains(r#""rake deploy:*""#)
        );
        let scripts = readings("Any `publish*` script is release-manager only.");
        assert_eq!(scripts.len(), 1);
        assert!(scripts[0].contains(r#""yarn run publish*""#) && !scripts[0].contains("rake"));
        // No ban: nothing.
        assert!(readings("The `publish*` tasks of Gradle sign the artifacts.").is_empty());
        assert!(readings("The `publish*` scripts only run in CI.").is_empty());
    }

    #[test]
    fn a_ban_on_public_posts_is_the_arguments_that_make_them_public() {
        let readings: Vec<String> = kind_readings("Don't reply publicly.", None)
            .iter()
            .map(crate::Constraint::to_json)
            .collect();
        assert_eq!(readings.len(), 1);
        assert!(readings[0].contains(r#"{"kind":"argument","value":"visibility=public"}"#));
        assert!(kind_readings("Reply in the thread.", None).is_empty());
    }

    #[test]
    fn programs_listed_as_a_kind_s_examples_are_its_commands_of_them() {
        let narrowed = |text: &str| -> Option<String> {
            let derived = crate::derive_from_text(text, "Bash")?;
            super::narrowed_to_kinds(text, &derived).map(|base| base.to_json())
        };
        let installs = narrowed("No package installs without asking (npm, pip, brew, apt).")
            .expect("the listed managers narrow");
        assert!(
            installs.contains(r#""value":"npm install *""#),
            "{installs}"
        );
        assert!(
            installs.contains(r#""value":"apt-get install *""#),
            "{installs}"
        );
        assert!(!installs.contains(r#""value":"npm""#), "{installs}");
        assert!(!installs.contains(r#""value":"yarn add *""#), "{installs}");
        let network = narrowed("Nothing that talks to the network without asking: curl, ssh, git.")
            .expect("git narrows to its remote verbs");
        assert!(network.contains(r#""value":"git fetch""#), "{network}");
        assert!(network.contains(r#""value":"curl""#), "{network}");
        assert!(!network.contains(r#""value":"git""#), "{network}");
        // The program an order names as its means is banned itself.
        assert_eq!(
            narrowed("Never install packages with npm; we use pnpm."),
            None
        );
        assert_eq!(narrowed("Never run npm."), None);
    }

    #[test]
    fn a_kind_of_commands_is_its_commands() {
        let json = |text: &str| -> Vec<String> {
            kind_readings(text, None)
                .iter()
                .map(crate::Constraint::to_json)
                .collect()
        };
        let installs = json("No package installs.");
        assert_eq!(installs.len(), 1, "{installs:?}");
        assert!(installs[0].contains(r#""value":"yarn add *""#));
        assert!(installs[0].contains(r#""except""#));
        let global = json("No global installs.");
        assert_eq!(global.len(), 1, "{global:?}");
        assert!(global[0].contains(r#""value":"npm i -g *""#));
        assert!(!global[0].contains(r#""value":"pip install *""#));
        let network = json("Nothing that talks to the network.");
        assert_eq!(network.len(), 1, "{network:?}");
        assert!(network[0].contains(r#""value":"curl""#));
        assert!(network[0].contains(r#""value":"pip install *""#));
        assert!(json("Nothing that uploads.")[0].contains(r#""value":"twine upload""#));
        assert!(json("The network is slow; package installs take a while.").is_empty());
    }

    #[test]
    fn a_banned_command_is_banned_under_its_other_names() {
        let readings = |tool: &str, text: &str| -> Vec<String> {
            let derived = crate::derive_from_text(text, tool);
            kind_readings(text, derived.as_ref())
                .iter()
                .map(crate::Constraint::to_json)
                .collect()
        };
        let gcs = readings("bash", "Never run `gsutil rm`.");
        assert!(
            gcs.iter()
                .any(|r| r.contains(r#""value":"gcloud storage rm""#)),
            "{gcs:?}"
        );
        let publishing = readings("bash", "Never publish packages (`npm publish`).");
        assert!(
            publishing
                .iter()
                .any(|r| r.contains(r#""value":"pnpm publish""#)),
            "{publishing:?}"
        );
        // A ban of npm's command alone says nothing of the other registries' clients.
        let npm = readings("bash", "Do not `npm publish`.");
        assert!(!npm.iter().any(|r| r.contains("pnpm publish")), "{npm:?}");
    }

    #[test]
    fn an_object_restarted_by_its_own_commands_is_those_commands() {
        let iis: Vec<String> = kind_readings("Do not restart IIS (`iisreset`) or app pools.", None)
            .iter()
            .map(crate::Constraint::to_json)
            .collect();
        assert!(
            iis.iter()
                .any(|r| r.contains(r#""value":"restart-webapppool""#)),
            "{iis:?}"
        );
        let workers: Vec<String> = kind_readings("Don't restart the workers.", None)
            .iter()
            .map(crate::Constraint::to_json)
            .collect();
        assert!(
            !workers.iter().any(|r| r.contains("webapppool")),
            "{workers:?}"
        );
    }

    #[test]
    fn closing_items_is_setting_their_closed_states() {
        let json = |text: &str| -> Vec<String> {
            kind_readings(text, None)
                .iter()
                .map(crate::Constraint::to_json)
                .collect()
        };
        let linear = json("Don't close or cancel Linear issues.");
        assert!(
            linear
                .iter()
                .any(|r| r.contains(r#""value":"state=canceled""#)),
            "{linear:?}"
        );
        // One issue named by its id is the grammar's to read, not every close.
        assert!(
            json("Never close issue #4821; the customer is testing.")
                .iter()
                .all(|r| !r.contains("state="))
        );
    }
}
