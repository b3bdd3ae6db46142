//! Turning what a user typed or picked into a workspace folder, with clear refusals.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why a path cannot be opened as a workspace.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum WorkspacePathError {
    #[error("No folder was given.")]
    Empty,
    #[error("The folder {path} does not exist.")]
    NotFound { path: String },
    #[error("{path} is a file, not a folder. Choose the folder that contains it.")]
    NotADirectory { path: String },
    #[error("The folder {path} cannot be read: {reason}")]
    Unreadable { path: String, reason: String },
}

/// A folder that exists, resolved to its canonical absolute path, with a display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceDir {
    pub path: PathBuf,
    pub name: String,
}

impl WorkspaceDir {
    /// Resolves `raw` (relative paths against `cwd`) and checks that it is a readable directory.
    pub fn resolve(raw: &str, cwd: &Path) -> Result<Self, WorkspacePathError> {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Err(WorkspacePathError::Empty);
        }
        let given = Path::new(trimmed);
        let absolute = if given.is_absolute() {
            given.to_path_buf()
        } else {
            cwd.join(given)
        };
        let shown = absolute.display().to_string();
        let meta = match std::fs::metadata(&absolute) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(WorkspacePathError::NotFound { path: shown });
            }
            Err(e) => {
                return Err(WorkspacePathError::Unreadable {
                    path: shown,
                    reason: e.to_string(),
                });
            }
        };
        if !meta.is_dir() {
            return Err(WorkspacePathError::NotADirectory { path: shown });
        }
        let path =
            std::fs::canonicalize(&absolute).map_err(|e| WorkspacePathError::Unreadable {
                path: shown.clone(),
                reason: e.to_string(),
            })?;
        std::fs::read_dir(&path).map_err(|e| WorkspacePathError::Unreadable {
            path: shown,
            reason: e.to_string(),
        })?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Ok(Self { path, name })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_and_absolute_folders() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("my project")).unwrap();
        let ws = WorkspaceDir::resolve("my project", dir.path()).unwrap();
        assert_eq!(ws.name, "my project");
        assert!(ws.path.is_absolute());
        let again = WorkspaceDir::resolve(&ws.path.display().to_string(), Path::new("/")).unwrap();
        assert_eq!(again, ws);
    }

    #[test]
    fn refuses_missing_paths_files_and_empty_input() {
        let dir = tempfile::tempdir().unwrap();
        let missing = WorkspaceDir::resolve("nope", dir.path()).unwrap_err();
        assert!(matches!(missing, WorkspacePathError::NotFound { .. }));
        assert!(missing.to_string().contains("does not exist"));
        std::fs::write(dir.path().join("f.txt"), "x").unwrap();
        let file = WorkspaceDir::resolve("f.txt", dir.path()).unwrap_err();
        assert!(matches!(file, WorkspacePathError::NotADirectory { .. }));
        assert_eq!(
            WorkspaceDir::resolve("  ", dir.path()),
            Err(WorkspacePathError::Empty)
        );
    }
}
