use std::path::{Path, PathBuf};

use thiserror::Error;

/// What can go wrong with the database.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error(
        "The database {path} is damaged or is not a Foreman database ({reason}). \
         It has not been changed; move it aside to start with a fresh one."
    )]
    Corrupt { path: PathBuf, reason: String },
    #[error("The database {path} was written by a newer version of Foreman ({reason}).")]
    TooNew { path: PathBuf, reason: String },
    #[error("Cannot access {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("Database error in {path}: {reason}")]
    Database { path: PathBuf, reason: String },
}

impl StoreError {
    pub(crate) fn from_sqlx(path: &Path, err: sqlx::Error) -> Self {
        let reason = err.to_string();
        let lowered = reason.to_lowercase();
        let corrupt = lowered.contains("not a database")
            || lowered.contains("malformed")
            || lowered.contains("file is encrypted");
        if corrupt {
            Self::Corrupt {
                path: path.to_path_buf(),
                reason,
            }
        } else {
            Self::Database {
                path: path.to_path_buf(),
                reason,
            }
        }
    }

    pub(crate) fn from_migrate(path: &Path, err: sqlx::migrate::MigrateError) -> Self {
        match err {
            sqlx::migrate::MigrateError::VersionMissing(v) => Self::TooNew {
                path: path.to_path_buf(),
                reason: format!("it has migration {v}, which this build does not know"),
            },
            sqlx::migrate::MigrateError::Execute(e) => Self::from_sqlx(path, e),
            other => Self::Database {
                path: path.to_path_buf(),
                reason: other.to_string(),
            },
        }
    }

    /// The file this error is about, so a UI can name it.
    pub fn path(&self) -> &Path {
        match self {
            Self::Corrupt { path, .. }
            | Self::TooNew { path, .. }
            | Self::Io { path, .. }
            | Self::Database { path, .. } => path,
        }
    }
}
