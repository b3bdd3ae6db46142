//! The ops the engine answers between tasks and while it waits for something else, and the
//! inbox's other input (the watcher's batches) on the way to the next op.

use crate::agent::acp::idle::idle_message;
use crate::agent::engine::Engine;
use crate::agent::inbox::state::{Input, files_changed_event};
use crate::agent::llm::model_change::ModelChoice;
use crate::protocol::{EventMsg, Op};
use crate::watcher::WatchError;

impl Engine {
    /// The next op; batches of changes that arrive first are reported on the way.
    pub(crate) async fn next_op(&mut self) -> Op {
        loop {
            let input = tokio::select! {
                input = self.inbox.next() => input,
                message = idle_message(&mut self.agent) => {
                    self.agent_between_turns(message).await;
                    continue;
                }
            };
            if let Some(op) = self.take_op(input) {
                return op;
            }
        }
    }

    /// The op of `input`; anything else is reported (`FilesChanged`, or an `Error` when the
    /// watcher stopped) and gives `None`.
    pub(crate) fn take_op(&mut self, input: Input) -> Option<Op> {
        match input {
            Input::Op(op) => return Some(op),
            Input::Files(batch) if batch.paths.is_empty() => {}
            Input::Files(batch) => self.events.emit(files_changed_event(batch)),
            Input::WatchFailed(error) => self.report_watch_error(&error),
            Input::WatchTrouble(text) => {
                tracing::warn!(workspace = %self.workspace.display(), %text, "the workspace watcher hit a limit");
                self.events.emit(EventMsg::Error {
                    message: format!(
                        "{text}. Files waiting for approval are re-checked every {} ms.",
                        self.oversight.poll.as_millis()
                    ),
                });
            }
            Input::WatchStopped => {
                tracing::warn!(workspace = %self.workspace.display(), "the workspace watcher stopped");
                self.events.emit(EventMsg::Error {
                    message: format!(
                        "Watching the workspace stopped; files waiting for approval are re-checked \
                         every {} ms instead.",
                        self.oversight.poll.as_millis()
                    ),
                });
            }
        }
        None
    }

    /// Says that watching could not start (after `SessionStarted`).
    pub(crate) fn report_watch_error(&mut self, error: &WatchError) {
        tracing::warn!(%error, "workspace watching is off");
        self.events.emit(EventMsg::Error {
            message: format!(
                "{error}. Changes made outside the agent are not reported; files waiting for \
                 approval are re-checked every {} ms instead.",
                self.oversight.poll.as_millis()
            ),
        });
    }

    /// Answers an op that does not belong to what the engine is waiting for right now.
    pub(crate) async fn handle_side_op(&mut self, op: Op) {
        match op {
            Op::UserMessage { text, attach } => {
                if let Some(input) = Box::pin(self.user_input(text, attach)).await {
                    self.incoming.queued.push_back(input);
                }
            }
            Op::Approve { call_id, .. }
            | Op::Reject { call_id, .. }
            | Op::EditAndApprove { call_id, .. }
            | Op::ApproveHunks { call_id, .. } => self.events.emit(EventMsg::ApprovalRefused {
                call_id,
                reason: "nothing here waits for an approval".into(),
            }),
            Op::Cancel => self.stop(),
            Op::WithdrawMessage { index, text } => self.withdraw_message(index, &text),
            Op::Retry => self.events.emit_session(EventMsg::Error {
                message: "The agent is still working: there is nothing to retry.".into(),
            }),
            Op::Continue => self.events.emit(EventMsg::Error {
                message: "nothing is paused".into(),
            }),
            Op::SetApprovalMode { mode } => {
                self.oversight.policy.mode = mode;
                self.events
                    .emit_session(EventMsg::ApprovalModeChanged { mode });
            }
            Op::SetModel {
                model,
                context_window,
                thinking_budget,
                reasoning_effort,
                max_tokens,
            } => self.set_model(ModelChoice {
                model,
                context_window,
                thinking_budget,
                reasoning_effort,
                max_tokens,
            }),
            Op::UndoChange { call_id } => {
                self.undo_change(&call_id).await;
                self.report_session_changes().await;
            }
            Op::ReloadRules => self.reload_rules().await,
            Op::UndoRewind => {
                self.undo_rewind().await;
                self.report_session_changes().await;
            }
            Op::Rewind {
                before_message,
                confirm,
            } => {
                self.rewind(before_message, confirm).await;
                if confirm {
                    self.report_session_changes().await;
                }
            }
            Op::UndoHunks { call_id, hunks } => {
                self.undo_hunks(&call_id, hunks).await;
                self.report_session_changes().await;
            }
            Op::Snapshot => {
                let hooks_awaiting = match &self.tools.hooks {
                    Some(hooks) => hooks.pending().await,
                    None => None,
                };
                self.snapshot(hooks_awaiting);
                self.emit_agent_settings();
            }
            Op::SetAgentSetting { id, value } => self.set_agent_setting(id, value).await,
            Op::LoadPreview { call_id } => {
                let preview = self.calls.get(&call_id).and_then(|c| c.preview.clone());
                match preview {
                    Some(preview) => self.events.emit(EventMsg::ToolCallUpdated {
                        call_id,
                        state: None,
                        args: Vec::new(),
                        preview: Some(preview),
                        status: None,
                        images: None,
                        title: None,
                    }),
                    None => self.events.emit(EventMsg::Error {
                        message: format!("{call_id}: this call has no preview to load"),
                    }),
                }
            }
            // Boxed: a summary request answers ops itself.
            Op::Compact => Box::pin(self.compact_on_request()).await,
            Op::ConsentHooks { hash } => self.consent_hooks(&hash).await,
            Op::Shutdown => {
                self.task.shutdown = true;
                self.stop();
            }
        }
    }

    /// Answers [`Op::Snapshot`]: the whole state, for a front end that attaches now.
    fn snapshot(&mut self, hooks_awaiting: Option<crate::protocol::HooksView>) {
        self.events.emit_session(EventMsg::Snapshot {
            session_id: self.id.clone(),
            mode: self.oversight.policy.mode,
            running: self.task.running,
            messages: u32::try_from(
                self.task
                    .session_messages
                    .unwrap_or(self.frame.history.len()),
            )
            .unwrap_or(u32::MAX),
            calls: self.calls.snapshot_for_event(),
            usage: self.llm.spend.summary(&self.llm.model),
            // Those a Stop gives back when its task ends wait too, until then.
            queued: self
                .incoming
                .returning
                .iter()
                .chain(&self.incoming.queued)
                .map(|input| input.text.clone())
                .collect(),
            retry: self.task.retry.as_ref().map(|r| r.reason.clone()),
            hooks_awaiting,
        });
    }
}
