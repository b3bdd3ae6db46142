//! Listing tasks as the sidebar, the inbox and `foreman-cli tasks list` show them: each one's
//! state (from the store, the running session and its last task end), its change against its
//! base, its disk, whether its worktree is still there, and its overlaps with the others.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::protocol::records::SessionActivity;
use crate::protocol::{
    InboxItem, InboxKind, MergeProgress, MergeStep, TaskEndReason, TaskPlace, TaskState,
    TaskSummary,
};
use crate::store::{TaskLife, TaskRow};

use super::changes::{self, FileStat};
use super::error::TaskError;
use super::overlap::{Touched, overlaps};
use super::worktree::{Worktree, disk_usage};
use super::{RESTORE_DAYS, Tasks, locks};
use crate::store::now_ms;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// A change per file, and the lines each file's change touches.
type Measured = (
    Vec<FileStat>,
    std::collections::BTreeMap<String, Vec<std::ops::Range<u32>>>,
);

/// What is known about a task besides its row.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    /// The session runs in this process (the app knows; the CLI does not).
    pub live: Option<SessionActivity>,
    /// Some process holds the task's running lock.
    pub running_elsewhere: bool,
    /// How its last agent task ended, and when.
    pub last_end: Option<(TaskEndReason, i64)>,
    /// Waiting for a slot or for the folder in this process.
    pub queued: bool,
}

/// The state a task is in.
pub fn state_of(row: &TaskRow, merge: Option<&MergeProgress>, seen: &Seen) -> TaskState {
    match row.state {
        TaskLife::Discarded => return TaskState::Discarded,
        TaskLife::Merged => return TaskState::Merged,
        TaskLife::Active => {}
    }
    if merge.is_some_and(|m| !m.step.is_over()) {
        return TaskState::Merging;
    }
    if let Some(live) = seen.live {
        if live.waiting > 0 {
            return TaskState::Waiting;
        }
        // An open session that has not started yet is new (below): it waits for its first
        // message, and nothing runs.
        if live.running {
            return TaskState::Running;
        }
    } else if seen.running_elsewhere {
        return TaskState::Running;
    }
    if seen.queued {
        return TaskState::Queued;
    }
    let end_at = seen.last_end.as_ref().map_or(i64::MIN, |(_, at)| *at);
    if let Some(m) = merge
        && matches!(
            m.step,
            MergeStep::Conflict | MergeStep::CheckFailed | MergeStep::Refused
        )
        && row.merge_at.unwrap_or(i64::MIN) >= end_at
    {
        return TaskState::Failed;
    }
    match &seen.last_end {
        Some((reason, _)) if reason.is_success() => TaskState::Ready,
        Some(_) => TaskState::Failed,
        None => TaskState::New,
    }
}

impl Tasks {
    /// What needs the user across the tasks of `folders` ([`inbox`]), `live` and `queued` as
    /// [`Self::list`] takes them.
    pub async fn inbox_of(
        &self,
        folders: impl IntoIterator<Item = PathBuf>,
        live: &HashMap<String, SessionActivity>,
        queued: &HashMap<String, String>,
    ) -> Result<Vec<InboxItem>, TaskError> {
        let mut all = Vec::new();
        for folder in folders {
            let folder = folder.display().to_string();
            all.extend(self.list(&folder, live, queued).await?);
        }
        let waiting: HashMap<String, u32> = all
            .iter()
            .filter_map(|t| live.get(&t.id).map(|a| (t.id.clone(), a.waiting)))
            .collect();
        Ok(inbox(&all, &waiting))
    }

    /// The tasks of `folder`, oldest first. `live` is what this process knows of running
    /// sessions (by id); `queued` the tasks it holds waiting for a slot or for the folder,
    /// with why (their note says it).
    pub async fn list(
        &self,
        folder: &str,
        live: &HashMap<String, SessionActivity>,
        queued: &HashMap<String, String>,
    ) -> Result<Vec<TaskSummary>, TaskError> {
        let rows = self.store.tasks(folder).await?;
        let mut summaries = Vec::with_capacity(rows.len());
        let mut touched: Vec<Touched> = Vec::new();
        for mut row in rows {
            self.expire_trash(&mut row).await?;
            let merge: Option<MergeProgress> = row
                .merge
                .as_deref()
                .and_then(|m| serde_json::from_str(m).ok());
            let last_end = self
                .store
                .last_task_end(&row.id)
                .await?
                .and_then(|(reason, at)| {
                    serde_json::from_value::<TaskEndReason>(reason)
                        .ok()
                        .map(|r| (r, at))
                });
            let seen = Seen {
                live: live.get(&row.id).copied(),
                running_elsewhere: locks::is_running(&self.data_dir, &row.id),
                last_end,
                queued: queued.contains_key(&row.id),
            };
            let state = state_of(&row, merge.as_ref(), &seen);
            let (title, agent) = self
                .store
                .session(&row.id)
                .await?
                .map(|s| (s.title, s.agent))
                .unwrap_or_default();
            let is_worktree = row.place == TaskPlace::Worktree;
            let worktree = match (is_worktree, state) {
                (true, s) if s != TaskState::Discarded => super::worktree_of(&row)?,
                _ => None,
            };
            let missing = is_worktree && state != TaskState::Discarded && worktree.is_none();
            let mut stats: Vec<FileStat> = Vec::new();
            if let Some(wt) = &worktree {
                match self.measure(wt, &row) {
                    Ok((s, lines)) => {
                        if state.is_live() {
                            touched.push(Touched {
                                id: row.id.clone(),
                                name: row.name.clone(),
                                lines,
                            });
                        }
                        stats = s;
                    }
                    Err(error) => tracing::warn!(%error, task = %row.name, "cannot measure"),
                }
            }
            let run_command = worktree
                .as_ref()
                .and_then(|_| self.run_command(&row.workspace_path));
            summaries.push(TaskSummary {
                id: row.id.clone(),
                name: row.name.clone(),
                title,
                agent,
                workspace_path: row.workspace_path.clone(),
                place: row.place,
                path: row.path.clone(),
                branch: row.branch.clone(),
                base: row.base.clone(),
                state,
                added: stats.iter().map(|s| s.added).sum(),
                removed: stats.iter().map(|s| s.removed).sum(),
                files: u32::try_from(stats.len()).unwrap_or(u32::MAX),
                disk_bytes: worktree.as_ref().map(|wt| disk_usage(&wt.path)),
                missing,
                overlaps: Vec::new(),
                merge,
                note: match queued.get(&row.id) {
                    // Why it waits: for a slot, or for the folder another task works in.
                    Some(why) => Some(why.clone()),
                    None if missing => Some(format!(
                        "Its worktree {} was deleted by hand; restore the task to get its last \
                         saved state back, or discard it.",
                        row.path
                    )),
                    None => row.note.clone(),
                },
                port: row.port.and_then(|p| u16::try_from(p).ok()),
                run_command,
                created_at: row.created_at,
                updated_at: row.updated_at,
                restorable_until: row
                    .trash_ref
                    .as_ref()
                    .and(row.discarded_at)
                    .map(|at| at + RESTORE_DAYS * DAY_MS),
            });
        }
        let found = overlaps(&touched);
        for summary in &mut summaries {
            if let Some(list) = found.get(&summary.id) {
                summary.overlaps = list.clone();
            }
        }
        Ok(summaries)
    }

    /// A worktree's change against its base: per file, and the lines each file's change
    /// touches.
    fn measure(&self, wt: &Worktree, row: &TaskRow) -> Result<Measured, TaskError> {
        let tree = changes::snapshot_tree(wt)?;
        let from = changes::diff_base(wt, &row.base, row.base_commit.as_deref())?;
        Ok((
            changes::file_stats(wt, &from, &tree)?,
            changes::touched_lines(wt, &from, &tree)?,
        ))
    }
}

/// What needs the user across `tasks`, most urgent first: approvals, merges that stopped,
/// failures, then tasks ready for review.
pub fn inbox(tasks: &[TaskSummary], live_waiting: &HashMap<String, u32>) -> Vec<InboxItem> {
    let mut items: Vec<InboxItem> = Vec::new();
    for t in tasks {
        let item = |kind: InboxKind, detail: String| InboxItem {
            kind,
            workspace_path: t.workspace_path.clone(),
            task_id: t.id.clone(),
            task_name: t.name.clone(),
            title: t.title.clone(),
            detail,
            at: t.updated_at,
        };
        match t.state {
            TaskState::Waiting => {
                let n = live_waiting.get(&t.id).copied().unwrap_or(1);
                let what = if n == 1 {
                    "1 call waits for your approval".to_owned()
                } else {
                    format!("{n} calls wait for your approval")
                };
                items.push(item(InboxKind::Approval, what));
            }
            TaskState::Failed => match &t.merge {
                Some(m) if m.step == MergeStep::Conflict => items.push(item(
                    InboxKind::Merge,
                    format!("Merge stopped: conflicts in {}", m.conflicts.join(", ")),
                )),
                Some(m) if m.step == MergeStep::CheckFailed => items.push(item(
                    InboxKind::Merge,
                    "Merge refused: the check failed".into(),
                )),
                Some(m) if m.step == MergeStep::Refused => items.push(item(
                    InboxKind::Merge,
                    m.message.clone().unwrap_or_else(|| "Merge refused".into()),
                )),
                _ => items.push(item(
                    InboxKind::Failed,
                    t.note.clone().unwrap_or_else(|| "The task failed".into()),
                )),
            },
            TaskState::Ready => items.push(item(
                InboxKind::Ready,
                format!(
                    "Ready for review: {} file{} +{} −{}",
                    t.files,
                    if t.files == 1 { "" } else { "s" },
                    t.added,
                    t.removed
                ),
            )),
            _ => {}
        }
    }
    let rank = |k: InboxKind| match k {
        InboxKind::Approval => 0,
        InboxKind::Merge => 1,
        InboxKind::Failed => 2,
        InboxKind::Ready => 3,
    };
    items.sort_by(|a, b| rank(a.kind).cmp(&rank(b.kind)).then(b.at.cmp(&a.at)));
    items
}

impl Tasks {
    /// Forgets a discarded task's saved work once it is older than [`RESTORE_DAYS`].
    async fn expire_trash(&self, row: &mut TaskRow) -> Result<(), TaskError> {
        let (Some(reference), Some(at)) = (&row.trash_ref, row.discarded_at) else {
            return Ok(());
        };
        if now_ms() - at < RESTORE_DAYS * DAY_MS {
            return Ok(());
        }
        let _ = super::git::run(
            Path::new(&row.workspace_path),
            ["update-ref", "-d", reference.as_str()],
        );
        row.trash_ref = None;
        row.note = Some(format!(
            "Its saved work was removed after {RESTORE_DAYS} days."
        ));
        self.store.update_task(row).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(state: TaskLife) -> TaskRow {
        TaskRow {
            id: "t".into(),
            workspace_path: "/r".into(),
            name: "t".into(),
            place: TaskPlace::Worktree,
            path: "/w".into(),
            branch: None,
            base: "main".into(),
            base_commit: None,
            state,
            merge: None,
            merge_at: Some(10),
            note: None,
            port: None,
            trash_ref: None,
            discarded_at: None,
            created_at: 0,
            updated_at: 0,
        }
    }

    fn merge(step: MergeStep) -> MergeProgress {
        MergeProgress {
            step,
            target: "main".into(),
            ahead: 0,
            message: None,
            output: None,
            conflicts: vec!["a.rs".into()],
            commit: None,
        }
    }

    #[test]
    fn a_state_comes_from_the_store_the_session_and_the_merge() {
        let done = Seen {
            last_end: Some((
                TaskEndReason::Completed {
                    summary: String::new(),
                },
                5,
            )),
            ..Seen::default()
        };
        assert_eq!(
            state_of(&row(TaskLife::Active), None, &done),
            TaskState::Ready
        );
        assert_eq!(
            state_of(&row(TaskLife::Merged), None, &done),
            TaskState::Merged
        );
        let waiting = Seen {
            live: Some(SessionActivity {
                running: true,
                waiting: 1,
            }),
            ..done.clone()
        };
        assert_eq!(
            state_of(&row(TaskLife::Active), None, &waiting),
            TaskState::Waiting
        );
        let checking = merge(MergeStep::Checking);
        assert_eq!(
            state_of(&row(TaskLife::Active), Some(&checking), &done),
            TaskState::Merging
        );
        // A conflict after the agent finished: failed, until the agent runs again.
        let conflict = merge(MergeStep::Conflict);
        assert_eq!(
            state_of(&row(TaskLife::Active), Some(&conflict), &done),
            TaskState::Failed
        );
        let fixed = Seen {
            last_end: Some((
                TaskEndReason::Completed {
                    summary: String::new(),
                },
                20,
            )),
            ..Seen::default()
        };
        assert_eq!(
            state_of(&row(TaskLife::Active), Some(&conflict), &fixed),
            TaskState::Ready
        );
        assert_eq!(
            state_of(&row(TaskLife::Active), None, &Seen::default()),
            TaskState::New
        );
        let waiting_for_a_slot = Seen {
            queued: true,
            ..Seen::default()
        };
        assert_eq!(
            state_of(&row(TaskLife::Active), None, &waiting_for_a_slot),
            TaskState::Queued
        );
        // Open, before its first message: nothing runs yet.
        let opened = Seen {
            live: Some(SessionActivity::default()),
            ..Seen::default()
        };
        assert_eq!(
            state_of(&row(TaskLife::Active), None, &opened),
            TaskState::New
        );
        let started = Seen {
            live: Some(SessionActivity {
                running: true,
                waiting: 0,
            }),
            ..Seen::default()
        };
        assert_eq!(
            state_of(&row(TaskLife::Active), None, &started),
            TaskState::Running
        );
    }
}
