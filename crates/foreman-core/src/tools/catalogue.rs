//! What the model sees of the tools: definitions for native function calling and a Markdown
//! catalogue for prompts.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use super::kind::ToolKind;

/// One tool as offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolDefinition {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    pub kind: ToolKind,
    pub description: String,
    /// The cleaned parameter schema (object root, refs inlined).
    pub input_schema: Value,
}

/// Renders the `# Available Tools` catalogue of `definitions`, in the given order.
pub fn render_catalogue(definitions: &[ToolDefinition]) -> String {
    let mut out = String::from("# Available Tools\n");
    for definition in definitions {
        let _ = write!(out, "\n## {}\n", definition.name);
        if let Some(display_name) = &definition.display_name {
            let _ = writeln!(out, "Display Name: {display_name}");
        }
        let _ = writeln!(out, "Description: {}", definition.description.trim());
        let parameters = parameter_lines(&definition.input_schema);
        if parameters.is_empty() {
            out.push_str("Parameters: none\n");
        } else {
            out.push_str("Parameters:\n");
            for line in parameters {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    out
}

fn parameter_lines(schema: &Value) -> Vec<String> {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Vec::new();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    properties
        .iter()
        .map(|(name, property)| {
            let mut line = format!("- {name}: {}", type_name(property));
            if required.contains(&name.as_str()) {
                line.push_str(" (required)");
            }
            if let Some(description) = property.get("description").and_then(Value::as_str) {
                let one_line = description.split_whitespace().collect::<Vec<_>>().join(" ");
                let _ = write!(line, " - {one_line}");
            }
            line
        })
        .collect()
}

/// A short human type like `string`, `integer`, `array of string`, `"a" | "b"`.
fn type_name(schema: &Value) -> String {
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" | ");
    }
    let base = match schema.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect::<Vec<_>>()
            .join(" | "),
        _ => {
            let branches = schema
                .get("anyOf")
                .or_else(|| schema.get("oneOf"))
                .and_then(Value::as_array);
            match branches {
                Some(branches) => branches
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"))
                    .map(type_name)
                    .collect::<Vec<_>>()
                    .join(" | "),
                None => "any".to_owned(),
            }
        }
    };
    if base == "array"
        && let Some(items) = schema.get("items")
    {
        return format!("array of {}", type_name(items));
    }
    base
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn catalogue_lists_tools_with_typed_parameters() {
        let definitions = [
            ToolDefinition {
                name: "read".into(),
                display_name: Some("Read file".into()),
                kind: ToolKind::Read,
                description: "Reads a file.".into(),
                input_schema: json!({
                    "type": "object",
                    "properties": {
                        "globs": {"type": "array", "items": {"type": "string"}, "description": "Filters."},
                        "limit": {"type": ["integer", "null"], "description": "Max lines."},
                        "mode": {"enum": ["a", "b"], "description": "Mode."},
                        "path": {"type": "string", "description": "The file to read."}
                    },
                    "required": ["path"]
                }),
            },
            ToolDefinition {
                name: "done".into(),
                display_name: None,
                kind: ToolKind::Think,
                description: "Ends.".into(),
                input_schema: json!({"type": "object", "properties": {}}),
            },
        ];
        assert_eq!(
            render_catalogue(&definitions),
            "# Available Tools\n\
             \n## read\n\
             Display Name: Read file\n\
             Description: Reads a file.\n\
             Parameters:\n\
             - globs: array of string - Filters.\n\
             - limit: integer - Max lines.\n\
             - mode: \"a\" | \"b\" - Mode.\n\
             - path: string (required) - The file to read.\n\
             \n## done\n\
             Description: Ends.\n\
             Parameters: none\n"
        );
    }
}
