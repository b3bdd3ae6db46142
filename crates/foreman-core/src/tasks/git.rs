//! Running `git` for the tasks: a plain command in a directory, its output as text, and a
//! failure that says which command failed and what git printed.
//!
//! Every run turns hooks off (`core.hooksPath=/dev/null`): what the engine commits and rebases
//! is the agent's work, and a hook the repository runs on it would run that work outside the
//! sandbox. The variables that point git elsewhere (`GIT_DIR`, `GIT_WORK_TREE`, …) are removed
//! so each command acts on the directory it is given.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use super::error::TaskError;

/// Variables that would point git at another repository or object store.
const REDIRECTING: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
];

/// `git` in `dir`, with hooks off and nothing redirecting it.
pub(crate) fn command(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .args(["-c", "core.hooksPath=/dev/null", "-c", "gc.auto=0"])
        .stdin(Stdio::null())
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C");
    for var in REDIRECTING {
        cmd.env_remove(var);
    }
    cmd
}

/// Runs `git args…` in `dir`; its standard output (trimmed at the end) when it succeeds.
pub(crate) fn run<I, S>(dir: &Path, args: I) -> Result<String, TaskError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<S> = args.into_iter().collect();
    stdout_of(&args, &output(dir, &args)?)
}

/// What `git args…` printed (trimmed at the end) when it succeeded, else why it failed.
pub(crate) fn stdout_of<S: AsRef<OsStr>>(args: &[S], out: &Output) -> Result<String, TaskError> {
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim_end().to_owned())
    } else {
        Err(failed(args, out))
    }
}

/// Runs `git args…` in `dir` and returns what happened, success or not.
pub(crate) fn output<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Result<Output, TaskError> {
    command(dir)
        .args(args)
        .output()
        .map_err(|source| TaskError::GitMissing { source })
}

/// `git worktree rest…`'s arguments: git's own command for worktrees (whatever a task's place).
pub(crate) fn worktree_args<'a>(rest: &[&'a OsStr]) -> Vec<&'a OsStr> {
    let mut args = vec![OsStr::new("worktree")];
    args.extend_from_slice(rest);
    args
}

/// Whether `git args…` in `dir` exits with 0.
pub(crate) fn succeeds<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Result<bool, TaskError> {
    Ok(output(dir, args)?.status.success())
}

/// The error for a git command that failed.
pub(crate) fn failed<S: AsRef<OsStr>>(args: &[S], out: &Output) -> TaskError {
    let words: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    let mut said = String::from_utf8_lossy(&out.stderr).trim().to_owned();
    if said.is_empty() {
        said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    }
    TaskError::Git {
        command: format!("git {}", words.join(" ")),
        message: said,
    }
}

/// An absolute path git printed, relative ones taken from `dir`.
pub(crate) fn path_from(dir: &Path, printed: &str) -> PathBuf {
    let p = PathBuf::from(printed);
    if p.is_absolute() { p } else { dir.join(p) }
}

/// An author and committer for commits the engine makes in `dir` when the user set none in
/// git's configuration.
pub(crate) fn identity_args(dir: &Path) -> Vec<String> {
    let has = |key: &str| {
        output(dir, &["config", "--get", key])
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    let mut args = Vec::new();
    if !has("user.name") {
        args.extend(["-c".to_owned(), "user.name=Foreman".to_owned()]);
    }
    if !has("user.email") {
        args.extend(["-c".to_owned(), "user.email=foreman@localhost".to_owned()]);
    }
    args
}
