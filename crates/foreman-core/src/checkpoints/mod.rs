//! Whole-workspace checkpoints: before each step that can change the workspace (and after a
//! command, to list what it changed), the engine records every file git would see in a shadow
//! repository of its own, outside the workspace ([`shadow`]); [`changes`] lists what differs
//! between two checkpoints, with diffs; [`restore`] puts the workspace back to one (a rewind,
//! itself checkpointed first, so it can be undone). The user's `.git` is never touched, and
//! files over the size limit are left out and listed.
//!
//! [`Checkpoints`] is one workspace's repository, its blocking calls meant for a blocking
//! thread. Commits are named by their hex id; which commit is which step of which session is
//! in the store (`store::workspace_checkpoints`).

pub mod changes;
pub mod error;
pub mod file_facts;
pub mod restore;
pub mod retention;
pub mod scan;
pub mod shadow;
pub mod stat;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use gix::ObjectId;

pub use self::error::CheckpointError;
pub use self::scan::Skipped;
use self::shadow::{DEFAULT_MAX_FILE_BYTES, Snapshotter, open_or_create, repository_path, tree_of};
use crate::protocol::WorkspaceChange;

/// The reference that names the newest checkpoint (the next one's parent).
const LATEST: &str = "refs/foreman/latest";

/// A checkpoint written: its commit and what it left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The commit's hex id.
    pub id: String,
    pub skipped: Vec<Skipped>,
    /// Files read to write it (new or changed since the one before).
    pub read: usize,
}

/// What a rewind changes, before it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewindChanges {
    /// The workspace now, checkpointed.
    pub now: Checkpoint,
    pub changes: Vec<WorkspaceChange>,
}

/// One workspace's checkpoints.
#[derive(Debug)]
pub struct Checkpoints {
    repo: gix::ThreadSafeRepository,
    workspace: PathBuf,
    path: PathBuf,
    snapshotter: Mutex<Snapshotter>,
    max_file_bytes: u64,
}

fn parse(id: &str) -> Result<ObjectId, CheckpointError> {
    ObjectId::from_hex(id.as_bytes()).map_err(CheckpointError::repo)
}

impl Checkpoints {
    /// The checkpoints of `workspace`, kept under `dir` (created when missing).
    pub fn open(dir: &Path, workspace: &Path) -> Result<Self, CheckpointError> {
        let path = repository_path(dir, workspace);
        Ok(Self {
            repo: open_or_create(&path)?,
            workspace: workspace.to_path_buf(),
            path,
            snapshotter: Mutex::new(Snapshotter::default()),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
        })
    }

    /// The same with another limit on a recorded file's size.
    pub fn with_max_file_bytes(self, max_file_bytes: u64) -> Self {
        Self {
            max_file_bytes,
            ..self
        }
    }

    /// Where the shadow repository is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records the workspace now.
    pub fn take(&self, message: &str) -> Result<Checkpoint, CheckpointError> {
        let repo = self.repo.to_thread_local();
        let parent = repo
            .try_find_reference(LATEST)
            .ok()
            .flatten()
            .and_then(|mut r| r.peel_to_id().ok())
            .map(|id| id.detach());
        let snapshot = {
            let mut snapshotter = self
                .snapshotter
                .lock()
                .map_err(|_| CheckpointError::Repository("a checkpoint failed half-way".into()))?;
            snapshotter.take(&repo, &self.workspace, parent, message, self.max_file_bytes)?
        };
        repo.reference(
            LATEST,
            snapshot.commit,
            gix::refs::transaction::PreviousValue::Any,
            "checkpoint",
        )
        .map_err(CheckpointError::repo)?;
        Ok(Checkpoint {
            id: snapshot.commit.to_string(),
            skipped: snapshot.skipped,
            read: snapshot.read,
        })
    }

    /// What changed from checkpoint `old` to checkpoint `new`, with diffs.
    pub fn changes(&self, old: &str, new: &str) -> Result<Vec<WorkspaceChange>, CheckpointError> {
        let repo = self.repo.to_thread_local();
        let (old, new) = (tree_of(&repo, parse(old)?)?, tree_of(&repo, parse(new)?)?);
        let found = changes::between(&repo, old, new)?;
        changes::for_user(&repo, &found)
    }

    /// What rewinding to `target` would change, with the workspace as it is now checkpointed.
    pub fn plan_rewind(&self, target: &str) -> Result<RewindChanges, CheckpointError> {
        let now = self.take("before a rewind")?;
        let changes = self.changes(&now.id, target)?;
        Ok(RewindChanges { now, changes })
    }

    /// The bytes the checkpoints take on disk.
    pub fn usage(&self) -> u64 {
        retention::usage(&self.path)
    }

    /// Keeps the newest of `newest_first` that fit in `cap` bytes and deletes what only older
    /// ones needed.
    pub fn collect(
        &self,
        newest_first: &[String],
        cap: u64,
    ) -> Result<retention::Collected, CheckpointError> {
        retention::collect(&self.repo.to_thread_local(), newest_first, cap)
    }

    /// Deletes every checkpoint of `workspace` kept under `dir`; the bytes freed.
    pub fn clear(dir: &Path, workspace: &Path) -> Result<u64, CheckpointError> {
        let path = repository_path(dir, workspace);
        let freed = retention::usage(&path);
        match std::fs::remove_dir_all(&path) {
            Ok(()) => Ok(freed),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
            Err(e) => Err(CheckpointError::io(&path, e)),
        }
    }

    /// The bytes the checkpoints of `workspace` under `dir` take.
    pub fn usage_of(dir: &Path, workspace: &Path) -> u64 {
        retention::usage(&repository_path(dir, workspace))
    }

    /// Puts the workspace back to checkpoint `target`, after checkpointing it as it is (so the
    /// rewind can be undone by rewinding to that one).
    pub fn rewind(&self, target: &str) -> Result<RewindChanges, CheckpointError> {
        let now = self.take("before a rewind")?;
        let repo = self.repo.to_thread_local();
        let (from, to) = (
            tree_of(&repo, parse(&now.id)?)?,
            tree_of(&repo, parse(target)?)?,
        );
        let found = changes::between(&repo, from, to)?;
        let shown = changes::for_user(&repo, &found)?;
        restore::apply(&repo, &self.workspace, &found)?;
        Ok(RewindChanges {
            now,
            changes: shown,
        })
    }
}
