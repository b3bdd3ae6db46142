//! Paths as bytes, both ways, on every platform, and as git records them ([`git_path`]).
//!
//! A path becomes bytes with the standard library's `OsStr::as_encoded_bytes` everywhere (the
//! plain bytes on Unix, WTF-8 on Windows). The way back differs: on Unix any bytes are a path
//! (`unix.rs`); on Windows the bytes are read as UTF-8, with anything that is not replaced
//! (`windows.rs`, not compiled on the machine this project is built and tested on). The paths
//! that go this way are file names recorded by git and pieces of walked paths, which on Windows
//! are UTF-8 in practice.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

use std::borrow::Cow;
use std::ffi::OsStr;
use std::path::Path;

/// The path whose bytes are `bytes` (without a copy on Unix).
pub fn from_bytes(bytes: &[u8]) -> Cow<'_, OsStr> {
    imp::from_bytes(bytes)
}

/// `path` (relative to the workspace, or a link's target) as git records it: bytes, with `/`
/// between components (what the watcher's journal and checkpoints hold).
pub fn git_path(path: &Path) -> Vec<u8> {
    imp::git_path(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_of_a_path_come_back_as_the_same_path() {
        let path = OsStr::new("dir/naïve file.txt");
        assert_eq!(from_bytes(path.as_encoded_bytes()), path);
    }
}
