//! Windows: links are opened as themselves (`FILE_FLAG_OPEN_REPARSE_POINT`) and refused, and
//! what was opened is checked by the path Windows gives for the handle.
//!
//! NOT COMPILED on the machine this project is built and tested on (it has no Windows target);
//! written against `windows-sys` 0.61 (features `Win32_Foundation`, `Win32_Storage_FileSystem`).

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::os::windows::ffi::OsStringExt;
use std::os::windows::fs::OpenOptionsExt;
use std::os::windows::io::AsRawHandle;
use std::path::{Component, Path, PathBuf};

use windows_sys::Win32::Storage::FileSystem::{
    FILE_FLAG_BACKUP_SEMANTICS, FILE_FLAG_OPEN_REPARSE_POINT, FILE_NAME_NORMALIZED,
    FILE_SHARE_READ, FILE_SHARE_WRITE, GetFinalPathNameByHandleW, VOLUME_NAME_DOS,
};

use super::error::{OpenError, io_err};
use crate::boundary::error::{PathNotInWorkspace, RefusalReason};

/// A directory inside the workspace, held open so that it cannot be renamed or removed, and the
/// path it was checked to have. Operations inside it go through [`DirHandle::path`].
#[derive(Debug)]
pub struct DirHandle {
    path: PathBuf,
    _held: File,
}

impl DirHandle {
    /// The directory's checked path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Opens `path` itself, never what a link there points to; directories too.
fn open_no_follow(path: &Path, share: u32) -> std::io::Result<File> {
    OpenOptions::new()
        .read(true)
        .share_mode(share)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS)
        .open(path)
}

/// Where Windows says an open handle points, in the `\\?\C:\…` form `canonicalize` gives.
fn handle_path(file: &File) -> std::io::Result<PathBuf> {
    let mut buffer = vec![0u16; 512];
    loop {
        let capacity = u32::try_from(buffer.len()).map_err(std::io::Error::other)?;
        // SAFETY: the handle is open for the call, and `buffer` has room for `capacity` units.
        let length = unsafe {
            GetFinalPathNameByHandleW(
                file.as_raw_handle(),
                buffer.as_mut_ptr(),
                capacity,
                FILE_NAME_NORMALIZED | VOLUME_NAME_DOS,
            )
        };
        let length = usize::try_from(length).map_err(std::io::Error::other)?;
        if length == 0 {
            return Err(std::io::Error::last_os_error());
        }
        // A length not below the capacity is the size needed, terminating NUL included.
        if length < buffer.len() {
            buffer.truncate(length);
            return Ok(PathBuf::from(OsString::from_wide(&buffer)));
        }
        buffer.resize(length, 0);
    }
}

/// Opens `path` (under `root`) without following a link, and checks that it is a regular file
/// or a directory inside `root`.
fn open_checked(root: &Path, resolved: &Path, path: &Path, share: u32) -> Result<File, OpenError> {
    let refuse = |actual: PathBuf, reason| -> OpenError {
        PathNotInWorkspace::refusal(root, resolved, actual, reason).into()
    };
    let file = open_no_follow(path, share).map_err(|e| io_err(path, e))?;
    let kind = file.metadata().map_err(|e| io_err(path, e))?.file_type();
    if kind.is_symlink() {
        return Err(refuse(path.to_path_buf(), RefusalReason::ChangedDuringUse));
    }
    let actual = handle_path(&file).map_err(|e| io_err(path, e))?;
    if !actual.starts_with(root) {
        return Err(refuse(actual, RefusalReason::ChangedDuringUse));
    }
    if !(kind.is_file() || kind.is_dir()) {
        return Err(refuse(actual, RefusalReason::SpecialFile));
    }
    Ok(file)
}

pub(super) fn open_read_verified(root: &Path, resolved: &Path) -> Result<File, OpenError> {
    let share = FILE_SHARE_READ | FILE_SHARE_WRITE;
    open_checked(root, resolved, resolved, share)
}

/// Creates and checks each directory from the root down; the last one stays held.
pub(super) fn open_dir_creating(root: &Path, dir: &Path) -> Result<DirHandle, OpenError> {
    let outside =
        || PathNotInWorkspace::refusal(root, dir, dir.to_path_buf(), RefusalReason::Outside);
    let relative = dir.strip_prefix(root).map_err(|_| outside())?;
    let share = FILE_SHARE_READ | FILE_SHARE_WRITE;
    let mut path = root.to_path_buf();
    let mut held = open_checked(root, dir, &path, share)?;
    for component in relative.components() {
        match component {
            Component::Normal(name) => path.push(name),
            Component::CurDir => continue,
            _ => return Err(outside().into()),
        }
        match std::fs::create_dir(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io_err(&path, e)),
        }
        // The parent is still held while its child is checked, so neither can be swapped.
        let next = open_checked(root, dir, &path, share)?;
        if !next.metadata().map_err(|e| io_err(&path, e))?.is_dir() {
            return Err(PathNotInWorkspace::refusal(
                root,
                dir,
                path,
                RefusalReason::ChangedDuringUse,
            )
            .into());
        }
        held = next;
    }
    Ok(DirHandle { path, _held: held })
}
