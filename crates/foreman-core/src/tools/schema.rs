//! Parameter schemas: deriving them from Rust types, cleaning them for providers and checking
//! that every parameter is described.

use std::collections::HashSet;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The schema of `T` as the model sees it: draft 2020-12, subschemas inlined, doc comments as
/// descriptions, cleaned by [`clean_for_provider`].
pub fn schema_for<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    clean_for_provider(generator.into_root_schema_for::<T>().to_value())
}

/// Numeric `format`s schemars emits that providers' validators reject.
const NON_STANDARD_FORMATS: [&str; 10] = [
    "uint", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "double",
];

/// Makes a schema acceptable to native function-calling APIs: local `$ref`s into
/// `$defs`/`definitions` inlined (recursive refs are left in place after one expansion, with
/// their definitions kept), `$schema` and non-standard numeric formats removed, and an object
/// root with `properties` guaranteed.
pub fn clean_for_provider(mut schema: Value) -> Value {
    let defs = take_defs(&mut schema);
    let mut unresolved = Map::new();
    let mut stack = Vec::new();
    inline_refs(&mut schema, &defs, &mut stack, &mut unresolved);
    strip(&mut schema);
    if let Value::Object(root) = &mut schema {
        root.remove("$schema");
        root.remove("title");
        root.entry("type")
            .or_insert_with(|| Value::String("object".into()));
        root.entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        if !unresolved.is_empty() {
            root.insert("$defs".into(), Value::Object(unresolved));
        }
    } else {
        schema = serde_json::json!({"type": "object", "properties": {}});
    }
    schema
}

fn take_defs(schema: &mut Value) -> Map<String, Value> {
    let mut defs = Map::new();
    if let Value::Object(root) = schema {
        for key in ["$defs", "definitions"] {
            if let Some(Value::Object(found)) = root.remove(key) {
                for (name, def) in found {
                    defs.insert(format!("#/{key}/{name}"), def);
                }
            }
        }
    }
    defs
}

fn inline_refs(
    node: &mut Value,
    defs: &Map<String, Value>,
    stack: &mut Vec<String>,
    unresolved: &mut Map<String, Value>,
) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref").cloned()
                && let Some(def) = defs.get(&reference)
            {
                if stack.contains(&reference) {
                    let name = reference.rsplit('/').next().unwrap_or_default().to_owned();
                    unresolved.insert(name.clone(), def.clone());
                    map.insert("$ref".into(), Value::String(format!("#/$defs/{name}")));
                    return;
                }
                map.remove("$ref");
                if let Value::Object(def_map) = def {
                    for (key, value) in def_map {
                        map.entry(key.clone()).or_insert_with(|| value.clone());
                    }
                }
                stack.push(reference);
                for value in map.values_mut() {
                    inline_refs(value, defs, stack, unresolved);
                }
                stack.pop();
                return;
            }
            for value in map.values_mut() {
                inline_refs(value, defs, stack, unresolved);
            }
        }
        Value::Array(items) => {
            for item in items {
                inline_refs(item, defs, stack, unresolved);
            }
        }
        _ => {}
    }
}

fn strip(node: &mut Value) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(format)) = map.get("format")
                && NON_STANDARD_FORMATS.contains(&format.as_str())
            {
                map.remove("format");
            }
            for value in map.values_mut() {
                strip(value);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(strip),
        _ => {}
    }
}

/// Every parameter (property, at any depth, including inside array items and `anyOf`/`oneOf`
/// branches and referenced definitions) without a non-empty `description`, as slash paths like
/// `options/limit`. Apply it to every registered tool's schema in tests.
pub fn parameters_without_description(schema: &Value) -> Vec<String> {
    let mut missing = Vec::new();
    let mut seen = HashSet::new();
    walk(schema, schema, "", &mut missing, &mut seen);
    missing
}

fn walk(
    root: &Value,
    node: &Value,
    prefix: &str,
    missing: &mut Vec<String>,
    seen: &mut HashSet<String>,
) {
    let Value::Object(map) = node else { return };
    if let Some(Value::String(reference)) = map.get("$ref") {
        if seen.insert(reference.clone())
            && let Some(target) = reference.strip_prefix('#').and_then(|p| root.pointer(p))
        {
            walk(root, target, prefix, missing, seen);
        }
        return;
    }
    if let Some(Value::Object(properties)) = map.get("properties") {
        for (name, property) in properties {
            let path = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            let described = property
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.trim().is_empty());
            if !described {
                missing.push(path.clone());
            }
            walk(root, property, &path, missing, seen);
        }
    }
    if let Some(items) = map.get("items") {
        walk(root, items, prefix, missing, seen);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = map.get(key) {
            for branch in branches {
                walk(root, branch, prefix, missing, seen);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    /// Options of the sample tool.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Options {
        /// Maximum number of lines.
        limit: Option<u32>,
        verbose: bool,
    }

    /// Sample params.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Sample {
        /// The file to read.
        path: String,
        /// Options.
        options: Options,
        tags: Vec<String>,
    }

    #[test]
    fn derived_schemas_are_inlined_object_roots_with_doc_descriptions() {
        let schema = schema_for::<Sample>();
        assert_eq!(schema["type"], "object");
        assert!(schema.get("$schema").is_none());
        assert!(schema.get("$defs").is_none());
        assert_eq!(
            schema["properties"]["path"]["description"],
            "The file to read."
        );
        let limit = &schema["properties"]["options"]["properties"]["limit"];
        assert_eq!(limit["description"], "Maximum number of lines.");
        assert!(limit.get("format").is_none(), "uint32 is not for providers");
    }

    #[test]
    fn checker_reports_every_undescribed_parameter() {
        let schema = schema_for::<Sample>();
        assert_eq!(
            parameters_without_description(&schema),
            vec!["options/verbose".to_owned(), "tags".to_owned()]
        );
    }

    #[test]
    fn checker_follows_refs_and_array_items() {
        let schema = json!({
            "type": "object",
            "properties": {
                "edits": {"description": "Edits.", "type": "array", "items": {"$ref": "#/$defs/Edit"}}
            },
            "$defs": {"Edit": {"type": "object", "properties": {"old": {"type": "string"}}}}
        });
        assert_eq!(parameters_without_description(&schema), vec!["edits/old"]);
    }

    #[test]
    fn cleaning_inlines_refs_and_keeps_recursive_ones_resolvable() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "properties": {
                "edit": {"$ref": "#/$defs/Edit"},
                "tree": {"$ref": "#/$defs/Node"}
            },
            "$defs": {
                "Edit": {"type": "object", "properties": {"old": {"type": "string"}}},
                "Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}
            }
        });
        let clean = clean_for_provider(schema);
        assert_eq!(clean["type"], "object");
        assert_eq!(
            clean["properties"]["edit"]["properties"]["old"]["type"],
            "string"
        );
        assert_eq!(
            clean["properties"]["tree"]["properties"]["child"]["$ref"],
            "#/$defs/Node"
        );
        assert!(clean["$defs"]["Node"].is_object());
        assert!(jsonschema::validator_for(&clean).is_ok());
    }

    #[test]
    fn non_object_roots_become_empty_objects() {
        assert_eq!(
            clean_for_provider(json!(true)),
            json!({"type": "object", "properties": {}})
        );
    }
}
