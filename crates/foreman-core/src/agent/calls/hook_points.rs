//! Where the session runs hooks ([`crate::hooks`]), each in the step it belongs to:
//!
//! - `PreToolUse` after a call is prepared and before the policy: a block refuses the call (its
//!   reason goes to the model); `allow` lets a call that would ask run without asking, `ask`
//!   makes one that would not ask ask. A deny rule still refuses, and the sandbox still holds;
//! - `PermissionRequest` when a call would ask the user: it may answer for them;
//! - `Notification` when the agent waits for the user;
//! - `PostToolUse` after a call succeeded, before its result goes to the model: a block or
//!   context is added to the result; a file the hook rewrote (a formatter) is recorded as read
//!   in its new content, and the model is told what changed;
//! - `UserPromptSubmit` before the user's message joins the conversation (a block gives it
//!   back; its output is context for the model);
//! - `Stop` / `SubagentStop` when the agent would end: a block makes it go on with the reason;
//! - `SessionStart`, `SessionEnd`, `PreCompact`.
//!
//! Every run is shown: on its call's card, or in the conversation. `"continue": false` from any
//! hook stops the agent as the user's Stop would.

use serde_json::{Map, Value, json};

use crate::agent::calls::job::{CallsOutcome, Job, Results};
use crate::agent::calls::preview::unified;
use crate::agent::engine::Engine;
use crate::approval::Decision;
use crate::builtin_tools::builtin_names;
use crate::builtin_tools::stale_guard::content_hash;
use crate::conversation::transcript::TranscriptItem;
use crate::hooks::claude_names::{claude_input, claude_name};
use crate::hooks::{Dispatch, Permission, Reply, combined};
use crate::protocol::{CallState, ConfigArea, EventMsg, HookEvent};

/// The most lines of a hook's rewrite of a file shown to the model.
const DIFF_LINES: usize = 60;

/// The most times `Stop` hooks may send the agent back to work in one task.
const MAX_STOP_BLOCKS: u32 = 8;

/// What the `PreToolUse` hooks of a call decided.
#[derive(Debug, Default)]
pub(crate) struct PreTool {
    /// Refused, with the reason for the model.
    pub(crate) blocked: Option<String>,
    permission: Option<Permission>,
    reason: Option<String>,
    /// Context for the model, added to the call's result.
    pub(crate) context: Option<String>,
}

impl PreTool {
    /// The policy's `decision`, as the hooks change it: a deny stays a deny.
    pub(crate) fn decide(&self, decision: Decision) -> Decision {
        let why = |default: &str| self.reason.clone().unwrap_or_else(|| default.to_owned());
        match (decision, self.permission) {
            (Decision::Ask { .. }, Some(Permission::Allow)) => Decision::Allow {
                reason: why("a PreToolUse hook allowed it"),
            },
            (Decision::Allow { .. }, Some(Permission::Ask)) => Decision::Ask {
                reason: why("a PreToolUse hook asks you to decide"),
            },
            (decision, _) => decision,
        }
    }
}

impl Engine {
    /// Runs the hooks of `event` for `call_id` (or the conversation), shows each run, stops the
    /// agent when one says so, and gives the replies combined.
    async fn run_hooks(
        &mut self,
        event: HookEvent,
        call_id: Option<&str>,
        subject: Option<(String, String)>,
        fields: Map<String, Value>,
    ) -> Reply {
        if self.tools.hooks.is_none() {
            return Reply::default();
        }
        let sandbox = self
            .oversight
            .sandbox
            .for_command(self.oversight.policy.mode, &self.workspace, false)
            .0;
        let dispatch = Dispatch {
            event,
            subject,
            fields,
            sandbox,
        };
        let Some(hooks) = self.tools.hooks.as_mut() else {
            return Reply::default();
        };
        let planned = hooks.plan(dispatch).await;
        let broken = planned.warnings.into_iter().map(|w| (ConfigArea::Hooks, w));
        self.tell_config_warnings(broken.collect());
        if let Some(view) = planned.awaiting {
            self.events
                .emit_session(EventMsg::HooksAwaitConsent { view });
        }
        if planned.runs.is_empty() {
            return Reply::default();
        }
        if let Some(hooks) = self.tools.hooks.as_mut() {
            hooks.write_transcript(&self.frame.history);
        }
        let mut running = Box::pin(planned.runs.run(self.task.cancel.clone()));
        // The user may stop the agent while a hook runs (a hook that hangs, say); at the
        // session's end nothing is answered any more.
        let runs = loop {
            if self.task.shutdown {
                break running.await;
            }
            tokio::select! {
                runs = &mut running => break runs,
                op = self.next_op() => Box::pin(self.handle_side_op(op)).await,
            }
        };
        for (run, _) in &runs {
            match call_id {
                Some(id) => self.calls.add_hook_run(id, run.clone()),
                // A message's hooks are kept after the message, the others where they ran, so
                // a reopened conversation shows each where the live one did.
                None if event == HookEvent::UserPromptSubmit => {
                    self.incoming.hook_runs.push(run.clone());
                }
                None => {
                    let notice = TranscriptItem::Hook { run: run.clone() };
                    self.save_notice(&notice).await;
                }
            }
            self.events.emit(EventMsg::HookRan {
                call_id: call_id.map(str::to_owned),
                run: run.clone(),
            });
        }
        let combined = combined(&runs);
        if let Some(reason) = &combined.stop {
            self.events.emit_session(EventMsg::Error {
                message: format!("A {} hook stopped the agent: {reason}", event.name()),
            });
            self.stop();
        }
        combined
    }

    /// Whether any hook of `event` is configured (the input is built only then).
    fn hooks_for(&self, event: HookEvent) -> bool {
        self.tools
            .hooks
            .as_ref()
            .is_some_and(|hooks| hooks.any_for(event))
    }

    /// The names a tool call has for hooks: Claude Code's and ours.
    fn hook_subject(&self, tool: &str) -> (String, String) {
        let builtin = builtin_names().iter().any(|n| n == tool);
        (claude_name(tool, builtin), tool.to_owned())
    }

    fn tool_fields(&self, tool: &str, arguments: &Value) -> Map<String, Value> {
        let (claude, _) = self.hook_subject(tool);
        let mut fields = Map::new();
        fields.insert("tool_name".into(), Value::String(claude));
        fields.insert(
            "tool_input".into(),
            claude_input(tool, arguments, &self.workspace),
        );
        fields
    }

    /// `PreToolUse` for a prepared call.
    pub(crate) async fn pre_tool_hooks(
        &mut self,
        call_id: &str,
        tool: &str,
        arguments: &Value,
    ) -> PreTool {
        if !self.hooks_for(HookEvent::PreToolUse) {
            return PreTool::default();
        }
        let fields = self.tool_fields(tool, arguments);
        let subject = Some(self.hook_subject(tool));
        let reply = self
            .run_hooks(HookEvent::PreToolUse, Some(call_id), subject, fields)
            .await;
        PreTool {
            blocked: reply.block,
            permission: reply.permission,
            reason: reply.permission_reason,
            context: reply.context,
        }
    }

    /// `PermissionRequest` for a call that would ask: `Some` when a hook answered.
    pub(crate) async fn permission_hooks(
        &mut self,
        call_id: &str,
        tool: &str,
        arguments: &Value,
    ) -> Option<(Permission, Option<String>)> {
        if !self.hooks_for(HookEvent::PermissionRequest) {
            return None;
        }
        let fields = self.tool_fields(tool, arguments);
        let subject = Some(self.hook_subject(tool));
        let reply = self
            .run_hooks(HookEvent::PermissionRequest, Some(call_id), subject, fields)
            .await;
        match reply.permission {
            Some(p @ (Permission::Allow | Permission::Deny)) => Some((p, reply.permission_reason)),
            _ => None,
        }
    }

    /// A call that would ask: a `PermissionRequest` hook may answer for the user; otherwise the
    /// `Notification` hooks run and the user is asked.
    pub(crate) async fn ask_or_hook(
        &mut self,
        job: Job,
        reason: String,
        results: &mut Results,
    ) -> CallsOutcome {
        let tool = job.prepared.tool.name().to_owned();
        let answer = self
            .permission_hooks(&job.id, &tool, &job.prepared.arguments)
            .await;
        if self.task.cancel.is_cancelled() {
            return self.cancel_unrun(&job.id, &mut results[job.index]);
        }
        match answer {
            Some((Permission::Allow, _)) => {
                self.calls
                    .transition(&mut self.events, &job.id, CallState::Scheduled, None);
                self.run_jobs(vec![job], results).await
            }
            Some((_, why)) => {
                let text = format!(
                    "Refused by a PermissionRequest hook: {}. Nothing was done.",
                    why.as_deref().unwrap_or("it gave no reason")
                );
                self.calls
                    .finish(&mut self.events, &job.id, CallState::Rejected, &text, true);
                results[job.index] = Some((text, true));
                CallsOutcome::Continue
            }
            None => {
                let (claude, _) = self.hook_subject(&tool);
                let message = format!("Foreman needs your permission to use {claude}");
                self.notification_hooks(Some(&job.id), message).await;
                self.approve_and_run(job, reason, results).await
            }
        }
    }

    /// `Notification`: the agent waits for the user.
    pub(crate) async fn notification_hooks(&mut self, call_id: Option<&str>, message: String) {
        let mut fields = Map::new();
        fields.insert("message".into(), Value::String(message));
        fields.insert(
            "notification_type".into(),
            Value::String("permission_prompt".into()),
        );
        let subject = Some((
            "permission_prompt".to_owned(),
            "permission_prompt".to_owned(),
        ));
        self.run_hooks(HookEvent::Notification, call_id, subject, fields)
            .await;
    }

    /// `PostToolUse` after `tool` succeeded with `result`; what the model should read besides
    /// the result. `path`: the file the call changed, whose rewrite by a hook is noticed.
    pub(crate) async fn post_tool_hooks(
        &mut self,
        call_id: &str,
        tool: &str,
        arguments: &Value,
        result: &str,
        path: Option<&str>,
    ) -> Option<String> {
        if !self.hooks_for(HookEvent::PostToolUse) {
            return None;
        }
        let written = path.and_then(|p| self.tools.files.file_bytes(p).ok().flatten());
        let mut fields = self.tool_fields(tool, arguments);
        let mut response = json!({ "success": true, "output": result });
        if let Some(file) = fields
            .get("tool_input")
            .and_then(|i| i.get("file_path"))
            .cloned()
        {
            response["filePath"] = file;
        }
        fields.insert("tool_response".into(), response);
        let subject = Some(self.hook_subject(tool));
        let reply = self
            .run_hooks(HookEvent::PostToolUse, Some(call_id), subject, fields)
            .await;
        let mut notes = Vec::new();
        if let (Some(path), Some(written)) = (path, written)
            && let Ok(Some(now)) = self.tools.files.file_bytes(path)
            && now != written
        {
            // The model wrote one text and the file now has another: it is told the new one
            // (its next edit matches it), and the guard counts it as read.
            self.tools.files.mark_read(path, content_hash(&now));
            let diff = unified(
                path,
                &String::from_utf8_lossy(&written),
                &String::from_utf8_lossy(&now),
            );
            let mut lines: Vec<&str> = diff.lines().take(DIFF_LINES + 1).collect();
            if lines.len() > DIFF_LINES {
                lines.truncate(DIFF_LINES);
                lines.push("[… the rest of the diff is left out: read the file]");
            }
            let diff = lines.join("\n");
            notes.push(format!(
                "[A PostToolUse hook changed {path} after your change (a formatter, say). The \
                 file now differs from what you wrote:\n{diff}\nEdit it as it is now.]"
            ));
        }
        if let Some(block) = reply.block {
            notes.push(format!("[PostToolUse hook: {block}]"));
        }
        if let Some(context) = reply.context {
            notes.push(format!("[PostToolUse hook context: {context}]"));
        }
        (!notes.is_empty()).then(|| notes.join("\n"))
    }

    /// Keeps the runs of the `UserPromptSubmit` hooks of the message just taken (or blocked).
    pub(crate) async fn save_prompt_hook_runs(&mut self) {
        for run in std::mem::take(&mut self.incoming.hook_runs) {
            self.save_notice(&TranscriptItem::Hook { run }).await;
        }
    }

    /// `UserPromptSubmit` for the user's `prompt`: `Err(reason)` when a hook blocked it,
    /// `Ok(context)` otherwise.
    pub(crate) async fn prompt_hooks(&mut self, prompt: &str) -> Result<Option<String>, String> {
        let mut fields = Map::new();
        fields.insert("prompt".into(), Value::String(prompt.to_owned()));
        let reply = self
            .run_hooks(HookEvent::UserPromptSubmit, None, None, fields)
            .await;
        match reply.block {
            Some(reason) => Err(reason),
            None => Ok(reply.context),
        }
    }

    /// `Stop` (or `SubagentStop` in a sub-agent) when the agent would end: `Some(reason)` when a
    /// hook sends it back to work. `blocks`: how many times it did in this task.
    pub(crate) async fn stop_hooks(&mut self, blocks: u32) -> Option<String> {
        if blocks >= MAX_STOP_BLOCKS || self.task.cancel.is_cancelled() {
            return None;
        }
        let event = if self.frame.depth > 0 {
            HookEvent::SubagentStop
        } else {
            HookEvent::Stop
        };
        let mut fields = Map::new();
        fields.insert("stop_hook_active".into(), Value::Bool(blocks > 0));
        self.run_hooks(event, None, None, fields).await.block
    }

    /// `SessionStart` (`source`: `startup` or `resume`): what the hooks give as context.
    pub(crate) async fn session_start_hooks(&mut self, source: &str) -> Option<String> {
        if let Some(view) = match self.tools.hooks.as_mut() {
            Some(hooks) => hooks.awaiting_consent().await,
            None => None,
        } {
            self.events
                .emit_session(EventMsg::HooksAwaitConsent { view });
        }
        let mut fields = Map::new();
        fields.insert("source".into(), Value::String(source.to_owned()));
        let subject = Some((source.to_owned(), source.to_owned()));
        self.run_hooks(HookEvent::SessionStart, None, subject, fields)
            .await
            .context
    }

    /// `SessionEnd`.
    pub(crate) async fn session_end_hooks(&mut self) {
        let mut fields = Map::new();
        fields.insert("reason".into(), Value::String("exit".into()));
        // Its own token: the session's Stop has fired by now.
        self.task.cancel = tokio_util::sync::CancellationToken::new();
        self.run_hooks(HookEvent::SessionEnd, None, None, fields)
            .await;
    }

    /// `PreCompact` (`trigger`: `manual` or `auto`).
    pub(crate) async fn pre_compact_hooks(&mut self, trigger: &str) {
        let mut fields = Map::new();
        fields.insert("trigger".into(), Value::String(trigger.to_owned()));
        fields.insert("custom_instructions".into(), Value::String(String::new()));
        let subject = Some((trigger.to_owned(), trigger.to_owned()));
        self.run_hooks(HookEvent::PreCompact, None, subject, fields)
            .await;
    }

    /// Answers [`Op::ConsentHooks`](crate::protocol::Op::ConsentHooks).
    pub(crate) async fn consent_hooks(&mut self, hash: &str) {
        let (Some(hooks), Some(store)) = (self.tools.hooks.as_mut(), self.persist.store().cloned())
        else {
            self.events.emit_session(EventMsg::Error {
                message: "This session keeps no hooks: there is nothing to allow.".into(),
            });
            return;
        };
        match hooks.consent(&store, hash).await {
            Ok(()) => {}
            Err(error) => {
                self.events.emit_session(EventMsg::Error {
                    message: format!("The hooks were not allowed: {error}."),
                });
                if let Some(view) = hooks.awaiting_consent_again().await {
                    self.events
                        .emit_session(EventMsg::HooksAwaitConsent { view });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hooked(permission: Permission) -> PreTool {
        PreTool {
            permission: Some(permission),
            ..PreTool::default()
        }
    }

    #[test]
    fn a_hook_changes_ask_and_allow_but_never_a_deny() {
        let ask = || Decision::Ask { reason: "r".into() };
        let allow = || Decision::Allow { reason: "r".into() };
        let deny = || Decision::Deny {
            reason: "rule".into(),
        };
        assert!(matches!(
            hooked(Permission::Allow).decide(ask()),
            Decision::Allow { .. }
        ));
        assert!(matches!(
            hooked(Permission::Ask).decide(allow()),
            Decision::Ask { .. }
        ));
        assert!(matches!(
            hooked(Permission::Allow).decide(deny()),
            Decision::Deny { .. }
        ));
        assert!(matches!(
            PreTool::default().decide(ask()),
            Decision::Ask { .. }
        ));
    }
}
