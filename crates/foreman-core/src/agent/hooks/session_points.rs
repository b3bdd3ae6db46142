//! The session's and the task's hook points (a call's are `calls/hook_points.rs`):
//!
//! - `UserPromptSubmit` before the user's message joins the conversation (a block gives it
//!   back; its output is context for the model);
//! - `Stop` / `SubagentStop` when the agent would end: a block makes it go on with the reason;
//! - `SessionStart`, `SessionEnd`, `PreCompact`;
//! - the user's consent to the hooks of a settings file.

use serde_json::{Map, Value};

use crate::agent::engine::Engine;
use crate::conversation::transcript::TranscriptItem;
use crate::protocol::{EventMsg, HookEvent};

/// The most times `Stop` hooks may send the agent back to work in one task.
const MAX_STOP_BLOCKS: u32 = 8;

impl Engine {
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
