//! Compiled constraints and their evaluation against a [`CallView`].
//!
//! Compilation normalises every matcher value once, when the guard is built; evaluation then
//! compares normal forms. Evaluation is exact: the index in `guard.rs` only decides which
//! rules are worth evaluating. Every look at the call is paid from the check's budget
//! ([`crate::limits::MAX_EVALUATION_WORK`]) before it is made; when the budget runs out,
//! evaluation stops and reports only what it found before.

mod command;
mod dry_run;

pub(crate) use self::command::CommandPattern;

use self::dry_run::{dry_run_flags, is_dry_run, names_dry_run};
use crate::call::{
    ArgumentValue, CallView, HIDDEN_WORD, Invocation, SQL_WRITE_STATEMENTS, Text,
    invocation_only_reads, invocation_reads,
};
use crate::condition::{Condition, Shown};
use crate::constraint::{ANY_HANDLE, ANY_HOST, UrlPart, url_part};
use crate::limits::Budget;
use crate::normalize::{
    PathPattern, UrlParts, alnum_runs, bare_host, chunks, command_spellings, expands_variable,
    find_word, first_run, flag_case, flag_meanings, flag_meanings_after, flag_spellings,
    flags_subcommand, has_aliases, host_in_domain, is_ipv4, normalize_domain, normalize_email,
    normalize_path, normalize_url, sets_flag, variable_reference,
};
use crate::{Access, Constraint, Matcher, MatcherKind, Polarity, Strength};

/// A matcher in normal form.
#[derive(Debug, Clone)]
pub(crate) enum Compiled {
    Email(String),
    Domain(String),
    Url(UrlParts),
    /// A part any URL may carry: a password, a query parameter.
    UrlPart(UrlPart),
    Path(PathPattern),
    Host(String),
    Command(CommandPattern),
    Flag(String),
    /// A flag given a value: `--context=staging`.
    FlagValue {
        name: String,
        value: String,
    },
    Literal(String),
    Person(Vec<String>),
    Condition(Condition),
    /// A named argument and its value (`*`: any non-empty one).
    Argument {
        key: String,
        value: String,
    },
}

impl Compiled {
    pub(crate) fn new(matcher: &Matcher) -> Option<Compiled> {
        let value = matcher.value.trim();
        Some(match matcher.kind {
            MatcherKind::Email => Compiled::Email(normalize_email(value)?),
            MatcherKind::Domain => Compiled::Domain(normalize_domain(value)),
            MatcherKind::Url => match url_part(value) {
                Some(part) => Compiled::UrlPart(part),
                None => Compiled::Url(normalize_url(value)?),
            },
            MatcherKind::Path => Compiled::Path(PathPattern::new(value)),
            MatcherKind::Host => Compiled::Host(bare_host(&value.to_lowercase()).to_owned()),
            MatcherKind::Command => Compiled::Command(CommandPattern::parse(value)),
            // `--context=staging`: the flag with that value ("always pass `--context
            // staging`").
            MatcherKind::Flag => match value.split_once('=') {
                Some((name, wanted)) if !wanted.trim().is_empty() => Compiled::FlagValue {
                    name: flag_case(name).into_owned(),
                    value: wanted.trim().to_lowercase(),
                },
                _ => Compiled::Flag(
                    flag_case(value.split('=').next().unwrap_or_default()).into_owned(),
                ),
            },
            // `${DB_URL}` and `$DB_URL` are one variable: compared in the one form.
            MatcherKind::Literal => {
                let lower = value.to_lowercase();
                Compiled::Literal(match variable_reference(&lower) {
                    Some(name) => format!("${name}"),
                    None => lower,
                })
            }
            MatcherKind::Condition => Compiled::Condition(Condition::parse(value).ok()?),
            MatcherKind::Argument => {
                let (key, wanted) = value.split_once('=')?;
                Compiled::Argument {
                    key: key.trim().to_lowercase(),
                    value: branch_name(wanted.trim()).to_lowercase(),
                }
            }
            MatcherKind::Person => Compiled::Person(
                value
                    .to_lowercase()
                    .split(|ch: char| !ch.is_alphanumeric())
                    .filter(|word| !word.is_empty())
                    .map(str::to_owned)
                    .collect(),
            ),
        })
    }

    /// The index words this matcher needs: it can match a call only when one of the groups
    /// fires. `None`: no word exists, evaluate on every call.
    pub(crate) fn key_groups(&self) -> Option<Vec<KeyGroup>> {
        let mut groups = vec![self.key_group()?];
        if let Compiled::Command(command) = self {
            // The program under its other names (`./mvnw deploy`, `Remove-Item`, `service nginx
            // restart`).
            for spelling in command_spellings(&command.words) {
                let words: Vec<String> = spelling
                    .iter()
                    .enumerate()
                    .filter(|(at, word)| *at != 1 || !has_aliases(&spelling[0], word))
                    .filter(|(at, word)| *at == 0 || !word.contains('*'))
                    .flat_map(|(_, word)| {
                        alnum_runs(word).map(str::to_lowercase).collect::<Vec<_>>()
                    })
                    .collect();
                if !words.is_empty() {
                    groups.push(KeyGroup::AllOf(words));
                }
            }
        }
        // `$(echo git) push -f`, `$GIT push -f`: a program the call hides leaves only the
        // subcommands to find (and the hidden program's mark, [`HIDDEN_WORD`]).
        if let Compiled::Command(command) = self {
            let mut words = vec![HIDDEN_WORD.to_owned()];
            words.extend(
                command
                    .words
                    .iter()
                    .skip(1)
                    .filter(|word| !word.contains('*'))
                    .flat_map(|word| alnum_runs(word).map(str::to_lowercase).collect::<Vec<_>>()),
            );
            groups.push(KeyGroup::AllOf(words));
        }
        Some(groups)
    }

    /// The one group of [`Compiled::key_groups`] that finds the matcher as written.
    fn key_group(&self) -> Option<KeyGroup> {
        let runs = |texts: &[&str]| -> Option<KeyGroup> {
            let words: Vec<String> = texts
                .iter()
                .flat_map(|text| alnum_runs(text).map(str::to_lowercase))
                .collect();
            (!words.is_empty()).then_some(KeyGroup::AllOf(words))
        };
        match self {
            // Gmail is keyed on its domain only: a call may spell the local part with dots
            // the normal form drops (`kim.lee@...` is `kimlee@gmail.com`), and the domain has a
            // second spelling. Elsewhere the normal form's words are in any spelling the
            // matcher accepts (a `+tag` adds words, the call's words are also read
            // percent-decoded), so the rarest of them, usually the local part, is the key: a
            // thousand rules on one company's domain are not all candidates for its mail.
            Compiled::Email(value) => match value.rsplit_once('@') {
                Some((_, "gmail.com")) => Some(KeyGroup::AnyOf(vec![
                    "gmail".to_owned(),
                    "googlemail".to_owned(),
                ])),
                Some((local, domain)) => runs(&[local, domain]),
                None => runs(&[value]),
            },
            // A network (`10.*`) is found in an address's other spellings too
            // (`167772161`, `0x0a000001`), which share no word with it.
            Compiled::Host(value) if value.ends_with('*') => None,
            Compiled::Domain(value) | Compiled::Host(value) => runs(&[value]),
            Compiled::Url(url) => runs(&[&url.host, &url.path]),
            Compiled::UrlPart(UrlPart::Query(name)) => runs(&[name]),
            Compiled::UrlPart(UrlPart::Credentials | UrlPart::AnyPort(_)) => None,
            Compiled::Path(path) => {
                // A run that touches a glob character may be part of a longer run in the call
                // (`id_rsa*` covers `id_rsa2`, `secret?.txt` covers `secret1.txt`), so only the
                // runs that stand whole in every path the pattern covers are keys.
                let words: Vec<String> = path
                    .components
                    .iter()
                    .flat_map(|component| whole_runs(component))
                    .map(str::to_lowercase)
                    .collect();
                (!words.is_empty()).then_some(KeyGroup::AllOf(words))
            }
            // A subcommand with short names (`npm install`, `npm i`) is no key: the call may
            // spell it either way.
            // A task pattern (`gradle deploy*`) is no key either: the call's task is longer.
            Compiled::Command(command) => runs(
                &command
                    .words
                    .iter()
                    .enumerate()
                    .filter(|(at, word)| *at != 1 || !has_aliases(&command.words[0], word))
                    .filter(|(at, word)| *at == 0 || !word.contains('*'))
                    .map(|(_, word)| word.as_str())
                    .collect::<Vec<_>>(),
            ),
            Compiled::FlagValue { name, .. } => flag_spellings(name)
                .iter()
                .map(|spelling| first_run(spelling))
                .collect::<Option<Vec<String>>>()
                .map(KeyGroup::AnyOf),
            Compiled::Flag(flag) => flag_spellings(flag)
                .iter()
                .map(|spelling| first_run(spelling))
                .collect::<Option<Vec<String>>>()
                .map(KeyGroup::AnyOf),
            Compiled::Literal(literal) => runs(&[literal]),
            // A condition is on the situation, not a word of the call; an argument's key is
            // no word of its texts.
            Compiled::Condition(_) | Compiled::Argument { .. } => None,
            Compiled::Person(words) => match words.as_slice() {
                [first, .., last] => {
                    let initial =
                        |word: &str| word.chars().next().map(String::from).unwrap_or_default();
                    Some(KeyGroup::AnyOf(vec![
                        first.clone(),
                        last.clone(),
                        format!("{first}{last}"),
                        format!("{last}{first}"),
                        format!("{}{last}", initial(first)),
                        format!("{first}{}", initial(last)),
                    ]))
                }
                _ => runs(&words.iter().map(String::as_str).collect::<Vec<_>>()),
            },
        }
    }
}

/// The alphanumeric runs of a path pattern's component that no glob character touches.
fn whole_runs(component: &str) -> impl Iterator<Item = &str> {
    alnum_runs(component).filter(move |run| {
        let start = run.as_ptr() as usize - component.as_ptr() as usize;
        let before = component[..start].chars().next_back();
        let after = component[start + run.len()..].chars().next();
        ![before, after]
            .into_iter()
            .flatten()
            .any(|ch| ch == '*' || ch == '?')
    })
}

/// Words a call must contain for a matcher to match.
#[derive(Debug, Clone)]
pub(crate) enum KeyGroup {
    /// Every word appears in a matching call, so any one (the rarest) is a sufficient key.
    AllOf(Vec<String>),
    /// A matching call contains one of these words (a flag's spellings), so all are keys.
    AnyOf(Vec<String>),
}

/// A constraint with its matchers compiled.
#[derive(Debug, Clone)]
pub(crate) struct CompiledConstraint {
    pub(crate) polarity: Polarity,
    pub(crate) when: Vec<(Matcher, Compiled)>,
    pub(crate) matchers: Vec<(Matcher, Compiled)>,
    pub(crate) ask_first: bool,
    access: Option<Access>,
    except: Vec<(Matcher, Compiled)>,
    has_email: bool,
    /// A matcher names a dry-run option (`--dry-run=server`): dry runs are what the rule is
    /// about, so they are not excused ([`dry_run`]).
    names_dry_run: bool,
    /// The rule's further constraints ([`Constraint::also`]), each checked on its own.
    also: Vec<CompiledConstraint>,
}

impl CompiledConstraint {
    /// `None` when a matcher does not compile; callers validate first, so this does not
    /// happen for accepted constraints.
    pub(crate) fn new(constraint: &Constraint) -> Option<CompiledConstraint> {
        let compile = |list: &[Matcher]| -> Option<Vec<(Matcher, Compiled)>> {
            list.iter()
                .map(|matcher| Compiled::new(matcher).map(|compiled| (matcher.clone(), compiled)))
                .collect()
        };
        let matchers = compile(&constraint.matchers)?;
        if matchers.is_empty() {
            return None;
        }
        let mut also = constraint
            .also
            .iter()
            .map(CompiledConstraint::new)
            .collect::<Option<Vec<_>>>()?;
        // One rule's parts share whether it names a dry run.
        let names_dry_run = constraint
            .when
            .iter()
            .chain(&constraint.matchers)
            .any(|matcher| names_dry_run(&matcher.value))
            || also.iter().any(|part| part.names_dry_run);
        for part in &mut also {
            part.names_dry_run = names_dry_run;
        }
        Some(CompiledConstraint {
            also,
            names_dry_run,
            polarity: constraint.polarity,
            when: compile(&constraint.when)?,
            has_email: constraint
                .matchers
                .iter()
                .any(|m| m.kind == MatcherKind::Email),
            matchers,
            ask_first: constraint.ask_first,
            access: constraint.access,
            except: compile(&constraint.except)?,
        })
    }

    /// Key groups: a rule is a candidate for a call that fires any group. `None` means the
    /// rule must be evaluated on every call (a standing requirement, or a matcher without an
    /// alphanumeric word such as the path `/`).
    pub(crate) fn key_groups(&self) -> Option<Vec<KeyGroup>> {
        let mut groups = self.own_key_groups()?;
        for part in &self.also {
            groups.extend(part.own_key_groups()?);
        }
        Some(groups)
    }

    /// Whether this part bans paths and nothing else ("never read `~/.ssh/*`", "don't touch
    /// `generated.rs`"): what a file family's rule holds for a call of another family.
    pub(crate) fn is_path_ban(&self) -> bool {
        self.polarity == Polarity::Forbid
            && self
                .matchers
                .iter()
                .all(|(_, compiled)| matches!(compiled, Compiled::Path(_)))
            && self
                .when
                .iter()
                .all(|(_, compiled)| matches!(compiled, Compiled::Condition(_)))
    }

    /// The access the constraint is about, if one.
    pub(crate) fn access(&self) -> Option<Access> {
        self.access
    }

    /// This constraint and each of its further ones.
    pub(crate) fn parts(&self) -> impl Iterator<Item = &CompiledConstraint> {
        std::iter::once(self).chain(&self.also)
    }

    /// [`CompiledConstraint::key_groups`] of this part alone.
    fn own_key_groups(&self) -> Option<Vec<KeyGroup>> {
        let when_commands: Vec<&Compiled> = self
            .when
            .iter()
            .map(|(_, compiled)| compiled)
            .filter(|compiled| matches!(compiled, Compiled::Command(_)))
            .collect();
        let flatten = |list: Vec<&Compiled>| -> Option<Vec<KeyGroup>> {
            let mut groups = Vec::new();
            for compiled in list {
                groups.extend(compiled.key_groups()?);
            }
            Some(groups)
        };
        if !when_commands.is_empty() {
            // Any one of the `when` commands must be present.
            return flatten(when_commands);
        }
        if let Some((_, first)) = self
            .when
            .iter()
            .find(|(_, compiled)| !matches!(compiled, Compiled::Condition(_)))
        {
            // Every `when` matcher must be present; one of them is enough as a key.
            return first.key_groups();
        }
        match self.polarity {
            Polarity::Require => None,
            Polarity::Forbid => {
                flatten(self.matchers.iter().map(|(_, compiled)| compiled).collect())
            }
        }
    }
}

/// What a rule found in (or found missing from) a call.
#[derive(Debug, Clone)]
pub(crate) struct Hit {
    pub(crate) polarity: Polarity,
    pub(crate) matcher: Matcher,
    pub(crate) strength: Strength,
    /// The call's value that matched (forbid), empty for an unmet requirement.
    pub(crate) found: String,
    /// The match sat under a recipient-like key.
    pub(crate) recipient: bool,
    /// The `when` command whose invocation was checked, if any.
    pub(crate) scope: Option<String>,
    /// A condition of the rule the call does not show, which made the match weak.
    pub(crate) condition: Option<String>,
    /// A required option is there with another value (`--context prod` where `--context
    /// staging` is required): wrong rather than missing, so it is not asked about but denied
    /// like a forbidden one.
    pub(crate) wrong_value: bool,
}

/// The invocations of a scope: the call's (parsed on demand) or one.
#[derive(Clone, Copy)]
enum Invocations<'a> {
    Call(&'a CallView),
    One(&'a Invocation),
}

impl<'a> Invocations<'a> {
    fn get(self) -> &'a [Invocation] {
        match self {
            Invocations::Call(view) => view.invocations(),
            Invocations::One(invocation) => std::slice::from_ref(invocation),
        }
    }

    /// What looking at all of them costs (parses the call's commands if need be).
    fn weight(self) -> usize {
        match self {
            Invocations::Call(view) => view.invocation_weight(),
            Invocations::One(invocation) => invocation.weight(),
        }
    }
}

/// The part of a call a constraint is checked in.
#[derive(Clone, Copy)]
struct Scope<'a> {
    texts: &'a [Text],
    invocations: Invocations<'a>,
    /// For one invocation, the invocations its output is piped into (`curl ... | sh`).
    downstream: &'a [Invocation],
    bool_flags: &'a [String],
    /// The whole call, when the scope is the whole call (tool-as-command checks need it).
    view: Option<&'a CallView>,
    /// The call whose named arguments an `argument` matcher looks at: the whole call's, also
    /// for an invocation (`requires_approval` beside a `git` command).
    arguments_of: Option<&'a CallView>,
    has_recipients: bool,
    /// What looking at every text of the scope costs.
    text_weight: usize,
    budget: &'a Budget,
    /// The constraint's exceptions: what also matches one of them is excused.
    except: &'a [(Matcher, Compiled)],
    /// The constraint is about changing things (`access: write`): an invocation that only
    /// reads is not concerned, and on a shell only the paths a command writes are.
    write_only: bool,
    /// The constraint is about creating things (`access: create`): on a shell only the paths
    /// a command may create are concerned.
    create_only: bool,
    /// The scope is an invocation whose program the call hides: what is found in it, or found
    /// missing, only may break the rule.
    weak: bool,
    /// Dry runs are runs here: the rule names a dry-run option.
    dry_runs_count: bool,
}

impl<'a> Scope<'a> {
    fn whole(view: &'a CallView) -> Scope<'a> {
        Scope {
            texts: &view.texts,
            downstream: &[],
            invocations: Invocations::Call(view),
            bool_flags: &view.bool_flags,
            view: Some(view),
            arguments_of: Some(view),
            has_recipients: view.has_recipients,
            text_weight: view.text_weight,
            budget: &view.budget,
            except: &[],
            write_only: false,
            create_only: false,
            weak: false,
            dry_runs_count: true,
        }
    }

    fn invocation(
        invocation: &'a Invocation,
        downstream: &'a [Invocation],
        budget: &'a Budget,
    ) -> Scope<'a> {
        Scope {
            downstream,
            texts: &invocation.texts,
            invocations: Invocations::One(invocation),
            bool_flags: &[],
            view: None,
            arguments_of: None,
            has_recipients: false,
            text_weight: invocation.weight(),
            budget,
            except: &[],
            write_only: false,
            create_only: false,
            weak: false,
            dry_runs_count: true,
        }
    }

    /// Whether a path the constraint names is one of its exceptions (`.env.example` beside
    /// `.env*`).
    fn excused_path(&self, path: &str) -> bool {
        self.except.iter().any(|(_, compiled)| match compiled {
            Compiled::Path(pattern) => pattern.covers(path),
            _ => false,
        })
    }

    /// Whether a host is one the constraint excepts: in an excepted domain, or an excepted
    /// URL's host.
    fn excused_host(&self, host: &str) -> bool {
        self.except.iter().any(|(_, compiled)| match compiled {
            Compiled::Domain(domain) => host_in_domain(host, domain),
            Compiled::Url(url) => url.host == host,
            _ => false,
        })
    }

    /// Whether everyone the call reaches is on the constraint's list of exceptions ("never
    /// email anyone other than `boss@corp.com`", "only message Priya", "nobody outside
    /// acme.com"): every address is an excepted address, in an excepted domain or spells an
    /// excepted name in its local part; every recipient without an address spells an
    /// excepted name or is an excepted handle or channel. No recipient at all is not excused.
    /// An address that does not, under a display name that does (`Priya <p.s@x.com>` for
    /// "only Priya"), may be that person: [`Excused::Maybe`], and the first recipient that is
    /// not excused is named.
    fn excused_recipients(&self) -> Excused {
        let mut any = false;
        let mut maybe: Option<String> = None;
        for text in self.address_texts() {
            let emails = text.emails();
            if emails.is_empty() {
                if !text.recipient {
                    continue;
                }
                if !self.excused_name(text) {
                    return Excused::No(text.lower.trim().chars().take(80).collect());
                }
            } else if let Some(email) = emails.iter().find(|email| !self.excused_address(email)) {
                if emails.len() == 1 && self.excused_name(text) {
                    maybe.get_or_insert_with(|| text.lower.trim().chars().take(80).collect());
                } else {
                    return Excused::No(email.clone());
                }
            }
            any = true;
        }
        match (any, maybe) {
            (false, _) => Excused::No(String::new()),
            (true, Some(recipient)) => Excused::Maybe(recipient),
            (true, None) => Excused::Yes,
        }
    }

    /// Whether an address (normal form) is excepted by address, domain or the name its local
    /// part spells (`priya.shah@...` for "Priya Shah").
    fn excused_address(&self, email: &str) -> bool {
        let (local, host) = email.rsplit_once('@').unwrap_or((email, ""));
        self.except.iter().any(|(_, compiled)| match compiled {
            Compiled::Email(allowed) => allowed == email,
            Compiled::Domain(domain) => host_in_domain(host, domain),
            Compiled::Person(words) => {
                let tokens: Vec<&str> = alnum_runs(local).collect();
                names_person(&tokens, words)
            }
            _ => false,
        })
    }

    /// Whether a recipient without an address is excepted: it spells an excepted name
    /// (`Priya`, `@priya.shah`), or is an excepted handle or channel (`@priya`, `#eng`).
    fn excused_name(&self, text: &Text) -> bool {
        self.except.iter().any(|(_, compiled)| match compiled {
            Compiled::Person(words) => {
                let tokens: Vec<&str> = text
                    .person_tokens()
                    .iter()
                    .map(|&(start, end)| &text.lower[start..end])
                    .collect();
                names_person(&tokens, words)
            }
            Compiled::Literal(handle) if handle.starts_with(['@', '#']) => {
                let bare = &handle[1..];
                chunks(&text.lower).any(|chunk| chunk == handle || chunk == bare)
            }
            _ => false,
        })
    }

    /// Whether an invocation is one of the constraint's exceptions: it runs an excepted
    /// command, names an excepted path as an argument (`git push origin feature/x` beside
    /// "unless it's to a `feature/*` branch") or carries an excepted literal.
    fn excused_invocation(&self, invocation: &Invocation) -> bool {
        self.except.iter().any(|(_, compiled)| match compiled {
            Compiled::Command(command) => command.matches_invocation(invocation),
            Compiled::Path(pattern) => invocation
                .positional
                .iter()
                .any(|word| pattern.covers(&normalize_path(word))),
            // A flag's dotted value names the place by a part of it too (`--settings
            // config.settings.local` for "only against the local settings").
            Compiled::Literal(literal) => {
                invocation
                    .texts
                    .iter()
                    .any(|text| find_word(&text.lower, literal).is_some())
                    || invocation
                        .values
                        .iter()
                        .any(|(_, value)| value.split(['.', '/', ':']).any(|part| part == literal))
            }
            // "`ansible-playbook` only with `--check`": the flag the program is allowed with.
            Compiled::Flag(flag) => invocation.flags.iter().any(|given| given == flag),
            // "outside the test environment": `--env=test`.
            Compiled::FlagValue { name, value } => invocation
                .values
                .iter()
                .any(|(flag, given)| flag == name && given == value),
            // "`scp` only to `backup.lan`", "`gsutil` only against `gs://scratch`": an
            // argument that reaches the place the program is allowed to.
            Compiled::Host(_) | Compiled::Domain(_) | Compiled::Url(_) => invocation
                .positional
                .iter()
                .chain(invocation.values.iter().map(|(_, value)| value))
                .any(|word| reaches(&word.to_lowercase(), compiled)),
            _ => false,
        })
    }

    /// What evaluating `compiled` here costs: the size of what its `find` looks at (over
    /// rather than under: the tool-as-command check of a command looks at the texts too).
    fn cost(&self, compiled: &Compiled) -> usize {
        match compiled {
            Compiled::Command(_) => {
                self.invocations.weight()
                    + self
                        .downstream
                        .iter()
                        .map(Invocation::weight)
                        .sum::<usize>()
                    + self.view.map_or(0, |view| view.text_weight)
            }
            Compiled::Flag(_) | Compiled::FlagValue { .. } => {
                self.invocations.weight() + self.bool_flags.len()
            }
            _ => self.text_weight,
        }
    }

    /// Pays for evaluating `compiled` here; `false` when the budget has run out.
    fn pay(&self, compiled: &Compiled) -> bool {
        self.budget.take_work(self.cost(compiled))
    }

    fn plain_texts(&self) -> impl Iterator<Item = &'a Text> {
        self.texts.iter().filter(|text| !text.command_only)
    }

    /// The texts a path may be named in: the plain ones, and for the whole call its relative
    /// paths resolved against the directory its commands run in (an invocation's are among
    /// its own texts).
    fn path_texts(self) -> Box<dyn Iterator<Item = &'a Text> + 'a> {
        if let Some(view) = self.view
            && self.write_only
            && view.is_shell()
        {
            // "`s3://backups/` is read-only": `aws s3 cp s3://backups/x .` reads it.
            let texts = if self.create_only {
                view.created_texts()
            } else {
                view.written_texts()
            };
            return Box::new(texts.iter());
        }
        let resolved = self.view.map_or(&[][..], CallView::resolved_texts);
        let plain = self.texts.iter().filter(|text| !text.command_only);
        Box::new(plain.chain(resolved))
    }

    /// Texts that can name whom a call reaches: the recipient-like fields when the call has
    /// any, every text otherwise (a shell `mail` command has no fields).
    fn address_texts(&self) -> impl Iterator<Item = &'a Text> {
        let only_recipients = self.has_recipients;
        self.plain_texts()
            .filter(move |text| !only_recipients || text.recipient)
    }
}

/// Whether a command's argument (lower-case) names the place an exception allows: a host or a
/// domain's host in `user@host:path`, `scheme://host/...` or alone, or a URL it starts with.
fn reaches(word: &str, compiled: &Compiled) -> bool {
    let after_scheme = word.split_once("://").map_or(word, |(_, rest)| rest);
    let after_user = after_scheme
        .rsplit_once('@')
        .map_or(after_scheme, |(_, rest)| rest);
    let host = after_user.split([':', '/']).next().unwrap_or_default();
    match compiled {
        Compiled::Host(allowed) => host == allowed.as_str(),
        Compiled::Domain(domain) => host_in_domain(host, domain),
        Compiled::Url(url) => {
            let rest = &after_user[host.len()..];
            word.contains("://")
                && host == url.host.as_str()
                && rest
                    .strip_prefix(url.path.as_str())
                    .is_some_and(|tail| tail.is_empty() || tail.starts_with(['/', '?', '#']))
        }
        _ => false,
    }
}

/// `text` with the contents of its SQL string literals blanked: a single-quoted span whose
/// opening quote follows an operator (`=`, `<>`, `,`, `(`, `||`) or a word after which SQL
/// takes a value (`like`, `in`, `values`, `then`, ...). A quote after anything else (`psql -c
/// 'DELETE FROM t'`) is the shell's and keeps its statement.
fn sql_strings_blanked(text: &str) -> String {
    const VALUE_WORDS: &[&str] = &[
        "and", "as", "default", "else", "ilike", "in", "is", "like", "not", "or", "return",
        "select", "then", "values", "when",
    ];
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((at, ch)) = chars.next() {
        if ch != '\'' {
            out.push(ch);
            continue;
        }
        let before = text[..at].trim_end();
        let after_operator = before.ends_with(['=', '<', '>', ',', '(', '|']);
        let after_word = before
            .rsplit(|c: char| !c.is_alphanumeric() && c != '_')
            .next()
            .is_some_and(|word| VALUE_WORDS.contains(&word));
        out.push(ch);
        if !(after_operator || after_word) {
            continue;
        }
        // Up to the closing quote (`''` is a quote inside the string).
        while let Some((_, inner)) = chars.next() {
            if inner == '\'' {
                if chars.peek().is_some_and(|(_, next)| *next == '\'') {
                    chars.next();
                    out.push_str("  ");
                    continue;
                }
                out.push('\'');
                break;
            }
            out.push(if inner.is_whitespace() { inner } else { ' ' });
        }
    }
    out
}

/// Whether a call's recipients are all on a constraint's list of exceptions.
enum Excused {
    Yes,
    /// A recipient may be one of them: named like one, at another address.
    Maybe(String),
    /// This recipient is not (empty: the call names no recipient).
    No(String),
}

struct Found {
    value: String,
    recipient: bool,
    /// Found only where the call hides its program (`$(echo git) push -f`): it may be
    /// the forbidden command, or not.
    weak: bool,
}

fn found(value: &str, recipient: bool) -> Option<Found> {
    Some(Found {
        value: value.to_owned(),
        recipient,
        weak: false,
    })
}

/// Flags whose value is the body of what a command writes, beside its title or message.
const BODY_FLAGS: &[&str] = &["--body", "--body-file", "--description", "-b"];

/// Handles of bots, which a mention of people does not mean (`@copilot review`). Sorted.
const BOT_HANDLES: &[&str] = &[
    "claude",
    "codecov",
    "coderabbitai",
    "copilot",
    "dependabot",
    "gemini-code-assist",
    "github-actions",
    "mergify",
    "renovate",
    "sonarcloud",
];

/// The chat handles of a text (`@dana` in "thanks @dana"): an `@` that opens a word, so never
/// an address's (`ops@acme.io`).
fn handles(lower: &str) -> impl Iterator<Item = &str> {
    lower.match_indices('@').filter_map(|(at, _)| {
        let opens = lower[..at]
            .chars()
            .next_back()
            .is_none_or(|ch| !(ch.is_alphanumeric() || "._-+@".contains(ch)));
        let name_len = lower[at + 1..]
            .find(|ch: char| !(ch.is_alphanumeric() || "_-.".contains(ch)))
            .unwrap_or(lower.len() - at - 1);
        let name = lower[at + 1..at + 1 + name_len].trim_end_matches(['.', '-']);
        (opens && name.starts_with(|ch: char| ch.is_alphanumeric()))
            .then(|| &lower[at..at + 1 + name.len()])
    })
}

/// Programs that search text for a pattern, their first argument (`git grep`: its second).
const SEARCH_PROGRAMS: &[&str] = &[
    "ack",
    "ag",
    "egrep",
    "fgrep",
    "findstr",
    "git",
    "grep",
    "rg",
    "select-string",
    "zgrep",
];

/// Flags whose value is a search pattern (`grep -e restart`, `git log --grep restart`).
const PATTERN_FLAGS: &[&str] = &["--grep", "--regexp", "-e"];

/// Whether every invocation that carries `literal` carries it only as the pattern a search
/// program looks for (and at least one does): the literal is then text the call searches, not
/// something it does.
fn only_searched_for(literal: &str, invocations: &[Invocation]) -> bool {
    let mut searched = false;
    for invocation in invocations {
        let has = |word: &str| find_word(&word.to_lowercase(), literal).is_some();
        let pattern_at = match invocation.program.as_str() {
            "git"
                if invocation
                    .positional
                    .first()
                    .is_some_and(|sub| sub == "grep") =>
            {
                Some(1)
            }
            "git" => None,
            program if SEARCH_PROGRAMS.contains(&program) => Some(0),
            _ => None,
        };
        let in_pattern_flag = invocation
            .values
            .iter()
            .any(|(flag, value)| PATTERN_FLAGS.contains(&flag.as_str()) && has(value));
        if pattern_at.is_none() && !in_pattern_flag {
            if invocation.texts.iter().any(|text| has(&text.lower)) {
                return false;
            }
            continue;
        }
        for (at, word) in invocation.positional.iter().enumerate() {
            if has(word) {
                if Some(at) != pattern_at || in_pattern_flag {
                    return false;
                }
                searched = true;
            }
        }
        searched |= in_pattern_flag;
    }
    searched
}

/// Looks for a matcher's literal in a scope, through each text's normal forms (computed once
/// per text and check, so many rules cost comparisons rather than normalisations).
fn find(compiled: &Compiled, scope: Scope<'_>, skip_person: bool) -> Option<Found> {
    match compiled {
        Compiled::Email(email) => scope.address_texts().find_map(|text| {
            text.emails()
                .iter()
                .any(|candidate| candidate == email)
                .then(|| Found {
                    value: email.clone(),
                    recipient: text.recipient,
                    weak: false,
                })
        }),
        // An allowlist of hosts: a host none of the exceptions covers.
        Compiled::Domain(domain) if domain == ANY_HOST => scope.plain_texts().find_map(|text| {
            text.hosts()
                .iter()
                .find(|host| !scope.excused_host(host))
                .and_then(|host| found(host, false))
        }),
        Compiled::Domain(domain) => {
            let in_addresses = scope.address_texts().find_map(|text| {
                text.emails()
                    .iter()
                    .find(|email| {
                        email
                            .rsplit_once('@')
                            .is_some_and(|(_, host)| host_in_domain(host, domain))
                    })
                    .and_then(|email| found(email, text.recipient))
            });
            if in_addresses.is_some() || scope.has_recipients {
                return in_addresses;
            }
            scope.plain_texts().find_map(|text| {
                text.hosts()
                    .iter()
                    .find(|host| host_in_domain(host, domain))
                    .and_then(|host| found(host, false))
            })
        }
        Compiled::UrlPart(UrlPart::AnyPort(host)) => scope.plain_texts().find_map(|text| {
            text.urls()
                .iter()
                .find(|url| {
                    same_host(&url.host, host)
                        && !scope.except.iter().any(|(_, excused)| match excused {
                            Compiled::Url(allowed) => {
                                same_host(&url.host, &allowed.host) && allowed.port == url.port
                            }
                            _ => false,
                        })
                })
                .and_then(|url| found(&url.display(), false))
        }),
        Compiled::UrlPart(part) => scope.plain_texts().find_map(|text| {
            chunks(&text.lower)
                .filter(|chunk| chunk.contains("://"))
                .find(|url| url_has(url, part))
                .and_then(|url| found(url, false))
        }),
        Compiled::Url(url) => scope.path_texts().find_map(|text| {
            text.urls()
                .iter()
                .find(|candidate| url.covers(candidate))
                .and_then(|candidate| found(&candidate.display(), false))
                .or_else(|| {
                    // "No `docker push` to `ghcr.io/acme/*`": an image's reference names its
                    // registry and repository as a URL does, without the scheme.
                    chunks(&text.lower)
                        .filter(|chunk| {
                            chunk.split_once('/').is_some_and(|(registry, _)| {
                                registry.contains('.') && !registry.ends_with(':')
                            })
                        })
                        .filter_map(UrlParts::of_image)
                        .find(|candidate| url.covers(candidate))
                        .and_then(|candidate| found(&candidate.display(), false))
                })
        }),
        Compiled::Path(pattern) => scope.path_texts().find_map(|text| {
            text.paths()
                .iter()
                .find(|path| pattern.covers(path) && !scope.excused_path(path))
                .and_then(|path| found(path, false))
        }),
        Compiled::Host(host) => scope.plain_texts().find_map(|text| {
            let named = if let Some(network) = host.strip_suffix('*') {
                // `10.*`: an address of the network, in any of its spellings.
                text.hosts()
                    .iter()
                    .chain(text.host_names())
                    .any(|candidate| candidate.starts_with(network) && is_ipv4(candidate))
            } else {
                text.hosts().iter().any(|candidate| candidate == host)
                    || chunks(&text.lower).any(|chunk| bare_host(chunk) == host)
            };
            named.then(|| Found {
                value: host.clone(),
                recipient: text.recipient,
                weak: false,
            })
        }),
        Compiled::Command(command) => {
            let invocations = || scope.invocations.get().iter().chain(scope.downstream);
            let in_invocations = invocations().any(|invocation| {
                (scope.dry_runs_count || !is_dry_run(invocation))
                    && command.matches_invocation(invocation)
                    && !scope.excused_invocation(invocation)
                    && !(scope.write_only && invocation_only_reads(invocation))
            });
            // The tool runs the command: every call of it, unless everyone it reaches is
            // excepted (an allowlist of recipients).
            let by_tool = match scope.view {
                Some(view)
                    if !in_invocations
                        && (scope.dry_runs_count || !dry_run_flags(&view.bool_flags))
                        && command.matches_tool(view, &view.tool_words) =>
                {
                    if scope.except.is_empty() {
                        Some(Excused::No(String::new()))
                    } else {
                        Some(scope.excused_recipients())
                    }
                }
                _ => None,
            };
            if let Some(excused) = by_tool {
                return match excused {
                    Excused::Yes => None,
                    Excused::Maybe(recipient) => Some(Found {
                        value: recipient,
                        recipient: true,
                        weak: true,
                    }),
                    Excused::No(recipient) => Some(Found {
                        recipient: !recipient.is_empty(),
                        value: if recipient.is_empty() {
                            command.words.join(" ")
                        } else {
                            recipient
                        },
                        weak: false,
                    }),
                };
            }
            let hidden = !in_invocations
                && invocations().any(|invocation| command.may_match_hidden(invocation));
            (in_invocations || hidden).then(|| Found {
                value: command.words.join(" "),
                recipient: false,
                weak: hidden,
            })
        }
        Compiled::Flag(flag) => {
            let present = scope.bool_flags.contains(flag)
                || scope
                    .invocations
                    .get()
                    .iter()
                    .any(|invocation| invocation_sets_flag(invocation, flag));
            present.then(|| Found {
                value: flag.clone(),
                recipient: false,
                weak: false,
            })
        }
        Compiled::FlagValue { name, value } => {
            let given = scope.invocations.get().iter().any(|invocation| {
                flag_meanings(&invocation.program, name).all(|meaning| {
                    invocation
                        .values
                        .iter()
                        .any(|(flag, seen)| flag == meaning && gives_value(seen, value))
                }) || short_option_given(invocation, name, value)
            });
            given.then(|| Found {
                value: format!("{name} {value}"),
                recipient: false,
                weak: false,
            })
        }
        Compiled::Literal(any) if any == ANY_HANDLE => {
            // A handle in a body (`gh pr create --body 'cc @team'`) is not in the title or the
            // message the rule names.
            let in_bodies: Vec<&str> = scope
                .invocations
                .get()
                .iter()
                .flat_map(|invocation| &invocation.values)
                .filter(|(flag, _)| BODY_FLAGS.contains(&flag.as_str()))
                .map(|(_, value)| value.as_str())
                .collect();
            scope.plain_texts().find_map(|text| {
                handles(&text.lower)
                    .find(|handle| {
                        !BOT_HANDLES.contains(&&handle[1..])
                            && !in_bodies
                                .iter()
                                .any(|body| handles(body).any(|seen| seen == *handle))
                    })
                    .and_then(|handle| found(handle, false))
            })
        }
        Compiled::Literal(literal) => {
            let sigil_free = literal
                .strip_prefix(['#', '@'])
                .filter(|rest| !rest.is_empty());
            // A `#channel` names where a message goes: like an address, it is looked for in
            // the recipient-like fields (a message that mentions #general is not posted there).
            let channel = literal.starts_with('#');
            let texts: Box<dyn Iterator<Item = &Text>> = if channel {
                Box::new(scope.address_texts())
            } else {
                Box::new(scope.plain_texts())
            };
            texts.into_iter().find_map(|text| {
                // A phrase (`drop table`) is found across any run of white space.
                let spaced = literal.contains(' ')
                    && (text.lower.contains(['\t', '\n', '\r']) || text.lower.contains("  "));
                // `spring*`: a word that begins with it (`org.springframework.boot`).
                let prefix = literal
                    .strip_suffix('*')
                    .filter(|stem| !stem.is_empty() && !stem.contains(['*', ' ']));
                let variable = variable_reference(literal);
                let direct = if let Some(name) = variable {
                    expands_variable(&text.lower, name)
                } else if let Some(stem) = prefix {
                    if stem.contains(|ch: char| !ch.is_alphanumeric()) {
                        // `#incident-*`: a channel's name with its own punctuation, with or
                        // without its `#` (`incident-4412`).
                        let stem = stem.trim_start_matches('#');
                        text.lower
                            .split(|ch: char| !(ch.is_alphanumeric() || "-_.#@".contains(ch)))
                            .any(|word| word.trim_start_matches('#').starts_with(stem))
                    } else {
                        alnum_runs(&text.lower).any(|run| run.starts_with(stem))
                    }
                } else if spaced {
                    let collapsed = text.lower.split_whitespace().collect::<Vec<_>>().join(" ");
                    find_word(&collapsed, literal).is_some()
                } else if SQL_WRITE_STATEMENTS.contains(&literal.as_str())
                    && text.lower.contains('\'')
                {
                    // `... WHERE action = 'DELETE'`: a statement's verb inside an SQL string is
                    // data, not a statement.
                    find_word(&sql_strings_blanked(&text.lower), literal).is_some()
                } else {
                    find_word(&text.lower, literal).is_some()
                };
                // `... | grep -i restart` under "don't restart anything": the word is what a
                // search looks for, text rather than an action.
                let direct = direct
                    && !(scope.view.is_some_and(CallView::is_shell)
                        && only_searched_for(literal, scope.invocations.get())
                        && SEARCH_PROGRAMS
                            .iter()
                            .any(|program| find_word(&text.lower, program).is_some()));
                let by_name = text.recipient
                    && sigil_free
                        .is_some_and(|name| chunks(&text.lower).any(|chunk| chunk == name));
                (direct || by_name || names_in_a_host(text, literal)).then(|| Found {
                    value: literal.clone(),
                    recipient: text.recipient,
                    weak: false,
                })
            })
        }
        Compiled::Condition(_) => None,
        Compiled::Argument { key, value } => {
            let view = scope.arguments_of?;
            view.arguments().iter().find_map(|(name, given)| {
                if !argument_key_is(name, key) {
                    return None;
                }
                let matched = match given {
                    ArgumentValue::Scalar(text) => {
                        if value == "*" {
                            !text.is_empty() && text != "false"
                        } else if value == DIRECT_MESSAGE {
                            is_direct_target(text)
                        } else {
                            branch_name(text).eq_ignore_ascii_case(value)
                                || branch_name(text).to_lowercase() == *value
                        }
                    }
                    ArgumentValue::List(items) => {
                        if value == "*" {
                            items > &0
                        } else {
                            false
                        }
                    }
                };
                matched.then(|| Found {
                    value: format!(
                        "{name}={}",
                        match given {
                            ArgumentValue::Scalar(text) => text.clone(),
                            ArgumentValue::List(items) => format!("[{items} items]"),
                        }
                    ),
                    recipient: false,
                    weak: false,
                })
            })
        }
        Compiled::Person(words) => {
            if skip_person || words.is_empty() {
                return None;
            }
            scope
                .address_texts()
                .find_map(|text| {
                    let tokens: Vec<&str> = text
                        .person_tokens()
                        .iter()
                        .map(|&(start, end)| &text.lower[start..end])
                        .collect();
                    // A recipient that is only the given name of a longer one (`@marcus` for
                    // "Marcus Lindqvist") may be that person: a name match, which only asks.
                    let given_name_only =
                        words.len() >= 2 && tokens.len() == 1 && tokens[0] == words[0];
                    (names_person(&tokens, words) || given_name_only).then(|| Found {
                        value: text.lower.trim().chars().take(80).collect(),
                        recipient: text.recipient,
                        weak: false,
                    })
                })
                .or_else(|| {
                    // "@Marco the migration is done" posted to a channel: a mention notifies the
                    // person as a message to them would. Which Marco is not certain: it asks.
                    scope
                        .plain_texts()
                        .filter(|text| !text.recipient)
                        .find_map(|text| {
                            handles(&text.lower)
                                .find(|handle| {
                                    let tokens: Vec<&str> = alnum_runs(&handle[1..]).collect();
                                    names_person(&tokens, words)
                                })
                                .map(|handle| Found {
                                    value: handle.to_owned(),
                                    recipient: false,
                                    weak: true,
                                })
                        })
                })
        }
    }
}

/// Whether a host the text names has the literal as one of its labels (`atlas-prod` in
/// `atlas-prod.abcd.mongodb.net`), or for an environment's name as a part of one (`prod` in
/// `prod-db.internal`, `psql -h prod-db`, `PGHOST=prod-db`) or of a variable the text expands
/// (`$PROD_MONGO_URI`): "`psql` against prod", "the `atlas-prod` cluster".
fn names_in_a_host(text: &Text, literal: &str) -> bool {
    let environment = ENVIRONMENT_WORDS.contains(&literal);
    if !environment && !literal.contains('-') {
        return false;
    }
    text.host_names().iter().any(|host| {
        host.split('.').any(|label| {
            label == literal || (environment && label.split(['-', '_']).any(|part| part == literal))
        })
    }) || (environment && names_in_a_variable(&text.lower, literal))
}

/// Whether a variable the text expands is named for the environment `word` (`$PROD_MONGO_URI`,
/// `${DATABASE_URL_PROD}`): what it holds is that environment's address.
fn names_in_a_variable(lower: &str, word: &str) -> bool {
    lower.split('$').skip(1).any(|rest| {
        rest.trim_start_matches('{')
            .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
            .next()
            .is_some_and(|name| name.split('_').any(|part| part == word))
    })
}

/// Names of environments, which hosts carry as a part of their name (`prod-db-1`,
/// `api.staging.example`).
const ENVIRONMENT_WORDS: &[&str] = &[
    "dev",
    "development",
    "live",
    "preprod",
    "prd",
    "prod",
    "production",
    "qa",
    "sandbox",
    "stage",
    "staging",
    "stg",
    "uat",
];

/// Whether a value a call gives an option is the one a rule names: the same, or one that
/// begins with it as a word (`-e "DROP DATABASE app"` for `-e "DROP`).
/// "Never pass `-t wipe`" on `flashtool -t wipe /dev/sdb`: a short option of a program no
/// table says takes a value leaves its next word a positional one, so the option is looked
/// for in the invocation's words, followed by the value.
fn short_option_given(invocation: &Invocation, name: &str, value: &str) -> bool {
    name.len() == 2
        && name.starts_with('-')
        && invocation.flags.iter().any(|flag| flag == name)
        && invocation.texts.iter().any(|text| {
            let words: Vec<&str> = text.original().split_whitespace().collect();
            words
                .windows(2)
                .any(|pair| pair[0] == name && pair[1].eq_ignore_ascii_case(value))
        })
}

fn gives_value(seen: &str, wanted: &str) -> bool {
    seen == wanted
        || seen
            .strip_prefix(wanted)
            .is_some_and(|rest| rest.starts_with(char::is_whitespace))
        || fills_placeholders(wanted, seen)
}

/// Whether `seen` is a value the required value `wanted` spells with placeholders: `n` alone
/// or `[n]` (a number: `--replicas N`, `local[N]`), `<name>` or `{name}` (any word), `*`
/// (anything, `local[*]` too). `false` for a value without a placeholder.
fn fills_placeholders(wanted: &str, seen: &str) -> bool {
    enum Part {
        Text(char),
        Number,
        Any,
    }
    if wanted == "n" {
        return !seen.is_empty() && seen.chars().all(|ch| ch.is_ascii_digit());
    }
    if !wanted.contains(['*', '<', '{']) && !wanted.contains("[n]") {
        return false;
    }
    let mut parts = Vec::new();
    let mut chars = wanted.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '*' => parts.push(Part::Any),
            '<' | '{' => {
                let close = if ch == '<' { '>' } else { '}' };
                if !chars.by_ref().any(|next| next == close) {
                    return false;
                }
                parts.push(Part::Any);
            }
            '[' if chars.peek() == Some(&'n') => {
                chars.next();
                if chars.next() != Some(']') {
                    return false;
                }
                parts.push(Part::Text('['));
                parts.push(Part::Number);
                parts.push(Part::Text(']'));
            }
            other => parts.push(Part::Text(other)),
        }
    }
    // Backtracking over a short pattern: the values compared are an option's, a few bytes.
    fn matches(parts: &[Part], seen: &[char]) -> bool {
        match parts.split_first() {
            None => seen.is_empty(),
            Some((Part::Text(ch), rest)) => seen.first() == Some(ch) && matches(rest, &seen[1..]),
            Some((Part::Number, rest)) => (1..=seen.len())
                .take_while(|&end| seen[end - 1].is_ascii_digit())
                .any(|end| matches(rest, &seen[end..])),
            Some((Part::Any, rest)) => (1..=seen.len()).any(|end| matches(rest, &seen[end..])),
        }
    }
    let seen: Vec<char> = seen.chars().take(256).collect();
    matches(&parts, &seen)
}

/// Whether an invocation sets `flag`, read as its program reads it, and after its subcommand
/// (`docker compose down -v` sets `-v`, which `down` reads as `--volumes`).
fn invocation_sets_flag(invocation: &Invocation, flag: &str) -> bool {
    let program = invocation.program.as_str();
    sets_flag(program, flag, &invocation.flags)
        || flag_meanings_after(
            program,
            flags_subcommand(program, &invocation.positional),
            flag,
        )
        .all(|meaning| invocation.flags.iter().any(|seen| seen == meaning))
}

/// Whether the name words of a recipient value spell the person a rule names (`words`, lower
/// case): the words in order (`Tomasz Wojcik`, `tomasz.wojcik@...`, `@tomasz_wojcik`), and
/// for a name of two or more words the handle forms mail and chat systems make of it: run
/// together (`@TomaszWojcik`, `tomaszwojcik@...`), surname first (`wojcik.tomasz`), or the
/// given name cut to its initial (`twojcik`, `t.wojcik`). An initial may stand for another
/// given name, so these still only ask (a person matcher is weak).
fn names_person(tokens: &[&str], words: &[String]) -> bool {
    let in_order = |sequence: &[&str]| {
        tokens
            .windows(sequence.len())
            .any(|window| window == sequence)
    };
    let name: Vec<&str> = words.iter().map(String::as_str).collect();
    if in_order(&name) {
        return true;
    }
    let [first, .., last] = name.as_slice() else {
        return false;
    };
    let initial = &first[..first.chars().next().map_or(0, char::len_utf8)];
    let joined = name.concat();
    let forms = [
        joined.as_str(),
        &format!("{last}{first}"),
        &format!("{initial}{last}"),
        &format!(
            "{first}{}",
            &last[..last.chars().next().map_or(0, char::len_utf8)]
        ),
    ];
    tokens.iter().any(|token| forms.contains(token))
        || in_order(&[last, first])
        || in_order(&[initial, last])
}

/// Whether a recipient field's whole value is a chat handle spelling the name: `@priya`,
/// `@priya.sharma`, `@priya_sharma` for "priya sharma".
fn is_handle_of(value: &str, name: &str) -> bool {
    let Some(handle) = value.strip_prefix('@') else {
        return false;
    };
    let bare = |text: &str| -> String {
        text.chars()
            .filter(|ch| !ch.is_whitespace() && !"._-".contains(*ch))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let handle = bare(handle);
    // One given name is shared by many people ("never DM Kevin" asks about `@kevin`); a handle
    // that spells a whole name is that person.
    name.split_whitespace().nth(1).is_some() && !handle.is_empty() && handle == bare(name)
}

/// Evaluates one part of a constraint ([`CompiledConstraint::parts`]; its `also` is not
/// looked at) against a call; `Some` when the call violates it. When the check's budget runs
/// out midway, returns what was found before (a forbidden literal found is found; the caller
/// treats the rest of the check as not done).
pub(crate) fn evaluate(constraint: &CompiledConstraint, view: &CallView) -> Option<Hit> {
    // "Never write to /etc/**": a call that only reads is not what the rule is about.
    if constraint.access == Some(Access::Write) && view.read_only() {
        return None;
    }
    // "Do not create new `.js` files": reading or editing what exists is not concerned.
    if constraint.access == Some(Access::Create) && !view.may_create() {
        return None;
    }
    let write_only = constraint.access.is_some();
    let create_only = constraint.access == Some(Access::Create);
    let whole = Scope {
        except: &constraint.except,
        write_only,
        create_only,
        dry_runs_count: constraint.names_dry_run,
        ..Scope::whole(view)
    };
    let mut scopes: Vec<(Scope<'_>, Option<String>)> = Vec::new();
    let when_commands: Vec<&CommandPattern> = constraint
        .when
        .iter()
        .filter_map(|(_, compiled)| match compiled {
            Compiled::Command(command) => Some(command),
            _ => None,
        })
        .collect();
    if when_commands.is_empty() {
        scopes.push((whole, None));
    } else {
        // Each `when` command is compared with every invocation, and with the tool itself.
        let per_command = view.invocation_weight() + view.text_weight;
        if !view
            .budget
            .take_work(per_command.saturating_mul(when_commands.len()))
        {
            return None;
        }
        let invocations = view.invocations();
        for (at, invocation) in invocations.iter().enumerate() {
            // "`psql` against prod is read-only": a reading invocation is not concerned.
            if write_only && invocation_reads(invocations, at) {
                continue;
            }
            // `npm publish --dry-run` under "never `npm publish`": no run of it.
            if !constraint.names_dry_run && is_dry_run(invocation) {
                continue;
            }
            let (command, weak) = match when_commands
                .iter()
                .find(|command| command.matches_invocation(invocation))
            {
                Some(command) => (Some(command), false),
                None => (
                    when_commands
                        .iter()
                        .find(|command| command.may_match_hidden(invocation)),
                    true,
                ),
            };
            if let Some(command) = command {
                let rest = &invocations[at + 1..];
                let piped = rest
                    .iter()
                    .take_while(|next| next.pipeline == invocation.pipeline)
                    .count();
                let scope = Scope {
                    except: &constraint.except,
                    write_only,
                    create_only,
                    weak,
                    dry_runs_count: constraint.names_dry_run,
                    arguments_of: Some(view),
                    ..Scope::invocation(invocation, &rest[..piped], &view.budget)
                };
                if scope.excused_invocation(invocation) {
                    continue;
                }
                scopes.push((scope, Some(command.words.join(" "))));
            }
        }
        if let Some(command) = when_commands
            .iter()
            .find(|command| command.matches_tool(view, &view.tool_words))
            .filter(|_| constraint.names_dry_run || !dry_run_flags(&view.bool_flags))
        {
            scopes.push((whole, Some(command.words.join(" "))));
        }
    }
    // The conditions on the situation: one the call shows to fail keeps the constraint from
    // applying; one it does not show leaves a violation to ask about.
    let mut unknown: Option<&str> = None;
    for (matcher, compiled) in &constraint.when {
        if let Compiled::Condition(condition) = compiled {
            match condition.shown(view.dates(), &view.amounts) {
                Shown::Holds => {}
                Shown::Fails => return None,
                Shown::Unknown => {
                    unknown.get_or_insert(matcher.value.as_str());
                }
            }
        }
    }
    if unknown.is_some() {
        for (scope, _) in &mut scopes {
            scope.weak = true;
        }
    }
    // Every other `when` matcher must be present in the scope.
    let mut kept = Vec::with_capacity(scopes.len());
    for (scope, scope_name) in scopes {
        let mut present = true;
        for (_, compiled) in &constraint.when {
            if matches!(compiled, Compiled::Command(_) | Compiled::Condition(_)) {
                continue;
            }
            if !scope.pay(compiled) {
                return None;
            }
            if find(compiled, scope, false).is_none() {
                present = false;
                break;
            }
        }
        if present {
            kept.push((scope, scope_name));
        }
    }

    let mut best: Option<Hit> = None;
    for (scope, scope_name) in kept {
        // An address beats a name: when the rule names an address and the call's recipients
        // carry addresses, the addresses decide and the bare name is not consulted.
        if constraint.has_email && !scope.budget.take_work(scope.text_weight) {
            return best;
        }
        let skip_person =
            constraint.has_email && scope.address_texts().any(|text| !text.emails().is_empty());
        for (matcher, compiled) in &constraint.matchers {
            if !scope.pay(compiled) {
                return best;
            }
            let result = find(compiled, scope, skip_person);
            let hit = match (constraint.polarity, result) {
                (Polarity::Forbid, Some(found)) => Hit {
                    polarity: Polarity::Forbid,
                    matcher: matcher.clone(),
                    strength: if found.weak || scope.weak {
                        Strength::Weak
                    } else if matcher.kind == MatcherKind::Person
                        && found.recipient
                        && is_handle_of(&found.value, &matcher.value)
                    {
                        // `{"channel": "@priya"}`: a chat handle that is the name is the
                        // person, not someone who may share the name.
                        Strength::Strong
                    } else {
                        matcher.strength()
                    },
                    found: found.value,
                    recipient: found.recipient,
                    scope: scope_name.clone(),
                    condition: unknown.map(str::to_owned),
                    wrong_value: false,
                },
                (Polarity::Require, None) => {
                    if matcher.kind == MatcherKind::Person && skip_person {
                        continue;
                    }
                    // A missing option that takes a value (`--namespace`, `--context`) makes the
                    // call incomplete rather than wrong: which value is the user's to say, so
                    // the call asks.
                    // ... unless it is there with another value (`--context prod` where
                    // `--context staging` is required), which is wrong rather than missing.
                    let other_value = match compiled {
                        Compiled::FlagValue { name, .. } => {
                            scope.invocations.get().iter().any(|invocation| {
                                sets_flag(&invocation.program, name, &invocation.flags)
                            })
                        }
                        _ => false,
                    };
                    let flag_name = matcher.value.split('=').next().unwrap_or_default();
                    let strength = if scope.weak
                        || (matcher.kind == MatcherKind::Flag
                            && !other_value
                            && crate::call::takes_a_value(flag_name))
                    {
                        Strength::Weak
                    } else {
                        matcher.strength()
                    };
                    Hit {
                        polarity: Polarity::Require,
                        matcher: matcher.clone(),
                        strength,
                        found: String::new(),
                        recipient: false,
                        scope: scope_name.clone(),
                        condition: unknown.map(str::to_owned),
                        wrong_value: other_value,
                    }
                }
                _ => continue,
            };
            if hit.strength == Strength::Strong {
                return Some(hit);
            }
            if best.is_none() {
                best = Some(hit);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests;

/// A branch named as a full ref (`refs/heads/main`) is the branch (`main`); any other value
/// is itself.
fn branch_name(value: &str) -> &str {
    value.strip_prefix("refs/heads/").unwrap_or(value)
}

/// The value of an `argument` matcher that stands for a direct message's target.
pub(crate) const DIRECT_MESSAGE: &str = "@direct";

/// Whether a channel argument is a person rather than a channel: a handle (`@dana`), or a
/// Slack conversation id of a direct message or a user (`D024BE91L`, `U02ABC123`, `W...`:
/// capitals and digits, with a digit).
fn is_direct_target(text: &str) -> bool {
    if let Some(handle) = text.strip_prefix('@') {
        return handle.chars().next().is_some_and(char::is_alphanumeric);
    }
    let mut chars = text.chars();
    matches!(chars.next(), Some('D' | 'U' | 'W'))
        && (8..=12).contains(&text.len())
        && text
            .chars()
            .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit())
        && text.chars().any(|ch| ch.is_ascii_digit())
}

/// Keys of one kind: an `argument` matcher's key stands for each of its kind's
/// (`state=done` is also `status`, `transition` and `stateName`).
const ARGUMENT_KEY_KINDS: &[&[&str]] = &[
    &["attachment", "attachments", "files_to_attach"],
    &["branch", "ref", "target_branch"],
    &[
        "channel",
        "channel_id",
        "channelid",
        "conversation",
        "user",
        "user_id",
        "userid",
    ],
    &["repo", "repository", "repo_name", "repository_name"],
    &[
        "state",
        "status",
        "transition",
        "column",
        "stage",
        "state_name",
        "statename",
    ],
];

/// Whether a call's argument key `name` (lower-case) is the matcher's `key` or of its kind.
fn argument_key_is(name: &str, key: &str) -> bool {
    let name = name.replace('-', "_");
    if name == key {
        return true;
    }
    ARGUMENT_KEY_KINDS
        .iter()
        .any(|kind| kind.contains(&key) && kind.contains(&name.as_str()))
}

/// Whether a URL (lower-case) carries the part: a password in its user information, or the
/// query parameter (also percent-encoded in a parameter's value: a redirect's target).
fn url_has(url: &str, part: &UrlPart) -> bool {
    match part {
        UrlPart::Credentials => {
            let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
            let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
            authority
                .rsplit_once('@')
                .is_some_and(|(user, _)| user.contains(':'))
        }
        UrlPart::AnyPort(_) => false,
        UrlPart::Query(name) => {
            let decoded = crate::normalize::percent_decoded(url);
            decoded
                .split(['?', '&'])
                .skip(1)
                .any(|pair| pair.split('=').next() == Some(name.as_str()))
        }
    }
}

/// The names of the machine itself: a rule on `localhost` holds for each.
const LOOPBACK: &[&str] = &["localhost", "127.0.0.1", "0.0.0.0", "[::1]", "::1"];

/// Whether two hosts are one: equal, or both the machine itself.
fn same_host(host: &str, other: &str) -> bool {
    host == other || (LOOPBACK.contains(&host) && LOOPBACK.contains(&other))
}
