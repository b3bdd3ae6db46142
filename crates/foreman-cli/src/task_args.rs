//! The grammar of the task commands: `tasks list|hand-back|clean-up`, `merge`, `discard` and
//! `restore` (what they do is in `tasks.rs`).

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// Which task, in which workspace.
#[derive(Debug, Clone, Args)]
pub struct TaskArg {
    /// The task's name (as `tasks list` shows it) or its id.
    #[arg(value_name = "TASK")]
    pub task: String,
    /// The workspace folder (default: the current directory).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub workspace: String,
    /// The database (default: the desktop app's).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

/// `tasks …`.
#[derive(Debug, Subcommand)]
pub enum TasksCommand {
    /// List the workspace's tasks.
    List {
        /// The workspace folder (default: the current directory).
        #[arg(long, value_name = "DIR", default_value = ".")]
        workspace: String,
        /// The database (default: the desktop app's).
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
        /// One JSON object per line instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Apply a worktree task's change to your checkout (which must be clean) and move the task
    /// there.
    HandBack(TaskArg),
    /// Remove the worktrees of merged tasks that hold nothing new.
    CleanUp {
        /// The workspace folder (default: the current directory).
        #[arg(long, value_name = "DIR", default_value = ".")]
        workspace: String,
        /// The database (default: the desktop app's).
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
}

/// `merge TASK`.
#[derive(Debug, Clone, Args)]
pub struct MergeArgs {
    #[command(flatten)]
    pub task: TaskArg,
    /// The check to run instead of the repository's (`.foreman/worktree.toml`'s `check`).
    #[arg(long, value_name = "CMD")]
    pub check: Option<String>,
    /// The commit message for the task's uncommitted changes (default: drafted from its title).
    #[arg(long, short = 'm', value_name = "TEXT")]
    pub message: Option<String>,
    /// The branch to land on (default: the task's base).
    #[arg(long, value_name = "BRANCH")]
    pub into: Option<String>,
    /// Merge the target into the task's branch (a merge commit) instead of rebasing onto it.
    #[arg(long = "merge-commit")]
    pub merge_commit: bool,
    /// Print the outcome as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `discard TASK`.
#[derive(Debug, Clone, Args)]
pub struct DiscardArgs {
    #[command(flatten)]
    pub task: TaskArg,
    /// Discard unmerged work without asking (it stays restorable for 14 days).
    #[arg(long, short = 'y')]
    pub yes: bool,
}
