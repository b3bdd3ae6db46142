//! The model channel: what the model sees for a call on its next turn.

use serde_json::{Value, json};

use super::error::ToolError;

/// The result of one tool call as the model sees it. A tool sets it with
/// [`ToolContext::set_result`](super::ToolContext::set_result); the manager delivers exactly one
/// per call id.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolResult {
    /// Plain text.
    Text(String),
    /// Structured JSON.
    Json(Value),
    /// A failure, shown to the model as `{ok: false, code, error, suggestions}`.
    Error(ToolError),
}

impl ToolResult {
    /// Shorthand for [`ToolResult::Text`].
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    /// Whether this result reports a failure.
    pub fn is_error(&self) -> bool {
        matches!(self, Self::Error(_))
    }

    /// The error, if this result is one.
    pub fn error(&self) -> Option<&ToolError> {
        match self {
            Self::Error(e) => Some(e),
            _ => None,
        }
    }

    /// The JSON value sent to the model (`Text` becomes a JSON string).
    pub fn to_model_value(&self) -> Value {
        match self {
            Self::Text(text) => Value::String(text.clone()),
            Self::Json(value) => value.clone(),
            Self::Error(error) => {
                let mut out = json!({
                    "ok": false,
                    "code": error.kind.code(),
                    "error": error.message,
                    "suggestions": error.suggestions,
                });
                if let (Some(details), Value::Object(map)) = (&error.details, &mut out) {
                    map.insert("details".into(), details.clone());
                }
                out
            }
        }
    }

    /// The text sent to providers that take tool results as strings.
    pub fn to_model_text(&self) -> String {
        match self {
            Self::Text(text) => text.clone(),
            other => other.to_model_value().to_string(),
        }
    }
}

impl From<ToolError> for ToolResult {
    fn from(error: ToolError) -> Self {
        Self::Error(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::ToolErrorKind;

    #[test]
    fn errors_are_structured_for_the_model() {
        let result = ToolResult::from(
            ToolError::new(ToolErrorKind::FileNotFound, "src/nope.rs does not exist")
                .with_suggestion("List the directory first."),
        );
        assert!(result.is_error());
        assert_eq!(
            result.to_model_value(),
            json!({
                "ok": false,
                "code": "FILE_NOT_FOUND",
                "error": "src/nope.rs does not exist",
                "suggestions": ["List the directory first."],
            })
        );
    }

    #[test]
    fn text_stays_text_and_json_stays_json() {
        assert_eq!(ToolResult::text("hi").to_model_text(), "hi");
        let json = ToolResult::Json(json!({"lines": 3}));
        assert_eq!(json.to_model_text(), r#"{"lines":3}"#);
        assert!(!json.is_error());
    }
}
