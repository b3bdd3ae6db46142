//! What can go wrong with a task, in words the user can act on.

use std::path::PathBuf;

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    #[error("git is not installed or cannot run: {source}")]
    GitMissing { source: std::io::Error },
    #[error("`{command}` failed: {message}")]
    Git { command: String, message: String },
    #[error(
        "{path} is not a git repository with a commit, so a task cannot have a worktree \
         there; run it in the folder itself"
    )]
    NotARepository { path: PathBuf },
    #[error("there is no task {0}")]
    NoSuchTask(String),
    #[error("a task named {0} already exists in this repository; choose another name")]
    NameTaken(String),
    #[error("{0} is not a valid task name: use letters, digits, '-', '_' or '.'")]
    BadName(String),
    #[error("there is no branch {0} to start from")]
    NoSuchBase(String),
    #[error("the task {name}'s worktree is gone ({path}); restore the task to get it back")]
    WorktreeMissing { name: String, path: PathBuf },
    #[error("the task {0} works in the folder itself: there is nothing to merge or hand back")]
    NotAWorktree(String),
    #[error("the task {name} is {state}: {what}")]
    WrongState {
        name: String,
        state: String,
        what: String,
    },
    #[error(
        "the task {name} has changes that were never merged; discarding keeps a copy you can \
         restore for 14 days: confirm to go on"
    )]
    UnmergedWork { name: String },
    #[error("the task {name} cannot be restored: {why}")]
    CannotRestore { name: String, why: String },
    #[error("your checkout has uncommitted changes ({files}); commit or stash them first")]
    CheckoutDirty { files: String },
    #[error(
        "your checkout is on a detached HEAD, so there is no branch to merge into; check out a \
         branch or name one (--into)"
    )]
    DetachedHead,
    #[error(
        "the task's worktree is not on its branch {branch} but on {head}; nothing was done. \
         Check out {branch} in it (or let its agent do so), then try again"
    )]
    OffBranch { branch: String, head: String },
    #[error("the repository's .foreman/worktree.toml is not valid: {0}")]
    BadConfig(String),
    #[error("{0}")]
    Review(String),
    #[error("cannot {what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl TaskError {
    /// The error as a sentence for a person (the app shows it): a capital first, a full stop
    /// last. The CLI prints [`Display`](std::fmt::Display)'s words as they are.
    pub fn sentence(&self) -> String {
        sentence(&self.to_string())
    }

    pub(crate) fn io(
        what: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { what, path, source }
    }
}

/// `text` as a sentence: its first letter a capital, a full stop at the end.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        let mut out: String = c.to_uppercase().collect();
        out.push_str(chars.as_str());
        if !out.ends_with('.') {
            out.push('.');
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_reads_as_a_sentence() {
        assert_eq!(
            TaskError::NoSuchTask("fix".into()).sentence(),
            "There is no task fix."
        );
        assert_eq!(sentence("done."), "Done.");
        assert_eq!(sentence(""), "");
    }
}
