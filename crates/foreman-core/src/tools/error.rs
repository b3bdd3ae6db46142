//! A failed call: a stable code, a message, suggestions for the model's next step, and for bad
//! parameters every problem with its JSON path. The model gets it as
//! `{"ok": false, "code", "error", "suggestions", "problems"}`; the user reads the message.

use serde::{Deserialize, Serialize};
use serde_json::json;
use thiserror::Error;

use crate::protocol::CallError;

/// Codes the runtime itself gives (tools add their own, such as `FILE_NOT_FOUND`).
pub mod codes {
    pub const INVALID_PARAMS: &str = "INVALID_PARAMS";
    pub const UNKNOWN_TOOL: &str = "UNKNOWN_TOOL";
    pub const NOT_OFFERED: &str = "NOT_OFFERED";
    pub const TIMEOUT: &str = "TIMEOUT";
    pub const CANCELLED: &str = "CANCELLED";
    pub const TOOL_UNAVAILABLE: &str = "TOOL_UNAVAILABLE";
    pub const EXECUTION_FAILED: &str = "EXECUTION_FAILED";
    /// An external tool said its call failed (MCP `isError`).
    pub const TOOL_ERROR: &str = "TOOL_ERROR";
}

/// One validation problem: where in the arguments (a JSON pointer, `""` for the root) and what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamProblem {
    pub path: String,
    pub message: String,
}

impl ParamProblem {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ParamProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = if self.path.is_empty() {
            "(root)"
        } else {
            &self.path
        };
        write!(f, "{path}: {}", self.message)
    }
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{code}: {message}")]
pub struct ToolError {
    pub code: String,
    pub message: String,
    pub suggestions: Vec<String>,
    pub problems: Vec<ParamProblem>,
}

impl ToolError {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
            suggestions: Vec::new(),
            problems: Vec::new(),
        }
    }

    #[must_use]
    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestions.push(suggestion.into());
        self
    }

    /// Parameters that failed validation: every problem, each with its path.
    pub fn invalid_params(problems: Vec<ParamProblem>) -> Self {
        let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
        Self {
            code: codes::INVALID_PARAMS.into(),
            message: format!("Invalid parameters: {}", listed.join("; ")),
            suggestions: vec!["Fix the listed parameters and call the tool again.".into()],
            problems,
        }
    }

    /// A name no tool has, with every tool that exists.
    pub fn unknown_tool(name: &str, available: &[String]) -> Self {
        Self::new(
            codes::UNKNOWN_TOOL,
            format!(
                "There is no tool named `{name}`. Available tools: {}.",
                available.join(", ")
            ),
        )
        .with_suggestion("Call one of the available tools by its exact name.")
    }

    /// What the model reads: the structured form as JSON text.
    pub fn for_model(&self) -> String {
        let mut value = json!({
            "ok": false,
            "code": self.code,
            "error": self.message,
        });
        if !self.suggestions.is_empty() {
            value["suggestions"] = json!(self.suggestions);
        }
        if !self.problems.is_empty() {
            value["problems"] = json!(self.problems);
        }
        value.to_string()
    }

    /// What the user reads.
    pub fn for_user(&self) -> CallError {
        CallError {
            code: self.code.clone(),
            message: self.message.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_params_list_every_problem_with_its_path() {
        let error = ToolError::invalid_params(vec![
            ParamProblem::new("/limit", "\"many\" is not of type \"integer\""),
            ParamProblem::new("", "\"path\" is a required property"),
        ]);
        assert!(error.message.contains("/limit: "), "{}", error.message);
        assert!(
            error.message.contains("(root): \"path\""),
            "{}",
            error.message
        );
        let model: serde_json::Value = serde_json::from_str(&error.for_model()).unwrap();
        assert_eq!(model["ok"], false);
        assert_eq!(model["code"], "INVALID_PARAMS");
        assert_eq!(model["problems"][0]["path"], "/limit");
    }
}
