//! What a checkpoint reads from and writes to a file that depends on the platform: the
//! executable bit, the stat that tells whether a file changed, and making a symlink again (the
//! path as git records it is [`crate::os_path::git_path`]).
//!
//! Unix (`unix.rs`) has all of it natively. Windows (`windows.rs`, **not compiled on the machine
//! this project is built and tested on**) has no executable bit (nothing is recorded as
//! executable, and restoring one writes a plain file), no inode number and no change time (the
//! stat is the size and the last write time), and a symlink needs the right to create one
//! (Developer Mode or an administrator); without it, restoring a link fails with that error.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

use std::ffi::OsStr;
use std::fs::Metadata;
use std::path::Path;

use super::stat::Stat;

/// Whether the file of `metadata` is executable by its owner.
pub fn is_executable(metadata: &Metadata) -> bool {
    imp::is_executable(metadata)
}

/// What tells whether the file of `metadata` changed since it was last read.
pub fn stat(metadata: &Metadata) -> Stat {
    imp::stat(metadata)
}

/// Makes the file at `path` executable (`rwxr-xr-x`) or not (`rw-r--r--`).
pub fn set_executable(path: &Path, executable: bool) -> std::io::Result<()> {
    imp::set_executable(path, executable)
}

/// Makes `link` a symbolic link to `target`.
pub fn symlink(target: &OsStr, link: &Path) -> std::io::Result<()> {
    imp::symlink(target, link)
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use crate::os_path::git_path;

    #[test]
    fn executable_bit_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.sh");
        std::fs::write(&path, "echo hi").unwrap();
        set_executable(&path, true).unwrap();
        assert!(is_executable(&std::fs::metadata(&path).unwrap()));
        set_executable(&path, false).unwrap();
        assert!(!is_executable(&std::fs::metadata(&path).unwrap()));
    }

    #[test]
    fn a_link_is_made_and_its_target_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        symlink(OsStr::new("sub/target.txt"), &link).unwrap();
        let target = std::fs::read_link(&link).unwrap();
        assert_eq!(git_path(&target), b"sub/target.txt");
        let stat = stat(&std::fs::symlink_metadata(&link).unwrap());
        assert_ne!(stat.ino, 0);
    }
}
