//! The merge queue: one task at a time per repository (across the app and every CLI), each
//! through the same steps — commit the task's changes on its branch, rebase onto the target's
//! tip (or merge it in), run the check confined in the worktree, and fast-forward the target
//! only when the check passed. It never force-pushes, never rewrites the target and never
//! touches the user's uncommitted work: the checkout is moved with `git merge --ff-only` when
//! it is on the target (git refuses rather than overwrite a local change), otherwise only the
//! branch moves, with a compare-and-swap so a target that moved meanwhile is rebased onto again.
//!
//! The check is the one the target's tip names in `.foreman/worktree.toml` (or the one the user
//! gives), never the task's own copy, which its agent could have changed.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::protocol::{MergeProgress, MergeStep, SandboxLevel, TaskPlace};
use crate::sandbox::{self, SandboxPolicy};
use crate::store::{TaskLife, TaskRow};

use super::config::{CONFIG_FILE, TaskConfig};
use super::error::TaskError;
use super::place::run_confined;
use super::refs::OtherBranches;
use super::repo::Repo;
use super::worktree::Worktree;
use super::{Tasks, git, locks};
use crate::store::now_ms;

/// How the task's branch is brought onto the target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MergeStrategy {
    /// Rebase its commits onto the target's tip: a straight history.
    #[default]
    Rebase,
    /// Merge the target's tip into it: a merge commit.
    MergeCommit,
}

/// How to merge.
#[derive(Debug, Clone, Default)]
pub struct MergeOptions {
    /// The commit message for the task's uncommitted changes (`None`: the drafted one).
    pub message: Option<String>,
    /// The check to run instead of the repository's.
    pub check: Option<String>,
    /// The branch to land on (`None`: the task's base).
    pub into: Option<String>,
    pub strategy: MergeStrategy,
    /// Paths hidden from the check (the sandbox's list).
    pub hidden: Vec<PathBuf>,
}

impl MergeStrategy {
    /// A merge commit when the user chose one (Settings › Tasks, `--merge-commit`), else a
    /// rebase.
    pub fn chosen(merge_commit: bool) -> Self {
        if merge_commit {
            Self::MergeCommit
        } else {
            Self::Rebase
        }
    }
}

impl MergeOptions {
    /// What the user chose: the commit `message` (`None`: the drafted one), a merge commit or
    /// a rebase, and the paths `hidden` from the check; the repository's check, onto the
    /// task's base.
    pub fn chosen(message: Option<String>, merge_commit: bool, hidden: Vec<PathBuf>) -> Self {
        Self {
            message,
            check: None,
            into: None,
            strategy: MergeStrategy::chosen(merge_commit),
            hidden,
        }
    }
}

/// How many times a target that moved during a merge is rebased onto again.
const RETRIES: usize = 3;

/// The last lines of a check's output that a card shows.
const OUTPUT_TAIL: usize = 8 * 1024;

struct Run<'a> {
    tasks: &'a Tasks,
    row: TaskRow,
    progress: MergeProgress,
    on_progress: &'a (dyn Fn(&MergeProgress) + Send + Sync),
}

impl Run<'_> {
    async fn step(&mut self, step: MergeStep) -> Result<(), TaskError> {
        self.progress.step = step;
        self.save().await
    }

    async fn save(&mut self) -> Result<(), TaskError> {
        self.row.merge = serde_json::to_string(&self.progress).ok();
        self.row.merge_at = Some(now_ms());
        self.row.updated_at = now_ms();
        self.tasks.store.update_task(&self.row).await?;
        (self.on_progress)(&self.progress);
        Ok(())
    }

    async fn stop(&mut self, step: MergeStep, message: String) -> Result<MergeProgress, TaskError> {
        self.progress.step = step;
        self.progress.message = Some(message);
        self.save().await?;
        Ok(self.progress.clone())
    }
}

impl Tasks {
    /// A commit message for task `id`'s uncommitted changes: its title, and the files it
    /// changes. `None` when everything is committed on its branch already (a merge then lands
    /// its commits as they are).
    pub async fn draft_message(&self, id: &str) -> Result<Option<String>, TaskError> {
        let row = self.row(id).await?;
        let Some(wt) = super::worktree_of(&row)? else {
            return Ok(Some(self.title_of(&row).await?));
        };
        let files = wt.changed_paths()?;
        if files.is_empty() {
            return Ok(None);
        }
        let mut message = self.title_of(&row).await?;
        message.push_str("\n\nChanged by the Foreman task ");
        message.push_str(&row.name);
        message.push_str(":\n");
        for f in files.iter().take(20) {
            message.push_str(&format!("- {f}\n"));
        }
        Ok(Some(message))
    }

    /// A task's title, or "Task <name>" when it has none.
    async fn title_of(&self, row: &TaskRow) -> Result<String, TaskError> {
        Ok(self
            .store
            .session(&row.id)
            .await?
            .map(|s| s.title)
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| format!("Task {}", row.name)))
    }

    /// Cancels task `id`'s merge when it has not landed; `false` when there is none to cancel.
    pub async fn cancel_merge(&self, id: &str) -> Result<bool, TaskError> {
        if let Ok(merges) = self.merges.lock()
            && let Some(token) = merges.get(id)
        {
            token.cancel();
            return Ok(true);
        }
        // A merge another process runs sees the step when it next looks.
        let mut row = self.row(id).await?;
        let Some(mut progress) = row
            .merge
            .as_deref()
            .and_then(|m| serde_json::from_str::<MergeProgress>(m).ok())
            .filter(|p| !p.step.is_over())
        else {
            return Ok(false);
        };
        progress.step = MergeStep::Cancelled;
        progress.message = Some("Cancelled; nothing landed.".into());
        row.merge = serde_json::to_string(&progress).ok();
        row.merge_at = Some(now_ms());
        self.store.update_task(&row).await?;
        Ok(true)
    }

    /// Puts task `id` in the merge queue and returns: the merge goes on on its own (on the
    /// Tokio runtime), `on_progress` seeing every step and `on_over` how it ended, each with
    /// the task's row as it was when the merge began.
    pub async fn start_merge(
        &self,
        id: &str,
        options: MergeOptions,
        on_progress: impl Fn(&TaskRow, &MergeProgress) + Send + Sync + 'static,
        on_over: impl FnOnce(&TaskRow, Result<MergeProgress, TaskError>) + Send + 'static,
    ) -> Result<(), TaskError> {
        let row = self.row(id).await?;
        let tasks = self.clone();
        tokio::spawn(async move {
            let progress = |p: &MergeProgress| on_progress(&row, p);
            let result = tasks.merge(&row.id, options, &progress).await;
            on_over(&row, result);
        });
        Ok(())
    }

    /// Merges task `id` through the queue; `on_progress` sees every step. Returns where it
    /// ended: merged, or why not (nothing landed then).
    pub async fn merge(
        &self,
        id: &str,
        options: MergeOptions,
        on_progress: &(dyn Fn(&MergeProgress) + Send + Sync),
    ) -> Result<MergeProgress, TaskError> {
        let row = self.row(id).await?;
        match row.state {
            TaskLife::Merged | TaskLife::Discarded => {
                return Err(TaskError::WrongState {
                    name: row.name.clone(),
                    state: row.state.to_string(),
                    what: "there is nothing to merge".into(),
                });
            }
            _ if row.place != TaskPlace::Worktree => return Err(TaskError::NotAWorktree(row.name)),
            _ => {}
        }
        let path = PathBuf::from(&row.path);
        let wt = super::worktree_of(&row)?.ok_or_else(|| TaskError::WorktreeMissing {
            name: row.name.clone(),
            path: path.clone(),
        })?;
        let repo =
            Repo::at(Path::new(&row.workspace_path))?.ok_or_else(|| TaskError::NotARepository {
                path: PathBuf::from(&row.workspace_path),
            })?;
        let target = match &options.into {
            Some(into) => into.clone(),
            None if repo.has_branch(&row.base)? => row.base.clone(),
            None => return Err(TaskError::DetachedHead),
        };
        if !repo.has_branch(&target)? {
            return Err(TaskError::NoSuchBase(target));
        }
        let cancel = CancellationToken::new();
        if let Ok(mut merges) = self.merges.lock() {
            merges.insert(id.to_owned(), cancel.clone());
        }
        let ahead = self
            .store
            .tasks(&row.workspace_path)
            .await?
            .iter()
            .filter(|t| t.id != row.id)
            .filter_map(|t| t.merge.as_deref())
            .filter_map(|m| serde_json::from_str::<MergeProgress>(m).ok())
            .filter(|m| !m.step.is_over())
            .count();
        let mut run = Run {
            tasks: self,
            row,
            progress: MergeProgress {
                step: MergeStep::Queued,
                target: target.clone(),
                ahead: u32::try_from(ahead).unwrap_or(u32::MAX),
                message: None,
                output: None,
                conflicts: Vec::new(),
                commit: None,
            },
            on_progress,
        };
        run.save().await?;
        let result = self
            .run_merge(&mut run, &repo, &wt, &target, &options, &cancel)
            .await;
        if let Ok(mut merges) = self.merges.lock() {
            merges.remove(id);
        }
        match result {
            Ok(progress) => Ok(progress),
            // Whatever failed, the task is not left "merging".
            Err(e) => {
                let _ = run.stop(MergeStep::Refused, e.to_string()).await;
                Err(e)
            }
        }
    }

    async fn run_merge(
        &self,
        run: &mut Run<'_>,
        repo: &Repo,
        wt: &Worktree,
        target: &str,
        options: &MergeOptions,
        cancel: &CancellationToken,
    ) -> Result<MergeProgress, TaskError> {
        let cancelled = "Cancelled; nothing landed.".to_owned();
        // 1. Wait for the tasks ahead.
        let _lock = loop {
            if cancel.is_cancelled() || self.cancelled_elsewhere(&run.row.id).await? {
                return run.stop(MergeStep::Cancelled, cancelled).await;
            }
            let path = self.data_dir.join("locks");
            let key = repo.common_dir.display().to_string();
            if let Some(held) = try_merge_lock(&path, &key, &run.row.name)? {
                break held;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        };
        run.progress.ahead = 0;
        // 2. Commit what is not committed, on the task's branch only.
        run.step(MergeStep::Committing).await?;
        let branch = run.row.branch.clone().unwrap_or_default();
        wt.ensure_on(&branch)?;
        wt.absorb_objects()?;
        if !wt.changed_paths()?.is_empty() {
            let message = match &options.message {
                Some(m) if !m.trim().is_empty() => m.clone(),
                _ => match self.draft_message(&run.row.id).await? {
                    Some(drafted) => drafted,
                    None => self.title_of(&run.row).await?,
                },
            };
            wt.run(["add", "-A"])?;
            let mut args = git::identity_args(&repo.root);
            args.extend(["commit", "-q", "-m", &message].map(str::to_owned));
            wt.run(&args)?;
        }
        for _attempt in 0..RETRIES {
            if cancel.is_cancelled() {
                return run.stop(MergeStep::Cancelled, cancelled).await;
            }
            // 3. Onto the target's tip.
            run.step(MergeStep::Rebasing).await?;
            let tip = repo.commit_of(target)?;
            let count = wt.run(["rev-list", "--count", &format!("{tip}..HEAD")])?;
            if count.trim() == "0" {
                return run
                    .stop(
                        MergeStep::Refused,
                        format!("Nothing to merge: the task has no change that {target} lacks."),
                    )
                    .await;
            }
            let mut args = git::identity_args(&repo.root);
            match options.strategy {
                MergeStrategy::Rebase => args.extend(["rebase", "-q", &tip].map(str::to_owned)),
                MergeStrategy::MergeCommit => {
                    args.extend(["merge", "-q", "--no-ff", "--no-edit", &tip].map(str::to_owned))
                }
            }
            let out = wt.output(&args)?;
            if !out.status.success() {
                let conflicts: Vec<String> = wt
                    .run(["diff", "--name-only", "--diff-filter=U"])?
                    .lines()
                    .map(str::to_owned)
                    .collect();
                let abort = match options.strategy {
                    MergeStrategy::Rebase => ["rebase", "--abort"],
                    MergeStrategy::MergeCommit => ["merge", "--abort"],
                };
                let _ = wt.run(abort);
                if conflicts.is_empty() {
                    return Err(git::failed(&args, &out));
                }
                run.progress.conflicts = conflicts.clone();
                return run
                    .stop(
                        MergeStep::Conflict,
                        format!(
                            "Bringing the task onto {target} met conflicts in {}; its branch is \
                             as it was, and nothing landed.",
                            conflicts.join(", ")
                        ),
                    )
                    .await;
            }
            // 4. The check, confined.
            let check = match &options.check {
                Some(c) => Some(c.clone()),
                None => check_at(repo, &tip)?,
            };
            if let Some(check) = &check {
                run.step(MergeStep::Checking).await?;
                let Some(policy) = self.check_policy(wt, &branch, options)? else {
                    return run
                        .stop(
                            MergeStep::Refused,
                            "The check cannot run confined on this machine, so nothing landed."
                                .into(),
                        )
                        .await;
                };
                let done = run_confined(check, &wt.path, &policy, &[], cancel).await?;
                let Some((passed, output)) = done else {
                    return run.stop(MergeStep::Cancelled, cancelled).await;
                };
                run.progress.output = Some(tail(&output));
                if !passed {
                    return run
                        .stop(
                            MergeStep::CheckFailed,
                            format!("The check `{check}` failed, so nothing landed on {target}."),
                        )
                        .await;
                }
            }
            if cancel.is_cancelled() {
                return run.stop(MergeStep::Cancelled, cancelled).await;
            }
            // 5. Fast-forward the target.
            run.step(MergeStep::Landing).await?;
            let new = wt.run(["rev-parse", "HEAD"])?;
            // As git and the window shorten it (7), so both name the same commit alike.
            let short: String = new.chars().take(7).collect();
            let on_target = repo.current_branch()?.as_deref() == Some(target);
            let landed = if on_target {
                let out = git::output(&repo.root, &["merge", "--ff-only", "-q", &new])?;
                if !out.status.success() {
                    if repo.commit_of(target)? != tip {
                        continue; // it moved: onto the new tip
                    }
                    return run
                        .stop(
                            MergeStep::Refused,
                            format!(
                                "Your checkout is on {target} and has uncommitted changes that \
                                 landing would overwrite ({}); nothing landed. Commit or stash \
                                 them, then merge again.",
                                String::from_utf8_lossy(&out.stderr).trim()
                            ),
                        )
                        .await;
                }
                format!("Landed on {target} as {short}; your checkout was brought up to date.")
            } else {
                let reference = format!("refs/heads/{target}");
                if !git::succeeds(&repo.root, &["update-ref", &reference, &new, &tip])? {
                    continue; // it moved: onto the new tip
                }
                let at = repo
                    .current_branch()?
                    .map_or("a detached HEAD".to_owned(), |b| format!("the branch {b}"));
                format!(
                    "Landed on {target} as {short}; your checkout is on {at} and was not touched."
                )
            };
            run.progress.commit = Some(new);
            run.row.state = TaskLife::Merged;
            return run.stop(MergeStep::Merged, landed).await;
        }
        run.stop(
            MergeStep::Refused,
            format!("{target} kept moving while the task was merged; merge it again."),
        )
        .await
    }

    async fn cancelled_elsewhere(&self, id: &str) -> Result<bool, TaskError> {
        Ok(self
            .row(id)
            .await?
            .merge
            .as_deref()
            .and_then(|m| serde_json::from_str::<MergeProgress>(m).ok())
            .is_some_and(|m| m.step == MergeStep::Cancelled))
    }

    /// The sandbox of the check: the worktree, no network, the hidden paths hidden, the other
    /// branches than `branch` kept from it.
    fn check_policy(
        &self,
        wt: &Worktree,
        branch: &str,
        options: &MergeOptions,
    ) -> Result<Option<SandboxPolicy>, TaskError> {
        if !sandbox::availability(SandboxLevel::WorkspaceWrite).is_available() {
            return Ok(None);
        }
        let temp = wt.git_dir.join("foreman-check-tmp");
        std::fs::create_dir_all(&temp).map_err(TaskError::io("create", &temp))?;
        let mut policy =
            SandboxPolicy::new(SandboxLevel::WorkspaceWrite, false, wt.path.clone(), temp);
        policy.hidden = options.hidden.clone();
        policy.extra_writable = wt.sandbox_writable();
        policy.read_only = wt.sandbox_read_only();
        policy.env = wt.sandbox_env();
        OtherBranches::new(&wt.common_dir, branch).keep_from(&mut policy);
        Ok(Some(policy))
    }
}

fn try_merge_lock(
    dir: &Path,
    repo_key: &str,
    holder: &str,
) -> Result<Option<locks::Held>, TaskError> {
    locks::try_merge(dir, repo_key, holder)
}

/// The check the repository names at commit `tip`.
fn check_at(repo: &Repo, tip: &str) -> Result<Option<String>, TaskError> {
    let out = git::output(&repo.root, &["show", &format!("{tip}:{CONFIG_FILE}")])?;
    if !out.status.success() {
        return Ok(None);
    }
    Ok(TaskConfig::parse(&String::from_utf8_lossy(&out.stdout))?.check)
}

fn tail(text: &str) -> String {
    if text.len() <= OUTPUT_TAIL {
        return text.to_owned();
    }
    let mut cut = text.len() - OUTPUT_TAIL;
    while !text.is_char_boundary(cut) {
        cut += 1;
    }
    format!("…{}", &text[cut..])
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::protocol::TaskPlace;
    use crate::store::Store;
    use crate::tasks::NewTask;
    use crate::tasks::testing::git_repo;

    async fn two_tasks() -> (Tasks, tempfile::TempDir, tempfile::TempDir, Vec<TaskRow>) {
        let repo = git_repo();
        let data = tempfile::tempdir().unwrap();
        let store = Store::open(&data.path().join("f.db")).await.unwrap();
        let tasks = Tasks::new(store, data.path());
        let mut rows = Vec::new();
        for (name, file) in [("one", "one.txt"), ("two", "two.txt")] {
            let new = NewTask {
                place: TaskPlace::Worktree,
                name: Some(name.into()),
                base: None,
                prompt: String::new(),
                agent: None,
            };
            let task = tasks.start(repo.path(), new).await.unwrap().task;
            std::fs::write(Path::new(&task.path).join(file), format!("{name}\n")).unwrap();
            rows.push(task);
        }
        (tasks, repo, data, rows)
    }

    #[tokio::test]
    async fn the_queue_merges_one_task_at_a_time_and_both_land() {
        let (tasks, repo, _data, rows) = two_tasks().await;
        let seen: Arc<Mutex<Vec<(String, MergeStep)>>> = Arc::default();
        let record = |id: String| {
            let seen = Arc::clone(&seen);
            move |p: &MergeProgress| seen.lock().unwrap().push((id.clone(), p.step))
        };
        let (first, second) = (record(rows[0].id.clone()), record(rows[1].id.clone()));
        let (a, b) = tokio::join!(
            tasks.merge(&rows[0].id, MergeOptions::default(), &first),
            tasks.merge(&rows[1].id, MergeOptions::default(), &second),
        );
        assert_eq!(a.unwrap().step, MergeStep::Merged);
        assert_eq!(b.unwrap().step, MergeStep::Merged);
        for file in ["one.txt", "two.txt"] {
            assert!(
                repo.path().join(file).is_file(),
                "{file} landed in the checkout"
            );
        }
        // Once a task's merge started working, the other's steps wait until it is over.
        let steps = seen.lock().unwrap().clone();
        let working: Vec<&(String, MergeStep)> = steps
            .iter()
            .filter(|(_, s)| *s != MergeStep::Queued)
            .collect();
        let first_id = &working[0].0;
        let switch = working.iter().position(|(id, _)| id != first_id).unwrap();
        assert_eq!(working[switch - 1].1, MergeStep::Merged, "{steps:?}");
        assert!(
            working[switch..].iter().all(|(id, _)| id != first_id),
            "{steps:?}"
        );
    }

    #[tokio::test]
    async fn a_merge_commit_can_take_the_place_of_a_rebase() {
        let (tasks, repo, _data, rows) = two_tasks().await;
        let quiet = |_: &MergeProgress| {};
        tasks
            .merge(&rows[0].id, MergeOptions::default(), &quiet)
            .await
            .unwrap();
        let options = MergeOptions {
            strategy: MergeStrategy::MergeCommit,
            message: Some("Add two".into()),
            ..MergeOptions::default()
        };
        let done = tasks.merge(&rows[1].id, options, &quiet).await.unwrap();
        assert_eq!(done.step, MergeStep::Merged, "{:?}", done.message);
        let parents = git::run(repo.path(), ["rev-list", "--parents", "-n", "1", "main"]).unwrap();
        assert_eq!(parents.split(' ').count(), 3, "a merge commit: {parents}");
        let subjects = git::run(repo.path(), ["log", "--format=%s", "main"]).unwrap();
        assert!(subjects.contains("Add two"), "{subjects}");
        // Everything of a merged task is committed: there is no message to draft.
        assert_eq!(tasks.draft_message(&rows[1].id).await.unwrap(), None);
        // A merged task cannot merge again, and says why.
        let again = tasks
            .merge(&rows[1].id, MergeOptions::default(), &quiet)
            .await;
        assert!(again.unwrap_err().to_string().contains("nothing to merge"));
    }
}
