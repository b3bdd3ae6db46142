//! The engine's whole-workspace checkpoints ([`crate::checkpoints`]): one before each message
//! of the user, before each step that may change the workspace, after a command or an external
//! tool (to list what it changed on its card), and at a task's end; and the rewind to before a
//! message, planned first for the user's confirmation, checkpointed before it changes anything,
//! and told to the model. A checkpoint that fails is reported and the work goes on.
//!
//! The checkpoint before a message runs beside the request to the model (nothing the agent does
//! can change the workspace before the model answers): the first request of a session on a big
//! repository does not wait for its first scan. Whatever checkpoints next waits for it first.

use std::sync::Arc;

use crate::agent::checkpoints::state::PendingCheckpoint;
use crate::agent::engine::Engine;
use crate::checkpoints::{Checkpoint, CheckpointError, Checkpoints};
use crate::conversation::notes::{rewound_note, undid_rewind_note};
use crate::conversation::transcript::TranscriptItem;
use crate::protocol::{EventMsg, RewindPlan};
use crate::store::NewWorkspaceCheckpoint;

/// What a checkpoint comes before or after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Moment<'a> {
    /// Before the user's message with this number.
    Message(u32),
    /// Before the call.
    Call(&'a str),
    /// After the call.
    After(&'a str),
    TaskEnd,
}

impl Moment<'_> {
    fn kind(self) -> &'static str {
        match self {
            Self::Message(_) => "message",
            Self::Call(_) => "call",
            Self::After(_) => "after",
            Self::TaskEnd => "task_end",
        }
    }

    fn label(self) -> String {
        match self {
            Self::Message(n) => format!("before message {}", n + 1),
            Self::Call(id) => format!("before call {id}"),
            Self::After(id) => format!("after call {id}"),
            Self::TaskEnd => "at the end of a task".into(),
        }
    }
}

async fn blocking<T: Send + 'static>(
    job: impl FnOnce() -> Result<T, CheckpointError> + Send + 'static,
) -> Result<T, CheckpointError> {
    tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| CheckpointError::Repository(e.to_string()))?
}

impl Engine {
    /// Starts the checkpoint before the user's message `message`; it is remembered when the
    /// next one is taken (or the session ends).
    pub(crate) async fn checkpoint_before_message(&mut self, message: u32) {
        self.settle_checkpoint().await;
        let Some(checkpoints) = self.changes.checkpoints.clone() else {
            return;
        };
        let label = Moment::Message(message).label();
        let job = tokio::task::spawn_blocking(move || checkpoints.take(&label));
        self.changes.pending_checkpoint = Some(PendingCheckpoint { message, job });
    }

    /// Waits for the checkpoint before a message, if one is being taken, and remembers it.
    pub(crate) async fn settle_checkpoint(&mut self) {
        let Some(PendingCheckpoint { message, job }) = self.changes.pending_checkpoint.take()
        else {
            return;
        };
        let taken = job
            .await
            .map_err(|e| CheckpointError::Repository(e.to_string()))
            .and_then(|taken| taken);
        match taken {
            Ok(checkpoint) => self.remember(Moment::Message(message), &checkpoint).await,
            Err(e) => self.checkpoint_failed(&e),
        }
    }

    /// Records the workspace at `moment`; its commit, or `None` (checkpoints off, or failed and
    /// reported).
    pub(crate) async fn checkpoint(&mut self, moment: Moment<'_>) -> Option<String> {
        self.settle_checkpoint().await;
        let checkpoints: Arc<Checkpoints> = self.changes.checkpoints.clone()?;
        let label = moment.label();
        let taken = blocking(move || checkpoints.take(&label)).await;
        match taken {
            Ok(checkpoint) => {
                self.remember(moment, &checkpoint).await;
                Some(checkpoint.id)
            }
            Err(e) => {
                self.checkpoint_failed(&e);
                None
            }
        }
    }

    async fn remember(&mut self, moment: Moment<'_>, checkpoint: &Checkpoint) {
        let (call_id, message) = match moment {
            Moment::Message(n) => (None, Some(n)),
            Moment::Call(id) | Moment::After(id) => (Some(id), None),
            Moment::TaskEnd => (None, None),
        };
        let skipped = serde_json::to_string(&checkpoint.skipped).unwrap_or_else(|_| "[]".into());
        let row = NewWorkspaceCheckpoint {
            kind: moment.kind(),
            call_id,
            message,
            commit_id: &checkpoint.id,
            skipped: &skipped,
        };
        if let Err(e) = self.persist.workspace_checkpoint(row).await {
            self.store_failed(&e);
        }
    }

    fn checkpoint_failed(&mut self, error: &CheckpointError) {
        tracing::warn!(%error, "checkpoint failed");
        self.events.emit(EventMsg::Error {
            message: format!("Could not checkpoint the workspace ({error}); the work goes on."),
        });
    }

    /// Keeps the workspace's checkpoints under their cap (after a task: the oldest go first,
    /// whichever session made them).
    pub(crate) async fn keep_checkpoints_under_cap(&mut self) {
        self.settle_checkpoint().await;
        let (Some(checkpoints), Some(store)) = (
            self.changes.checkpoints.clone(),
            self.persist.store().cloned(),
        ) else {
            return;
        };
        let workspace = self.workspace.display().to_string();
        let rows = match store.workspace_checkpoints_of(&workspace).await {
            Ok(rows) => rows,
            Err(e) => return self.store_failed(&e),
        };
        let newest_first: Vec<String> = rows.into_iter().rev().map(|r| r.commit_id).collect();
        let cap = self.changes.checkpoints_cap;
        match blocking(move || checkpoints.collect(&newest_first, cap)).await {
            Ok(collected) if !collected.dropped.is_empty() => {
                tracing::info!(
                    dropped = collected.dropped.len(),
                    freed = collected.freed,
                    "old checkpoints collected"
                );
                if let Err(e) = store.forget_checkpoint_commits(&collected.dropped).await {
                    self.store_failed(&e);
                }
            }
            Ok(_) => {}
            Err(e) => self.checkpoint_failed(&e),
        }
    }

    /// Shows on `call_id`'s card what changed from checkpoint `before` to now.
    pub(crate) async fn show_changes(&mut self, call_id: &str, before: &str) {
        let Some(after) = self.checkpoint(Moment::After(call_id)).await else {
            return;
        };
        let Some(checkpoints) = self.changes.checkpoints.clone() else {
            return;
        };
        let before = before.to_owned();
        match blocking(move || checkpoints.changes(&before, &after)).await {
            Ok(changes) => self.calls.set_changes(&mut self.events, call_id, changes),
            Err(e) => self.checkpoint_failed(&e),
        }
    }

    /// Answers [`Op::Rewind`](crate::protocol::Op::Rewind).
    pub(crate) async fn rewind(&mut self, before_message: u32, confirm: bool) {
        if let Err(message) = self.try_rewind(before_message, confirm).await {
            self.events.emit(EventMsg::Error { message });
        }
    }

    /// Answers [`Op::UndoRewind`](crate::protocol::Op::UndoRewind).
    pub(crate) async fn undo_rewind(&mut self) {
        let last = self.persist.last_rewind().await;
        let result = match last {
            Ok(Some((before_rewind, message))) => self.restore(before_rewind, message, true).await,
            Ok(None) => Err("There is no rewind to undo.".to_owned()),
            Err(e) => Err(e.to_string()),
        };
        if let Err(message) = result {
            self.events.emit(EventMsg::Error { message });
        }
    }

    async fn try_rewind(&mut self, before_message: u32, confirm: bool) -> Result<(), String> {
        if self.task.running {
            return Err("The agent is working: rewind when it has finished.".into());
        }
        self.settle_checkpoint().await;
        let checkpoints = self.changes.checkpoints.clone().ok_or(
            "This session keeps no checkpoints of the workspace, so it cannot be rewound.",
        )?;
        let target = self
            .persist
            .checkpoint_before(before_message)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| CheckpointError::NoCheckpoint(before_message + 1).to_string())?;
        if confirm {
            return self.restore(target, before_message, false).await;
        }
        let latest = self
            .persist
            .latest_checkpoint()
            .await
            .map_err(|e| e.to_string())?;
        let (rewind, outside) = blocking(move || {
            let rewind = checkpoints.plan_rewind(&target)?;
            let outside = match &latest {
                Some(latest) => checkpoints.changes(latest, &rewind.now.id)?,
                None => Vec::new(),
            };
            Ok((rewind, outside))
        })
        .await
        .map_err(|e| e.to_string())?;
        self.events.emit(EventMsg::RewindPlanned {
            plan: RewindPlan {
                before_message,
                changes: rewind.changes,
                changed_outside: outside.into_iter().map(|c| c.path).collect(),
                skipped: rewind.now.skipped.into_iter().map(|s| s.path).collect(),
            },
        });
        Ok(())
    }

    /// Puts the workspace back to checkpoint `target` (before the user's message `message`, or
    /// when `undoing`, to how it was before the last rewind), checkpointing it first.
    async fn restore(&mut self, target: String, message: u32, undoing: bool) -> Result<(), String> {
        if self.task.running {
            return Err("The agent is working: rewind when it has finished.".into());
        }
        self.settle_checkpoint().await;
        let checkpoints = self
            .changes
            .checkpoints
            .clone()
            .ok_or("This session keeps no checkpoints of the workspace.")?;
        let done = blocking(move || checkpoints.rewind(&target))
            .await
            .map_err(|e| e.to_string())?;
        let skipped = serde_json::to_string(&done.now.skipped).unwrap_or_else(|_| "[]".into());
        let row = NewWorkspaceCheckpoint {
            // An undone rewind is not offered for undoing again.
            kind: if undoing { "undo_rewind" } else { "rewind" },
            call_id: None,
            message: Some(message),
            commit_id: &done.now.id,
            skipped: &skipped,
        };
        if let Err(e) = self.persist.workspace_checkpoint(row).await {
            self.store_failed(&e);
        }
        let note = match undoing {
            false => rewound_note(message, done.changes.len()),
            true => undid_rewind_note(done.changes.len()),
        };
        self.changes.undo.notes.push(note);
        self.save_notice(&TranscriptItem::Rewound {
            before_message: message,
            undone: undoing,
            files: u32::try_from(done.changes.len()).unwrap_or(u32::MAX),
        })
        .await;
        self.events.emit(EventMsg::Rewound {
            before_message: message,
            undone: undoing,
            changes: done.changes,
        });
        Ok(())
    }
}
