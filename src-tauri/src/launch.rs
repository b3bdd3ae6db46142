//! What the app was asked to open on its command line (`foreman /path/to/dir`, like `code .`).

use std::ffi::OsString;
use std::path::PathBuf;

#[derive(Debug, Clone, Default)]
pub struct LaunchRequest {
    /// The folder given on the command line, as typed.
    pub workspace: Option<String>,
    /// The directory the app was started from, to resolve a relative folder.
    pub cwd: PathBuf,
}

impl LaunchRequest {
    pub fn from_args(args: impl Iterator<Item = OsString>) -> Self {
        let workspace = args
            .map(|a| a.to_string_lossy().into_owned())
            // Flags belong to the webview or the test driver, not to us.
            .find(|a| !a.starts_with('-'));
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Self { workspace, cwd }
    }
}
