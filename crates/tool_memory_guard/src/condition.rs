//! Conditions on the situation a rule is about ("don't schedule anything with Priya on
//! Fridays", "never refund more than $500 without asking", "no deploys after 4pm"): the
//! `condition` matcher of a constraint's `when`, its value forms, and what a call shows of
//! it.
//!
//! The guard has no clock, so it checks a condition only where the call itself shows the
//! situation: the weekday of a date the call carries (an event's start), an amount under an
//! amount-like key. Anything else (a time of day, "during business hours", "when the freeze
//! is on") is unknown, and so is a weekday or an amount the call does not show. A rule whose
//! condition is unknown still applies, but its violation asks instead of denying: the user
//! decides whether the condition holds. A condition the call shows to be false makes the rule
//! not apply (a Tuesday event under "on Fridays").
//!
//! Value forms (the JSON form of a `condition` matcher):
//! * `on DAY[, DAY...]`: weekdays, by English name (`on saturday, sunday`);
//! * `amount over N` / `amount under N`: a number, the currency unwritten (`amount over 500`);
//! * any other text: a condition the guard cannot check, kept as the user wrote it.

/// A parsed condition.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Condition {
    /// Weekdays, bit 0 Monday to bit 6 Sunday.
    Weekdays(u8),
    /// An amount above (`over`) or below the limit.
    Amount { over: bool, limit: f64 },
    /// A condition the guard cannot check.
    Unchecked,
}

/// What a call shows of a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shown {
    Holds,
    Fails,
    Unknown,
}

pub(crate) const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

impl Condition {
    /// Parses a value; the error says what is wrong with it (for validation).
    pub(crate) fn parse(value: &str) -> Result<Condition, &'static str> {
        let lower = value.trim().to_lowercase();
        if let Some(days) = lower.strip_prefix("on ") {
            let mut mask = 0u8;
            for day in days
                .split([',', ' '])
                .filter(|day| !day.is_empty() && *day != "and")
            {
                let bit = WEEKDAYS
                    .iter()
                    .position(|known| *known == day)
                    .ok_or("`on` takes weekday names, such as `on friday`")?;
                mask |= 1 << bit;
            }
            return if mask == 0 {
                Err("`on` takes weekday names, such as `on friday`")
            } else {
                Ok(Condition::Weekdays(mask))
            };
        }
        if let Some(rest) = lower.strip_prefix("amount ") {
            let (over, number) = if let Some(number) = rest.strip_prefix("over ") {
                (true, number)
            } else if let Some(number) = rest.strip_prefix("under ") {
                (false, number)
            } else {
                return Err("an amount condition is `amount over N` or `amount under N`");
            };
            let limit: f64 = number
                .trim()
                .parse()
                .map_err(|_| "an amount condition's limit is a number")?;
            if !limit.is_finite() {
                return Err("an amount condition's limit is a number");
            }
            return Ok(Condition::Amount { over, limit });
        }
        Ok(Condition::Unchecked)
    }

    /// What the call shows: its dates' weekdays (`dates`: year, month, day), its amounts
    /// (each with the readings its unit allows: as written, and in cents when the unit is
    /// not known).
    pub(crate) fn shown(&self, dates: &[(i32, u32, u32)], amounts: &[Amount]) -> Shown {
        match self {
            Condition::Unchecked => Shown::Unknown,
            Condition::Weekdays(mask) => {
                if dates.is_empty() {
                    return Shown::Unknown;
                }
                let holds = dates
                    .iter()
                    .any(|&(year, month, day)| mask & (1 << weekday(year, month, day)) != 0);
                if holds { Shown::Holds } else { Shown::Fails }
            }
            Condition::Amount { over, limit } => {
                let mut shown = Shown::Fails;
                if amounts.is_empty() {
                    return Shown::Unknown;
                }
                for amount in amounts {
                    let beyond = |value: f64| {
                        if *over {
                            value > *limit
                        } else {
                            value < *limit
                        }
                    };
                    let readings = amount.readings();
                    let all = readings.iter().all(|value| beyond(*value));
                    let any = readings.iter().any(|value| beyond(*value));
                    if all {
                        return Shown::Holds;
                    }
                    if any {
                        shown = Shown::Unknown;
                    }
                }
                shown
            }
        }
    }
}

/// An amount a call carries, and whether it is known to be in cents (Stripe's API and keys
/// such as `amount_cents` count in the currency's smallest unit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Amount {
    pub(crate) value: f64,
    pub(crate) unit: Unit,
}

/// The unit an amount is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Whole currency units (`"$750.00"` as written).
    Major,
    /// The smallest unit (cents).
    Minor,
    /// Not known: either.
    Either,
}

impl Amount {
    /// The values, in whole currency units, the amount may stand for.
    fn readings(&self) -> Vec<f64> {
        match self.unit {
            Unit::Major => vec![self.value],
            Unit::Minor => vec![self.value / 100.0],
            Unit::Either => vec![self.value, self.value / 100.0],
        }
    }
}

/// Day of the week of a date, 0 Monday to 6 Sunday (Sakamoto's method, Gregorian).
pub(crate) fn weekday(year: i32, month: u32, day: u32) -> u32 {
    const OFFSETS: [i32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
    let year = if month < 3 { year - 1 } else { year };
    let index = usize::try_from(month.clamp(1, 12) - 1).unwrap_or(0);
    let sunday_first =
        (year + year / 4 - year / 100 + year / 400 + OFFSETS[index] + day as i32).rem_euclid(7);
    // Sakamoto counts from Sunday.
    u32::try_from((sunday_first + 6) % 7).unwrap_or(0)
}

/// The ISO dates (`2026-03-13`, also inside `2026-03-13T10:00:00Z`) in a text.
pub(crate) fn dates_in(text: &str, out: &mut Vec<(i32, u32, u32)>) {
    let bytes = text.as_bytes();
    if bytes.len() < 10 {
        return;
    }
    for at in 0..=bytes.len() - 10 {
        let window = &bytes[at..at + 10];
        let digits = |range: std::ops::Range<usize>| window[range].iter().all(u8::is_ascii_digit);
        let shaped =
            digits(0..4) && window[4] == b'-' && digits(5..7) && window[7] == b'-' && digits(8..10);
        let bounded = (at == 0 || !bytes[at - 1].is_ascii_digit())
            && bytes.get(at + 10).is_none_or(|next| !next.is_ascii_digit());
        if !(shaped && bounded) {
            continue;
        }
        let number = |range: std::ops::Range<usize>| -> u32 {
            std::str::from_utf8(&window[range])
                .ok()
                .and_then(|digits| digits.parse().ok())
                .unwrap_or(0)
        };
        let (year, month, day) = (number(0..4), number(5..7), number(8..10));
        if (1..=12).contains(&month) && (1..=31).contains(&day) {
            out.push((i32::try_from(year).unwrap_or(0), month, day));
        }
    }
}

/// The number an amount-like string spells: `750`, `$1,250.00`, `USD 12.5`, `€40`. `None`
/// for anything with letters beside a currency code, or more than one number.
pub(crate) fn amount_in(text: &str) -> Option<f64> {
    let trimmed = text.trim();
    let core = trimmed
        .trim_start_matches(['$', '€', '£', '¥'])
        .trim_end_matches(['$', '€', '£', '¥']);
    let core = core
        .split_whitespace()
        .filter(|part| !(part.len() == 3 && part.chars().all(|ch| ch.is_ascii_alphabetic())))
        .collect::<Vec<_>>();
    let [number] = core.as_slice() else {
        return None;
    };
    let number = number
        .trim_start_matches(['$', '€', '£', '¥'])
        .replace(',', "");
    number.parse::<f64>().ok().filter(|value| value.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weekdays_of_dates() {
        assert_eq!(weekday(2026, 3, 10), 1, "a Tuesday");
        assert_eq!(weekday(2026, 3, 13), 4, "a Friday");
        assert_eq!(weekday(2024, 2, 29), 3, "a Thursday");
        assert_eq!(weekday(2000, 1, 1), 5, "a Saturday");
        let mut dates = Vec::new();
        dates_in("start 2026-03-13T10:00:00Z, end 2026-03-14", &mut dates);
        assert_eq!(dates, [(2026, 3, 13), (2026, 3, 14)]);
        dates.clear();
        dates_in("id 12026-03-13 and 2026-13-01", &mut dates);
        assert!(dates.is_empty(), "{dates:?}");
    }

    #[test]
    fn values_parse_to_conditions() {
        assert_eq!(
            Condition::parse("on friday"),
            Ok(Condition::Weekdays(1 << 4))
        );
        assert_eq!(
            Condition::parse("on saturday, sunday"),
            Ok(Condition::Weekdays(0b110_0000))
        );
        assert_eq!(
            Condition::parse("amount over 500"),
            Ok(Condition::Amount {
                over: true,
                limit: 500.0
            })
        );
        assert_eq!(
            Condition::parse("during business hours"),
            Ok(Condition::Unchecked)
        );
        assert!(Condition::parse("on fryday").is_err());
        assert!(Condition::parse("amount over lots").is_err());
        assert!(Condition::parse("amount about 5").is_err());
    }

    #[test]
    fn what_a_call_shows() {
        let friday = Condition::Weekdays(1 << 4);
        assert_eq!(friday.shown(&[(2026, 3, 13)], &[]), Shown::Holds);
        assert_eq!(friday.shown(&[(2026, 3, 10)], &[]), Shown::Fails);
        assert_eq!(friday.shown(&[], &[]), Shown::Unknown);
        let over = Condition::Amount {
            over: true,
            limit: 500.0,
        };
        let amount = |value: f64, unit: Unit| Amount { value, unit };
        assert_eq!(
            over.shown(&[], &[amount(90_000.0, Unit::Minor)]),
            Shown::Holds
        );
        assert_eq!(
            over.shown(&[], &[amount(2_000.0, Unit::Minor)]),
            Shown::Fails
        );
        assert_eq!(
            over.shown(&[], &[amount(2_000.0, Unit::Either)]),
            Shown::Unknown
        );
        assert_eq!(
            over.shown(&[], &[amount(100.0, Unit::Either)]),
            Shown::Fails
        );
        assert_eq!(over.shown(&[], &[amount(750.0, Unit::Major)]), Shown::Holds);
        assert_eq!(over.shown(&[], &[]), Shown::Unknown);
        assert_eq!(amount_in("$1,250.00"), Some(1250.0));
        assert_eq!(amount_in("USD 12.5"), Some(12.5));
        assert_eq!(amount_in("ch_1"), None);
    }
}
