//! Declared params and typed access to them. A request's params are checked against the
//! method's declaration before its handler runs, in the reference's order: missing required
//! params first, then unknown ones, then types as the handler reads each field.

use active_memory_client::Origin;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::str::FromStr;

use crate::envelope::Envelope;
use crate::error::Error;

/// One declared param of a method.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Param {
    pub(crate) name: &'static str,
    pub(crate) required: bool,
    /// What the param means; the reference quotes it when a required param is missing.
    pub(crate) comment: &'static str,
}

impl Param {
    pub(crate) const fn required(name: &'static str, comment: &'static str) -> Param {
        Param {
            name,
            required: true,
            comment,
        }
    }

    pub(crate) const fn optional(name: &'static str, comment: &'static str) -> Param {
        Param {
            name,
            required: false,
            comment,
        }
    }
}

/// A request's params after the declaration check. Handlers take fields out one by one;
/// each accessor reports a wrongly typed value against its field.
#[derive(Debug)]
pub(crate) struct Params {
    fields: Map<String, Value>,
    /// The native name of the method the params are for.
    method: &'static str,
    declared: &'static [Param],
    envelope: Envelope,
}

impl Params {
    /// Checks raw params against a method's declaration. Null or missing params mean `{}`.
    /// Natively, a null field means the same as leaving it out.
    pub(crate) fn check(
        raw: Option<Value>,
        method: &'static str,
        declared: &'static [Param],
        envelope: Envelope,
    ) -> Result<Params, Error> {
        let mut fields = match raw {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(fields)) => fields,
            Some(other) => {
                return Err(Error::ParamsNotObject {
                    got: json_kind(&other),
                });
            }
        };
        for param in declared.iter().filter(|param| param.required) {
            let absent = match fields.get(param.name) {
                None => true,
                Some(Value::Null) => envelope == Envelope::Native,
                Some(_) => false,
            };
            if absent {
                return Err(Error::MissingParam {
                    field: param.name,
                    comment: param.comment,
                });
            }
        }
        if let Some(key) = fields
            .keys()
            .find(|key| !declared.iter().any(|param| param.name == key.as_str()))
        {
            return Err(Error::UnknownParam {
                key: key.clone(),
                method,
            });
        }
        if envelope == Envelope::Native {
            fields.retain(|_, value| !value.is_null());
        }
        Ok(Params {
            fields,
            method,
            declared,
            envelope,
        })
    }

    /// The envelope the call came through.
    pub(crate) fn envelope(&self) -> Envelope {
        self.envelope
    }

    /// Who asks for a change made by this call, as the history records it: the method by its
    /// native name, whichever envelope it came through.
    pub(crate) fn origin(&self) -> Origin {
        Origin::Rpc {
            method: self.method.to_owned(),
        }
    }

    /// A required param.
    pub(crate) fn required<T: DeserializeOwned>(&mut self, name: &'static str) -> Result<T, Error> {
        match self.optional(name)? {
            Some(value) => Ok(value),
            None => Err(Error::MissingParam {
                field: name,
                comment: self.comment(name),
            }),
        }
    }

    /// An optional param; `None` when absent. A present null is a type error unless `T`
    /// accepts null (natively nulls are gone by now, see [`Params::check`]).
    pub(crate) fn optional<T: DeserializeOwned>(
        &mut self,
        name: &'static str,
    ) -> Result<Option<T>, Error> {
        let Some(value) = self.fields.remove(name) else {
            return Ok(None);
        };
        serde_json::from_value(value)
            .map(Some)
            .map_err(|err| Error::ParamType {
                field: name,
                message: err.to_string(),
            })
    }

    /// An optional param that may also be null; both mean "unset".
    pub(crate) fn nullable<T: DeserializeOwned>(
        &mut self,
        name: &'static str,
    ) -> Result<Option<T>, Error> {
        Ok(self.optional::<Option<T>>(name)?.flatten())
    }

    /// A nullable enum param (priority, source). The reference parses it with serde: exact
    /// lower-case spelling, serde's "unknown variant" message. Natively the core's strict but
    /// case-insensitive parser names the field and the accepted values.
    pub(crate) fn enumeration<T>(&mut self, name: &'static str) -> Result<Option<T>, Error>
    where
        T: DeserializeOwned + FromStr<Err = tool_memory_core::Error>,
    {
        match self.envelope {
            Envelope::Reference => self.nullable::<T>(name),
            Envelope::Native => self
                .nullable::<String>(name)?
                .map(|text| text.parse::<T>().map_err(Error::InvalidParam))
                .transpose(),
        }
    }

    /// A tool name to look a rule up by. Natively it must not be blank; the reference passes
    /// it to the store as it is, where a blank name simply finds nothing.
    pub(crate) fn lookup_tool_name(&mut self) -> Result<String, Error> {
        let name: String = self.required("tool_name")?;
        if self.envelope == Envelope::Native {
            tool_memory_core::validate_tool_name(&name).map_err(Error::InvalidParam)?;
        }
        Ok(name)
    }

    /// A rule id to look a rule up by; like [`Params::lookup_tool_name`], checked natively.
    pub(crate) fn lookup_id(&mut self) -> Result<String, Error> {
        let id: String = self.required("id")?;
        if self.envelope == Envelope::Native {
            tool_memory_core::validate_id(&id).map_err(Error::InvalidParam)?;
        }
        Ok(id)
    }

    fn comment(&self, name: &str) -> &'static str {
        self.declared
            .iter()
            .find(|param| param.name == name)
            .map_or("", |param| param.comment)
    }
}

/// The JSON type of a value, in the reference's words.
pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
