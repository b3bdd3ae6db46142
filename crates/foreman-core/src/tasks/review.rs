//! Review: a task's whole change against its base, file by file, as the diff view shows it
//! ([`Tasks::change`]), and dropping a file or some hunks of it, which reverts them in the
//! worktree ([`Tasks::drop_change`]). A hunk is named by what it shows, so a drop is refused
//! when the file changed since the user looked.

use std::path::{Component, Path, PathBuf};

use crate::diff::{DiffLimits, FileDiff, HunkRef, apply_hunks, diff_texts};
use crate::protocol::{TaskChange, TaskPlace};

use super::Tasks;
use super::changes::{diff_base, file_stats, snapshot_tree};
use super::error::TaskError;
use super::worktree::Worktree;

/// A file as the base has it (`None`: it did not exist there).
fn base_bytes(wt: &Worktree, base: &str, path: &str) -> Result<Option<Vec<u8>>, TaskError> {
    let out = wt.output(&["show", &format!("{base}:{path}")])?;
    Ok(out.status.success().then_some(out.stdout))
}

fn text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes)
        .ok()
        .filter(|t| !t.contains('\0'))
}

impl Tasks {
    fn open_worktree(&self, row: &crate::store::TaskRow) -> Result<Worktree, TaskError> {
        if row.place != TaskPlace::Worktree {
            return Err(TaskError::NotAWorktree(row.name.clone()));
        }
        let path = PathBuf::from(&row.path);
        super::worktree_of(row)?.ok_or_else(|| TaskError::WorktreeMissing {
            name: row.name.clone(),
            path,
        })
    }

    /// Task `id`'s whole change against where its branch left its base.
    pub async fn change(&self, id: &str) -> Result<TaskChange, TaskError> {
        let row = self.row(id).await?;
        let wt = self.open_worktree(&row)?;
        let tree = snapshot_tree(&wt)?;
        let base = diff_base(&wt, &row.base, row.base_commit.as_deref())?;
        let mut files = Vec::new();
        for stat in file_stats(&wt, &base, &tree)? {
            files.push(file_diff(&wt, &base, &stat.path)?);
        }
        Ok(TaskChange {
            task_id: row.id,
            base_commit: base,
            files,
        })
    }

    /// Reverts `path` in task `id`'s worktree to its base: the whole file (`hunks: None`) or
    /// the hunks named. Returns the change after it.
    pub async fn drop_change(
        &self,
        id: &str,
        path: &str,
        hunks: Option<&[HunkRef]>,
    ) -> Result<TaskChange, TaskError> {
        let row = self.row(id).await?;
        let wt = self.open_worktree(&row)?;
        let inside = !path.is_empty()
            && Path::new(path)
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
        if !inside {
            return Err(TaskError::Review(format!(
                "{path} is not a path in the task"
            )));
        }
        let base = diff_base(&wt, &row.base, row.base_commit.as_deref())?;
        let on_disk = wt.path.join(path);
        let before = base_bytes(&wt, &base, path)?;
        match hunks {
            None => match &before {
                Some(bytes) => write(&on_disk, bytes)?,
                None => {
                    if on_disk.exists() {
                        std::fs::remove_file(&on_disk)
                            .map_err(TaskError::io("remove", &on_disk))?;
                    }
                }
            },
            Some(dropped) => {
                let old = before.as_deref().and_then(text).ok_or_else(|| {
                    TaskError::Review(format!("{path} is new or not text: drop the whole file"))
                })?;
                let now = std::fs::read(&on_disk).map_err(TaskError::io("read", &on_disk))?;
                let new = text(&now).ok_or_else(|| {
                    TaskError::Review(format!("{path} is not text: drop the whole file"))
                })?;
                let diff = diff_texts(path, Some(old), Some(new), DiffLimits::default());
                let refs: Vec<HunkRef> = diff.hunks.iter().map(|h| h.reference()).collect();
                if let Some(missing) = dropped.iter().find(|d| !refs.contains(d)) {
                    return Err(TaskError::Review(format!(
                        "{path} changed since you looked (the hunk at line {} is not there any \
                         more); look at it again",
                        missing.new_start
                    )));
                }
                let keep: Vec<u32> = refs
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| !dropped.contains(r))
                    .filter_map(|(i, _)| u32::try_from(i).ok())
                    .collect();
                let result = apply_hunks(&diff, old, new, &keep)
                    .map_err(|e| TaskError::Review(e.to_string()))?;
                write(&on_disk, result.as_bytes())?;
            }
        }
        self.change(id).await
    }
}

fn file_diff(wt: &Worktree, base: &str, path: &str) -> Result<FileDiff, TaskError> {
    let before = base_bytes(wt, base, path)?;
    let on_disk = wt.path.join(path);
    let now = std::fs::read(&on_disk).ok();
    let old = before
        .as_deref()
        .map(|b| text(b).unwrap_or("(binary file)\n"));
    let new = now.as_deref().map(|b| text(b).unwrap_or("(binary file)\n"));
    Ok(diff_texts(path, old, new, DiffLimits::default()))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), TaskError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(TaskError::io("create", parent))?;
    }
    std::fs::write(path, bytes).map_err(TaskError::io("write", path))
}
