//! What a hook's run means, by Claude Code's rules:
//!
//! - exit 0 continues; its stdout, when it is a JSON object, is read for `continue`,
//!   `stopReason`, `systemMessage`, `decision`/`reason`, and `hookSpecificOutput`
//!   (`permissionDecision` with its reason, `additionalContext`, and `PermissionRequest`'s
//!   `decision.behavior`). Plain text from `UserPromptSubmit` and `SessionStart` is context for
//!   the model; from other events it is shown to the user;
//! - exit 2 blocks: its stderr is the reason (for the model where the event has a model to
//!   tell, for the user otherwise);
//! - any other code, a signal, a timeout or a failure to start is an error shown to the user,
//!   and the session goes on as if the hook had not been there.

use serde_json::Value;

use super::run::{Exit, Ran};
use crate::protocol::{HookEvent, HookVerdict};

/// What a hook asked of the call's permission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Permission {
    Allow,
    Ask,
    Deny,
}

/// One run, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reply {
    /// It blocks the call, the message or the stop, with this reason.
    pub block: Option<String>,
    pub permission: Option<Permission>,
    /// Why, for `permission`.
    pub permission_reason: Option<String>,
    /// Context for the model.
    pub context: Option<String>,
    /// `"continue": false`: the agent stops, with this reason for the user.
    pub stop: Option<String>,
    /// Something for the user: its `systemMessage`, plain output, or its error.
    pub notice: Option<String>,
    pub failed: bool,
    pub timed_out: bool,
}

impl Reply {
    /// The verdict the card shows.
    pub fn verdict(&self) -> HookVerdict {
        if self.timed_out {
            HookVerdict::TimedOut
        } else if self.failed {
            HookVerdict::Failed
        } else if self.stop.is_some() {
            HookVerdict::Stopped
        } else if self.block.is_some() || self.permission == Some(Permission::Deny) {
            HookVerdict::Blocked
        } else if self.permission == Some(Permission::Ask) {
            HookVerdict::Asked
        } else if self.permission == Some(Permission::Allow) {
            HookVerdict::Allowed
        } else if self.context.is_some() {
            HookVerdict::AddedContext
        } else {
            HookVerdict::Continued
        }
    }

    /// The line the card shows with the verdict.
    pub fn message(&self) -> Option<String> {
        self.block
            .clone()
            .or_else(|| self.stop.clone())
            .or_else(|| self.permission_reason.clone())
            .or_else(|| self.notice.clone())
            .or_else(|| self.context.clone())
            .map(|m| shorten(m.trim(), 400))
    }
}

fn shorten(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// Reads `ran`, a run for `event`.
pub fn read(event: HookEvent, ran: &Ran) -> Reply {
    match &ran.exit {
        Exit::Code(0) => read_output(event, ran.stdout.trim()),
        Exit::Code(2) => {
            let reason = match ran.stderr.trim() {
                "" => "a hook blocked it (exit 2) without saying why".to_owned(),
                why => why.to_owned(),
            };
            match event {
                HookEvent::PermissionRequest => Reply {
                    permission: Some(Permission::Deny),
                    permission_reason: Some(reason),
                    ..Reply::default()
                },
                HookEvent::PreToolUse
                | HookEvent::PostToolUse
                | HookEvent::UserPromptSubmit
                | HookEvent::Stop
                | HookEvent::SubagentStop => Reply {
                    block: Some(reason),
                    ..Reply::default()
                },
                // Nothing to block: the user reads it.
                _ => Reply {
                    notice: Some(reason),
                    ..Reply::default()
                },
            }
        }
        Exit::Code(code) => failed(format!("exit {code}"), &ran.stderr),
        Exit::Signalled => failed("killed by a signal".into(), &ran.stderr),
        Exit::NotStarted(why) => failed(why.clone(), ""),
        Exit::Cancelled => failed("stopped with the task".into(), ""),
        Exit::TimedOut => Reply {
            timed_out: true,
            notice: Some("it ran past its timeout and was stopped".into()),
            ..Reply::default()
        },
    }
}

fn failed(what: String, stderr: &str) -> Reply {
    let stderr = stderr.trim();
    Reply {
        failed: true,
        notice: Some(if stderr.is_empty() {
            what
        } else {
            format!("{what}: {stderr}")
        }),
        ..Reply::default()
    }
}

fn read_output(event: HookEvent, stdout: &str) -> Reply {
    let json = stdout
        .starts_with('{')
        .then(|| serde_json::from_str::<Value>(stdout).ok())
        .flatten()
        .filter(Value::is_object);
    let Some(json) = json else {
        if stdout.is_empty() {
            return Reply::default();
        }
        return match event {
            HookEvent::UserPromptSubmit | HookEvent::SessionStart => Reply {
                context: Some(stdout.to_owned()),
                ..Reply::default()
            },
            _ => Reply {
                notice: Some(stdout.to_owned()),
                ..Reply::default()
            },
        };
    };
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    let specific = json.get("hookSpecificOutput");
    let field = |name: &str| specific.and_then(|s| s.get(name));
    let mut reply = Reply {
        notice: text(json.get("systemMessage")),
        context: text(field("additionalContext")),
        ..Reply::default()
    };
    if json.get("continue") == Some(&Value::Bool(false)) {
        reply.stop =
            Some(text(json.get("stopReason")).unwrap_or_else(|| "a hook stopped the agent".into()));
    }
    let reason = text(json.get("reason"));
    match json.get("decision").and_then(Value::as_str) {
        Some("block") => {
            reply.block = Some(reason.clone().unwrap_or_else(|| "a hook blocked it".into()));
        }
        // The older spelling of a PreToolUse allow.
        Some("approve") if event == HookEvent::PreToolUse => {
            reply.permission = Some(Permission::Allow);
            reply.permission_reason.clone_from(&reason);
        }
        _ => {}
    }
    if event == HookEvent::PreToolUse
        && let Some(decision) = field("permissionDecision").and_then(Value::as_str)
    {
        reply.permission = match decision {
            "allow" => Some(Permission::Allow),
            "deny" => Some(Permission::Deny),
            "ask" => Some(Permission::Ask),
            _ => reply.permission,
        };
        reply.permission_reason = text(field("permissionDecisionReason")).or(reason);
    }
    if event == HookEvent::PermissionRequest
        && let Some(decision) = field("decision")
    {
        reply.permission = match decision.get("behavior").and_then(Value::as_str) {
            Some("allow") => Some(Permission::Allow),
            Some("deny") => Some(Permission::Deny),
            _ => None,
        };
        reply.permission_reason = text(decision.get("message"));
    }
    if reply.permission == Some(Permission::Deny) && event == HookEvent::PreToolUse {
        reply.block = Some(
            reply
                .permission_reason
                .clone()
                .unwrap_or_else(|| "a hook denied it".into()),
        );
    }
    reply
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn ran(code: i32, stdout: &str, stderr: &str) -> Ran {
        Ran {
            exit: Exit::Code(code),
            stdout: stdout.into(),
            stderr: stderr.into(),
            elapsed: Duration::ZERO,
            ended: None,
            kept: None,
        }
    }

    #[test]
    fn exit_codes_decide() {
        let blocked = read(HookEvent::PreToolUse, &ran(2, "", "no rm -rf\n"));
        assert_eq!(blocked.block.as_deref(), Some("no rm -rf"));
        assert_eq!(blocked.verdict(), HookVerdict::Blocked);
        let error = read(HookEvent::PreToolUse, &ran(1, "", "bad"));
        assert_eq!(error.verdict(), HookVerdict::Failed);
        assert_eq!(error.block, None);
        assert_eq!(error.notice.as_deref(), Some("exit 1: bad"));
        let context = read(HookEvent::UserPromptSubmit, &ran(0, "Ticket: ABC-1\n", ""));
        assert_eq!(context.context.as_deref(), Some("Ticket: ABC-1"));
        assert_eq!(read(HookEvent::Stop, &ran(0, "", "")), Reply::default());
    }

    #[test]
    fn json_output_is_honoured() {
        let out = r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "not on main"}}"#;
        let deny = read(HookEvent::PreToolUse, &ran(0, out, ""));
        assert_eq!(deny.permission, Some(Permission::Deny));
        assert_eq!(deny.block.as_deref(), Some("not on main"));
        let allow = read(
            HookEvent::PreToolUse,
            &ran(
                0,
                r#"{"hookSpecificOutput": {"permissionDecision": "allow"}}"#,
                "",
            ),
        );
        assert_eq!(allow.verdict(), HookVerdict::Allowed);
        let stop = read(
            HookEvent::Stop,
            &ran(0, r#"{"decision": "block", "reason": "tests fail"}"#, ""),
        );
        assert_eq!(stop.block.as_deref(), Some("tests fail"));
        let halt = read(
            HookEvent::PostToolUse,
            &ran(0, r#"{"continue": false, "stopReason": "enough"}"#, ""),
        );
        assert_eq!(halt.stop.as_deref(), Some("enough"));
        let permission = read(
            HookEvent::PermissionRequest,
            &ran(
                0,
                r#"{"hookSpecificOutput": {"decision": {"behavior": "allow"}}}"#,
                "",
            ),
        );
        assert_eq!(permission.permission, Some(Permission::Allow));
        let context = read(
            HookEvent::PostToolUse,
            &ran(
                0,
                r#"{"hookSpecificOutput": {"additionalContext": "formatted"}}"#,
                "",
            ),
        );
        assert_eq!(context.verdict(), HookVerdict::AddedContext);
    }
}
