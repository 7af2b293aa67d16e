//! Writing a changed settings file back in the user's own key order. serde_json's `Value`
//! sorts object keys (the workspace does not enable `preserve_order`, which would change the
//! order of every map it serialises), so the file is also read into [`Ordered`], which keeps
//! it, and [`render`] writes the changed `Value` following it: the user's keys where they were,
//! keys toolmem added after them.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// A JSON document as written: objects keep their keys in file order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ordered {
    Scalar(Value),
    Array(Vec<Ordered>),
    Object(Vec<(String, Ordered)>),
}

impl Ordered {
    /// The same document as a `Value` (keys sorted, the last of duplicated keys kept).
    fn to_value(&self) -> Value {
        match self {
            Ordered::Scalar(value) => value.clone(),
            Ordered::Array(items) => Value::Array(items.iter().map(Ordered::to_value).collect()),
            Ordered::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(key, value)| (key.clone(), value.to_value()))
                    .collect(),
            ),
        }
    }

    fn field(&self, key: &str) -> Option<&Ordered> {
        match self {
            // The last duplicate is the one `Value` kept.
            Ordered::Object(fields) => fields.iter().rev().find(|(k, _)| k == key).map(|f| &f.1),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Ordered, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }

    fn visit_str<E>(self, v: &str) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }

    fn visit_string<E>(self, v: String) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }

    fn visit_unit<E>(self) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Ordered::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut fields = Vec::new();
        while let Some(field) = map.next_entry()? {
            fields.push(field);
        }
        Ok(Ordered::Object(fields))
    }
}

/// `value` as pretty JSON with a final newline, its keys in `original`'s order where
/// `original` has them.
pub(crate) fn render(value: &Value, original: Option<&Ordered>) -> String {
    let mut text = serde_json::to_string_pretty(&Keep { value, original })
        .expect("JSON values always serialise");
    text.push('\n');
    text
}

/// A value to write, with the part of the original document it stands where.
struct Keep<'a> {
    value: &'a Value,
    original: Option<&'a Ordered>,
}

impl Serialize for Keep<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.value {
            Value::Object(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                let known: Vec<&str> = match self.original {
                    Some(Ordered::Object(fields)) => fields.iter().map(|f| f.0.as_str()).collect(),
                    _ => Vec::new(),
                };
                let mut written: Vec<&str> = Vec::new();
                for key in known {
                    if written.contains(&key) {
                        continue;
                    }
                    if let Some(value) = map.get(key) {
                        let original = self.original.and_then(|o| o.field(key));
                        out.serialize_entry(key, &Keep { value, original })?;
                        written.push(key);
                    }
                }
                for (key, value) in map {
                    if !written.contains(&key.as_str()) {
                        out.serialize_entry(
                            key,
                            &Keep {
                                value,
                                original: None,
                            },
                        )?;
                    }
                }
                out.end()
            }
            Value::Array(items) => {
                let originals: &[Ordered] = match self.original {
                    Some(Ordered::Array(items)) => items,
                    _ => &[],
                };
                // An item keeps its own original even when items before it were added or
                // removed: an equal one first, else a changed one at the same place.
                let mut used = vec![false; originals.len()];
                let mut chosen: Vec<Option<usize>> = items
                    .iter()
                    .map(|value| {
                        let i = (0..originals.len())
                            .find(|&i| !used[i] && originals[i].to_value() == *value)?;
                        used[i] = true;
                        Some(i)
                    })
                    .collect();
                for (at, choice) in chosen.iter_mut().enumerate() {
                    if choice.is_none() && at < originals.len() && !used[at] {
                        used[at] = true;
                        *choice = Some(at);
                    }
                }
                let mut out = serializer.serialize_seq(Some(items.len()))?;
                for (value, choice) in items.iter().zip(chosen) {
                    out.serialize_element(&Keep {
                        value,
                        original: choice.map(|i| &originals[i]),
                    })?;
                }
                out.end()
            }
            scalar => scalar.serialize(serializer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_original_order_and_appends_new_keys() {
        let text = r#"{"zeta": 1, "alpha": {"y": [{"b": 1, "a": 2}], "x": true}, "mid": null}"#;
        let original: Ordered = serde_json::from_str(text).unwrap();
        let mut value = original.to_value();
        value["alpha"]["new"] = Value::from("added");
        value["alpha"]["y"]
            .as_array_mut()
            .unwrap()
            .insert(0, serde_json::json!({"d": 0, "c": 0}));
        let rendered = render(&value, Some(&original));
        let compact: Value = serde_json::from_str(&rendered).unwrap();
        assert_eq!(compact, value);
        let squeezed: String = rendered.split_whitespace().collect();
        assert_eq!(
            squeezed,
            r#"{"zeta":1,"alpha":{"y":[{"c":0,"d":0},{"b":1,"a":2}],"x":true,"new":"added"},"mid":null}"#
        );
    }
}
