//! An external tool as its server describes it.

use serde_json::Value;

/// One tool of a server (MCP) or of the discovery command.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteTool {
    /// The name the server knows it by.
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments.
    pub input_schema: Value,
    /// `readOnlyHint`: runs freely in `ask` mode.
    pub read_only: bool,
    /// `destructiveHint`: always asks.
    pub destructive: bool,
}

fn object_schema(schema: Option<&Value>) -> Value {
    match schema {
        Some(v @ Value::Object(_)) => v.clone(),
        _ => serde_json::json!({"type": "object", "properties": {}}),
    }
}

impl RemoteTool {
    /// From an MCP `Tool` (as JSON); `None` without a name, and for tools that can only run as
    /// tasks (`execution.taskSupport: "required"`), which this client does not drive.
    pub fn from_mcp(tool: &Value) -> Option<Self> {
        let task_only = tool
            .get("execution")
            .and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str)
            == Some("required");
        if task_only {
            return None;
        }
        let hint = |k: &str| {
            tool.get("annotations")
                .and_then(|a| a.get(k))
                .and_then(Value::as_bool)
                == Some(true)
        };
        Some(Self {
            name: tool.get("name")?.as_str()?.to_owned(),
            description: tool
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            input_schema: object_schema(tool.get("inputSchema")),
            read_only: hint("readOnlyHint"),
            destructive: hint("destructiveHint"),
        })
    }

    /// From a discovery function declaration (`name`, `description`, `parameters`), or why it is
    /// not one.
    pub fn from_declaration(decl: &Value) -> Result<Self, DeclarationError> {
        let name = decl
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .ok_or(DeclarationError::NoName)?;
        let named = |what| DeclarationError::Field {
            name: name.to_owned(),
            what,
        };
        let description = match decl.get("description") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(named("`description` is not a string".into())),
        };
        let input_schema = match decl.get("parameters") {
            None | Some(Value::Null) => object_schema(None),
            Some(v @ Value::Object(_)) => {
                jsonschema::validator_for(v)
                    .map_err(|e| named(format!("`parameters` is not a valid JSON Schema: {e}")))?;
                v.clone()
            }
            Some(_) => return Err(named("`parameters` is not an object".into())),
        };
        Ok(Self {
            name: name.to_owned(),
            description,
            input_schema,
            read_only: false,
            destructive: false,
        })
    }
}

/// Why a discovery declaration is not a tool.
#[derive(Debug, thiserror::Error)]
pub enum DeclarationError {
    #[error("it has no `name` string")]
    NoName,
    #[error("`{name}`: {what}")]
    Field { name: String, what: String },
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn hints_from_annotations() {
        let t = RemoteTool::from_mcp(&json!({
            "name": "write_file", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": false, "destructiveHint": true}
        }))
        .unwrap();
        assert!(!t.read_only && t.destructive);
        let r = RemoteTool::from_mcp(&json!({"name": "r", "annotations": {"readOnlyHint": true}}))
            .unwrap();
        assert!(r.read_only && !r.destructive);
        assert_eq!(r.input_schema["type"], "object");
        assert!(RemoteTool::from_mcp(&json!({"description": "no name"})).is_none());
        let task = json!({"name": "t", "execution": {"taskSupport": "required"}});
        assert!(RemoteTool::from_mcp(&task).is_none());
    }

    #[test]
    fn declarations_are_checked() {
        let ok = RemoteTool::from_declaration(&json!({
            "name": "lint", "description": "Lint", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}
        }))
        .unwrap();
        assert_eq!(ok.name, "lint");
        assert!(RemoteTool::from_declaration(&json!({"description": "x"})).is_err());
        let bad = RemoteTool::from_declaration(&json!({"name": "b", "parameters": {"type": 12}}))
            .unwrap_err()
            .to_string();
        assert!(bad.contains("not a valid JSON Schema"), "{bad}");
        assert!(RemoteTool::from_declaration(&json!({"name": "c", "parameters": []})).is_err());
    }
}
