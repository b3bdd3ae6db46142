//! Finishing a streamed tool call: from raw argument text to [`ToolArguments`].
//!
//! Both native adapters accumulate a call's `arguments` fragments and judge them here once the
//! call is over. Empty text (a call with no parameters, e.g. Anthropic's lone `partial_json: ""`)
//! becomes `{}`. Text that is valid so far but ends early is *incomplete*: if the model stopped
//! because of its output limit the call is [`ToolArguments::Truncated`], otherwise it is
//! [`ToolArguments::Invalid`]. Syntax errors are `Invalid` with a message the model can act on.

use serde_json::Value;

use super::event::{StopReason, ToolArguments};

/// How a finished call's argument text parses.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ArgumentsVerdict {
    Complete(Value),
    /// Valid JSON so far, but it ends early.
    Incomplete,
    Invalid(String),
}

/// Judges a call's complete argument text.
pub(crate) fn judge_arguments(raw: &str) -> ArgumentsVerdict {
    if raw.trim().is_empty() {
        return ArgumentsVerdict::Complete(Value::Object(serde_json::Map::new()));
    }
    match serde_json::from_str::<Value>(raw) {
        Ok(value @ Value::Object(_)) => ArgumentsVerdict::Complete(value),
        Ok(other) => ArgumentsVerdict::Invalid(format!(
            "the tool arguments must be a JSON object, got {}",
            json_kind(&other)
        )),
        Err(err) if err.classify() == serde_json::error::Category::Eof => {
            ArgumentsVerdict::Incomplete
        }
        Err(err) => ArgumentsVerdict::Invalid(format!(
            "the tool arguments are not valid JSON ({err}); send one JSON object"
        )),
    }
}

/// The final [`ToolArguments`] of a call, knowing why the model stopped (if it is known yet).
pub(crate) fn finish_arguments(raw: &str, stop: Option<&StopReason>) -> ToolArguments {
    match judge_arguments(raw) {
        ArgumentsVerdict::Complete(value) => ToolArguments::Parsed(value),
        ArgumentsVerdict::Incomplete if stop == Some(&StopReason::MaxTokens) => {
            ToolArguments::Truncated {
                raw: raw.to_string(),
            }
        }
        ArgumentsVerdict::Incomplete => ToolArguments::Invalid {
            raw: raw.to_string(),
            message: "the tool arguments end before the JSON object is complete".to_string(),
        },
        ArgumentsVerdict::Invalid(message) => ToolArguments::Invalid {
            raw: raw.to_string(),
            message,
        },
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_arguments_become_an_empty_object() {
        assert_eq!(finish_arguments("", None), ToolArguments::Parsed(json!({})));
        assert_eq!(
            finish_arguments("  ", None),
            ToolArguments::Parsed(json!({}))
        );
    }

    #[test]
    fn incomplete_json_is_truncated_only_at_max_tokens() {
        let raw = r#"{"path": "src/ma"#;
        assert_eq!(judge_arguments(raw), ArgumentsVerdict::Incomplete);
        assert!(finish_arguments(raw, Some(&StopReason::MaxTokens)).is_truncated());
        assert!(matches!(
            finish_arguments(raw, Some(&StopReason::ToolUse)),
            ToolArguments::Invalid { .. }
        ));
    }

    #[test]
    fn syntax_errors_and_non_objects_are_invalid() {
        let ToolArguments::Invalid { message, raw } = finish_arguments("{\"a\" 1}", None) else {
            panic!("expected invalid");
        };
        assert!(message.contains("not valid JSON"), "{message}");
        assert_eq!(raw, "{\"a\" 1}");
        let ToolArguments::Invalid { message, .. } = finish_arguments("[1]", None) else {
            panic!("expected invalid");
        };
        assert!(message.contains("an array"));
        // Even at max_tokens, a syntax error is not a truncation.
        assert!(!finish_arguments("{]", Some(&StopReason::MaxTokens)).is_truncated());
    }
}
