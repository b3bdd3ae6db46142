//! What a hook sees of a call, in Claude Code's words, so scripts written for it work unchanged:
//! `tool_name` is `Bash`, `Write`, `Edit`…, an external tool is `mcp__server__tool`, and
//! `tool_input` uses its field names: a file tool's `path` becomes an absolute `file_path`, a
//! search's `path` is absolute, and `bash`'s `timeout_ms` is `timeout`.

use std::path::Path;

use serde_json::{Map, Value};

/// Our built-in tools and Claude Code's names for them.
const NAMES: [(&str, &str); 11] = [
    ("bash", "Bash"),
    ("edit", "Edit"),
    ("multi_edit", "MultiEdit"),
    ("write", "Write"),
    ("read", "Read"),
    ("grep", "Grep"),
    ("glob", "Glob"),
    ("ls", "LS"),
    ("http_fetch", "WebFetch"),
    ("new_task", "Task"),
    ("todo_write", "TodoWrite"),
];

/// Claude Code's name for our tool `ours`; `builtin` says whether it is one of ours (an
/// external tool is `mcp__<our name>`, which is `mcp__server__tool`).
pub fn claude_name(ours: &str, builtin: bool) -> String {
    match NAMES.iter().find(|(o, _)| *o == ours) {
        Some((_, claude)) => (*claude).to_owned(),
        None if builtin => ours.to_owned(),
        None => format!("mcp__{ours}"),
    }
}

/// Our name for Claude Code's `claude` (`Bash` → `bash`, `mcp__s__t` → `s__t`).
pub fn our_name(claude: &str) -> Option<String> {
    if let Some((ours, _)) = NAMES.iter().find(|(_, c)| *c == claude) {
        return Some((*ours).to_owned());
    }
    claude.strip_prefix("mcp__").map(str::to_owned)
}

/// `arguments` of our tool `ours` as Claude Code's tool would have them.
pub fn claude_input(ours: &str, arguments: &Value, workspace: &Path) -> Value {
    let Some(object) = arguments.as_object() else {
        return arguments.clone();
    };
    let mut out = Map::new();
    for (key, value) in object {
        let renamed = match (ours, key.as_str()) {
            ("read" | "write" | "edit" | "multi_edit", "path") => "file_path",
            ("bash", "timeout_ms") => "timeout",
            _ => key.as_str(),
        };
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
    fn names_go_both_ways() {
        assert_eq!(claude_name("bash", true), "Bash");
        assert_eq!(claude_name("http_fetch", true), "WebFetch");
        assert_eq!(claude_name("skill", true), "skill");
        assert_eq!(
            claude_name("everything__echo", false),
            "mcp__everything__echo"
        );
        assert_eq!(our_name("MultiEdit").as_deref(), Some("multi_edit"));
        assert_eq!(
            our_name("mcp__everything__echo").as_deref(),
            Some("everything__echo")
        );
        assert_eq!(our_name("NotebookEdit"), None);
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
