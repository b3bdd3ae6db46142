//! Whole-workspace checkpoints: before each step that can change the workspace (and after a
//! command, to list what it changed), the engine records every file git would see, and the
//! small files git ignores outside build and dependency folders ([`coverage`]), in a shadow
//! repository of its own, outside the workspace ([`shadow`]); [`changes`] lists what differs
//! between two checkpoints, with diffs, and [`against_disk`] some files now against one;
//! [`restore`] puts the workspace back to one (a rewind,
//! itself checkpointed first, so it can be undone). The user's `.git` is never touched, and
//! files over the size limit are left out and listed.
//!
//! A checkpoint costs what changed: with the watcher's [`ChangeJournal`] attached, it looks
//! only at the paths the journal names ([`snapshotter`], [`region`]), and scans the whole
//! workspace when the journal cannot be trusted (it says why in the log). What it knew about
//! each file is kept beside the repository between runs ([`index_file`]).
//!
//! [`Checkpoints`] is one workspace's repository, its blocking calls meant for a blocking
//! thread. Commits are named by their hex id; which commit is which step of which session is
//! in the store (`store::workspace_checkpoints`).

pub mod against_disk;
pub mod changes;
pub mod coverage;
pub mod error;
pub mod file_facts;
pub mod index_file;
pub mod region;
pub mod restore;
pub mod retention;
pub mod scan;
pub mod shadow;
pub mod snapshotter;
pub mod stat;
pub mod tree_state;
pub mod unkept;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use gix::ObjectId;

pub use self::coverage::Coverage;
pub use self::error::CheckpointError;
use self::region::{Plan, plan};
pub use self::scan::Skipped;
use self::shadow::{open_or_create, repository_path, tree_of};
use self::snapshotter::{Look, Snapshotter, save_index};
use crate::protocol::{SessionFileChange, WorkspaceChange};
use crate::watcher::journal::{ChangeJournal, Drained};

/// The reference that names the newest checkpoint (the next one's parent).
const LATEST: &str = "refs/foreman/latest";

/// A checkpoint written: its commit and what it left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The commit's hex id.
    pub id: String,
    /// Its tree's hex id (the same workspace gives the same tree).
    pub tree: String,
    pub skipped: Vec<Skipped>,
    /// Files read to write it (new or changed since the one before).
    pub read: usize,
    /// Why it scanned the whole workspace, when it did.
    pub full_scan: Option<String>,
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
    coverage: Coverage,
    journal: Mutex<Journal>,
}

/// The watcher's journal, once attached.
#[derive(Debug, Default)]
struct Journal {
    journal: Option<Arc<ChangeJournal>>,
    /// Attached since the last checkpoint: what changed before it is not in it.
    fresh: bool,
}

fn parse(id: &str) -> Result<ObjectId, CheckpointError> {
    ObjectId::from_hex(id.as_bytes()).map_err(CheckpointError::repo)
}

impl Checkpoints {
    /// The checkpoints of `workspace`, kept under `dir` (created when missing).
    pub fn open(dir: &Path, workspace: &Path) -> Result<Self, CheckpointError> {
        let path = repository_path(dir, workspace);
        let repo = open_or_create(&path)?;
        let known = index_file::load(&index_file::path_in(&path));
        Ok(Self {
            repo,
            workspace: workspace.to_path_buf(),
            path,
            snapshotter: Mutex::new(Snapshotter::with_files(known)),
            coverage: Coverage::default(),
            journal: Mutex::new(Journal::default()),
        })
    }

    /// The same with another limit on a recorded file's size.
    pub fn with_max_file_bytes(self, max_file_bytes: u64) -> Self {
        let coverage = Coverage {
            max_file_bytes,
            ..self.coverage.clone()
        };
        self.with_coverage(coverage)
    }

    /// The same keeping what `coverage` says.
    pub fn with_coverage(self, coverage: Coverage) -> Self {
        Self { coverage, ..self }
    }

    /// What its checkpoints keep.
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// Looks at what the watcher's `journal` names from the next checkpoint on, instead of
    /// the whole workspace.
    pub fn attach(&self, journal: Arc<ChangeJournal>) {
        let mut held = self.journal.lock().unwrap_or_else(|p| p.into_inner());
        *held = Journal {
            journal: Some(journal),
            fresh: true,
        };
    }

    /// What the next checkpoint must look at.
    fn look(&self) -> Look {
        let mut held = self.journal.lock().unwrap_or_else(|p| p.into_inner());
        let fresh = std::mem::take(&mut held.fresh);
        let Some(journal) = &held.journal else {
            return Look::Everything("the workspace is not watched".into());
        };
        match journal.drain() {
            _ if fresh => Look::Everything("the watcher has just started".into()),
            Drained::FullScan(why) => Look::Everything(why),
            Drained::Paths(paths) => match plan(paths) {
                Plan::Region(region) => Look::Region(region),
                Plan::FullScan(why) => Look::Everything(why),
            },
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
            let look = self.look();
            let snapshot = snapshotter.take(
                &repo,
                &self.workspace,
                parent,
                message,
                &self.coverage,
                look,
            )?;
            if snapshot.full_scan.is_some() {
                save_index(&self.path, &snapshotter);
            }
            snapshot
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
            tree: snapshot.tree.to_string(),
            skipped: snapshot.skipped,
            read: snapshot.read,
            full_scan: snapshot.full_scan,
        })
    }

    /// What changed from checkpoint `old` to checkpoint `new`, with diffs.
    pub fn changes(&self, old: &str, new: &str) -> Result<Vec<WorkspaceChange>, CheckpointError> {
        let repo = self.repo.to_thread_local();
        let (old, new) = (tree_of(&repo, parse(old)?)?, tree_of(&repo, parse(new)?)?);
        let found = changes::between(&repo, old, new)?;
        changes::for_user(&repo, &found)
    }

    /// Which of `paths` differ on disk now from checkpoint `base`, with their line counts (no
    /// scan: only those files are read).
    pub fn against_disk(
        &self,
        base: &str,
        paths: &[String],
    ) -> Result<Vec<SessionFileChange>, CheckpointError> {
        let repo = self.repo.to_thread_local();
        let tree = tree_of(&repo, parse(base)?)?;
        against_disk::against_disk(&repo, tree, &self.workspace, paths, &self.coverage)
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
