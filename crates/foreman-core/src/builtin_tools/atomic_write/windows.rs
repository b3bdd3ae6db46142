//! Windows: the temporary file is written and renamed by path inside the directory that
//! [`open_dir_creating`] holds open (so it cannot be swapped meanwhile), the read-only attribute
//! is kept, and there is no directory fsync (Windows has none; the rename is journalled by NTFS).
//!
//! NOT COMPILED on the machine this project is built and tested on (it has no Windows target).

use std::ffi::OsStr;
use std::fs::{OpenOptions, Permissions};
use std::io::Write;
use std::path::Path;

use super::common::{AtomicWriteOutcome, temp_name};
use crate::boundary::{DirHandle, RefusalReason, WorkspaceBoundary, open_dir_creating};
use crate::builtin_tools::error::BuiltinError;

/// The permission bits reported for a file: Windows only knows read-only or not.
fn mode(read_only: bool) -> u32 {
    if read_only { 0o444 } else { 0o644 }
}

pub(super) fn atomic_write(
    boundary: &WorkspaceBoundary,
    resolved: &Path,
    bytes: &[u8],
) -> Result<AtomicWriteOutcome, BuiltinError> {
    let shown = boundary.display_relative(resolved);
    let (dir, name, existing) = open_entry(boundary, resolved, &shown)?;
    let target = dir.path().join(name);
    let temp = dir.path().join(temp_name());
    let read_only = existing.as_ref().is_some_and(Permissions::readonly);
    let written = (|| -> std::io::Result<()> {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        // A read-only file cannot be replaced; it is made writable for the rename, and the new
        // file read-only after it.
        if let Some(mut permissions) = existing.clone().filter(|_| read_only) {
            permissions.set_readonly(false);
            std::fs::set_permissions(&target, permissions)?;
        }
        std::fs::rename(&temp, &target)?;
        if let Some(permissions) = existing.clone().filter(|_| read_only) {
            std::fs::set_permissions(&target, permissions)?;
        }
        Ok(())
    })();
    if let Err(err) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(BuiltinError::io(resolved, &shown, err));
    }
    Ok(AtomicWriteOutcome {
        created: existing.is_none(),
        mode: mode(read_only),
    })
}

pub(super) fn atomic_remove(
    boundary: &WorkspaceBoundary,
    resolved: &Path,
) -> Result<(), BuiltinError> {
    let shown = boundary.display_relative(resolved);
    let (dir, name, existing) = open_entry(boundary, resolved, &shown)?;
    if existing.is_none() {
        return Err(BuiltinError::NotFound { path: shown });
    }
    std::fs::remove_file(dir.path().join(name)).map_err(|e| BuiltinError::io(resolved, &shown, e))
}

/// The directory of `resolved`, opened by walking down from the workspace root without
/// following links, the entry's name in it, and the permissions of the regular file there
/// (`None` when there is no entry). A directory, a link or a special file there is refused.
fn open_entry<'a>(
    boundary: &WorkspaceBoundary,
    resolved: &'a Path,
    shown: &str,
) -> Result<(DirHandle, &'a OsStr, Option<Permissions>), BuiltinError> {
    let (parent, name) = match (resolved.parent(), resolved.file_name()) {
        (Some(parent), Some(name)) => (parent, name),
        _ => {
            return Err(BuiltinError::IsADirectory {
                path: shown.to_owned(),
            });
        }
    };
    let dir = open_dir_creating(boundary.root(), parent)
        .map_err(|e| BuiltinError::from_open(e, shown))?;
    let refuse = |reason| -> BuiltinError {
        boundary
            .refusal(resolved, resolved.to_path_buf(), reason)
            .into()
    };
    let permissions = match std::fs::symlink_metadata(dir.path().join(name)) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(refuse(RefusalReason::ChangedDuringUse));
        }
        Ok(meta) if meta.is_dir() => {
            return Err(BuiltinError::IsADirectory {
                path: shown.to_owned(),
            });
        }
        Ok(meta) if meta.is_file() => Some(meta.permissions()),
        Ok(_) => return Err(refuse(RefusalReason::SpecialFile)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(BuiltinError::io(resolved, shown, e)),
    };
    Ok((dir, name, permissions))
}
