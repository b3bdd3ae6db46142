//! `session/request_permission`: the agent asks before one of its own tool calls. Foreman
//! decides as it would for its own agent, then answers with the agent's option of the right
//! kind (never by its id):
//!
//! - A call Foreman has a tool for — a change with its diff (as a whole-file `write` of what
//!   the file would become) or a command (`bash`) — goes through that tool's facts, the
//!   `PreToolUse` hooks and the policy: a deny rule answers `reject_once` without asking, an
//!   allow rule or the mode `allow_once`; protected paths always ask. When it asks, the approval
//!   bar shows the diff pinned by its hash, exactly as for Foreman's own calls; "Always allow"
//!   adds Foreman's rule, which answers the agent's next such request. The agent's commands
//!   run in its own sandbox, which reaches the network, so they are decided as unsandboxed
//!   ones ("Auto, sandboxed" asks; an allow rule or "Run everything" does not).
//! - Any other call asks, except in "Run everything", pinned to its title and input.
//!
//! Reject sends the person's note as their next message. Stop answers `cancelled`, and the
//! prompt is cancelled.

use serde_json::{Value, json};

use super::requests::params;
use super::state::SessionAgent;
use super::updates::command_of;
use crate::acp::RpcError;
use crate::acp::wire::{
    PermissionKind, PermissionOption, RequestPermission, ToolCallContent, ToolKind as AcpToolKind,
};
use crate::agent::calls::approvals::{ApprovalOutcome, rejection_reason};
use crate::agent::engine::Engine;
use crate::approval::{Decision, content_hash, preview_hash};
use crate::builtin_tools::bash::BashTool;
use crate::builtin_tools::write::WriteTool;
use crate::protocol::{ApprovalMode, CallDecision, CallState, EventMsg, Op};
use crate::tools::{Prepared, Tool};

/// What the person (or Foreman's rules) made of a permission request.
enum Verdict {
    Allow,
    Reject { text: String, note: Option<String> },
    Cancelled,
}

/// The option of `options` for `verdict` (`None`: answer `cancelled`).
fn option_for(options: &[PermissionOption], allow: bool) -> Option<&PermissionOption> {
    let kinds = match allow {
        true => [PermissionKind::AllowOnce, PermissionKind::AllowAlways],
        false => [PermissionKind::RejectOnce, PermissionKind::RejectAlways],
    };
    kinds
        .iter()
        .find_map(|kind| options.iter().find(|o| o.kind == *kind))
}

impl Engine {
    pub(crate) async fn agent_permission(&mut self, request: Value) -> Result<Value, RpcError> {
        let request: RequestPermission = params("session/request_permission", request)?;
        let Some(call) = self.agent_card(&request.tool_call).await else {
            return Err(RpcError::new(RpcError::INTERNAL, "no agent"));
        };
        let card = call.card.clone();
        self.checkpoint_agent_call(&request.tool_call.tool_call_id)
            .await;
        let raw = request
            .tool_call
            .raw_input
            .clone()
            .unwrap_or_else(|| call.raw_input.clone());
        let content = match request.tool_call.content.as_ref().filter(|c| !c.is_empty()) {
            Some(content) => content.clone(),
            None => call.content.clone(),
        };
        // An agent that sends no input for a command (Gemini CLI) titles its call with it.
        let command = command_of(&raw).or_else(|| {
            (request.tool_call.kind == Some(AcpToolKind::Execute))
                .then(|| request.tool_call.title.clone())
                .flatten()
        });
        let verdict = match self.as_foreman_call(&content, command) {
            Some(prepared) => self.decide_as_foreman(&card, prepared).await,
            None => self.ask_plainly(&card, &request, &raw).await,
        };
        let allow = matches!(verdict, Verdict::Allow);
        match &verdict {
            Verdict::Allow => self.advance(&card, CallState::Scheduled),
            Verdict::Reject { text, note } => {
                if self.calls.state(&card).is_some_and(|s| !s.is_terminal()) {
                    let decision = CallDecision::Rejected {
                        reason: note.clone(),
                    };
                    self.calls.finish_decided(
                        &mut self.events,
                        &card,
                        CallState::Rejected,
                        text,
                        decision,
                    );
                }
                if let SessionAgent::External(external) = &mut self.agent {
                    if let Some(known) = external.calls.get_mut(&request.tool_call.tool_call_id) {
                        known.ended = true;
                    }
                    external.rejection_notes.extend(note.clone());
                    external.rejected_in_turn = true;
                }
            }
            Verdict::Cancelled => {}
        }
        let chosen = match verdict {
            Verdict::Cancelled => None,
            _ => option_for(&request.options, allow),
        };
        Ok(match chosen {
            Some(option) => {
                json!({"outcome": {"outcome": "selected", "optionId": option.option_id}})
            }
            None => json!({"outcome": {"outcome": "cancelled"}}),
        })
    }

    /// The call as Foreman's own tool would make it, when there is one. `content` is what the
    /// request or, before it, the call reported; a change of several files has no one tool
    /// (it asks plainly, with every diff on its card).
    fn as_foreman_call(
        &self,
        content: &[ToolCallContent],
        command: Option<String>,
    ) -> Option<Prepared> {
        let diffs: Vec<_> = content
            .iter()
            .filter_map(|c| match c {
                ToolCallContent::Diff {
                    path,
                    old_text,
                    new_text,
                } => Some((path, old_text, new_text)),
                _ => None,
            })
            .collect();
        let (name, arguments) = match diffs.as_slice() {
            [] => (BashTool::NAME, json!({"command": command?})),
            [(path, old, new)] => {
                let disk = std::fs::read_to_string(path).ok();
                let new: &String = new;
                let content = match (old.as_ref(), disk) {
                    (None, _) => new.clone(),
                    (Some(old), Some(disk)) if disk == *old => new.clone(),
                    // The diff is of a part of the file: the whole file as it would become.
                    (Some(old), Some(disk)) if !old.is_empty() && disk.contains(old.as_str()) => {
                        disk.replacen(old.as_str(), new, 1)
                    }
                    _ => return None,
                };
                let path = self.shown_path(path);
                (WriteTool::NAME, json!({"path": path, "content": content}))
            }
            _ => return None,
        };
        self.tools.set.prepare(name, arguments).ok()
    }

    /// Decides on `prepared` as on a call of Foreman's own agent.
    async fn decide_as_foreman(&mut self, card: &str, mut prepared: Prepared) -> Verdict {
        let name = prepared.tool.name().to_owned();
        self.complete_facts(&mut prepared.facts).await;
        let hooked = self.pre_tool_hooks(card, &name, &prepared.arguments).await;
        if let Some(reason) = hooked.blocked {
            return Verdict::Reject {
                text: format!("Blocked by a PreToolUse hook: {reason}."),
                note: None,
            };
        }
        // The agent runs its own commands, in its own sandbox, which reaches the network (its
        // model is there): not the sandbox "Auto, sandboxed" lets commands run in unasked.
        let mut policy = self.oversight.policy.clone();
        policy.sandboxed_commands = false;
        let decision = hooked.decide(policy.decide(&prepared.facts, self.oversight.auto_approved));
        match decision {
            Decision::Deny { reason } => Verdict::Reject {
                text: format!("Refused by the approval policy: {reason}."),
                note: None,
            },
            Decision::Allow { .. } => {
                self.keep_approved(&prepared);
                Verdict::Allow
            }
            Decision::Ask { reason } => {
                self.advance(card, CallState::Validating);
                match self.await_approval(card, &prepared, reason).await {
                    ApprovalOutcome::Run => {
                        self.keep_approved(&prepared);
                        Verdict::Allow
                    }
                    ApprovalOutcome::RunEdited(_) => Verdict::Reject {
                        text: "The person wants the change written differently; ask them how."
                            .into(),
                        note: Some(
                            "Your own version of an external agent's change cannot be \
                             written for it: it was rejected. Tell the agent what to change."
                                .into(),
                        ),
                    },
                    ApprovalOutcome::Rejected { text, reason } => {
                        Verdict::Reject { text, note: reason }
                    }
                    ApprovalOutcome::Cancelled => Verdict::Cancelled,
                }
            }
        }
    }

    /// A change the person let through: the agent's write of exactly it does not ask again,
    /// and the file counts as read (its diff was of the file as it is).
    fn keep_approved(&mut self, prepared: &Prepared) {
        if let Some(change) = prepared.change() {
            let bytes = std::fs::read(&change.path).unwrap_or_default();
            let shown = change.shown.clone();
            self.tools.files.mark_read(
                &shown,
                crate::builtin_tools::stale_guard::content_hash(&bytes),
            );
            self.oversight
                .approved_changes
                .push((change.path, content_hash(change.new.as_bytes())));
        }
    }

    /// Asks about a call Foreman has no tool for, pinned to its title and input.
    async fn ask_plainly(
        &mut self,
        card: &str,
        request: &RequestPermission,
        raw: &Value,
    ) -> Verdict {
        if self.oversight.policy.mode == ApprovalMode::Yolo {
            return Verdict::Allow;
        }
        let title = request.tool_call.title.clone().unwrap_or_default();
        let hash = preview_hash(&format!("agent:{title}"), raw, None);
        self.advance(card, CallState::Validating);
        self.calls
            .transition(&mut self.events, card, CallState::AwaitingApproval, None);
        self.events.emit(EventMsg::ApprovalRequested {
            call_id: card.to_owned(),
            tool: title,
            preview_hash: hash.clone(),
            reason: "The agent asks before it does this.".into(),
            arguments: Some(raw.clone()),
            preview: self.calls.get(card).and_then(|c| c.preview.clone()),
            suggested_rule: None,
            private_target: None,
        });
        loop {
            let input = self.inbox.next().await;
            let Some(op) = self.take_op(input) else {
                continue;
            };
            match op {
                Op::Approve {
                    call_id,
                    preview_hash,
                    ..
                } if call_id == card => {
                    if preview_hash == hash {
                        return Verdict::Allow;
                    }
                    self.events.emit(EventMsg::ApprovalRefused {
                        call_id,
                        reason: format!("answer the latest request (preview_hash {hash})"),
                    });
                }
                Op::Reject { call_id, feedback } if call_id == card => {
                    let note = rejection_reason(feedback.as_deref());
                    return Verdict::Reject {
                        text: "The person rejected this call.".into(),
                        note,
                    };
                }
                Op::Cancel => {
                    self.stop();
                    return Verdict::Cancelled;
                }
                Op::Shutdown => {
                    self.handle_side_op(Op::Shutdown).await;
                    return Verdict::Cancelled;
                }
                op => self.handle_side_op(op).await,
            }
        }
    }
}
