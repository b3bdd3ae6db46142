//! What can go wrong opening a checked path.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::boundary::error::PathNotInWorkspace;

/// Failure to open a checked path.
#[derive(Debug, Error)]
pub enum OpenError {
    /// The opened object is not inside the workspace (it was swapped for a link, etc.).
    #[error(transparent)]
    Refused(#[from] PathNotInWorkspace),
    /// An ordinary I/O error (not found, permission denied, …).
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

pub(super) fn io_err(path: &Path, err: impl Into<std::io::Error>) -> OpenError {
    OpenError::Io {
        path: path.to_path_buf(),
        source: err.into(),
    }
}
