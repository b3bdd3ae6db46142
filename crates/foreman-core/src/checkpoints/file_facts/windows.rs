//! Windows: no executable bit, no inode, no change time.
//!
//! NOT COMPILED on the machine this project is built and tested on (it has no Windows target).

use std::ffi::OsStr;
use std::fs::Metadata;
use std::os::windows::fs::MetadataExt;
use std::path::Path;

use crate::checkpoints::stat::Stat;

/// Windows has no executable bit: whether a file runs depends on its extension.
pub(super) fn is_executable(_metadata: &Metadata) -> bool {
    false
}

/// The size and the last write time; the same time stands for the change time, and the inode
/// is 0 (the file index is not available through the standard library).
pub(super) fn stat(metadata: &Metadata) -> Stat {
    // A FILETIME counts 100-nanosecond intervals; the epoch does not matter for comparing.
    let written = i128::from(metadata.last_write_time()) * 100;
    Stat {
        size: metadata.len(),
        mtime_ns: written,
        ctime_ns: written,
        ino: 0,
    }
}

/// Nothing to set: see [`is_executable`].
pub(super) fn set_executable(_path: &Path, _executable: bool) -> std::io::Result<()> {
    Ok(())
}

/// A directory link when the target (relative to the link's folder) is a directory, else a file
/// link.
pub(super) fn symlink(target: &OsStr, link: &Path) -> std::io::Result<()> {
    let resolved = link.parent().unwrap_or(Path::new(".")).join(target);
    if resolved.is_dir() {
        std::os::windows::fs::symlink_dir(target, link)
    } else {
        std::os::windows::fs::symlink_file(target, link)
    }
}
