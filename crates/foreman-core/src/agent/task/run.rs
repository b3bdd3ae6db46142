//! The task loop: model turn → tool calls → results → next turn, until the task ends, with an
//! event saying why (completion, a final answer, cancel, the iteration cap, a stop after a pause,
//! or a provider error).

use serde_json::Value;

use crate::agent::calls::job::{CallsOutcome, NOT_RUN_CANCELLED};
use crate::agent::checkpoints::checkpointing::Moment;
use crate::agent::engine::Engine;
use crate::agent::task::state::UserInput;
use crate::agent::task::state::{PendingRetry, TaskStart};
use crate::agent::task::turn::StreamedCall;
use crate::conversation::notes::{RETRY_NOTE, hook_note};
use crate::conversation::transcript::TranscriptItem;
use crate::protocol::{CallDecision, CallState, EventMsg, TaskEndReason};
use crate::providers::{Attachment, Message, ProviderError, Thinking, ToolCall};

impl Engine {
    /// Answers [`Op::Retry`](crate::protocol::Op::Retry) while no task runs.
    pub(crate) async fn retry_task(&mut self) {
        match self.task.retry.take() {
            Some(PendingRetry { cut_off, .. }) => {
                self.run_task_from(TaskStart::Retry { cut_off }).await;
            }
            None => self.events.emit_session(EventMsg::Error {
                message: "There is nothing to retry: the last task did not end with an error \
                          that a new attempt could get past."
                    .into(),
            }),
        }
    }

    /// Runs one task for the user's message (unless a hook blocks it).
    pub(crate) async fn run_task(&mut self, input: UserInput) {
        self.task.cancel = tokio_util::sync::CancellationToken::new();
        if let Some(input) = self.screen_prompt(input).await {
            self.run_task_from(TaskStart::Message(input)).await;
        }
    }

    /// Runs the `UserPromptSubmit` hooks on `input`: `None` when one blocked it (the user is
    /// told why and gets the message back), the input otherwise (their context waits for it).
    async fn screen_prompt(&mut self, input: UserInput) -> Option<UserInput> {
        let screened = self.prompt_hooks(&input.text).await;
        if self.task.cancel.is_cancelled() {
            // Stopped while a hook looked at it: the message comes back unsent.
            self.incoming.hook_runs.clear();
            let images = input.images().cloned().collect();
            self.events.emit_session(EventMsg::QueuedMessagesReturned {
                texts: vec![input.text],
                images,
            });
            return None;
        }
        match screened {
            Ok(context) => {
                if let Some(context) = context {
                    let note = hook_note("UserPromptSubmit", &context);
                    self.context.from_hooks.push(note);
                }
                Some(input)
            }
            Err(reason) => {
                self.save_prompt_hook_runs().await;
                self.events.emit_session(EventMsg::Error {
                    message: format!("A hook blocked your message: {reason}"),
                });
                let images = input.images().cloned().collect();
                self.events.emit_session(EventMsg::QueuedMessagesReturned {
                    texts: vec![input.text],
                    images,
                });
                None
            }
        }
    }

    /// Runs one task, from the user's message or from their retry.
    pub(crate) async fn run_task_from(&mut self, start: TaskStart) {
        self.task.running = true;
        self.task.retry = None;
        self.task.cancel = tokio_util::sync::CancellationToken::new();
        self.frame.failures.clear();
        self.oversight.auto_approved = 0;
        if let TaskStart::Retry { cut_off: true } = start {
            // Right after the cut-off answer it is about.
            self.record(Message::user(RETRY_NOTE)).await;
        }
        // Undone changes the model was not told of yet come before the user's new message.
        self.record_undo_note().await;
        if let TaskStart::Message(input) = start {
            self.take_message(input).await;
        }
        // A file broken since the last task is told before this one works without it.
        self.report_config_warnings();
        self.events.emit(EventMsg::TaskStarted);
        // A task in the folder itself waits for another working there (Stop ends the wait).
        let folder = self.take_folder().await;
        let mut reason = if self.task.cancel.is_cancelled() {
            TaskEndReason::Cancelled
        } else if self.agent.is_external() {
            self.run_agent_turn().await
        } else {
            self.run_loop(true).await
        };
        if self.task.cancel.is_cancelled() && matches!(reason, TaskEndReason::Error { .. }) {
            // A Stop that raced with a failing stream is a Stop.
            reason = TaskEndReason::Cancelled;
        }
        // Before the end's undo note, which would come after the answer.
        let cut_off = matches!(self.frame.history.last(), Some(Message::Assistant { .. }));
        self.record_undo_note().await;
        // What the agent left, so a rewind can tell the user's later changes apart.
        self.checkpoint(Moment::TaskEnd).await;
        self.report_session_changes().await;
        self.keep_checkpoints_under_cap().await;
        self.task.running = false;
        self.end_slash_task();
        self.task.retry = reason.may_retry().then(|| PendingRetry {
            reason: reason.clone(),
            cut_off,
        });
        // Stored always (a task's state comes from it); an answer says by itself why the task
        // ended, so that one is kept without its text and the transcript leaves it out.
        let stored = match &reason {
            TaskEndReason::FinalAnswer { .. } => TaskEndReason::FinalAnswer {
                text: String::new(),
            },
            other => other.clone(),
        };
        self.save_notice(&TranscriptItem::TaskEnded { reason: stored })
            .await;
        self.events.emit(EventMsg::TaskEnded { reason });
        // The folder is free for another task once this one has ended.
        drop(folder);
        if !self.incoming.returning.is_empty() {
            let returning = std::mem::take(&mut self.incoming.returning);
            let images = returning
                .iter()
                .flat_map(UserInput::images)
                .cloned()
                .collect();
            let texts = returning.into_iter().map(|input| input.text).collect();
            self.events
                .emit(EventMsg::QueuedMessagesReturned { texts, images });
        }
    }

    /// Stops the running task (the user's Stop, or the session closing): its stream, calls and
    /// processes end, and the messages waiting for its next turn, which the model has not read,
    /// are given back to the user once it has ended, instead of starting the next task. A
    /// message sent after this point is the user's next request, and runs as one.
    pub(crate) fn stop(&mut self) {
        self.task.cancel.cancel();
        self.incoming
            .returning
            .extend(self.incoming.queued.drain(..));
    }

    /// Gives back the waiting message the user took back (see
    /// [`Op::WithdrawMessage`](crate::protocol::Op::WithdrawMessage)). The user sees the messages
    /// a Stop is about to give back (the task has not ended yet) and then those still waiting, in
    /// that order, so `index` counts both; one of the former comes back at once too.
    pub(crate) fn withdraw_message(&mut self, index: u32, text: &str) {
        let returning = self.incoming.returning.len();
        let waiting = |i: usize| match i.checked_sub(returning) {
            None => self.incoming.returning.get(i),
            Some(q) => self.incoming.queued.get(q),
        };
        let at = usize::try_from(index)
            .ok()
            .filter(|&i| waiting(i).is_some_and(|w| w.text == text))
            .or_else(|| {
                self.incoming
                    .returning
                    .iter()
                    .chain(&self.incoming.queued)
                    .position(|w| w.text == text)
            });
        let taken = at.and_then(|i| match i.checked_sub(returning) {
            None => Some(self.incoming.returning.remove(i)),
            Some(q) => self.incoming.queued.remove(q),
        });
        // The answer is the session's, also while a sub-agent runs.
        match taken {
            Some(input) => {
                let images = input.images().cloned().collect();
                self.events.emit_session(EventMsg::QueuedMessagesReturned {
                    texts: vec![input.text],
                    images,
                });
            }
            None => self.events.emit_session(EventMsg::Error {
                message: "That message cannot be taken back: the agent has read it already.".into(),
            }),
        }
    }

    /// Takes every image out of the conversation the model is sent; how many there were.
    fn drop_images(&mut self) -> usize {
        self.frame
            .history
            .iter_mut()
            .map(Message::drop_images)
            .sum()
    }

    /// Adds the user's message to the history, with the files and images it attaches as they
    /// are now, and says so, with its number. A new session's first message has the
    /// session-context note before it.
    async fn take_message(&mut self, input: UserInput) {
        let number = u32::try_from(self.incoming.user_messages).unwrap_or(u32::MAX);
        self.checkpoint_before_message(number).await;
        self.record_session_note().await;
        let attachments = self
            .tools
            .files
            .attach(&input.attach, self.incoming.attach_max_file_bytes);
        let views = attachments.iter().map(Attachment::view).collect();
        self.agent.keep_prompt(&input.text, &attachments);
        self.record(Message::User {
            text: input.text.clone(),
            attachments,
        })
        .await;
        self.take_slash(&input).await;
        self.incoming.user_messages += 1;
        self.events.emit(EventMsg::UserMessageTaken {
            text: input.text,
            number,
            attachments: views,
        });
        self.save_prompt_hook_runs().await;
        self.record_hook_notes().await;
    }

    /// The loop of turns over the current history, until the task ends. The user's queued
    /// messages join the history between turns when `take_queued` (a sub-agent leaves them to
    /// its parent).
    pub(crate) async fn run_loop(&mut self, take_queued: bool) -> TaskEndReason {
        let mut iteration = 0u32;
        // How many times `Stop` hooks sent the agent back to work.
        let mut stop_blocks = 0u32;
        loop {
            if self.task.cancel.is_cancelled() {
                break TaskEndReason::Cancelled;
            }
            if iteration >= self.frame.max_iterations {
                break TaskEndReason::IterationCap {
                    max_iterations: self.frame.max_iterations,
                };
            }
            while take_queued && let Some(queued) = self.incoming.queued.pop_front() {
                if let Some(queued) = self.screen_prompt(queued).await {
                    self.take_message(queued).await;
                }
            }
            if take_queued {
                self.record_undo_note().await;
            }
            iteration += 1;
            self.events.emit(EventMsg::TurnStarted { iteration });
            if let Err(reason) = self.fit_context(false).await {
                self.events.emit(EventMsg::TurnEnded { iteration });
                break reason;
            }
            let mut turn = self.stream_turn().await;
            let mut compacted_for_retry = false;
            if matches!(turn.error, Some(ProviderError::ContextLength { .. }))
                && turn.text.is_empty()
                && turn.calls.is_empty()
            {
                // The provider knows better than the estimate: compact and retry once.
                match self.fit_context(true).await {
                    Ok(true) => {
                        compacted_for_retry = true;
                        turn = self.stream_turn().await;
                    }
                    Ok(false) => {}
                    Err(reason) => {
                        self.events.emit(EventMsg::TurnEnded { iteration });
                        break reason;
                    }
                }
            }
            self.record_assistant(&turn.text, &turn.thinking, &turn.calls)
                .await;
            self.flush_calls().await;
            if let Some(repeated) = &turn.repeated {
                self.close_unrun(&turn.calls, false).await;
                self.events.emit(EventMsg::TurnEnded { iteration });
                break TaskEndReason::Error {
                    message: repeated.message(),
                    retryable: true,
                };
            }
            if let Some(error) = turn.error {
                let cancelled = matches!(error, ProviderError::Cancelled);
                self.close_unrun(&turn.calls, cancelled).await;
                self.events.emit(EventMsg::TurnEnded { iteration });
                break if cancelled {
                    TaskEndReason::Cancelled
                } else if compacted_for_retry
                    && matches!(error, ProviderError::ContextLength { .. })
                {
                    TaskEndReason::Error {
                        message: format!("{error} (still too long after compacting it)"),
                        retryable: false,
                    }
                } else if matches!(error, ProviderError::InvalidRequest { .. })
                    && self.drop_images() > 0
                {
                    TaskEndReason::Error {
                        message: format!(
                            "{error}. The request carried images, which this model or server may \
                             not take: they are out of the conversation now (your text stays), \
                             so you can retry without them."
                        ),
                        retryable: true,
                    }
                } else {
                    TaskEndReason::Error {
                        message: error.to_string(),
                        retryable: error.user_may_retry(),
                    }
                };
            }
            if let Some(message) = turn.cut_off_message(&self.llm.limits) {
                self.events.emit(EventMsg::TurnEnded { iteration });
                break TaskEndReason::Error {
                    message,
                    retryable: false,
                };
            }
            if turn.calls.is_empty() {
                self.events.emit(EventMsg::TurnEnded { iteration });
                if self.kept_working(&mut stop_blocks).await {
                    continue;
                }
                break TaskEndReason::FinalAnswer { text: turn.text };
            }
            let outcome = self.run_calls(turn.calls).await;
            self.events.emit(EventMsg::TurnEnded { iteration });
            match outcome {
                CallsOutcome::Continue => {}
                CallsOutcome::Completed(_) if self.kept_working(&mut stop_blocks).await => {}
                CallsOutcome::Completed(summary) => {
                    break TaskEndReason::Completed { summary };
                }
                CallsOutcome::Cancelled => break TaskEndReason::Cancelled,
                CallsOutcome::Stopped => break TaskEndReason::Stopped,
            }
        }
    }

    /// Runs the `Stop` hooks when the agent would end: whether one sent it back to work (the
    /// model reads why).
    async fn kept_working(&mut self, blocks: &mut u32) -> bool {
        let Some(reason) = self.stop_hooks(*blocks).await else {
            return false;
        };
        *blocks += 1;
        self.record(Message::user(hook_note(
            "Stop",
            &format!("you are not done yet: {reason}"),
        )))
        .await;
        true
    }

    /// Persists every call that changed since the last flush.
    pub(crate) async fn flush_calls(&mut self) {
        for id in self.calls.take_dirty() {
            self.save_call(&id).await;
        }
    }

    /// Appends the assistant message exactly as it will be sent back to the model.
    async fn record_assistant(
        &mut self,
        text: &str,
        thinking: &[Thinking],
        calls: &[StreamedCall],
    ) {
        // Anthropic refuses a text block of whitespace only (an answer cut off after a newline,
        // say), which would fail every later request of the session.
        let text = if text.trim().is_empty() { "" } else { text };
        if text.is_empty() && calls.is_empty() {
            return;
        }
        let tool_calls = calls
            .iter()
            .map(|c| ToolCall {
                id: c.id.clone(),
                name: c.name.clone(),
                arguments: match &c.arguments {
                    Ok(v) if v.is_object() => v.clone(),
                    _ => Value::Object(Default::default()),
                },
            })
            .collect();
        self.record(Message::Assistant {
            text: text.to_owned(),
            thinking: thinking.to_vec(),
            tool_calls,
        })
        .await;
    }

    /// Gives every call of a failed or cancelled stream its one result.
    async fn close_unrun(&mut self, calls: &[StreamedCall], cancelled: bool) {
        for call in calls {
            let result = match (&call.arguments, cancelled) {
                (_, true) => NOT_RUN_CANCELLED.to_owned(),
                (Err(unusable), false) => unusable.to_string(),
                (Ok(_), false) => "Not run: the response failed after this call.".to_owned(),
            };
            if cancelled {
                let (state, decision) = (CallState::Cancelled, CallDecision::NotRun);
                self.calls
                    .finish_decided(&mut self.events, &call.id, state, &result, decision);
            } else {
                self.calls
                    .finish(&mut self.events, &call.id, CallState::Failed, &result, true);
            }
            self.record(Message::tool_result(&call.id, result, true))
                .await;
        }
        self.flush_calls().await;
    }
}
