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

    /// The wire form: RFC 3339, as many fractional digits as needed, `+00:00`.
    pub fn to_rfc3339(&self) -> String {
        self.0.to_rfc3339_opts(SecondsFormat::AutoSi, false)
    }

    /// The chrono instant.
    pub fn as_datetime(&self) -> DateTime<Utc> {
        self.0
    }
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
    fn rejects_garbage_naming_the_field() {
        let err = Timestamp::parse("yesterday").unwrap_err();
        assert_eq!(err.field(), "timestamp");
    }
}
