//! What can go wrong with a checkpoint: the shadow repository, the disk, a rewind refused.

use std::path::{Path, PathBuf};

/// Why a checkpoint or a rewind failed; nothing in the workspace is lost.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("the checkpoint repository failed: {0}")]
    Repository(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the workspace has nothing to record")]
    Empty,
    #[error("there is no checkpoint from before message {0}")]
    NoCheckpoint(u32),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
}

impl CheckpointError {
    pub(crate) fn repo(error: impl std::fmt::Display) -> Self {
        Self::Repository(error.to_string())
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
