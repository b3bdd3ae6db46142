//! Tasks: a session with a place to work, so several agents can work on one repository at once.
//!
//! A task works in the folder itself or in a git worktree of its own ([`worktree`]), made under
//! the app's data directory on a branch `foreman/<name>` from a chosen base. Its confined
//! commands write only that worktree (and its own git directory and branch); the user's
//! checkout, the other tasks' worktrees and their branches ([`refs`]) stay out of their
//! reach. A repository's `.foreman/worktree.toml` ([`config`]) gives setup commands, files to
//! copy, the check the merge queue runs, a run command and ports.
//!
//! [`Tasks`] is the one API the app and the CLI call: start a task ([`lifecycle`]), open its
//! place for a session ([`place`]), list tasks with their state, changes and overlaps
//! ([`summary`], [`overlap`]), review and drop parts of a change ([`review`]), start the
//! repository's run command ([`run`]), merge through the queue ([`merge`]), and discard, restore, hand back or clean up ([`trash`]). The store
//! keeps every task ([`crate::store::TaskRow`]); [`locks`] hold across processes. Nothing the
//! user made is removed without a copy: a discarded task's work is kept under a ref of the
//! repository for [`RESTORE_DAYS`] days.

pub mod changes;
pub mod config;
pub mod error;
mod git;
pub mod lifecycle;
pub mod locks;
pub mod merge;
pub mod name;
pub mod overlap;
pub mod place;
pub mod refs;
pub mod repo;
pub mod review;
pub mod run;
pub mod summary;
#[cfg(test)]
pub(crate) mod testing;
pub mod trash;
pub mod worktree;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use crate::store::Store;

pub use self::config::TaskConfig;
pub use self::error::TaskError;
pub use self::lifecycle::NewTask;
pub use self::merge::{MergeOptions, MergeStrategy};
pub use self::place::SetupSandbox;
pub use self::place::{Place, Running};
pub use self::refs::OtherBranches;
pub use self::repo::Repo;
pub use self::worktree::Worktree;

/// How long a discarded task can be restored.
pub const RESTORE_DAYS: i64 = 14;

/// How many tasks run at once unless the user chose otherwise.
pub const DEFAULT_LIMIT: u32 = 3;

/// The tasks of one app (or one CLI run): the store that keeps them and the data directory that
/// holds their worktrees and locks.
#[derive(Debug, Clone)]
pub struct Tasks {
    store: Store,
    data_dir: PathBuf,
    /// Merges this process runs, to cancel.
    merges: Arc<Mutex<HashMap<String, CancellationToken>>>,
    /// Run commands this process started.
    runs: run::Runs,
}

impl Tasks {
    pub fn new(store: Store, data_dir: impl Into<PathBuf>) -> Self {
        Self {
            store,
            data_dir: data_dir.into(),
            merges: Arc::default(),
            runs: Arc::default(),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Where the worktrees of the repository at `root` live.
    fn worktrees_of(&self, root: &Path) -> PathBuf {
        let name = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "repo".into());
        let key: String = {
            use sha2::{Digest, Sha256};
            let d = Sha256::digest(root.display().to_string().as_bytes());
            d.iter().take(4).map(|b| format!("{b:02x}")).collect()
        };
        self.data_dir
            .join("worktrees")
            .join(format!("{name}-{key}"))
    }

    /// The stored task `id`, or an error naming it.
    async fn row(&self, id: &str) -> Result<crate::store::TaskRow, TaskError> {
        self.store
            .task(id)
            .await?
            .ok_or_else(|| TaskError::NoSuchTask(id.to_owned()))
    }

    /// The folder task `id` belongs to (as the store names it), which a client's views of its
    /// tasks are keyed by.
    pub async fn folder_of(&self, id: &str) -> Result<String, TaskError> {
        Ok(self.row(id).await?.workspace_path)
    }
}

/// The worktree of the task `row`, when it is still there: its repository's own git directory
/// decides what it is (see [`Worktree::open`]).
pub(crate) fn worktree_of(row: &crate::store::TaskRow) -> Result<Option<Worktree>, TaskError> {
    let Some(repo) = Repo::at(Path::new(&row.workspace_path))? else {
        return Ok(None);
    };
    Worktree::open(Path::new(&row.path), &repo.common_dir)
}
