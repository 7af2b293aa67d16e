//! `RawJson`: a JSON value kept as its compact text, so that rules carrying one (the
//! enforcement constraint) clone and compare as cheaply as a string and are written out
//! verbatim.

use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// A JSON value held as compact text. The text is checked to be JSON once, when it is made,
/// so writing it out copies it without parsing it again (a put writes the constraint twice,
/// and every rule in an RPC reply carries one).
#[derive(Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// The compact text of `value`.
    pub fn from_value(value: &Value) -> RawJson {
        RawJson::of(value)
    }

    /// The compact JSON text of `value`, written directly rather than through a [`Value`]: its
    /// keys come in the order the type writes them, where [`RawJson::from_value`] sorts them,
    /// and two texts of one value compare unequal when their keys differ in order.
    ///
    /// # Panics
    ///
    /// When `value` has no JSON form (a map with keys that are not strings), which no type
    /// this is used with has.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> RawJson {
        RawJson(serde_json::value::to_raw_value(value).expect("the value has a JSON form"))
    }

    /// JSON `null`.
    pub fn null() -> RawJson {
        RawJson::of(&())
    }

    /// Whether this is JSON `null`.
    pub fn is_null(&self) -> bool {
        self.as_str() == "null"
    }

    /// Text that a store wrote from a `RawJson` earlier and hands back unchanged. It is checked
    /// to be JSON without being parsed into a value, so a damaged row is found on read rather
    /// than when the rule is written out again.
    pub fn from_stored(text: String) -> Result<RawJson, serde_json::Error> {
        RawValue::from_string(text).map(RawJson)
    }

    /// The compact JSON text.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// The value, parsed.
    pub fn to_value(&self) -> Value {
        serde_json::from_str(self.as_str()).unwrap_or(Value::Null)
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &RawJson) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for RawJson {}

impl Hash for RawJson {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawJson, D::Error> {
        Value::deserialize(deserializer).map(|value| RawJson::from_value(&value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_stored_text_is_refused() {
        assert!(RawJson::from_stored("{bad".to_owned()).is_err());
        assert!(RawJson::from_stored(r#"{"a":1}"#.to_owned()).is_ok());
    }

    #[test]
    fn round_trips_verbatim_inside_a_record() {
        let raw =
            RawJson::from_value(&serde_json::json!({"polarity": "forbid", "matchers": [1, 2]}));
        assert_eq!(raw.as_str(), r#"{"matchers":[1,2],"polarity":"forbid"}"#);
        let wrapped = serde_json::json!({"constraint": raw});
        assert_eq!(
            wrapped.to_string(),
            r#"{"constraint":{"matchers":[1,2],"polarity":"forbid"}}"#
        );
        let text = serde_json::to_string(&serde_json::json!({"c": raw.to_value()})).unwrap();
        #[derive(Deserialize)]
        struct Holder {
            c: RawJson,
        }
        let back: Holder = serde_json::from_str(&text).unwrap();
        assert_eq!(back.c, raw);
    }
}
