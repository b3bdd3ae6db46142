//! Tool errors: one kind enum shared by the model channel and the UI channel.

use serde::{Deserialize, Serialize};
use thiserror::Error;
use ts_rs::TS;

/// Why a tool call failed. Serialised as SCREAMING_SNAKE codes (`PATH_NOT_IN_WORKSPACE`); the
/// two manager-level failures use the codes the model is told about: `INVALID_TOOL_PARAMS` and
/// `TOOL_NOT_REGISTERED`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ToolErrorKind {
    /// The arguments did not match the schema, even after repair.
    #[serde(rename = "INVALID_TOOL_PARAMS")]
    InvalidParams,
    /// No tool of that name is registered.
    #[serde(rename = "TOOL_NOT_REGISTERED")]
    NotRegistered,
    /// The tool failed, panicked, or finished without a result.
    ExecutionFailed,
    /// The tool ran longer than its timeout.
    Timeout,
    /// The call was cancelled (by the person or the loop).
    Cancelled,
    /// A path points outside the workspace root.
    PathNotInWorkspace,
    /// A file the tool needs does not exist.
    FileNotFound,
    /// Writing a file failed.
    FileWriteFailure,
    /// The operation was refused (by the OS or by the approval policy).
    PermissionDenied,
    /// A shell command could not be started or failed to run.
    ShellExecuteError,
    /// Anything not covered above.
    Unknown,
}

impl ToolErrorKind {
    /// The wire code, e.g. `PATH_NOT_IN_WORKSPACE`.
    pub fn code(self) -> &'static str {
        match self {
            Self::InvalidParams => "INVALID_TOOL_PARAMS",
            Self::NotRegistered => "TOOL_NOT_REGISTERED",
            Self::ExecutionFailed => "EXECUTION_FAILED",
            Self::Timeout => "TIMEOUT",
            Self::Cancelled => "CANCELLED",
            Self::PathNotInWorkspace => "PATH_NOT_IN_WORKSPACE",
            Self::FileNotFound => "FILE_NOT_FOUND",
            Self::FileWriteFailure => "FILE_WRITE_FAILURE",
            Self::PermissionDenied => "PERMISSION_DENIED",
            Self::ShellExecuteError => "SHELL_EXECUTE_ERROR",
            Self::Unknown => "UNKNOWN",
        }
    }
}

impl std::fmt::Display for ToolErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// A tool failure as both the model and the person see it: a kind, a plain message, optional
/// suggestions for the model's next step and optional structured details (e.g. the list of
/// parameter problems).
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize, TS)]
#[error("{kind}: {message}")]
pub struct ToolError {
    pub kind: ToolErrorKind,
    pub message: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub suggestions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub details: Option<serde_json::Value>,
}

impl ToolError {
    /// A failure of `kind` with `message`.
    pub fn new(kind: ToolErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            suggestions: Vec::new(),
            details: None,
        }
    }

    /// Shorthand for [`ToolErrorKind::ExecutionFailed`].
    pub fn execution_failed(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::ExecutionFailed, message)
    }

    /// Adds a suggestion for the model.
    #[must_use]
    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestions.push(suggestion.into());
        self
    }

    /// Attaches structured details.
    #[must_use]
    pub fn with_details(mut self, details: serde_json::Value) -> Self {
        self.details = Some(details);
        self
    }

    /// Parameters that failed validation, with one problem per path.
    pub fn invalid_params(problems: &[ParamProblem]) -> Self {
        let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
        let message = format!("Invalid tool parameters: {}", listed.join("; "));
        let details = serde_json::to_value(problems).unwrap_or(serde_json::Value::Null);
        Self::new(ToolErrorKind::InvalidParams, message)
            .with_details(details)
            .with_suggestion("Fix the listed parameters and call the tool again.")
    }

    /// The error the model gets for an unknown tool name, listing the available ones.
    pub fn not_registered(name: &str, available: &[String]) -> Self {
        Self::new(
            ToolErrorKind::NotRegistered,
            format!("No tool named `{name}` is registered."),
        )
        .with_suggestion(format!(
            "Use one of the available tools: {}.",
            available.join(", ")
        ))
        .with_details(serde_json::json!({ "available_tools": available }))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_serialise_as_their_codes() {
        for kind in [
            ToolErrorKind::InvalidParams,
            ToolErrorKind::NotRegistered,
            ToolErrorKind::ExecutionFailed,
            ToolErrorKind::Timeout,
            ToolErrorKind::Cancelled,
            ToolErrorKind::PathNotInWorkspace,
            ToolErrorKind::FileNotFound,
            ToolErrorKind::FileWriteFailure,
            ToolErrorKind::PermissionDenied,
            ToolErrorKind::ShellExecuteError,
            ToolErrorKind::Unknown,
        ] {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, serde_json::Value::String(kind.code().to_owned()));
        }
        assert_eq!(
            ToolErrorKind::PathNotInWorkspace.code(),
            "PATH_NOT_IN_WORKSPACE"
        );
    }

    #[test]
    fn invalid_params_lists_every_problem_with_its_path() {
        let error = ToolError::invalid_params(&[
            ParamProblem::new("/path", "expected a string"),
            ParamProblem::new("", "missing property `content`"),
        ]);
        assert_eq!(error.kind, ToolErrorKind::InvalidParams);
        assert!(error.message.contains("/path: expected a string"));
        assert!(error.message.contains("(root): missing property `content`"));
        assert_eq!(error.details.unwrap()[0]["path"], "/path");
    }

    #[test]
    fn not_registered_names_the_available_tools() {
        let error = ToolError::not_registered("reed", &["read".into(), "write".into()]);
        assert_eq!(error.kind, ToolErrorKind::NotRegistered);
        assert!(error.suggestions[0].contains("read, write"));
    }

    #[test]
    fn typescript_bindings_are_current() {
        crate::bindings::assert_bindings_current::<ToolErrorKind>();
        crate::bindings::assert_bindings_current::<ToolError>();
    }
}
