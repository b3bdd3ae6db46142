//! Tasks: a session with a place to work (the folder itself, or a git worktree of its own), its
//! state across the app and the CLI, what it overlaps with in other tasks, and its way through
//! the merge queue. The inbox lists what needs the user across all tasks.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where a task works. The store keeps it as the same text (`folder`, `worktree`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
#[serde(rename_all = "snake_case")]
pub enum TaskPlace {
    /// In the workspace folder itself (one such task runs at a time).
    Folder,
    /// In a git worktree of its own, on a branch `foreman/<name>`.
    Worktree,
}

/// What a task is doing, as the sidebar and the inbox show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TaskState {
    /// Started, and waits for its first message.
    New,
    /// Waiting for a free slot (the limit of tasks at once) or for the folder.
    Queued,
    /// Its agent is working.
    Running,
    /// Its agent waits for the user (an approval, a question, a pause).
    Waiting,
    /// Its agent finished; the change is ready for review and merge.
    Ready,
    /// In the merge queue.
    Merging,
    /// Its change landed on the target branch.
    Merged,
    /// Its agent's task failed, or its merge was refused.
    Failed,
    /// The user discarded it; it can be restored for a while ([`TaskSummary::restorable_until`]).
    Discarded,
}

impl TaskState {
    /// Still being worked on (its changes count for overlaps).
    pub fn is_live(self) -> bool {
        !matches!(self, Self::Merged | Self::Discarded)
    }
}

/// A file another live task changes too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TaskOverlap {
    /// Relative to the repository's root.
    pub path: String,
    pub task_id: String,
    pub task_name: String,
    /// Both change the same lines (or lines next to each other): merging the second is likely
    /// to conflict.
    pub likely_conflict: bool,
}

/// Where a merge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MergeStep {
    /// Waiting for the tasks before it.
    Queued,
    /// Committing the task's changes on its branch.
    Committing,
    /// Rebasing (or merging) onto the target's tip.
    Rebasing,
    /// Running the check command, confined.
    Checking,
    /// Fast-forwarding the target branch.
    Landing,
    /// Landed.
    Merged,
    /// The rebase met conflicts ([`MergeProgress::conflicts`]); nothing landed.
    Conflict,
    /// The check failed ([`MergeProgress::output`]); nothing landed.
    CheckFailed,
    /// Something else stopped it ([`MergeProgress::message`]); nothing landed.
    Refused,
    /// The user cancelled it; nothing landed.
    Cancelled,
}

impl MergeStep {
    /// The merge is over (landed or not).
    pub fn is_over(self) -> bool {
        matches!(
            self,
            Self::Merged | Self::Conflict | Self::CheckFailed | Self::Refused | Self::Cancelled
        )
    }
}

/// A task's way through the merge queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MergeProgress {
    pub step: MergeStep,
    /// The branch it lands on.
    pub target: String,
    /// Tasks ahead of it in the queue (0: it is the one being merged).
    pub ahead: u32,
    /// What the user should know: why it stopped, or where the change landed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
    /// The check's output (its tail) when it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output: Option<String>,
    /// Files the rebase conflicted on.
    #[serde(default)]
    pub conflicts: Vec<String>,
    /// The commit that landed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub commit: Option<String>,
}

/// A task as the sidebar, the inbox and `foreman-cli tasks list` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TaskSummary {
    /// The task's session id.
    pub id: String,
    /// Short and unique in its repository (`fix-login`); the branch is `foreman/<name>`.
    pub name: String,
    /// The session's title.
    pub title: String,
    /// The external agent that does its work (`None`: Foreman's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent: Option<String>,
    /// The folder the user opened (the repository's checkout).
    pub workspace_path: String,
    pub place: TaskPlace,
    /// Where it works: its worktree, or the folder itself.
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub branch: Option<String>,
    /// What it started from: a branch name, or a commit when the checkout was detached.
    pub base: String,
    pub state: TaskState,
    /// Lines added and removed, and files changed, against its base (worktree tasks).
    pub added: u32,
    pub removed: u32,
    pub files: u32,
    /// The disk its worktree uses, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub disk_bytes: Option<u64>,
    /// Its worktree is gone (deleted by hand): it cannot run until restored.
    pub missing: bool,
    pub overlaps: Vec<TaskOverlap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub merge: Option<MergeProgress>,
    /// Why it failed, or what the user should know (a setup step that failed, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
    /// Its first port (`FOREMAN_PORT`), when the repository asks for ports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub port: Option<u16>,
    /// The repository's `run` command (a button runs it in the task's place).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub run_command: Option<String>,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
    /// Until when a discarded task can be restored (unix milliseconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub restorable_until: Option<i64>,
}

/// A task's whole change against its base, file by file, for review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TaskChange {
    pub task_id: String,
    /// The commit the change is measured from (where the task's branch left its base).
    pub base_commit: String,
    pub files: Vec<crate::diff::FileDiff>,
}

/// Where a new task can work in a folder, for the "New task" choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TaskPlaces {
    /// The folder is a git repository with a commit: a worktree is possible (and the default).
    pub worktree: bool,
    /// Why a worktree is not possible, in a sentence (`None` when it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub why_not: Option<String>,
    /// The branch the checkout is on (`None`: a detached HEAD, or no git).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub current: Option<String>,
    /// Local branches a task can start from.
    pub branches: Vec<String>,
    /// A task runs in the folder itself now: a second one there must wait for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub folder_busy: Option<String>,
}

/// A task's run command (the repository's `run`, for example a dev server) as its button shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TaskRun {
    pub command: String,
    pub running: bool,
    /// What it printed (the last 64 KiB).
    pub output: String,
    /// How it ended (`None` while it runs, or when a signal ended it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub exit_code: Option<i32>,
}

/// What an inbox item asks of the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum InboxKind {
    /// A call waits for approval (or the agent for an answer).
    Approval,
    /// A task finished: review and merge it.
    Ready,
    /// A task failed.
    Failed,
    /// A merge stopped on a conflict or a failed check and needs a decision.
    Merge,
}

/// One thing that needs the user, across all tasks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct InboxItem {
    pub kind: InboxKind,
    /// The folder the task belongs to (the inbox lists every open workspace's tasks).
    pub workspace_path: String,
    pub task_id: String,
    pub task_name: String,
    pub title: String,
    /// One line: what waits, or why it stopped.
    pub detail: String,
    #[ts(type = "number")]
    pub at: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::assert_bindings_current;

    #[test]
    fn task_bindings_are_current() {
        assert_bindings_current::<TaskPlace>();
        assert_bindings_current::<TaskState>();
        assert_bindings_current::<TaskOverlap>();
        assert_bindings_current::<MergeStep>();
        assert_bindings_current::<MergeProgress>();
        assert_bindings_current::<TaskSummary>();
        assert_bindings_current::<InboxKind>();
        assert_bindings_current::<InboxItem>();
        assert_bindings_current::<TaskChange>();
        assert_bindings_current::<TaskPlaces>();
        assert_bindings_current::<TaskRun>();
    }

    #[test]
    fn only_merged_and_discarded_tasks_are_over() {
        assert!(TaskState::Ready.is_live());
        assert!(TaskState::Queued.is_live());
        assert!(!TaskState::Merged.is_live());
        assert!(!TaskState::Discarded.is_live());
        assert!(MergeStep::CheckFailed.is_over());
        assert!(!MergeStep::Checking.is_over());
    }
}
