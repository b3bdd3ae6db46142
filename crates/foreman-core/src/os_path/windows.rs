//! Windows: the bytes are read as UTF-8; a sequence that is not UTF-8 becomes U+FFFD. As git
//! records a path, `\` between components becomes `/`.
//!
//! NOT COMPILED on the machine this project is built and tested on (it has no Windows target).

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::path::Path;

pub(super) fn from_bytes(bytes: &[u8]) -> Cow<'_, OsStr> {
    match String::from_utf8_lossy(bytes) {
        Cow::Borrowed(text) => Cow::Borrowed(OsStr::new(text)),
        Cow::Owned(text) => Cow::Owned(OsString::from(text)),
    }
}

pub(super) fn git_path(path: &Path) -> Vec<u8> {
    path.to_string_lossy().replace('\\', "/").into_bytes()
}
