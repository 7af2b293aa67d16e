//! RFC 3339 timestamps that order by instant, not by text.
//!
//! The reference compares timestamp strings, so `...Z` and `...+00:00` written at the same
//! moment sort apart. toolmem parses every timestamp it reads and always writes `+00:00`.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Error;

/// An instant in UTC, written as RFC 3339 with a `+00:00` offset.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(DateTime<Utc>);

impl Timestamp {
    /// Parses any RFC 3339 string (`Z` or a numeric offset) into a UTC instant.
    pub fn parse(text: &str) -> Result<Timestamp, Error> {
        if let Some(fast) = parse_utc_fast(text) {
            return Ok(fast);
        }
        DateTime::parse_from_rfc3339(text.trim())
            .map(|parsed| Timestamp(parsed.with_timezone(&Utc)))
            .map_err(|err| Error::invalid("timestamp", format!("`{text}` is not RFC 3339: {err}")))
    }

    /// Wraps a chrono instant.
    pub fn from_datetime(datetime: DateTime<Utc>) -> Timestamp {
        Timestamp(datetime)
    }

    /// The instant `micros` microseconds after the Unix epoch, if chrono can represent it.
    pub fn from_unix_micros(micros: i64) -> Option<Timestamp> {
        DateTime::from_timestamp_micros(micros).map(Timestamp)
    }

    /// The instant `duration` later, if chrono can represent it.
    pub fn checked_add(&self, duration: std::time::Duration) -> Option<Timestamp> {
        let duration = chrono::TimeDelta::from_std(duration).ok()?;
        self.0.checked_add_signed(duration).map(Timestamp)
    }

    /// Microseconds since the Unix epoch; the sort key the stores index.
    pub fn unix_micros(&self) -> i64 {
        self.0.timestamp_micros()
    }

    /// Nanoseconds since the Unix epoch, saturating outside chrono's nanosecond range.
    pub fn unix_nanos(&self) -> i64 {
        self.0
            .timestamp_nanos_opt()
            .unwrap_or(if self.0.timestamp() < 0 {
                i64::MIN
            } else {
                i64::MAX
            })
    }

    /// Nanoseconds since the Unix epoch when they name this instant exactly: `None` outside
    /// 1677-2262 (the range of an `i64` of nanoseconds) and for a leap second, which chrono
    /// holds as a nanosecond count past one second. [`Timestamp::from_unix_nanos`] undoes it.
    pub fn exact_unix_nanos(&self) -> Option<i64> {
        if self.0.timestamp_subsec_nanos() >= 1_000_000_000 {
            return None;
        }
        self.0.timestamp_nanos_opt()
    }

    /// The instant `nanos` nanoseconds after the Unix epoch.
    pub fn from_unix_nanos(nanos: i64) -> Timestamp {
        Timestamp(DateTime::from_timestamp_nanos(nanos))
    }

    /// The wire form: RFC 3339, as many fractional digits as needed, `+00:00`.
    pub fn to_rfc3339(&self) -> String {
        format_utc_fast(&self.0)
            .unwrap_or_else(|| self.0.to_rfc3339_opts(SecondsFormat::AutoSi, false))
    }

    /// The chrono instant.
    pub fn as_datetime(&self) -> DateTime<Utc> {
        self.0
    }
}

/// The form toolmem writes, `YYYY-MM-DDTHH:MM:SS[.fraction](+00:00|Z)`, parsed without the
/// general parser: stores decode two timestamps per row, hundreds of rows per session start.
/// Anything else returns `None` and goes through chrono.
fn parse_utc_fast(text: &str) -> Option<Timestamp> {
    let bytes = text.as_bytes();
    let body = bytes
        .strip_suffix(b"+00:00")
        .or_else(|| bytes.strip_suffix(b"Z"))?;
    if body.len() < 19
        || body[4] != b'-'
        || body[7] != b'-'
        || body[10] != b'T'
        || body[13] != b':'
        || body[16] != b':'
    {
        return None;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        body.get(range)?.iter().try_fold(0u32, |value, &digit| {
            digit
                .is_ascii_digit()
                .then(|| value * 10 + u32::from(digit - b'0'))
        })
    };
    let mut nanos = 0;
    if body.len() > 19 {
        let fraction = &body[20..];
        if body[19] != b'.' || fraction.is_empty() || fraction.len() > 9 {
            return None;
        }
        nanos = number(20..body.len())? * 10u32.pow(9 - u32::try_from(fraction.len()).ok()?);
    }
    let date = chrono::NaiveDate::from_ymd_opt(
        i32::try_from(number(0..4)?).ok()?,
        number(5..7)?,
        number(8..10)?,
    )?;
    let time = chrono::NaiveTime::from_hms_nano_opt(
        number(11..13)?,
        number(14..16)?,
        number(17..19)?,
        nanos,
    )?;
    Some(Timestamp(date.and_time(time).and_utc()))
}

/// The same text as chrono's `to_rfc3339_opts(SecondsFormat::AutoSi, false)` for years 0 to
/// 9999 without a leap second, written directly: a write formats five or six timestamps (the
/// row, its history line, the rule inside it), and chrono's formatter took about a tenth of a
/// put's instructions. Anything else returns `None` and goes through chrono.
fn format_utc_fast(datetime: &DateTime<Utc>) -> Option<String> {
    let nanos = datetime.timestamp_subsec_nanos();
    let seconds = datetime.timestamp();
    // 0000-01-01T00:00:00 and 10000-01-01T00:00:00.
    if nanos >= 1_000_000_000 || !(-62_167_219_200..253_402_300_800).contains(&seconds) {
        return None;
    }
    let (days, of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    let mut text = *b"0000-00-00T00:00:00.000000000+00:00";
    put_digits(&mut text[0..4], year);
    put_digits(&mut text[5..7], month);
    put_digits(&mut text[8..10], day);
    put_digits(&mut text[11..13], of_day / 3_600);
    put_digits(&mut text[14..16], of_day / 60 % 60);
    put_digits(&mut text[17..19], of_day % 60);
    // AutoSi: no fraction, or milli-, micro- or nanoseconds, whichever shows it exactly.
    let nanos = i64::from(nanos);
    let end = if nanos == 0 {
        19
    } else if nanos % 1_000_000 == 0 {
        put_digits(&mut text[20..23], nanos / 1_000_000);
        23
    } else if nanos % 1_000 == 0 {
        put_digits(&mut text[20..26], nanos / 1_000);
        26
    } else {
        put_digits(&mut text[20..29], nanos);
        29
    };
    let mut out = String::with_capacity(end + 6);
    out.push_str(std::str::from_utf8(&text[..end]).expect("ASCII digits and separators"));
    out.push_str("+00:00");
    Some(out)
}

/// Writes `value` into `digits` as decimal, zero-padded to its length.
fn put_digits(digits: &mut [u8], mut value: i64) {
    for digit in digits.iter_mut().rev() {
        *digit = b'0' + u8::try_from(value % 10).expect("a decimal digit");
        value /= 10;
    }
}

/// The proleptic Gregorian (year, month, day) of a count of days since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc3339())
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Timestamp({})", self.to_rfc3339())
    }
}

impl FromStr for Timestamp {
    type Err = Error;

    fn from_str(text: &str) -> Result<Timestamp, Error> {
        Timestamp::parse(text)
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_rfc3339())
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Timestamp, D::Error> {
        let text = String::deserialize(deserializer)?;
        Timestamp::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_fast_form_is_chronos_at_the_edges() {
        for text in [
            "0000-01-01T00:00:00Z",
            "1900-02-28T23:59:59.999Z",
            "1900-03-01T00:00:00.000001Z",
            "1969-12-31T23:59:59.999999999Z",
            "1970-01-01T00:00:00Z",
            "2000-02-29T12:00:00.5Z",
            "2024-12-31T23:59:59.123456Z",
            "9999-12-31T23:59:59.999999999Z",
            "+10000-01-01T00:00:00Z",
        ] {
            let datetime = DateTime::parse_from_rfc3339(text)
                .or_else(|_| text.parse::<DateTime<Utc>>().map(|at| at.fixed_offset()))
                .unwrap()
                .with_timezone(&Utc);
            assert_eq!(
                Timestamp(datetime).to_rfc3339(),
                datetime.to_rfc3339_opts(SecondsFormat::AutoSi, false),
                "{text}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5_000))]

        /// The direct writer gives chrono's text for every instant, fractions of each width
        /// and years beyond its range (which go through chrono) included.
        #[test]
        fn the_fast_form_is_chronos(
            seconds in -62_167_219_200i64..253_402_300_800i64 * 2,
            nanos in prop_oneof![
                Just(0u32),
                (0u32..1_000).prop_map(|millis| millis * 1_000_000),
                (0u32..1_000_000).prop_map(|micros| micros * 1_000),
                0u32..1_000_000_000,
            ],
        ) {
            let datetime = DateTime::from_timestamp(seconds, nanos).unwrap();
            prop_assert_eq!(
                Timestamp(datetime).to_rfc3339(),
                datetime.to_rfc3339_opts(SecondsFormat::AutoSi, false)
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5_000))]

        /// Every instant that has exact nanoseconds comes back from them unchanged, and every
        /// other one (outside 1677-2262, or a leap second) has none.
        #[test]
        fn exact_nanoseconds_round_trip(
            seconds in -62_167_219_200i64..253_402_300_800i64,
            nanos in 0u32..2_000_000_000,
        ) {
            let Some(datetime) = DateTime::from_timestamp(seconds, nanos) else {
                return Ok(());
            };
            let at = Timestamp(datetime);
            match at.exact_unix_nanos() {
                Some(exact) => {
                    prop_assert!(nanos < 1_000_000_000);
                    prop_assert_eq!(Timestamp::from_unix_nanos(exact), at);
                }
                None => prop_assert!(
                    nanos >= 1_000_000_000 || !(-9_223_372_036..9_223_372_036).contains(&seconds)
                ),
            }
        }
    }

    #[test]
    fn exact_nanoseconds_at_the_edges() {
        let leap = Timestamp(DateTime::from_timestamp(1_483_228_799, 1_500_000_000).unwrap());
        assert_eq!(leap.exact_unix_nanos(), None);
        let far = Timestamp::parse("9999-12-31T23:59:59Z").unwrap();
        assert_eq!(far.exact_unix_nanos(), None);
        let now = Timestamp::parse("2026-07-23T17:04:54.123456789+00:00").unwrap();
        assert_eq!(now.exact_unix_nanos(), Some(1_784_826_294_123_456_789));
        assert_eq!(Timestamp::from_unix_nanos(1_784_826_294_123_456_789), now);
    }

    #[test]
    fn z_and_offset_forms_are_the_same_instant() {
        let zulu = Timestamp::parse("2026-05-11T00:00:01Z").unwrap();
        let offset = Timestamp::parse("2026-05-11T00:00:01+00:00").unwrap();
        let east = Timestamp::parse("2026-05-11T02:00:01+02:00").unwrap();
        assert_eq!(zulu, offset);
        assert_eq!(zulu, east);
        assert_eq!(zulu.to_rfc3339(), "2026-05-11T00:00:01+00:00");
    }

    #[test]
    fn orders_by_instant_not_by_text() {
        // As text, "...00:00:02+00:00" < "...00:00:01Z" is false but "+" < "Z" would mislead
        // a string comparison of equal prefixes.
        let earlier = Timestamp::parse("2026-05-11T00:00:01.5Z").unwrap();
        let later = Timestamp::parse("2026-05-11T00:00:01.6+00:00").unwrap();
        assert!(earlier < later);
    }

    #[test]
    fn keeps_nanoseconds_on_the_wire() {
        let text = "2026-07-23T17:04:54.123456789+00:00";
        assert_eq!(Timestamp::parse(text).unwrap().to_rfc3339(), text);
    }

    #[test]
    fn fast_path_agrees_with_chrono() {
        for text in [
            "2026-07-23T17:04:54.123456789+00:00",
            "2026-07-23T17:04:54+00:00",
            "2026-07-23T17:04:54Z",
            "2026-07-23T17:04:54.5Z",
            "2026-07-23T17:04:54.000120+00:00",
            "1970-01-01T00:00:00Z",
            "2024-02-29T23:59:59.999999999+00:00",
        ] {
            let fast = parse_utc_fast(text).expect(text);
            let general = DateTime::parse_from_rfc3339(text)
                .unwrap()
                .with_timezone(&Utc);
            assert_eq!(fast.0, general, "{text}");
        }
        for text in [
            "2026-02-30T00:00:00Z",
            "2026-07-23T25:00:00Z",
            "2026-07-23T17:04:54.+00:00",
            "2026-07-23T17:04:54.1234567891Z",
            "2026-07-23 17:04:54Z",
            "2026-07-23T17:04:54+02:00",
            "+00:00",
        ] {
            assert_eq!(parse_utc_fast(text), None, "{text}");
        }
        // Other offsets still parse, through chrono.
        assert!(Timestamp::parse("2026-07-23T19:04:54+02:00").is_ok());
        assert!(Timestamp::parse("2026-02-30T00:00:00Z").is_err());
    }

    #[test]
    fn rejects_garbage_naming_the_field() {
        let err = Timestamp::parse("yesterday").unwrap_err();
        assert_eq!(err.field(), "timestamp");
    }
}
