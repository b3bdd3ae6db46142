//! A failed call: a stable code, a message, suggestions for the model's next step, and for bad
//! parameters every problem with its JSON path. The model gets it as
//! `{"ok": false, "code", "error", "suggestions", "problems"}`; the user reads the message.

use serde::{Deserialize, Serialize};
use serde_json::json;
use thiserror::Error;

use crate::builtin_tools::BuiltinError;
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

impl From<BuiltinError> for ToolError {
    fn from(error: BuiltinError) -> Self {
        let code = error.code();
        let text = error.to_string();
        let message = text
            .strip_prefix(code)
            .and_then(|rest| rest.strip_prefix(": "))
            .unwrap_or(&text)
            .to_owned();
        let suggestion = match &error {
            BuiltinError::PathNotInWorkspace(r) => Some(format!(
                "Use a path inside the workspace root {}.",
                r.root.display()
            )),
            BuiltinError::NotFound { .. } => Some("Check the path with ls or glob.".to_owned()),
            _ => None,
        };
        let error = Self::new(code, message);
        match suggestion {
            Some(s) => error.with_suggestion(s),
            None => error,
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

    #[test]
    fn a_builtin_error_keeps_its_code_once() {
        let error = ToolError::from(BuiltinError::NotFound {
            path: "a.txt".into(),
        });
        assert_eq!(error.code, "FILE_NOT_FOUND");
        assert_eq!(error.message, "a.txt does not exist.");
        assert_eq!(error.to_string().matches("FILE_NOT_FOUND").count(), 1);
        assert_eq!(error.for_user().message, "a.txt does not exist.");
    }
}
