//! Every built-in tool's schema, as each wire format sends it, has the shape providers accept:
//! an object with described properties, no `$schema`, `$ref` or `$defs`, and only standard
//! formats. OpenAI-compatible servers (llama.cpp, vLLM, Ollama) reject or ignore the rest.

use serde_json::Value;

use super::{BuiltinSession, builtin_tools};
use crate::boundary::WorkspaceBoundary;
use crate::providers::anthropic::request_body as anthropic_body;
use crate::providers::openai::request_body as openai_body;
use crate::providers::{MaxTokensField, Message, ProviderRequest, ToolDefinition};
use crate::tools::ToolSet;
use crate::tools::schema::parameters_without_description;

/// Formats JSON Schema defines (draft 2020-12).
const STANDARD_FORMATS: [&str; 12] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "uuid",
    "regex",
];

fn definitions() -> Vec<ToolDefinition> {
    let dir = tempfile::tempdir().unwrap();
    let boundary = WorkspaceBoundary::new(dir.path()).unwrap();
    let session = BuiltinSession::new(boundary, dir.path().join(".data"));
    ToolSet::new(builtin_tools(&session, true), Vec::new()).definitions()
}

/// Every problem of `schema` (at `at`) a strict provider would have.
fn problems(schema: &Value, at: &str, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for key in ["$schema", "$ref", "$defs", "definitions"] {
                if map.contains_key(key) {
                    out.push(format!("{at}: has `{key}`"));
                }
            }
            if let Some(format) = map.get("format").and_then(Value::as_str)
                && !STANDARD_FORMATS.contains(&format)
            {
                out.push(format!("{at}: non-standard format `{format}`"));
            }
            for (key, value) in map {
                problems(value, &format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                problems(item, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn check(name: &str, schema: &Value) {
    let mut found = Vec::new();
    problems(schema, name, &mut found);
    assert!(found.is_empty(), "{found:#?}");
    assert_eq!(schema["type"], "object", "{name}: {schema}");
    assert!(schema["properties"].is_object(), "{name}: {schema}");
    let undocumented = parameters_without_description(schema);
    assert!(
        undocumented.is_empty(),
        "{name}: {undocumented:?} have no description"
    );
}

#[test]
fn every_builtin_schema_is_clean_in_every_wire_format() {
    let tools = definitions();
    assert_eq!(tools.len(), 12);
    for tool in &tools {
        assert!(
            tool.description.len() > 40,
            "{}: the model gets a real description, not {:?}",
            tool.name,
            tool.description
        );
    }
    let request =
        ProviderRequest::new("m", "system", vec![Message::user("hi")]).with_tools(tools.clone());
    let anthropic = anthropic_body(&request, true);
    let openai = openai_body(&request, MaxTokensField::MaxTokens);
    for (i, tool) in tools.iter().enumerate() {
        let sent = &anthropic["tools"][i];
        assert_eq!(sent["name"], tool.name.as_str());
        check(&tool.name, &sent["input_schema"]);
        let sent = &openai["tools"][i]["function"];
        assert_eq!(sent["name"], tool.name.as_str());
        check(&tool.name, &sent["parameters"]);
    }
}
