//! Ending a task without merging it, and coming back from that: discard (its work is kept under
//! a ref of the repository for [`RESTORE_DAYS`](super::RESTORE_DAYS) days, and unmerged work
//! asks first), restore (the worktree comes back as it was, uncommitted changes included; a
//! worktree deleted by hand comes back from its branch), hand back (the change is applied to
//! the user's clean checkout and the task goes on in the folder), and cleaning up the worktrees
//! of merged tasks.

use std::path::{Path, PathBuf};

use crate::protocol::TaskPlace;
use crate::store::{TaskLife, TaskRow};

use super::changes::{diff_base, snapshot_tree};
use super::error::TaskError;
use super::repo::Repo;
use super::worktree::{self, Worktree, disk_usage};
use super::{Tasks, git};
use crate::store::now_ms;

impl Tasks {
    fn repo_of(row: &TaskRow) -> Result<Repo, TaskError> {
        Repo::at(Path::new(&row.workspace_path))?.ok_or_else(|| TaskError::NotARepository {
            path: PathBuf::from(&row.workspace_path),
        })
    }

    /// Saves the worktree as it is (committed or not) as a commit under a ref of the
    /// repository; returns the ref and whether the task had unmerged work.
    fn save(&self, row: &TaskRow, wt: &Worktree) -> Result<(String, bool), TaskError> {
        let tree = snapshot_tree(wt)?;
        let from = diff_base(wt, &row.base, row.base_commit.as_deref())?;
        let unmerged = !wt.succeeds(&["diff", "--quiet", &from, &tree])?;
        let mut args = git::identity_args(Path::new(&row.workspace_path));
        args.extend(
            [
                "commit-tree",
                &tree,
                "-p",
                "HEAD",
                "-m",
                &format!("Foreman: the task {} as it was when set aside", row.name),
            ]
            .map(str::to_owned),
        );
        let commit = wt.run(&args)?;
        let short: String = row.id.chars().rev().take(8).collect();
        let reference = format!("refs/foreman/saved/{}-{short}", row.name);
        wt.run(["update-ref", &reference, &commit])?;
        Ok((reference, unmerged))
    }

    /// Discards task `id`. Work that was never merged is kept (restorable) but asks first:
    /// without `confirmed` it is an error that says so and nothing changes.
    pub async fn discard(&self, id: &str, confirmed: bool) -> Result<TaskRow, TaskError> {
        let mut row = self.row(id).await?;
        if row.state == TaskLife::Discarded {
            return Err(TaskError::WrongState {
                name: row.name,
                state: "discarded already".into(),
                what: "restore it first".into(),
            });
        }
        if row.place == TaskPlace::Worktree {
            let repo = Self::repo_of(&row)?;
            let path = PathBuf::from(&row.path);
            let saved = match super::worktree_of(&row)? {
                Some(wt) => {
                    let (reference, unmerged) = self.save(&row, &wt)?;
                    if unmerged && !confirmed && row.state != TaskLife::Merged {
                        let _ = git::run(&repo.root, ["update-ref", "-d", &reference]);
                        return Err(TaskError::UnmergedWork { name: row.name });
                    }
                    Some(reference)
                }
                // Deleted by hand: what is left is its branch.
                None => match &row.branch {
                    Some(branch) if repo.has_branch(branch)? => {
                        if !confirmed && row.state != TaskLife::Merged {
                            return Err(TaskError::UnmergedWork { name: row.name });
                        }
                        let short: String = row.id.chars().rev().take(8).collect();
                        let reference = format!("refs/foreman/saved/{}-{short}", row.name);
                        git::run(&repo.root, ["update-ref", &reference, branch])?;
                        Some(reference)
                    }
                    _ => None,
                },
            };
            worktree::remove(&repo, &path, row.branch.as_deref())?;
            row.trash_ref = saved;
        }
        row.state = TaskLife::Discarded;
        row.discarded_at = Some(now_ms());
        row.port = None;
        row.updated_at = now_ms();
        self.store.update_task(&row).await?;
        Ok(row)
    }

    /// Deletes the stored session `id`. A task's session takes its worktree with it: the task
    /// is discarded first, its work kept restorable as a discard keeps it. Returns the folder
    /// of the task discarded.
    pub async fn delete_session(&self, id: &str) -> Result<Option<String>, TaskError> {
        let mut discarded = None;
        if let Some(task) = self.store.task(id).await?
            && task.state != TaskLife::Discarded
        {
            self.discard(id, true).await?;
            discarded = Some(task.workspace_path);
        }
        self.store.delete_session(id).await?;
        Ok(discarded)
    }

    /// Brings task `id` back: a discarded one as it was when discarded, an active one whose
    /// worktree was deleted by hand from its branch.
    pub async fn restore(&self, id: &str) -> Result<TaskRow, TaskError> {
        let mut row = self.row(id).await?;
        if row.place != TaskPlace::Worktree {
            if row.state == TaskLife::Discarded {
                row.state = TaskLife::Active;
                row.discarded_at = None;
                row.updated_at = now_ms();
                self.store.update_task(&row).await?;
                return Ok(row);
            }
            return Err(TaskError::NotAWorktree(row.name));
        }
        let repo = Self::repo_of(&row)?;
        let path = PathBuf::from(&row.path);
        let branch = row
            .branch
            .clone()
            .unwrap_or_else(|| format!("foreman/{}", row.name));
        let cannot = |why: String| TaskError::CannotRestore {
            name: row.name.clone(),
            why,
        };
        if row.state != TaskLife::Discarded {
            if Worktree::open(&path, &repo.common_dir)?.is_some() {
                return Err(cannot(
                    "its worktree is there; there is nothing to restore".into(),
                ));
            }
            if !repo.has_branch(&branch)? {
                return Err(cannot(format!("its branch {branch} is gone too")));
            }
            worktree::prune(&repo)?;
            if path.exists() {
                return Err(cannot(format!("{} is in the way", path.display())));
            }
            let args = git::worktree_args(&["add".as_ref(), path.as_os_str(), branch.as_ref()]);
            let out = git::output(&repo.root, &args)?;
            if !out.status.success() {
                return Err(git::failed(&args, &out));
            }
            Worktree::open(&path, &repo.common_dir)?
                .ok_or_else(|| cannot("git did not make the worktree".into()))?
                .prepare_private_store()?;
            row.note = Some(
                "Restored from its branch: changes that were never committed were lost with \
                 the folder."
                    .into(),
            );
            row.updated_at = now_ms();
            self.store.update_task(&row).await?;
            return Ok(row);
        }
        let saved = row
            .trash_ref
            .clone()
            .ok_or_else(|| cannot("its saved work is gone (kept for 14 days)".into()))?;
        if repo.has_branch(&branch)? {
            return Err(cannot(format!("a branch {branch} exists already")));
        }
        if path.exists() {
            return Err(cannot(format!("{} is in the way", path.display())));
        }
        let parent = repo.commit_of(&format!("{saved}^"))?;
        let (wt, _) = Worktree::create(&repo, &path, &branch, &parent)?;
        wt.run(["read-tree", "-u", "--reset", &saved])?;
        wt.run(["reset", "-q"])?;
        git::run(&repo.root, ["update-ref", "-d", &saved])?;
        row.state = TaskLife::Active;
        row.trash_ref = None;
        row.discarded_at = None;
        row.note = None;
        row.updated_at = now_ms();
        self.store.update_task(&row).await?;
        Ok(row)
    }

    /// Applies task `id`'s whole change to the user's checkout, which must be clean, and moves
    /// the task there (its worktree is saved, then removed).
    pub async fn hand_back(&self, id: &str) -> Result<TaskRow, TaskError> {
        let mut row = self.row(id).await?;
        if row.place != TaskPlace::Worktree {
            return Err(TaskError::NotAWorktree(row.name));
        }
        let repo = Self::repo_of(&row)?;
        let dirty = repo.uncommitted()?;
        if !dirty.is_empty() {
            return Err(TaskError::CheckoutDirty {
                files: dirty.join(", "),
            });
        }
        let path = PathBuf::from(&row.path);
        let wt = super::worktree_of(&row)?.ok_or_else(|| TaskError::WorktreeMissing {
            name: row.name.clone(),
            path: path.clone(),
        })?;
        let tree = snapshot_tree(&wt)?;
        let from = diff_base(&wt, &row.base, row.base_commit.as_deref())?;
        let patch = git::run(
            &repo.root,
            [
                "diff",
                "--binary",
                "--no-color",
                "--no-ext-diff",
                &from,
                &tree,
            ],
        )?;
        if !patch.trim().is_empty() {
            let file = self.data_dir.join(format!("hand-back-{}.patch", row.name));
            std::fs::write(&file, format!("{patch}\n")).map_err(TaskError::io("write", &file))?;
            let out = git::output(
                &repo.root,
                &["apply".as_ref(), "--binary".as_ref(), file.as_os_str()],
            );
            let _ = std::fs::remove_file(&file);
            let out = out?;
            if !out.status.success() {
                return Err(TaskError::Git {
                    command: "git apply".into(),
                    message: format!(
                        "the task's change does not apply to your checkout, which was left as \
                         it was: {}",
                        String::from_utf8_lossy(&out.stderr).trim()
                    ),
                });
            }
        }
        let (saved, _) = self.save(&row, &wt)?;
        worktree::remove(&repo, &path, row.branch.as_deref())?;
        row.place = TaskPlace::Folder;
        row.path = row.workspace_path.clone();
        row.branch = None;
        row.trash_ref = Some(saved);
        row.note = Some("Handed back: its change is in your checkout, uncommitted.".into());
        row.updated_at = now_ms();
        self.store.update_task(&row).await?;
        Ok(row)
    }

    /// Removes the worktrees (and branches) of `folder`'s merged tasks that hold nothing new
    /// since their merge; returns the bytes freed and the tasks left alone, with why.
    pub async fn clean_up_merged(&self, folder: &str) -> Result<(u64, Vec<String>), TaskError> {
        let mut freed = 0u64;
        let mut kept = Vec::new();
        for row in self.store.tasks(folder).await? {
            if row.state != TaskLife::Merged || row.place != TaskPlace::Worktree {
                continue;
            }
            let path = PathBuf::from(&row.path);
            let Some(wt) = super::worktree_of(&row)? else {
                continue;
            };
            let tree = snapshot_tree(&wt)?;
            if !wt.succeeds(&["diff", "--quiet", "HEAD", &tree])? {
                kept.push(format!(
                    "{}: it has changes made after its merge; merge or discard them first",
                    row.name
                ));
                continue;
            }
            let size = disk_usage(&path);
            worktree::remove(&Self::repo_of(&row)?, &path, row.branch.as_deref())?;
            freed = freed.saturating_add(size);
        }
        Ok((freed, kept))
    }
}
