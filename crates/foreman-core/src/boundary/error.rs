//! The one refusal every tool returns for a path it will not touch.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// Stable error code sent to the model and the UI for every boundary refusal.
pub const PATH_NOT_IN_WORKSPACE: &str = "PATH_NOT_IN_WORKSPACE";

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefusalReason {
    /// The resolved path lies outside the workspace root.
    Outside,
    /// The path contains a NUL byte.
    NulByte,
    /// The path starts with `~`; home-directory expansion is never done.
    TildeExpansion,
    /// The path (or one of its components) is longer than the operating system allows.
    TooLong,
    /// The path names a device, FIFO or socket rather than a file or directory.
    SpecialFile,
    /// The path was empty.
    Empty,
    /// Too many symbolic links had to be followed (a loop).
    SymlinkLoop,
    /// The file changed into something else between the check and the use (e.g. a symlink swap).
    ChangedDuringUse,
}

impl RefusalReason {
    fn explain(&self) -> &'static str {
        match self {
            Self::Outside => {
                "it resolves (after following symbolic links) to a location outside the workspace"
            }
            Self::NulByte => "it contains a NUL byte",
            Self::TildeExpansion => {
                "`~` is not expanded; give a path relative to the workspace root"
            }
            Self::TooLong => "it is longer than the operating system allows",
            Self::SpecialFile => "it is a device, FIFO or socket, not a regular file or directory",
            Self::Empty => "it is empty",
            Self::SymlinkLoop => "it goes through too many symbolic links",
            Self::ChangedDuringUse => {
                "it was replaced (for example by a symbolic link) while being opened"
            }
        }
    }
}

/// A path refused by the workspace boundary. Names the root and what the path resolved to so the
/// model can correct itself.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "PATH_NOT_IN_WORKSPACE: `{requested}` (resolved to `{}`) was refused because {}. \
     The workspace root is `{}`; use a path inside it.",
    resolved.display(), reason.explain(), root.display()
)]
pub struct PathNotInWorkspace {
    /// The workspace root (canonical).
    pub root: PathBuf,
    /// The path as the model gave it (lossy if it was not valid text).
    pub requested: String,
    /// Where the path resolved to (as far as it could be resolved).
    pub resolved: PathBuf,
    /// Why it was refused.
    pub reason: RefusalReason,
}

impl PathNotInWorkspace {
    /// `requested` (which resolved to `resolved`) refused for `reason` in the workspace `root`.
    pub fn refusal(
        root: &Path,
        requested: &Path,
        resolved: PathBuf,
        reason: RefusalReason,
    ) -> Self {
        Self {
            root: root.to_path_buf(),
            requested: requested.display().to_string(),
            resolved,
            reason,
        }
    }

    /// The stable error code, always [`PATH_NOT_IN_WORKSPACE`].
    pub fn code(&self) -> &'static str {
        PATH_NOT_IN_WORKSPACE
    }
}
