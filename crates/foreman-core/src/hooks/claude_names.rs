//! What a hook sees of a call, in Claude Code's words, so scripts written for it work unchanged:
//! `tool_name` is `Bash`, `Write`, `Edit`…, an external tool is `mcp__server__tool`, and
//! `tool_input` uses its field names: a file tool's `path` becomes an absolute `file_path`, a
//! search's `path` is absolute, and `bash`'s `timeout_ms` is `timeout`.

use std::path::Path;

use serde_json::{Map, Value};

use crate::slash::tool_names::{claude_field, claude_from_ours, claude_mcp_from_ours};

/// Claude Code's name for our tool `ours` (the one table is [`crate::slash::tool_names`]);
/// `builtin` says whether it is one of ours (an external tool is `mcp__server__tool`).
pub fn claude_name(ours: &str, builtin: bool) -> String {
    match claude_from_ours(ours) {
        Some(claude) => claude.to_owned(),
        None if builtin => ours.to_owned(),
        None => claude_mcp_from_ours(ours),
    }
}

/// `arguments` of our tool `ours` as Claude Code's tool would have them: the fields its tool
/// names otherwise renamed ([`claude_field`]), paths absolute.
pub fn claude_input(ours: &str, arguments: &Value, workspace: &Path) -> Value {
    let Some(object) = arguments.as_object() else {
        return arguments.clone();
    };
    let mut out = Map::new();
    for (key, value) in object {
        let renamed = claude_field(ours, key).unwrap_or(key.as_str());
        let value = match (renamed, value) {
            ("file_path" | "path", Value::String(path)) => Value::String(absolute(workspace, path)),
            _ => value.clone(),
        };
        out.insert(renamed.to_owned(), value);
    }
    Value::Object(out)
}

fn absolute(workspace: &Path, path: &str) -> String {
    let p = Path::new(path);
    if p.is_absolute() {
        path.to_owned()
    } else {
        workspace.join(p).display().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_claude_codes() {
        assert_eq!(claude_name("bash", true), "Bash");
        assert_eq!(claude_name("http_fetch", true), "WebFetch");
        assert_eq!(
            claude_name("attempt_completion", true),
            "attempt_completion"
        );
        assert_eq!(
            claude_name("everything__echo", false),
            "mcp__everything__echo"
        );
    }

    #[test]
    fn inputs_use_claude_codes_fields() {
        let ws = Path::new("/work/app");
        assert_eq!(
            claude_input("write", &json!({"path": "src/a.rs", "content": "x"}), ws),
            json!({"file_path": "/work/app/src/a.rs", "content": "x"})
        );
        assert_eq!(
            claude_input("bash", &json!({"command": "ls", "timeout_ms": 5}), ws),
            json!({"command": "ls", "timeout": 5})
        );
        assert_eq!(
            claude_input("grep", &json!({"pattern": "x", "path": "src"}), ws),
            json!({"pattern": "x", "path": "/work/app/src"})
        );
    }
}
