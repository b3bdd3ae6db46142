//! The hooks ([`crate::hooks`]) on a call's path, each in the stage it belongs to:
//!
//! - `PreToolUse` in the gate, after a call is prepared and before the policy: a block refuses
//!   the call (its reason goes to the model); `allow` lets a call that would ask run without
//!   asking, `ask` makes one that would not ask ask. A deny rule still refuses, and the sandbox
//!   still holds;
//! - `PermissionRequest` when a call would ask the user: it may answer for them (`ask.rs`);
//! - `Notification` when the agent waits for the user;
//! - `PostToolUse` when a call is settled after it succeeded, before its result goes to the
//!   model: a block or context is added to the result; a file the hook rewrote (a formatter) is
//!   recorded as read in its new content, and the model is told what changed.
//!
//! Running them and the session's own hook points are `agent/hooks/`.

use serde_json::{Map, Value, json};

use super::preview::unified;
use crate::agent::engine::Engine;
use crate::approval::Decision;
use crate::builtin_tools::builtin_names;
use crate::builtin_tools::stale_guard::content_hash;
use crate::hooks::Permission;
use crate::hooks::claude_names::{claude_input, claude_name};
use crate::protocol::HookEvent;

/// The most lines of a hook's rewrite of a file shown to the model.
const DIFF_LINES: usize = 60;

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
    /// Whether any hook of `event` is configured (the input is built only then).
    fn hooks_for(&self, event: HookEvent) -> bool {
        self.tools
            .hooks
            .as_ref()
            .is_some_and(|hooks| hooks.any_for(event))
    }

    /// The names a tool call has for hooks: Claude Code's and ours.
    pub(crate) fn hook_subject(&self, tool: &str) -> (String, String) {
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
