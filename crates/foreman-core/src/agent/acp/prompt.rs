//! One task of an external agent: the person's message goes out as `session/prompt`, and
//! until the agent answers it the engine reads what the agent sends (its updates become the
//! conversation and the cards, its requests go through Foreman's tools and approvals) while it
//! answers the person's ops as in its own loop. Stop sends `session/cancel`; an agent that does
//! not end its turn soon after is left behind (its turn counts as cancelled). An agent that
//! ends mid-turn ends the task with its exit code and last words; the next message (or Retry)
//! starts it again.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use super::state::{Live, SessionAgent};
use crate::acp::wire::{PromptResponse, StopReason};
use crate::acp::{AcpError, FromAgent};
use crate::agent::engine::Engine;
use crate::agent::task::state::UserInput;
use crate::protocol::{CallState, EventMsg, TaskEndReason};
use crate::providers::{Attachment, Message, Usage};

/// How long an agent has to end its turn after `session/cancel`.
const CANCEL_GRACE: Duration = Duration::from_secs(5);

/// The prompt blocks of the person's message: its text, the files it attaches (embedded when
/// the agent takes them, else as links) and its images (when the agent takes them).
fn prompt_blocks(
    workspace: &std::path::Path,
    text: &str,
    attachments: &[Attachment],
    embedded: bool,
    images: bool,
) -> Vec<Value> {
    let mut blocks = vec![json!({"type": "text", "text": text})];
    for attachment in attachments {
        match attachment {
            Attachment::File { path, text, .. } | Attachment::Folder { path, text, .. } => {
                let uri = format!("file://{}", workspace.join(path).display());
                blocks.push(match embedded {
                    true => json!({"type": "resource", "resource": {"uri": uri, "text": text}}),
                    false => json!({"type": "resource_link", "uri": uri, "name": path}),
                });
            }
            Attachment::Image {
                media_type, data, ..
            } if images => {
                blocks.push(json!({"type": "image", "mimeType": media_type, "data": data}));
            }
            Attachment::Image { .. } | Attachment::Unavailable { .. } => {}
        }
    }
    blocks
}

/// Why the agent's turn ended, as the task ends.
fn ended(stop: StopReason, text: String) -> TaskEndReason {
    match stop {
        StopReason::EndTurn | StopReason::Other => TaskEndReason::FinalAnswer { text },
        StopReason::Cancelled => TaskEndReason::Cancelled,
        StopReason::MaxTokens => TaskEndReason::Error {
            message: "The agent's answer reached its length limit.".into(),
            retryable: true,
        },
        StopReason::MaxTurnRequests => TaskEndReason::Error {
            message: "The agent stopped: it reached its own limit of requests for one turn.".into(),
            retryable: true,
        },
        StopReason::Refusal => TaskEndReason::Error {
            message: "The agent refused to go on with this request.".into(),
            retryable: false,
        },
    }
}

impl Engine {
    /// Why the agent's turn ended. An agent such as Codex ends its turn `cancelled` when the
    /// person rejects one of its calls (it waits to be told what to do instead): that is the
    /// end of its answer, not a Stop.
    fn agent_ended(&self, stop: StopReason, text: String, stopped: bool) -> TaskEndReason {
        let rejected = match &self.agent {
            SessionAgent::External(external) => external.rejected_in_turn,
            SessionAgent::Foreman => false,
        };
        match stop {
            StopReason::Cancelled if rejected && !stopped => TaskEndReason::FinalAnswer {
                text: match text.trim() {
                    "" => {
                        "The agent stopped after the rejection; tell it what to do instead.".into()
                    }
                    _ => text,
                },
            },
            stop => ended(stop, text),
        }
    }

    /// Runs the task on the external agent: the last message the person sent, as a prompt.
    pub(crate) async fn run_agent_turn(&mut self) -> TaskEndReason {
        if let Err(e) = self.start_agent().await {
            return TaskEndReason::Error {
                message: e.to_string(),
                retryable: true,
            };
        }
        let workspace = self.workspace.clone();
        let SessionAgent::External(external) = &mut self.agent else {
            return self.run_loop(true).await;
        };
        let Some((text, attachments)) = external.prompt.clone() else {
            return TaskEndReason::Error {
                message: "There is no message to send to the agent.".into(),
                retryable: false,
            };
        };
        let caps = &external.capabilities.prompt_capabilities;
        let blocks = prompt_blocks(
            &workspace,
            &text,
            &attachments,
            caps.embedded_context,
            caps.image,
        );
        let session = external.acp_session.clone().unwrap_or_default();
        external.rejected_in_turn = false;
        let Some(Live {
            connection,
            incoming,
        }) = external.live.as_mut()
        else {
            return TaskEndReason::Error {
                message: "The agent is not running.".into(),
                retryable: true,
            };
        };
        let mut answer = connection.request(
            "session/prompt",
            json!({"sessionId": session, "prompt": blocks}),
        );
        let Some(mut incoming) = incoming.take() else {
            return TaskEndReason::Error {
                message: "The agent's messages are read elsewhere.".into(),
                retryable: true,
            };
        };
        self.events.emit(EventMsg::TurnStarted { iteration: 1 });
        let mut said = String::new();
        for message in self.take_early() {
            match message {
                FromAgent::Notification { method, params } => {
                    self.agent_notification(&method, params, &mut said).await;
                }
                FromAgent::Request { id, method, params } => {
                    self.agent_request(id, &method, params).await;
                }
                FromAgent::Exited(_) => {}
            }
        }
        let mut cancelled_at: Option<Instant> = None;
        let mut gone = false;
        // The agent ended before it answered: its stdout's end says how.
        let mut unanswered = false;
        let reason = loop {
            if self.task.cancel.is_cancelled() && cancelled_at.is_none() {
                self.tell_agent("session/cancel", json!({"sessionId": session}));
                cancelled_at = Some(Instant::now());
            }
            let deadline = cancelled_at.map(|at| at + CANCEL_GRACE);
            tokio::select! {
                input = self.inbox.next() => {
                    if let Some(op) = self.take_op(input) {
                        self.handle_side_op(op).await;
                    }
                }
                message = incoming.recv() => match message {
                    Some(FromAgent::Notification { method, params }) => {
                        self.agent_notification(&method, params, &mut said).await;
                    }
                    Some(FromAgent::Request { id, method, params }) => {
                        self.agent_request(id, &method, params).await;
                    }
                    Some(FromAgent::Exited(error)) => {
                        gone = true;
                        break self.agent_gone(&error);
                    }
                    None => {
                        gone = true;
                        break self.agent_gone(&AcpError::Exited { code: None, signal: None, stderr: String::new() });
                    }
                },
                answered = &mut answer, if !unanswered => {
                    break match answered {
                        Ok(Ok(value)) => match serde_json::from_value::<PromptResponse>(value) {
                            Ok(response) => {
                                if let Some(used) = response.usage {
                                    // The status bar counts an agent's tokens as Foreman's own.
                                    self.report_usage(Usage {
                                        input: used.input_tokens,
                                        output: used.output_tokens,
                                        cache_read: used.cached_read_tokens.unwrap_or(0),
                                        cache_write: used.cached_write_tokens.unwrap_or(0),
                                    });
                                }
                                self.agent_ended(response.stop_reason, said.clone(), cancelled_at.is_some())
                            }
                            Err(e) => TaskEndReason::Error {
                                message: format!("The agent's answer to the prompt is not what ACP says: {e}"),
                                retryable: true,
                            },
                        },
                        Ok(Err(AcpError::Exited { .. })) | Err(_) => {
                            unanswered = true;
                            continue;
                        }
                        Ok(Err(error)) if cancelled_at.is_some() => {
                            tracing::info!(%error, "the agent answered the cancelled prompt with an error");
                            TaskEndReason::Cancelled
                        }
                        Ok(Err(error)) => TaskEndReason::Error { message: error.to_string(), retryable: true },
                    };
                }
                () = sleep_until(deadline), if deadline.is_some() => break TaskEndReason::Cancelled,
            }
        };
        // What the agent sent with its answer, before the answer itself, is read too.
        while !gone && let Ok(message) = incoming.try_recv() {
            match message {
                FromAgent::Notification { method, params } => {
                    self.agent_notification(&method, params, &mut said).await;
                }
                FromAgent::Request { id, method, params } => {
                    self.agent_request(id, &method, params).await;
                }
                FromAgent::Exited(error) => {
                    gone = true;
                    self.agent_gone(&error);
                }
            }
        }
        self.end_agent_calls(gone);
        if let SessionAgent::External(external) = &mut self.agent {
            match (gone, external.live.as_mut()) {
                (true, _) => external.live = None,
                (false, Some(live)) => live.incoming = Some(incoming),
                (false, None) => {}
            }
        }
        if !said.trim().is_empty() {
            self.record(Message::assistant(said)).await;
        }
        // A rejection's note is the person's next message to the agent.
        if let SessionAgent::External(external) = &mut self.agent {
            for note in std::mem::take(&mut external.rejection_notes) {
                self.incoming.queued.push_back(UserInput {
                    text: note,
                    attach: Vec::new(),
                    slash: None,
                });
            }
        }
        self.flush_calls().await;
        self.events.emit(EventMsg::TurnEnded { iteration: 1 });
        reason
    }

    /// Sends the notification `method` to the running agent.
    pub(crate) fn tell_agent(&self, method: &str, params: Value) {
        if let SessionAgent::External(external) = &self.agent
            && let Some(live) = &external.live
        {
            live.connection.notify(method, params);
        }
    }

    /// The task's end when the agent ended in the middle of it.
    fn agent_gone(&mut self, error: &AcpError) -> TaskEndReason {
        let name = match &self.agent {
            SessionAgent::External(external) => external.spec.name.clone(),
            SessionAgent::Foreman => String::new(),
        };
        TaskEndReason::Error {
            message: format!(
                "{name}: {error}. Nothing of the session is lost; retry to start it again."
            ),
            retryable: true,
        }
    }

    /// Ends the cards of the agent's calls that had not ended with the turn: interrupted when
    /// the agent is gone, cancelled otherwise.
    fn end_agent_calls(&mut self, gone: bool) {
        let SessionAgent::External(external) = &mut self.agent else {
            return;
        };
        let open: Vec<String> = external
            .calls
            .values_mut()
            .filter(|call| !call.ended)
            .map(|call| {
                call.ended = true;
                call.card.clone()
            })
            .collect();
        for card in open {
            if self
                .calls
                .state(&card)
                .is_some_and(|state| !state.is_terminal())
            {
                let (state, text) = match gone {
                    true => (
                        CallState::Interrupted,
                        "The agent ended before this call did.",
                    ),
                    false => (
                        CallState::Cancelled,
                        "The agent's turn ended before this call did.",
                    ),
                };
                self.calls
                    .finish(&mut self.events, &card, state, text, true);
            }
        }
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
