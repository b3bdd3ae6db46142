//! Real git repositories for the tasks' tests.

use std::path::Path;

use super::git;

/// A repository on `main` with one commit (README.md), its identity set.
pub(crate) fn git_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let root = dir.path();
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["config", "user.name", "Test"],
        &["config", "user.email", "test@example.com"],
    ] {
        git::run(root, args).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(root.join("README.md"), "hello\n").unwrap_or_else(|e| panic!("{e}"));
    commit_all(root, "first");
    dir
}

/// Commits everything in `root`.
pub(crate) fn commit_all(root: &Path, message: &str) {
    git::run(root, ["add", "-A"]).unwrap_or_else(|e| panic!("{e}"));
    git::run(root, ["commit", "-q", "-m", message]).unwrap_or_else(|e| panic!("{e}"));
}
