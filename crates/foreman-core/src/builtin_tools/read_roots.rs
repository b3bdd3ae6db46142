//! The folders `read` may reach besides the workspace: the skills' folders found when the session
//! started (a user's skill lives in `~/.claude/skills/`, outside every workspace), read-only.
//!
//! Only `read` asks here; the other file tools, `ls`, `glob`, `grep` and commands keep the
//! workspace's jail. Each folder is a [`WorkspaceBoundary`] of its own, so a path is resolved and
//! opened in it with the same checks (links followed component by component, compared by
//! components, re-checked through the opened handle). A folder that would open more than a
//! skill (the root, the home folder, or a folder above it) is not taken.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::boundary::{PathNotInWorkspace, WorkspaceBoundary};

/// Read-only folders outside the workspace. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct ReadRoots {
    roots: Arc<Vec<WorkspaceBoundary>>,
}

/// A path `read` may open, in the boundary it was resolved in.
#[derive(Debug)]
pub struct Readable<'a> {
    pub boundary: &'a WorkspaceBoundary,
    pub path: PathBuf,
    /// How it is named to the model and the user: relative in the workspace, absolute outside.
    pub shown: String,
}

impl ReadRoots {
    /// The folders `dirs` (skill folders), without those that do not exist and those that hold
    /// `home` or `/`.
    pub fn new(dirs: impl IntoIterator<Item = PathBuf>, home: Option<&Path>) -> Self {
        let home = home.and_then(|h| h.canonicalize().ok());
        let roots = dirs
            .into_iter()
            .filter_map(|dir| WorkspaceBoundary::new(&dir).ok())
            .filter(|b| b.root().parent().is_some())
            .filter(|b| {
                !home
                    .as_deref()
                    .is_some_and(|home| home.starts_with(b.root()))
            })
            .collect();
        Self {
            roots: Arc::new(roots),
        }
    }

    /// Resolves `raw` for reading: in `workspace`, or else, when it is absolute, in one of the
    /// folders; the workspace's refusal otherwise.
    pub fn resolve<'a>(
        &'a self,
        workspace: &'a WorkspaceBoundary,
        raw: &str,
    ) -> Result<Readable<'a>, PathNotInWorkspace> {
        let refused = match workspace.resolve(raw) {
            Ok(path) => {
                let shown = workspace.display_relative(&path);
                return Ok(Readable {
                    boundary: workspace,
                    path,
                    shown,
                });
            }
            Err(refused) => refused,
        };
        if Path::new(raw).is_absolute() {
            for root in self.roots.iter() {
                if let Ok(path) = root.resolve(raw) {
                    let shown = path.display().to_string();
                    return Ok(Readable {
                        boundary: root,
                        path,
                        shown,
                    });
                }
            }
        }
        Err(refused)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_above_home_or_the_root_is_not_taken() {
        let home = tempfile::tempdir().unwrap();
        let skill = home.path().join(".claude/skills/x");
        std::fs::create_dir_all(&skill).unwrap();
        let roots = ReadRoots::new(
            [
                skill.clone(),
                home.path().to_path_buf(),
                PathBuf::from("/"),
                home.path().join("missing"),
            ],
            Some(home.path()),
        );
        assert_eq!(roots.roots.len(), 1);
        assert_eq!(roots.roots[0].root(), skill.canonicalize().unwrap());
    }
}
