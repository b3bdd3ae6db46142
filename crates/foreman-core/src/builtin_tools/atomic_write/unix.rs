//! Unix: every operation is relative to the directory descriptor, the permission bits are kept
//! exactly, and the directory is fsynced after the rename.

use std::ffi::OsStr;
use std::fs::File;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::path::Path;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};

use super::common::{AtomicWriteOutcome, temp_name};
use crate::boundary::{RefusalReason, WorkspaceBoundary, open_dir_creating};
use crate::builtin_tools::error::BuiltinError;

pub(super) fn atomic_write(
    boundary: &WorkspaceBoundary,
    resolved: &Path,
    bytes: &[u8],
) -> Result<AtomicWriteOutcome, BuiltinError> {
    let shown = boundary.display_relative(resolved);
    let (dir, name, existing_mode) = open_entry(boundary, resolved, &shown)?;
    let io = |e: rustix::io::Errno| BuiltinError::io(resolved, &shown, e.into());

    let temp_name = temp_name();
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let create_mode = Mode::from_raw_mode(existing_mode.unwrap_or(0o666));
    let temp_fd = rustix::fs::openat(&dir, temp_name.as_str(), flags, create_mode).map_err(io)?;
    let mut temp = File::from(temp_fd);
    let written = (|| -> Result<u32, BuiltinError> {
        temp.write_all(bytes)
            .map_err(|e| BuiltinError::io(resolved, &shown, e))?;
        if let Some(mode) = existing_mode {
            // The umask may have narrowed the create mode; restore the original bits exactly.
            rustix::fs::fchmod(&temp, Mode::from_raw_mode(mode)).map_err(io)?;
        }
        temp.sync_all()
            .map_err(|e| BuiltinError::io(resolved, &shown, e))?;
        let mode = rustix::fs::fstat(&temp).map_err(io)?.st_mode & 0o7777;
        rustix::fs::renameat(&dir, temp_name.as_str(), &dir, name).map_err(io)?;
        Ok(mode)
    })();
    let mode = match written {
        Ok(mode) => mode,
        Err(err) => {
            let _ = rustix::fs::unlinkat(&dir, temp_name.as_str(), AtFlags::empty());
            return Err(err);
        }
    };
    rustix::fs::fsync(&dir).map_err(io)?;
    Ok(AtomicWriteOutcome {
        created: existing_mode.is_none(),
        mode,
    })
}

pub(super) fn atomic_remove(
    boundary: &WorkspaceBoundary,
    resolved: &Path,
) -> Result<(), BuiltinError> {
    let shown = boundary.display_relative(resolved);
    let (dir, name, mode) = open_entry(boundary, resolved, &shown)?;
    if mode.is_none() {
        return Err(BuiltinError::NotFound { path: shown });
    }
    let io = |e: rustix::io::Errno| BuiltinError::io(resolved, &shown, e.into());
    rustix::fs::unlinkat(&dir, name, AtFlags::empty()).map_err(io)?;
    rustix::fs::fsync(&dir).map_err(io)
}

/// The directory of `resolved`, opened by walking down from the workspace root without
/// following links, the entry's name in it, and the permission bits of the regular file there
/// (`None` when there is no entry). A directory, a link or a special file there is refused.
fn open_entry<'a>(
    boundary: &WorkspaceBoundary,
    resolved: &'a Path,
    shown: &str,
) -> Result<(OwnedFd, &'a OsStr, Option<u32>), BuiltinError> {
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
    let mode = match rustix::fs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
            FileType::RegularFile => Some(stat.st_mode & 0o7777),
            FileType::Directory => {
                return Err(BuiltinError::IsADirectory {
                    path: shown.to_owned(),
                });
            }
            FileType::Symlink => {
                return Err(boundary
                    .refusal(
                        resolved,
                        resolved.to_path_buf(),
                        RefusalReason::ChangedDuringUse,
                    )
                    .into());
            }
            _ => {
                return Err(boundary
                    .refusal(resolved, resolved.to_path_buf(), RefusalReason::SpecialFile)
                    .into());
            }
        },
        Err(rustix::io::Errno::NOENT) => None,
        Err(err) => return Err(BuiltinError::io(resolved, shown, err.into())),
    };
    Ok((dir, name, mode))
}
