//! Undoing a file change on the user's authority: the bytes a file had before a call changed
//! it are kept ([`file_bytes`]), and put back ([`restore_file`]) only while the file still has
//! exactly what the call left, so an undo never overwrites anything written since. Both go
//! through the workspace boundary like the tools themselves; the write and the removal of a file
//! the call created are [`atomic_write`]'s, relative to the file's directory.

use std::io::Read;

use thiserror::Error;

use super::atomic_write::{atomic_remove, atomic_write};
use super::error::BuiltinError;
use super::stale_guard::{ContentHash, content_hash};
use crate::boundary::WorkspaceBoundary;

/// Files larger than this are not kept for undo.
pub const KEEP_LIMIT: u64 = 16 << 20;

/// Why an undo did not go ahead; nothing was changed.
#[derive(Debug, Error)]
pub enum RestoreError {
    /// The file no longer has what the call left.
    #[error(
        "{path} changed after this change was made; undoing it would lose those changes. Nothing was changed."
    )]
    ChangedSince { path: String },
    /// The file cannot be read or written.
    #[error(transparent)]
    File(#[from] BuiltinError),
}

/// The bytes of the workspace file `path` now; `None` when there is no such file.
pub fn file_bytes(
    boundary: &WorkspaceBoundary,
    path: &str,
) -> Result<Option<Vec<u8>>, BuiltinError> {
    let resolved = boundary.resolve(path)?;
    let shown = boundary.display_relative(&resolved);
    match std::fs::symlink_metadata(&resolved) {
        Ok(meta) if meta.is_dir() => Err(BuiltinError::IsADirectory { path: shown }),
        Ok(meta) if meta.len() > KEEP_LIMIT => Err(BuiltinError::TooLarge {
            path: shown,
            size: meta.len(),
            limit: KEEP_LIMIT,
        }),
        Ok(_) => {
            let file = boundary
                .open_read(&resolved)
                .map_err(|e| BuiltinError::from_open(e, &shown))?;
            let mut bytes = Vec::new();
            // Bounded: the file may have grown since its size was read.
            file.take(KEEP_LIMIT + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| BuiltinError::io(&resolved, &shown, e))?;
            if bytes.len() as u64 > KEEP_LIMIT {
                return Err(BuiltinError::TooLarge {
                    path: shown,
                    size: bytes.len() as u64,
                    limit: KEEP_LIMIT,
                });
            }
            Ok(Some(bytes))
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(BuiltinError::io(&resolved, &shown, err)),
    }
}

/// Puts `before` back into the workspace file `path`, or removes the file when `before` is
/// `None` (the call created it), if the file's bytes now hash to `left`: what the call left.
pub fn restore_file(
    boundary: &WorkspaceBoundary,
    path: &str,
    before: Option<&[u8]>,
    left: &ContentHash,
) -> Result<(), RestoreError> {
    let resolved = boundary.resolve(path).map_err(BuiltinError::from)?;
    let shown = boundary.display_relative(&resolved);
    let now = file_bytes(boundary, path)?;
    if now.as_deref().map(content_hash).as_ref() != Some(left) {
        return Err(RestoreError::ChangedSince { path: shown });
    }
    match before {
        Some(bytes) => {
            atomic_write(boundary, &resolved, bytes)?;
        }
        None => atomic_remove(boundary, &resolved)?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (tempfile::TempDir, WorkspaceBoundary) {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        (dir, b)
    }

    #[test]
    fn a_changed_file_gets_its_bytes_back_and_a_created_one_goes() {
        let (dir, b) = setup();
        std::fs::write(dir.path().join("a.bin"), b"before \xff\x00").unwrap();
        let before = file_bytes(&b, "a.bin").unwrap();
        assert_eq!(before.as_deref(), Some(&b"before \xff\x00"[..]));
        std::fs::write(dir.path().join("a.bin"), "after").unwrap();
        restore_file(&b, "a.bin", before.as_deref(), &content_hash(b"after")).unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("a.bin")).unwrap(),
            b"before \xff\x00"
        );

        assert_eq!(file_bytes(&b, "new/n.txt").unwrap(), None);
        std::fs::create_dir(dir.path().join("new")).unwrap();
        std::fs::write(dir.path().join("new/n.txt"), "made").unwrap();
        restore_file(&b, "new/n.txt", None, &content_hash(b"made")).unwrap();
        assert!(!dir.path().join("new/n.txt").exists());
    }

    #[test]
    fn a_file_changed_since_is_left_alone() {
        let (dir, b) = setup();
        std::fs::write(dir.path().join("a.txt"), "someone else's edit").unwrap();
        let err = restore_file(&b, "a.txt", Some(b"before"), &content_hash(b"after")).unwrap_err();
        assert!(matches!(err, RestoreError::ChangedSince { .. }), "{err}");
        assert!(
            err.to_string()
                .contains("a.txt changed after this change was made"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "someone else's edit"
        );
        // A created file that is gone already: also changed since.
        let err = restore_file(&b, "gone.txt", None, &content_hash(b"made")).unwrap_err();
        assert!(matches!(err, RestoreError::ChangedSince { .. }), "{err}");
    }

    #[test]
    fn nothing_outside_the_workspace_is_read_or_written() {
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("outside.txt");
        std::fs::write(&target, "theirs").unwrap();
        let (_dir, b) = setup();
        let shown = target.display().to_string();
        let err = file_bytes(&b, &shown).unwrap_err();
        assert!(matches!(err, BuiltinError::PathNotInWorkspace(_)), "{err}");
        let err = restore_file(&b, &shown, Some(b"x"), &content_hash(b"theirs")).unwrap_err();
        assert!(
            matches!(err, RestoreError::File(BuiltinError::PathNotInWorkspace(_))),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "theirs");
    }
}
