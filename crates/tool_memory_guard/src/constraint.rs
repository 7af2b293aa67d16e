//! `Constraint`, the structured form of a rule the guard can check, and its validation.
//!
//! The JSON form is small and documented in `docs/guard.md` because programs write it (the
//! facade and RPC accept explicit constraints) and users read and correct derived ones.

use serde::{Deserialize, Serialize};

use crate::Error;
use crate::normalize::{PathPattern, normalize_domain, normalize_email, normalize_url};

/// The `literal` that any chat handle matches (`@dana`, never the `@` of an address):
/// "never @-mention people in commit messages".
pub(crate) const ANY_HANDLE: &str = "@*";

/// The value of a `domain` matcher that stands for every host: an allowlist of hosts forbids
/// a call that reaches any host but those its `except` names.
pub(crate) const ANY_HOST: &str = "*";

/// Whether a constraint forbids what its matchers describe or requires it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Polarity {
    /// The call must not contain any of the matchers.
    Forbid,
    /// The call must contain every matcher.
    Require,
}

/// What kind of access to the things a rule names it is about. Absent: every access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    /// Changing them (write, edit, delete...): a call that only reads is not concerned.
    Write,
    /// Creating them (new files): a call that reads or edits what exists is not concerned.
    Create,
}

impl Access {
    /// Whether a constraint about `self` catches every call one about `other` does (`None`:
    /// every access, which catches most).
    fn covers(this: Option<Access>, other: Option<Access>) -> bool {
        matches!(
            (this, other),
            (None, _)
                | (Some(Access::Write), Some(Access::Write | Access::Create))
                | (Some(Access::Create), Some(Access::Create))
        )
    }
}

/// What a matcher's value is and how it is compared with a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatcherKind {
    /// An e-mail address, compared as a normalised whole address.
    Email,
    /// A domain; matches addresses and hosts in it or in its subdomains.
    Domain,
    /// A URL; matches the same host and port at or below its path.
    Url,
    /// A file path; absolute paths match at or below them, relative ones anywhere.
    Path,
    /// A host name or IP address, compared exactly.
    Host,
    /// A command word or prefix such as `sudo`, `git push` or `rm -rf`.
    Command,
    /// A command-line flag such as `--force`.
    Flag,
    /// A quoted string, found as a whole phrase anywhere in the call.
    Literal,
    /// A person's name, found in recipient-like fields only.
    Person,
    /// A condition on the situation ("on Fridays", "amount over 500", "during business
    /// hours"), only in `when`: checked where the call shows it (a date, an amount), and
    /// otherwise unknown, which makes a violation ask rather than deny.
    Condition,
    /// A named argument of the call and its value, `KEY=VALUE` (`state=done`, `branch=main`,
    /// `repo=infra`, `draft=true`; `attachments=*` for any non-empty value): the argument
    /// under that key (or a key of its kind: `status` for `state`), at any depth, equal to
    /// the value (case-blind; a branch also as `refs/heads/...`).
    Argument,
}

impl MatcherKind {
    /// Every kind, in declaration order.
    pub const ALL: [MatcherKind; 11] = [
        MatcherKind::Email,
        MatcherKind::Domain,
        MatcherKind::Url,
        MatcherKind::Path,
        MatcherKind::Host,
        MatcherKind::Command,
        MatcherKind::Flag,
        MatcherKind::Literal,
        MatcherKind::Person,
        MatcherKind::Condition,
        MatcherKind::Argument,
    ];

    /// How much a match of this kind proves. A name is weak evidence: many people share it.
    pub fn strength(self) -> Strength {
        match self {
            MatcherKind::Person => Strength::Weak,
            _ => Strength::Strong,
        }
    }

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            MatcherKind::Email => "email",
            MatcherKind::Domain => "domain",
            MatcherKind::Url => "url",
            MatcherKind::Path => "path",
            MatcherKind::Host => "host",
            MatcherKind::Command => "command",
            MatcherKind::Flag => "flag",
            MatcherKind::Literal => "literal",
            MatcherKind::Person => "person",
            MatcherKind::Condition => "condition",
            MatcherKind::Argument => "argument",
        }
    }
}

/// How much a match proves about the user's intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    /// A name without an address: ask the user.
    Weak,
    /// A literal the user named: address, URL, path, command, flag or quoted text.
    Strong,
}

/// One literal to look for in a call.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matcher {
    /// What the value is.
    pub kind: MatcherKind,
    /// The literal, as the user wrote it or normalised; compared in normal form either way.
    pub value: String,
}

impl Matcher {
    /// A matcher of `kind` for `value`.
    pub fn new(kind: MatcherKind, value: impl Into<String>) -> Matcher {
        Matcher {
            kind,
            value: value.into(),
        }
    }

    /// The strength of the matcher's kind.
    pub fn strength(&self) -> Strength {
        self.kind.strength()
    }

    /// Whether the value is valid for its kind (what [`Constraint::validate`] checks of each
    /// matcher).
    pub(crate) fn is_valid(&self) -> bool {
        self.validate("matchers", 0).is_ok()
    }

    /// Checks the value for its kind; the error names `{list}[{index}].value`. (The path is
    /// only formatted for an error: every put validates its derived constraint.)
    fn validate(&self, list: &str, index: usize) -> Result<(), Error> {
        let field = || format!("{list}[{index}].value");
        let value = self.value.trim();
        if value.is_empty() {
            return Err(Error::invalid(field(), "must not be blank"));
        }
        if value.chars().count() > MAX_MATCHER_CHARS {
            return Err(Error::invalid(
                field(),
                format!("has more than {MAX_MATCHER_CHARS} characters"),
            ));
        }
        if value.chars().any(char::is_control) {
            return Err(Error::invalid(
                field(),
                "must not contain control characters",
            ));
        }
        let reason = match self.kind {
            MatcherKind::Email if normalize_email(value).is_none() => {
                Some("is not an e-mail address")
            }
            MatcherKind::Domain => {
                let domain = normalize_domain(value);
                let valid = domain == ANY_HOST
                    || !domain.is_empty()
                        && domain.split('.').all(|label| {
                            !label.is_empty()
                                && label.chars().all(|ch| ch.is_alphanumeric() || ch == '-')
                        });
                (!valid).then_some("is not a domain such as example.com")
            }
            MatcherKind::Url if url_part(value).is_some() => None,
            MatcherKind::Url if normalize_url(value).is_none() => {
                Some("is not a URL with a scheme (https://...) or www.")
            }
            MatcherKind::Path => {
                let pattern = PathPattern::new(value);
                (pattern.components.is_empty() && !pattern.anchored)
                    .then_some("names no path component")
            }
            MatcherKind::Host => value
                .contains(|ch: char| ch.is_whitespace() || ch == '/' || ch == '@')
                .then_some("must be a bare host name or IP address"),
            MatcherKind::Command if value.starts_with('-') => {
                Some("must start with a command word, not a flag")
            }
            MatcherKind::Flag => {
                let valid = value.starts_with('-')
                    && value.chars().any(char::is_alphanumeric)
                    && !value.contains(char::is_whitespace);
                (!valid).then_some("must be one flag starting with '-'")
            }
            MatcherKind::Condition => crate::condition::Condition::parse(value).err(),
            MatcherKind::Argument => {
                let valid = value.split_once('=').is_some_and(|(key, wanted)| {
                    !key.trim().is_empty()
                        && key
                            .trim()
                            .chars()
                            .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '-')
                        && !wanted.trim().is_empty()
                });
                (!valid).then_some("must be KEY=VALUE, such as state=done")
            }
            MatcherKind::Person => {
                let valid = value.chars().any(char::is_alphabetic)
                    && value
                        .chars()
                        .all(|ch| ch.is_alphabetic() || " -'.’".contains(ch));
                (!valid).then_some("must be a name made of letters")
            }
            _ => None,
        };
        match reason {
            Some(reason) => Err(Error::invalid(field(), reason)),
            None => Ok(()),
        }
    }
}

/// What a `url` matcher of one of the pattern forms looks for in any URL: `*://*:*@*`, a
/// password in it (`https://bob:hunter2@host/`); `*?NAME=*`, the query parameter NAME
/// (`*?x-amz-signature=*`, a signed URL), case-blind; `*://HOST:*`, any port of HOST.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum UrlPart {
    Credentials,
    Query(String),
    /// `*://HOST:*`: any port of the host (the ports allowed are the constraint's `except`
    /// URLs); `localhost` stands for every loopback name.
    AnyPort(String),
}

/// The [`UrlPart`] a `url` matcher's value is a pattern of, if it is one.
pub(crate) fn url_part(value: &str) -> Option<UrlPart> {
    if value == URL_WITH_CREDENTIALS {
        return Some(UrlPart::Credentials);
    }
    if let Some(host) = value
        .strip_prefix("*://")
        .and_then(|rest| rest.strip_suffix(":*"))
        && !host.is_empty()
        && host
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ".-".contains(ch))
    {
        return Some(UrlPart::AnyPort(host.to_ascii_lowercase()));
    }
    let name = value.strip_prefix("*?")?.strip_suffix("=*")?;
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
    valid.then(|| UrlPart::Query(name.to_ascii_lowercase()))
}

/// The `url` pattern of a URL that carries a password.
pub(crate) const URL_WITH_CREDENTIALS: &str = "*://*:*@*";

/// Longest accepted matcher value, in characters.
pub const MAX_MATCHER_CHARS: usize = 512;
/// Most matchers in `matchers` or in `when`.
pub const MAX_MATCHERS: usize = 64;
/// Most further constraints in `also`: one per sentence of a rule that gives an order of its
/// own, and a rule of more than sixteen such sentences is a file, not a rule.
pub const MAX_ALSO: usize = 16;

/// A checkable form of a rule.
///
/// * `forbid`: the call violates the constraint when any matcher matches.
/// * `require`: the call violates it when any matcher is missing.
///
/// `when` narrows both to the situations the rule is about: if it lists `command` matchers,
/// the constraint applies to each invocation of one of those commands (and its matchers are
/// looked for inside that invocation); every other `when` matcher must also be present. With
/// `ask_first` a violation asks the user instead of denying ("never ... without asking me").
/// `also` holds further constraints the same rule states, each checked on its own ("Never
/// `git branch -D`. Ask before deleting branches." denies the first and asks about the rest);
/// they have no `also` of their own.
///
/// The fields are in alphabetical order, as [`Matcher`]'s are: the facade writes the JSON form
/// straight from this struct, and it must stay the text earlier versions wrote (through a
/// `serde_json::Value`, whose keys are sorted), which is stored and compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constraint {
    /// The access the rule is about ("never write to /etc"); absent: any access.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<Access>,
    /// Further constraints of the same rule, each with its own polarity and answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Constraint>,
    /// A violation asks the user first instead of denying.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ask_first: bool,
    /// Which derivation of the grammar made the constraint ([`crate::DERIVATION`]): set on a
    /// constraint derived from a rule's text when it is stored, absent on one a caller gave. A
    /// stored derived constraint older than this crate's derivation is derived again from
    /// the rule's text, so that upgrading toolmem upgrades the reading of every rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derivation: Option<u32>,
    /// Exceptions: a path, an invocation or a text that also matches one of these does not
    /// violate the constraint ("never read `.env*` except `.env.example`").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<Matcher>,
    /// What is forbidden or required.
    pub matchers: Vec<Matcher>,
    /// Forbid or require.
    pub polarity: Polarity,
    /// The situations the constraint is about; empty means every call of the rule's tool.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<Matcher>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl Constraint {
    /// A forbid constraint over `matchers`.
    pub fn forbid(matchers: Vec<Matcher>) -> Constraint {
        Constraint {
            access: None,
            also: Vec::new(),
            polarity: Polarity::Forbid,
            when: Vec::new(),
            except: Vec::new(),
            matchers,
            ask_first: false,
            derivation: None,
        }
    }

    /// A require constraint over `matchers`.
    pub fn require(matchers: Vec<Matcher>) -> Constraint {
        Constraint {
            access: None,
            also: Vec::new(),
            polarity: Polarity::Require,
            when: Vec::new(),
            except: Vec::new(),
            matchers,
            ask_first: false,
            derivation: None,
        }
    }

    /// Sets the situations the constraint is about.
    pub fn with_when(mut self, when: Vec<Matcher>) -> Constraint {
        self.when = when;
        self
    }

    /// Narrows the constraint to one kind of access.
    pub fn with_access(mut self, access: Option<Access>) -> Constraint {
        self.access = access;
        self
    }

    /// Sets the exceptions.
    pub fn with_except(mut self, except: Vec<Matcher>) -> Constraint {
        self.except = except;
        self
    }

    /// Makes a violation ask the user instead of denying.
    pub fn with_ask_first(mut self, ask_first: bool) -> Constraint {
        self.ask_first = ask_first;
        self
    }

    /// Sets the further constraints the same rule states.
    pub fn with_also(mut self, also: Vec<Constraint>) -> Constraint {
        self.also = also;
        self
    }

    /// This constraint and each of `also`, without their `also`: the parts a call is checked
    /// against one by one.
    pub fn parts(&self) -> impl Iterator<Item = &Constraint> {
        std::iter::once(self).chain(&self.also)
    }

    /// Checks every field; the error names the first offending one (`matchers[1].value`,
    /// `also[0].when[2].value`).
    pub fn validate(&self) -> Result<(), Error> {
        if self.also.len() > MAX_ALSO {
            return Err(Error::invalid(
                "also",
                format!(
                    "has {} constraints, at most {MAX_ALSO} are allowed",
                    self.also.len()
                ),
            ));
        }
        for (index, part) in self.also.iter().enumerate() {
            if !part.also.is_empty() {
                return Err(Error::invalid(
                    format!("also[{index}].also"),
                    "must be empty: further constraints do not nest",
                ));
            }
            if part.derivation.is_some() {
                return Err(Error::invalid(
                    format!("also[{index}].derivation"),
                    "must be absent: the whole constraint records its derivation",
                ));
            }
            part.validate_own().map_err(|err| match err {
                Error::InvalidConstraint { field, reason } => Error::InvalidConstraint {
                    field: format!("also[{index}].{field}"),
                    reason,
                },
                other => other,
            })?;
        }
        self.validate_own()
    }

    /// [`Constraint::validate`] of every field but `also`.
    fn validate_own(&self) -> Result<(), Error> {
        if self.matchers.is_empty() {
            return Err(Error::invalid("matchers", "must name at least one matcher"));
        }
        for (name, list) in [("matchers", &self.matchers), ("except", &self.except)] {
            if let Some(index) = list
                .iter()
                .position(|matcher| matcher.kind == MatcherKind::Condition)
            {
                return Err(Error::invalid(
                    format!("{name}[{index}].kind"),
                    "a condition belongs in `when`",
                ));
            }
        }
        for (name, list) in [
            ("when", &self.when),
            ("matchers", &self.matchers),
            ("except", &self.except),
        ] {
            if list.len() > MAX_MATCHERS {
                return Err(Error::invalid(
                    name,
                    format!(
                        "has {} matchers, at most {MAX_MATCHERS} are allowed",
                        list.len()
                    ),
                ));
            }
            for (index, matcher) in list.iter().enumerate() {
                matcher.validate(name, index)?;
            }
        }
        Ok(())
    }

    /// Reads the JSON form and validates it.
    pub fn from_json(text: &str) -> Result<Constraint, Error> {
        let constraint: Constraint =
            serde_json::from_str(text).map_err(|source| Error::ConstraintJson { source })?;
        constraint.validate()?;
        Ok(constraint)
    }

    /// The compact JSON form.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a constraint always serialises")
    }

    /// Whether this constraint catches at least every call `other` catches, and answers each
    /// at least as firmly, judged from the constraints alone. Conservative: `false` unless the
    /// JSON shows it, so a caller that gets `false` must treat this one as possibly looser.
    ///
    /// It holds when both have the same polarity; this one has every matcher of `other` (a
    /// forbid with more matchers forbids more, a require with more matchers requires more);
    /// it applies in every situation `other` applies to (its `when` matchers other than
    /// commands are among `other`'s, since each must be present; its command matchers, each an
    /// alternative, include `other`'s, or it has none and applies to every call); and it does
    /// not ask where `other` denies.
    ///
    /// With `also`, each part of `other` must be matched by a part of this one so judged.
    pub fn is_at_least_as_strict_as(&self, other: &Constraint) -> bool {
        other.parts().all(|wanted| {
            self.parts()
                .any(|own| own.part_is_at_least_as_strict_as(wanted))
        })
    }

    /// [`Constraint::is_at_least_as_strict_as`] of one part, `also` aside.
    fn part_is_at_least_as_strict_as(&self, other: &Constraint) -> bool {
        let has = |list: &[Matcher], wanted: &Matcher| {
            list.iter().any(|matcher| same_matcher(matcher, wanted))
        };
        let is_command = |matcher: &&Matcher| matcher.kind == MatcherKind::Command;
        let own_commands: Vec<&Matcher> = self.when.iter().filter(is_command).collect();
        let other_commands: Vec<&Matcher> = other.when.iter().filter(is_command).collect();
        let commands_cover = own_commands.is_empty()
            || (!other_commands.is_empty()
                && other_commands
                    .iter()
                    .all(|wanted| own_commands.iter().any(|own| same_matcher(own, wanted))));
        self.polarity == other.polarity
            && (other.ask_first || !self.ask_first)
            // Narrower access or more exceptions catch fewer calls.
            && Access::covers(self.access, other.access)
            && self.except.iter().all(|own| has(&other.except, own))
            && other
                .matchers
                .iter()
                .all(|wanted| has(&self.matchers, wanted))
            && self
                .when
                .iter()
                .filter(|matcher| matcher.kind != MatcherKind::Command)
                .all(|own| has(&other.when, own))
            && commands_cover
    }
}

/// Matchers of one kind whose values are the same apart from case and surrounding space: the
/// guard compares values in normal form, which for every kind folds case.
fn same_matcher(a: &Matcher, b: &Matcher) -> bool {
    a.kind == b.kind && a.value.trim().to_lowercase() == b.value.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_invalid(json: &str, field: &str) {
        let err = Constraint::from_json(json).expect_err(json);
        assert_eq!(err.field(), Some(field), "{json}: {err}");
        assert!(err.to_string().starts_with(field), "{err}");
    }

    #[test]
    fn round_trips_the_documented_forms() {
        for json in [
            r#"{"matchers":[{"kind":"email","value":"sarah@example.com"},{"kind":"person","value":"sarah"}],"polarity":"forbid"}"#,
            r#"{"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require","when":[{"kind":"command","value":"terraform"}]}"#,
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"git reset --hard"}],"polarity":"forbid"}"#,
            r#"{"matchers":[{"kind":"literal","value":"main"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"}]}"#,
        ] {
            let constraint = Constraint::from_json(json).unwrap();
            assert_eq!(constraint.to_json(), json);
            let again: Constraint = serde_json::from_str(&constraint.to_json()).unwrap();
            assert_eq!(again, constraint);
        }
    }

    #[test]
    fn every_kind_round_trips() {
        let values = [
            "a@b.com",
            "b.com",
            "https://b.com/x",
            "/etc",
            "db-1",
            "sudo",
            "--force",
            "x y",
            "Sarah",
            "on friday",
            "state=done",
        ];
        let (conditions, matchers): (Vec<Matcher>, Vec<Matcher>) = MatcherKind::ALL
            .into_iter()
            .zip(values)
            .map(|(kind, value)| Matcher::new(kind, value))
            .partition(|matcher| matcher.kind == MatcherKind::Condition);
        let constraint = Constraint::forbid(matchers).with_when(conditions);
        constraint.validate().unwrap();
        let json = constraint.to_json();
        for kind in MatcherKind::ALL {
            assert!(json.contains(&format!("\"{}\"", kind.as_str())), "{json}");
        }
        assert_eq!(Constraint::from_json(&json).unwrap(), constraint);
    }

    /// Written straight from the struct, the JSON form is the one a `serde_json::Value` gives
    /// (sorted keys), which is what stores hold from earlier versions.
    #[test]
    fn the_json_form_is_the_sorted_one() {
        let constraint = Constraint {
            access: Some(Access::Write),
            also: vec![Constraint::forbid(vec![Matcher::new(
                MatcherKind::Command,
                "git branch -D",
            )])],
            ask_first: true,
            derivation: Some(1),
            except: vec![Matcher::new(MatcherKind::Path, "src/generated/")],
            matchers: vec![Matcher::new(MatcherKind::Flag, "--force")],
            polarity: Polarity::Forbid,
            when: vec![Matcher::new(MatcherKind::Command, "git push")],
        };
        let through_value = serde_json::to_value(&constraint).unwrap().to_string();
        assert_eq!(constraint.to_json(), through_value);
    }

    #[test]
    fn validation_names_the_offending_field() {
        check_invalid(r#"{"matchers":[],"polarity":"forbid"}"#, "matchers");
        check_invalid(
            r#"{"matchers":[{"kind":"email","value":"a@b.com"},{"kind":"email","value":"nobody"}],"polarity":"forbid"}"#,
            "matchers[1].value",
        );
        check_invalid(
            r#"{"matchers":[{"kind":"flag","value":"--x"}],"polarity":"require","when":[{"kind":"command","value":"--force"}]}"#,
            "when[0].value",
        );
        check_invalid(
            r#"{"matchers":[{"kind":"flag","value":"force"}],"polarity":"forbid"}"#,
            "matchers[0].value",
        );
        check_invalid(
            r#"{"matchers":[{"kind":"url","value":"example.com"}],"polarity":"forbid"}"#,
            "matchers[0].value",
        );
        check_invalid(
            r#"{"matchers":[{"kind":"domain","value":"a b"}],"polarity":"forbid"}"#,
            "matchers[0].value",
        );
        check_invalid(
            r#"{"matchers":[{"kind":"host","value":"a/b"}],"polarity":"forbid"}"#,
            "matchers[0].value",
        );
        check_invalid(
            r#"{"matchers":[{"kind":"person","value":"R2-D2"}],"polarity":"forbid"}"#,
            "matchers[0].value",
        );
        check_invalid(
            r#"{"matchers":[{"kind":"literal","value":"  "}],"polarity":"forbid"}"#,
            "matchers[0].value",
        );
        check_invalid(
            r#"{"matchers":[{"kind":"path","value":"./"}],"polarity":"forbid"}"#,
            "matchers[0].value",
        );
    }

    #[test]
    fn further_constraints_are_validated_by_name_and_do_not_nest() {
        let json = r#"{"also":[{"ask_first":true,"matchers":[{"kind":"command","value":"git branch --delete"}],"polarity":"forbid"}],"matchers":[{"kind":"command","value":"git branch -D"}],"polarity":"forbid"}"#;
        let constraint = Constraint::from_json(json).unwrap();
        assert_eq!(constraint.to_json(), json);
        assert_eq!(constraint.parts().count(), 2);
        check_invalid(
            r#"{"also":[{"matchers":[{"kind":"email","value":"nobody"}],"polarity":"forbid"}],"matchers":[{"kind":"command","value":"git"}],"polarity":"forbid"}"#,
            "also[0].matchers[0].value",
        );
        check_invalid(
            r#"{"also":[{"also":[{"matchers":[{"kind":"command","value":"git"}],"polarity":"forbid"}],"matchers":[{"kind":"command","value":"git"}],"polarity":"forbid"}],"matchers":[{"kind":"command","value":"git"}],"polarity":"forbid"}"#,
            "also[0].also",
        );
        let part = r#"{"matchers":[{"kind":"command","value":"git"}],"polarity":"forbid"}"#;
        let many = format!(
            r#"{{"also":[{}],"matchers":[{{"kind":"command","value":"git"}}],"polarity":"forbid"}}"#,
            vec![part; MAX_ALSO + 1].join(",")
        );
        check_invalid(&many, "also");
        // Strictness compares part by part: dropping the ban leaves only the ask, looser.
        let ask_only = r#"{"ask_first":true,"matchers":[{"kind":"command","value":"git branch --delete"}],"polarity":"forbid"}"#;
        assert!(strictness(json, ask_only));
        assert!(!strictness(ask_only, json));
    }

    #[test]
    fn malformed_json_is_a_json_error() {
        for json in [
            r#"{"matchers":[],"polarity":"maybe"}"#,
            r#"{"matchers":[{"kind":"emial","value":"a@b.c"}],"polarity":"forbid"}"#,
            r#"{"matchers":[],"polarity":"forbid","typo":1}"#,
            "not json",
        ] {
            assert!(
                matches!(
                    Constraint::from_json(json),
                    Err(Error::ConstraintJson { .. })
                ),
                "{json}"
            );
        }
    }

    fn strictness(stricter: &str, looser: &str) -> bool {
        let stricter = Constraint::from_json(stricter).unwrap();
        let looser = Constraint::from_json(looser).unwrap();
        stricter.is_at_least_as_strict_as(&looser)
    }

    #[test]
    fn strictness_is_judged_from_matchers_situations_and_answer() {
        let sarah =
            r#"{"matchers":[{"kind":"email","value":"sarah@example.com"}],"polarity":"forbid"}"#;
        let sarah_and_bob = r#"{"matchers":[{"kind":"email","value":"Sarah@example.com"},{"kind":"email","value":"bob@example.com"}],"polarity":"forbid"}"#;
        let bob =
            r#"{"matchers":[{"kind":"email","value":"bob@example.com"}],"polarity":"forbid"}"#;
        let sarah_asks = r#"{"ask_first":true,"matchers":[{"kind":"email","value":"sarah@example.com"}],"polarity":"forbid"}"#;
        assert!(strictness(sarah, sarah));
        assert!(strictness(sarah_and_bob, sarah));
        assert!(!strictness(sarah, sarah_and_bob));
        assert!(!strictness(bob, sarah));
        assert!(strictness(sarah, sarah_asks));
        assert!(!strictness(sarah_asks, sarah));

        let force = r#"{"matchers":[{"kind":"flag","value":"--force"}],"polarity":"forbid"}"#;
        let force_on_push = r#"{"matchers":[{"kind":"flag","value":"--force"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"}]}"#;
        let force_on_push_or_reset = r#"{"matchers":[{"kind":"flag","value":"--force"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"},{"kind":"command","value":"git reset"}]}"#;
        let force_on_main = r#"{"matchers":[{"kind":"flag","value":"--force"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"},{"kind":"literal","value":"main"}]}"#;
        assert!(strictness(force, force_on_push));
        assert!(!strictness(force_on_push, force));
        assert!(strictness(force_on_push_or_reset, force_on_push));
        assert!(!strictness(force_on_push, force_on_push_or_reset));
        assert!(strictness(force_on_push, force_on_main));
        assert!(!strictness(force_on_main, force_on_push));

        let dry_run = r#"{"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require"}"#;
        let forbid_dry_run =
            r#"{"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"forbid"}"#;
        assert!(!strictness(forbid_dry_run, dry_run));
        assert!(!strictness(dry_run, forbid_dry_run));

        // An exception or a narrower access catches fewer calls.
        let src = r#"{"matchers":[{"kind":"path","value":"src/"}],"polarity":"forbid"}"#;
        let src_but_generated = r#"{"except":[{"kind":"path","value":"src/generated/"}],"matchers":[{"kind":"path","value":"src/"}],"polarity":"forbid"}"#;
        let src_writes =
            r#"{"access":"write","matchers":[{"kind":"path","value":"src/"}],"polarity":"forbid"}"#;
        assert!(strictness(src, src_but_generated));
        assert!(!strictness(src_but_generated, src));
        assert!(strictness(src_but_generated, src_but_generated));
        assert!(strictness(src, src_writes));
        assert!(!strictness(src_writes, src));
        assert!(strictness(src_writes, src_writes));
    }

    #[test]
    fn exceptions_are_validated_by_name() {
        check_invalid(
            r#"{"except":[{"kind":"email","value":"nobody"}],"matchers":[{"kind":"path","value":"src/"}],"polarity":"forbid"}"#,
            "except[0].value",
        );
        let unknown_access = Constraint::from_json(
            r#"{"access":"read","matchers":[{"kind":"path","value":"src/"}],"polarity":"forbid"}"#,
        )
        .expect_err("only write is an access");
        assert!(
            unknown_access.to_string().contains("`read`"),
            "{unknown_access}"
        );
    }

    #[test]
    fn strength_follows_the_kind() {
        for kind in MatcherKind::ALL {
            let expected = if kind == MatcherKind::Person {
                Strength::Weak
            } else {
                Strength::Strong
            };
            assert_eq!(Matcher::new(kind, "x").strength(), expected);
        }
    }
}
