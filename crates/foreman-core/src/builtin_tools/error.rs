//! The errors the built-in tools report to the model, each with a stable code.

use std::path::PathBuf;

use thiserror::Error;

use super::edits::EditFailure;
use super::stale_guard::StaleReadError;
use crate::boundary::{OpenError, PathNotInWorkspace};
use crate::tools::ToolError;

/// A built-in tool failure. The `Display` text is written for the model: it says what went wrong
/// and what to do instead.
#[derive(Debug, Error)]
pub enum BuiltinError {
    /// The path is outside the workspace or otherwise refused by the boundary.
    #[error(transparent)]
    PathNotInWorkspace(#[from] PathNotInWorkspace),
    /// The file or directory does not exist.
    #[error("FILE_NOT_FOUND: {path} does not exist.")]
    NotFound { path: String },
    /// A file was expected but the path is a directory.
    #[error("IS_A_DIRECTORY: {path} is a directory. Use the ls tool to list it.")]
    IsADirectory { path: String },
    /// A directory was expected but the path is a file.
    #[error("NOT_A_DIRECTORY: {path} is a file, not a directory.")]
    NotADirectory { path: String },
    /// The file is too large for this tool.
    #[error(
        "FILE_TOO_LARGE: {path} is {size} bytes; the limit is {limit} bytes. Use grep to find the part you need, or bash with head/tail."
    )]
    TooLarge { path: String, size: u64, limit: u64 },
    /// The file is binary.
    #[error(
        "BINARY_FILE: {path} looks like a binary file ({kind}, {size} bytes) and is not shown."
    )]
    Binary {
        path: String,
        kind: String,
        size: u64,
    },
    /// The stale-read guard refused the change.
    #[error(transparent)]
    StaleRead(#[from] StaleReadError),
    /// An edit could not be applied.
    #[error("{code}: {failure}", code = .0.code(), failure = .0)]
    Edit(#[from] EditFailure),
    /// One edit of several could not be applied, so none was.
    #[error("{}: edit {index} of {count} failed, so no edit was written: {failure}", .failure.code())]
    EditOf {
        index: usize,
        count: usize,
        failure: EditFailure,
    },
    /// The parameters are invalid (the message says which and why).
    #[error("INVALID_PARAMS: {0}")]
    InvalidParams(String),
    /// The search pattern (regex or glob) is invalid.
    #[error("INVALID_PATTERN: {0}")]
    InvalidPattern(String),
    /// A network request failed.
    #[error("HTTP_ERROR: {0}")]
    Http(String),
    /// A redirect was not followed because it left what the request was approved for.
    #[error(
        "REDIRECT_REFUSED: {from} redirected to {to}, which was not followed because {reason}. Fetch that URL directly if it is really needed (it is approved on its own)."
    )]
    RedirectRefused {
        from: String,
        to: String,
        reason: String,
    },
    /// The command could not be put in the sandbox.
    #[error("SANDBOX_UNAVAILABLE: {0}; the command was not run.")]
    Sandbox(String),
    /// The operation was cancelled.
    #[error("CANCELLED: the operation was cancelled.")]
    Cancelled,
    /// Any other I/O error.
    #[error("IO_ERROR: {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl BuiltinError {
    /// The stable code (the prefix of the message).
    pub fn code(&self) -> &'static str {
        match self {
            Self::PathNotInWorkspace(_) => "PATH_NOT_IN_WORKSPACE",
            Self::NotFound { .. } => "FILE_NOT_FOUND",
            Self::IsADirectory { .. } => "IS_A_DIRECTORY",
            Self::NotADirectory { .. } => "NOT_A_DIRECTORY",
            Self::TooLarge { .. } => "FILE_TOO_LARGE",
            Self::Binary { .. } => "BINARY_FILE",
            Self::StaleRead(_) => "STALE_READ",
            Self::Edit(e) | Self::EditOf { failure: e, .. } => e.code(),
            Self::InvalidParams(_) => "INVALID_PARAMS",
            Self::InvalidPattern(_) => "INVALID_PATTERN",
            Self::Http(_) => "HTTP_ERROR",
            Self::RedirectRefused { .. } => "REDIRECT_REFUSED",
            Self::Sandbox(_) => "SANDBOX_UNAVAILABLE",
            Self::Cancelled => "CANCELLED",
            Self::Io { .. } => "IO_ERROR",
        }
    }

    /// Wraps an I/O error, turning "not found" into [`BuiltinError::NotFound`].
    pub fn io(path: &std::path::Path, shown: &str, source: std::io::Error) -> Self {
        match source.kind() {
            std::io::ErrorKind::NotFound => Self::NotFound {
                path: shown.to_string(),
            },
            _ => Self::Io {
                path: path.to_path_buf(),
                source,
            },
        }
    }

    /// Converts an [`OpenError`] for the file shown as `shown`.
    pub fn from_open(err: OpenError, shown: &str) -> Self {
        match err {
            OpenError::Refused(r) => Self::PathNotInWorkspace(r),
            OpenError::Io { path, source } => Self::io(&path, shown, source),
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
    fn every_message_starts_with_its_code_once() {
        let errors = [
            BuiltinError::NotFound { path: "a".into() },
            BuiltinError::IsADirectory { path: "a".into() },
            BuiltinError::NotADirectory { path: "a".into() },
            BuiltinError::TooLarge {
                path: "a".into(),
                size: 2,
                limit: 1,
            },
            BuiltinError::Binary {
                path: "a".into(),
                kind: "png".into(),
                size: 1,
            },
            BuiltinError::InvalidParams("x".into()),
            BuiltinError::InvalidPattern("x".into()),
            BuiltinError::Http("x".into()),
            BuiltinError::RedirectRefused {
                from: "http://a/".into(),
                to: "http://127.0.0.1/".into(),
                reason: "private".into(),
            },
            BuiltinError::Cancelled,
            BuiltinError::Edit(EditFailure::NoMatch { closest: None }),
            BuiltinError::EditOf {
                index: 2,
                count: 3,
                failure: EditFailure::Ambiguous {
                    count: 2,
                    at: vec![(1, 1), (1, 5)],
                },
            },
            BuiltinError::Io {
                path: "a".into(),
                source: std::io::Error::other("x"),
            },
        ];
        for error in errors {
            let text = error.to_string();
            let code = error.code();
            assert!(text.starts_with(&format!("{code}: ")), "{text}");
            assert_eq!(text.matches(code).count(), 1, "{text}");
        }
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
