//! Derivation's word lists about conditions on the situation (see `derive/conditions.rs`):
//! weekdays, amounts of money, times of day and states of the world. Data only.

/// Words before a weekday that make it the situation ("on Fridays", "over the weekend").
pub(crate) const WEEKDAY_PREPOSITIONS: &[&str] = &["any", "during", "every", "on", "over", "this"];

/// Phrases before an amount that the rule is about amounts above ("more than $500").
pub(crate) const AMOUNT_ABOVE: &[&str] = &[
    "at least",
    "bigger than",
    "greater than",
    "higher than",
    "in excess of",
    "larger than",
    "more than",
    "above",
    "exceeding",
    "over",
    ">",
    ">=",
];

/// Phrases before an amount that the rule is about amounts below ("less than $20").
pub(crate) const AMOUNT_BELOW: &[&str] = &[
    "lower than",
    "smaller than",
    "less than",
    "below",
    "under",
    "<",
    "<=",
];

/// Words after a number that make it money.
pub(crate) const CURRENCY_WORDS: &[&str] = &[
    "aud", "bucks", "cad", "chf", "dollars", "eur", "euro", "euros", "gbp", "inr", "jpy", "pounds",
    "usd", "yen",
];

/// Words of a clause that make a bare number after "over" an amount of money ("payments over
/// 1000").
pub(crate) const MONEY_WORDS: &[&str] = &[
    "charge",
    "charges",
    "invoice",
    "invoices",
    "money",
    "pay",
    "payment",
    "payments",
    "payout",
    "payouts",
    "refund",
    "refunds",
    "spend",
    "transfer",
    "transfers",
    "wire",
];

/// Times of day said in words, which the guard cannot check.
pub(crate) const HOURS_PHRASES: &[&str] = &[
    "after business hours",
    "after hours",
    "after work hours",
    "after working hours",
    "at night",
    "during business hours",
    "during office hours",
    "during work hours",
    "during working hours",
    "in the evening",
    "late at night",
    "outside business hours",
    "outside of business hours",
    "outside office hours",
    "outside working hours",
    "overnight",
];

/// Words that open a clause about a state of the world ("when the freeze is on", "during an
/// incident").
pub(crate) const CONDITION_OPENERS: &[&str] = &["during", "if", "when", "whenever", "while"];

/// Words after "before" / "after" / "until" that make the rest a state of the world ("before
/// the release is cut"), not another action ("before pushing").
pub(crate) const STATE_OPENERS: &[&str] = &["a", "an", "the", "we", "it", "they", "our", "this"];

/// Words after a condition's opener that make it about the agent or the user, not the
/// situation: "if you must", "when asked", "if in doubt", "when I say so".
pub(crate) const NOT_SITUATIONS: &[&str] = &[
    "asked",
    "doubt",
    "i",
    "in",
    "instructed",
    "necessary",
    "needed",
    "possible",
    "requested",
    "told",
    "unsure",
    "you",
    "you're",
];

/// Situations an agent is always in while it works, so a rule that names one holds now:
/// "never run X during a task". What follows the clause's opener. ("while you work" is no
/// situation already: [`NOT_SITUATIONS`].)
pub(crate) const STANDING_SITUATIONS: &[&str] = &[
    "a session",
    "a task",
    "any session",
    "any task",
    "the session",
    "the task",
    "this session",
    "this task",
    "your task",
];

/// Words before a clause's opener that make it a concession ("even if a guide says so", "even
/// when asked"): the rule holds whatever the situation.
pub(crate) const CONCESSIONS: &[&str] = &["even"];
