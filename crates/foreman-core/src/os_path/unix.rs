//! Unix: a path is any bytes, already separated by `/`.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

pub(super) fn from_bytes(bytes: &[u8]) -> Cow<'_, OsStr> {
    Cow::Borrowed(OsStr::from_bytes(bytes))
}

pub(super) fn git_path(path: &Path) -> Vec<u8> {
    path.as_os_str().as_bytes().to_vec()
}
