//! Repairing common model mistakes in tool arguments before giving up on them.
//!
//! Guided by the schema, [`repair`] fixes (recursively, in nested objects and arrays) and records:
//! `"true"`/`"false"` strings where booleans are expected, numeric strings where numbers are
//! expected, a JSON-encoded string where an object or array is expected, a single value where an
//! array is expected, and `null` arguments for a tool that takes an object. A value whose type the
//! schema already accepts is never changed.

use serde::Serialize;
use serde_json::{Map, Value};

/// What a repair did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairKind {
    /// `"true"`/`"false"` became a boolean.
    BoolFromString,
    /// `"42"` became a number.
    NumberFromString,
    /// A JSON-encoded string became the object or array it encodes.
    ParsedJsonString,
    /// A single value became a one-element array.
    WrappedInArray,
    /// `null` arguments became `{}`.
    EmptyObjectFromNull,
}

/// One repair, at a JSON pointer into the arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Repair {
    pub path: String,
    pub kind: RepairKind,
}

/// Repairs `value` in place against `schema` and returns what was repaired.
pub fn repair(schema: &Value, value: &mut Value) -> Vec<Repair> {
    let mut repairs = Vec::new();
    if value.is_null() && accepts(schema, schema, "object") && !accepts(schema, schema, "null") {
        *value = Value::Object(Map::new());
        repairs.push(Repair {
            path: String::new(),
            kind: RepairKind::EmptyObjectFromNull,
        });
    }
    repair_node(schema, schema, value, String::new(), &mut repairs, 0);
    repairs
}

const MAX_DEPTH: usize = 64;

fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
            .unwrap_or(schema),
        None => schema,
    }
}

/// The JSON types `schema` names directly (`type`), or through `anyOf`/`oneOf` branches.
fn types(root: &Value, schema: &Value) -> Vec<String> {
    let schema = resolve(root, schema);
    let mut out = Vec::new();
    match schema.get("type") {
        Some(Value::String(t)) => out.push(t.clone()),
        Some(Value::Array(ts)) => out.extend(ts.iter().filter_map(Value::as_str).map(String::from)),
        _ => {}
    }
    if schema.get("properties").is_some() && out.is_empty() {
        out.push("object".into());
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            for branch in branches {
                out.extend(types(root, branch));
            }
        }
    }
    out
}

fn accepts(root: &Value, schema: &Value, json_type: &str) -> bool {
    let named = types(root, schema);
    named
        .iter()
        .any(|t| t == json_type || (t == "number" && json_type == "integer"))
}

fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether the schema constrains the type at all and does not accept `value`'s type.
fn mismatched(root: &Value, schema: &Value, value: &Value) -> bool {
    let named = types(root, schema);
    !named.is_empty() && !accepts(root, schema, type_of(value))
}

fn repair_node(
    root: &Value,
    schema: &Value,
    value: &mut Value,
    path: String,
    repairs: &mut Vec<Repair>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let schema = resolve(root, schema);
    if mismatched(root, schema, value)
        && let Some(kind) = fix_scalar(root, schema, value)
    {
        repairs.push(Repair {
            path: path.clone(),
            kind,
        });
    }
    // Recurse into the branch that fits, for `anyOf`/`oneOf` of objects or arrays.
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            let value_type = type_of(value);
            if let Some(branch) = branches
                .iter()
                .find(|b| accepts(root, b, value_type) && value_type != "null")
            {
                repair_node(root, branch, value, path.clone(), repairs, depth + 1);
            }
        }
    }
    match value {
        Value::Object(map) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            for (key, inner) in map.iter_mut() {
                let inner_schema = properties.and_then(|p| p.get(key)).or(additional);
                if let Some(inner_schema) = inner_schema {
                    let inner_path = format!("{path}/{}", escape_pointer(key));
                    repair_node(root, inner_schema, inner, inner_path, repairs, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|i| i.is_object()) {
                for (index, item) in items.iter_mut().enumerate() {
                    let item_path = format!("{path}/{index}");
                    repair_node(root, item_schema, item, item_path, repairs, depth + 1);
                }
            }
        }
        _ => {}
    }
}

fn fix_scalar(root: &Value, schema: &Value, value: &mut Value) -> Option<RepairKind> {
    if let Value::String(text) = value {
        let trimmed = text.trim();
        if accepts(root, schema, "boolean") {
            let parsed = match trimmed {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            };
            if let Some(b) = parsed {
                *value = Value::Bool(b);
                return Some(RepairKind::BoolFromString);
            }
        }
        if accepts(root, schema, "integer")
            && let Ok(n) = trimmed.parse::<i64>()
        {
            *value = Value::from(n);
            return Some(RepairKind::NumberFromString);
        }
        if accepts(root, schema, "number")
            && let Ok(f) = trimmed.parse::<f64>()
            && let Some(n) = serde_json::Number::from_f64(f)
        {
            *value = Value::Number(n);
            return Some(RepairKind::NumberFromString);
        }
        if (accepts(root, schema, "object") || accepts(root, schema, "array"))
            && let Ok(parsed) = serde_json::from_str::<Value>(trimmed)
            && accepts(root, schema, type_of(&parsed))
        {
            *value = parsed;
            return Some(RepairKind::ParsedJsonString);
        }
    }
    if accepts(root, schema, "array") && !value.is_array() {
        let single = std::mem::take(value);
        *value = Value::Array(vec![single]);
        return Some(RepairKind::WrappedInArray);
    }
    None
}

fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "recursive": {"type": "boolean"},
                "limit": {"type": "integer"},
                "ratio": {"type": ["number", "null"]},
                "name": {"type": ["string", "boolean"]},
                "paths": {"type": "array", "items": {"type": "string"}},
                "options": {
                    "type": "object",
                    "properties": {
                        "flags": {"type": "array", "items": {"type": "boolean"}},
                        "deep": {"type": "object", "properties": {"on": {"type": "boolean"}}}
                    }
                },
                "edits": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"all": {"type": "boolean"}}}
                },
                "maybe": {"anyOf": [
                    {"type": "object", "properties": {"x": {"type": "integer"}}},
                    {"type": "null"}
                ]}
            }
        })
    }

    fn kinds(repairs: &[Repair]) -> Vec<(&str, RepairKind)> {
        repairs.iter().map(|r| (r.path.as_str(), r.kind)).collect()
    }

    #[test]
    fn boolean_strings_become_booleans_at_any_depth() {
        let mut args = json!({
            "recursive": "true",
            "options": {"flags": ["false", true], "deep": {"on": "true"}},
            "edits": [{"all": "false"}]
        });
        let repairs = repair(&schema(), &mut args);
        assert_eq!(
            args,
            json!({
                "recursive": true,
                "options": {"flags": [false, true], "deep": {"on": true}},
                "edits": [{"all": false}]
            })
        );
        assert_eq!(
            kinds(&repairs),
            vec![
                ("/edits/0/all", RepairKind::BoolFromString),
                ("/options/deep/on", RepairKind::BoolFromString),
                ("/options/flags/0", RepairKind::BoolFromString),
                ("/recursive", RepairKind::BoolFromString),
            ]
        );
    }

    #[test]
    fn numeric_strings_become_numbers() {
        let mut args = json!({"limit": " 20 ", "ratio": "0.5", "maybe": {"x": "3"}});
        let repairs = repair(&schema(), &mut args);
        assert_eq!(args, json!({"limit": 20, "ratio": 0.5, "maybe": {"x": 3}}));
        assert_eq!(repairs.len(), 3);
        assert!(
            repairs
                .iter()
                .all(|r| r.kind == RepairKind::NumberFromString)
        );
    }

    #[test]
    fn json_encoded_strings_become_objects_and_arrays() {
        let mut args = json!({
            "options": "{\"flags\": [\"true\"]}",
            "paths": "[\"a.rs\", \"b.rs\"]"
        });
        let repairs = repair(&schema(), &mut args);
        assert_eq!(
            args,
            json!({"options": {"flags": [true]}, "paths": ["a.rs", "b.rs"]})
        );
        assert_eq!(
            kinds(&repairs),
            vec![
                ("/options", RepairKind::ParsedJsonString),
                ("/options/flags/0", RepairKind::BoolFromString),
                ("/paths", RepairKind::ParsedJsonString),
            ]
        );
    }

    #[test]
    fn single_values_become_arrays() {
        let mut args = json!({"paths": "src/main.rs", "options": {"flags": true}});
        let repairs = repair(&schema(), &mut args);
        assert_eq!(
            args,
            json!({"paths": ["src/main.rs"], "options": {"flags": [true]}})
        );
        assert!(repairs.iter().all(|r| r.kind == RepairKind::WrappedInArray));
        assert_eq!(repairs.len(), 2);
    }

    #[test]
    fn whole_arguments_as_a_json_string_or_null_are_repaired() {
        let mut args = json!("{\"limit\": \"5\"}");
        let repairs = repair(&schema(), &mut args);
        assert_eq!(args, json!({"limit": 5}));
        assert_eq!(repairs[0].kind, RepairKind::ParsedJsonString);
        let mut none = Value::Null;
        repair(&schema(), &mut none);
        assert_eq!(none, json!({}));
    }

    #[test]
    fn accepted_types_are_left_alone() {
        let mut args = json!({"name": "true", "ratio": null, "limit": "many"});
        let before = args.clone();
        let repairs = repair(&schema(), &mut args);
        assert_eq!(
            args, before,
            "strings allowed for name; 'many' is no number"
        );
        assert!(repairs.is_empty());
    }
}
