//! The workspace boundary: the single place that decides whether a path given by the model may be
//! touched.
//!
//! Every path — relative or absolute — is resolved against the workspace root by following
//! symbolic links component by component (see [`resolve`]), and the result is compared with the
//! root **by components**, never by string prefix. Files are then opened with `O_NOFOLLOW` and
//! re-checked through the opened handle so a link swapped in between the check and the use is
//! caught. Protected paths (`.git/`, `.foreman/`) are readable but writes to them always need the
//! user's approval.

mod error;
mod open;
mod resolve;

use std::path::{Component, Path, PathBuf};

pub use error::{PATH_NOT_IN_WORKSPACE, PathNotInWorkspace, RefusalReason};
pub use open::{DirHandle, OpenError, open_dir_creating};
use resolve::{Resolved, resolve_physical};

/// Longest path, in bytes, the boundary accepts (Linux `PATH_MAX` less the terminating NUL).
pub const MAX_PATH_BYTES: usize = 4095;
/// Longest single path component, in bytes (Linux `NAME_MAX`).
pub const MAX_NAME_BYTES: usize = 255;
/// Top-level folders inside the workspace whose contents are protected.
pub const PROTECTED_DIRS: [&str; 2] = [".git", ".foreman"];

/// A workspace root and the rules for paths inside it. Cheap to clone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceBoundary {
    root: PathBuf,
}

impl WorkspaceBoundary {
    /// Creates the boundary for `root`, which must be an existing directory; it is canonicalised.
    pub fn new(root: &Path) -> std::io::Result<Self> {
        let root = root.canonicalize()?;
        if !root.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!("{} is not a directory", root.display()),
            ));
        }
        Ok(Self { root })
    }

    /// The canonical workspace root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves `raw` (relative to the root, or absolute) to a canonical path inside the
    /// workspace, or refuses it. The path need not exist; if it does, it must be a regular file or
    /// a directory.
    pub fn resolve(&self, raw: &str) -> Result<PathBuf, PathNotInWorkspace> {
        let refuse = |resolved: PathBuf, reason| PathNotInWorkspace {
            root: self.root.clone(),
            requested: raw.to_string(),
            resolved,
            reason,
        };
        if raw.is_empty() {
            return Err(refuse(self.root.clone(), RefusalReason::Empty));
        }
        let given = Path::new(raw);
        let lexical = self.root.join(given);
        if raw.contains('\0') {
            return Err(refuse(
                PathBuf::from(raw.replace('\0', "\\0")),
                RefusalReason::NulByte,
            ));
        }
        if raw.starts_with('~') {
            return Err(refuse(lexical, RefusalReason::TildeExpansion));
        }
        if too_long(&lexical) {
            return Err(refuse(lexical, RefusalReason::TooLong));
        }
        let resolved = match resolve_physical(&lexical) {
            Ok(Resolved::Path(p)) => p,
            Ok(Resolved::Loop(p)) => return Err(refuse(p, RefusalReason::SymlinkLoop)),
            Err(_) => return Err(refuse(lexical, RefusalReason::Outside)),
        };
        if !resolved.starts_with(&self.root) {
            return Err(refuse(resolved, RefusalReason::Outside));
        }
        if too_long(&resolved) {
            return Err(refuse(resolved, RefusalReason::TooLong));
        }
        if let Ok(meta) = std::fs::symlink_metadata(&resolved) {
            let kind = meta.file_type();
            // Anything else is a device, a FIFO or a socket (Unix); Windows has none of those.
            if !(kind.is_file() || kind.is_dir() || kind.is_symlink()) {
                return Err(refuse(resolved, RefusalReason::SpecialFile));
            }
        }
        Ok(resolved)
    }

    /// Whether `path` (a path from [`Self::resolve`], or one relative to the root) lies in a
    /// protected folder (`.git/`, `.foreman/`). Writes there always need approval, whatever the
    /// approval mode.
    pub fn is_protected(&self, path: &Path) -> bool {
        let relative = if path.is_absolute() {
            match path.strip_prefix(&self.root) {
                Ok(rel) => rel,
                Err(_) => return false,
            }
        } else {
            path
        };
        match relative
            .components()
            .find(|c| !matches!(c, Component::CurDir))
        {
            Some(Component::Normal(first)) => PROTECTED_DIRS
                .iter()
                .any(|dir| first.as_encoded_bytes() == dir.as_bytes()),
            _ => false,
        }
    }

    /// `path` relative to the root, for display (`.` for the root itself).
    pub fn display_relative(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }

    /// Opens a resolved path for reading with `O_NOFOLLOW`, then checks through the handle that
    /// the opened file really is inside the workspace (catching a link swapped in after
    /// [`Self::resolve`]).
    pub fn open_read(&self, resolved: &Path) -> Result<std::fs::File, OpenError> {
        open::open_read_verified(&self.root, resolved)
    }

    pub(crate) fn refusal(
        &self,
        requested: &Path,
        resolved: PathBuf,
        reason: RefusalReason,
    ) -> PathNotInWorkspace {
        PathNotInWorkspace::refusal(&self.root, requested, resolved, reason)
    }
}

/// Whether `path` or any of its components exceeds the OS limits.
fn too_long(path: &Path) -> bool {
    path.as_os_str().len() > MAX_PATH_BYTES
        || path
            .components()
            .any(|c| c.as_os_str().len() > MAX_NAME_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_paths() {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        assert!(b.is_protected(&b.root().join(".git/config")));
        assert!(b.is_protected(&b.root().join(".git")));
        assert!(b.is_protected(Path::new(".foreman/settings.json")));
        assert!(b.is_protected(Path::new("./.git/HEAD")));
        assert!(!b.is_protected(&b.root().join(".gitignore")));
        assert!(!b.is_protected(&b.root().join("src/.git")));
        assert!(!b.is_protected(Path::new("/elsewhere/.git/config")));
    }

    #[test]
    fn refusal_names_root_and_resolved_path() {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        let err = b.resolve("../../etc/passwd").unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("PATH_NOT_IN_WORKSPACE"), "{text}");
        assert!(text.contains(&b.root().display().to_string()), "{text}");
        assert_eq!(
            err.resolved,
            b.root()
                .parent()
                .unwrap()
                .parent()
                .unwrap()
                .join("etc/passwd")
        );
        assert_eq!(err.code(), PATH_NOT_IN_WORKSPACE);
    }

    #[test]
    fn display_relative_paths() {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        assert_eq!(b.display_relative(b.root()), ".");
        assert_eq!(b.display_relative(&b.root().join("a/b.rs")), "a/b.rs");
    }
}
