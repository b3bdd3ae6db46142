//! Finding the tool call in a text-protocol answer.
//!
//! The model was asked for one JSON object `{"action": "<tool>", ...params}`; anything else is a
//! direct answer. Candidates are tried in order: the bare text; a fenced ```` ```json ```` block; any
//! fenced block; the outermost `{…}`. Each candidate is parsed as-is first and, only if that fails,
//! again after repairing illegal escapes (`\;`, `\:` and any `\X` JSON does not allow become `\\X`),
//! which models produce when they write regexes or Windows paths.

use serde_json::{Map, Value};

/// A tool call found in model text.
#[derive(Debug, Clone, PartialEq)]
pub struct TextCall {
    pub action: String,
    /// Every field but `action`.
    pub params: Map<String, Value>,
}

/// The tool call in `text`, or `None` when the text is a direct answer.
pub fn extract_call(text: &str) -> Option<TextCall> {
    candidates(text).into_iter().find_map(parse_call)
}

fn candidates(text: &str) -> Vec<&str> {
    let mut found = vec![text.trim()];
    let fences = fenced_blocks(text);
    found.extend(
        fences
            .iter()
            .filter(|(lang, _)| lang.eq_ignore_ascii_case("json"))
            .map(|(_, body)| *body),
    );
    found.extend(fences.iter().map(|(_, body)| *body));
    if let (Some(start), Some(end)) = (text.find('{'), text.rfind('}'))
        && start < end
    {
        found.push(&text[start..=end]);
    }
    found
}

/// `(language, body)` of every complete ``` fenced block.
fn fenced_blocks(text: &str) -> Vec<(&str, &str)> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let Some(line_end) = after.find('\n') else {
            break;
        };
        let lang = after[..line_end].trim();
        let body_and_rest = &after[line_end + 1..];
        let Some(close) = body_and_rest.find("```") else {
            break;
        };
        blocks.push((lang, body_and_rest[..close].trim()));
        rest = &body_and_rest[close + 3..];
    }
    blocks
}

fn parse_call(candidate: &str) -> Option<TextCall> {
    if !candidate.starts_with('{') {
        return None;
    }
    let value = serde_json::from_str::<Value>(candidate)
        .ok()
        .or_else(|| serde_json::from_str::<Value>(&repair_escapes(candidate)).ok())?;
    let Value::Object(mut params) = value else {
        return None;
    };
    let Some(Value::String(action)) = params.remove("action") else {
        return None;
    };
    Some(TextCall { action, params })
}

/// Doubles every backslash that does not start a valid JSON escape.
pub fn repair_escapes(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).copied();
        let valid = match next {
            Some('"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't') => true,
            Some('u') => chars
                .get(i + 2..i + 6)
                .is_some_and(|hex| hex.iter().all(char::is_ascii_hexdigit)),
            _ => false,
        };
        if valid {
            out.push('\\');
            if let Some(next) = next {
                out.push(next);
            }
            i += 2;
        } else {
            out.push_str("\\\\");
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(action: &str, params: Value) -> Option<TextCall> {
        let Value::Object(params) = params else {
            panic!("params must be an object");
        };
        Some(TextCall {
            action: action.into(),
            params,
        })
    }

    #[test]
    fn bare_json_is_a_call() {
        assert_eq!(
            extract_call(r#"  {"action": "read_file", "path": "a.txt"} "#),
            call("read_file", json!({"path": "a.txt"}))
        );
    }

    #[test]
    fn json_fence_wins_over_other_fences() {
        let text = "Let me look.\n```text\n{\"action\": \"wrong\"}\n```\nNow:\n```json\n{\"action\": \"list_dir\", \"path\": \".\"}\n```\n";
        assert_eq!(extract_call(text), call("list_dir", json!({"path": "."})));
    }

    #[test]
    fn any_fence_then_outermost_braces() {
        let fenced = "I will search.\n```\n{\"action\": \"grep\", \"pattern\": \"fn main\"}\n```";
        assert_eq!(
            extract_call(fenced),
            call("grep", json!({"pattern": "fn main"}))
        );
        let inline = "Sure: {\"action\": \"run\", \"args\": {\"cmd\": \"ls\"}} done.";
        assert_eq!(
            extract_call(inline),
            call("run", json!({"args": {"cmd": "ls"}}))
        );
    }

    #[test]
    fn illegal_escapes_are_repaired_only_when_needed() {
        let text = r#"{"action": "grep", "pattern": "a\;b\:c\d+", "path": "C:\src"}"#;
        assert_eq!(
            extract_call(text),
            call(
                "grep",
                json!({"pattern": "a\\;b\\:c\\d+", "path": "C:\\src"})
            )
        );
        // Valid escapes are kept as they are.
        let valid = r#"{"action": "write", "content": "line\n\"q\" \u00e9 \\"}"#;
        assert_eq!(
            extract_call(valid),
            call("write", json!({"content": "line\n\"q\" é \\"}))
        );
        assert_eq!(repair_escapes(r"\u12G4 \\ \x"), r"\\u12G4 \\ \\x");
    }

    #[test]
    fn plain_text_and_json_without_action_are_answers() {
        assert_eq!(extract_call("The answer is 42."), None);
        assert_eq!(extract_call(r#"{"result": 42}"#), None);
        assert_eq!(extract_call("Use a map like {a: 1}."), None);
        assert_eq!(extract_call(r#"{"action": 7}"#), None);
    }
}
