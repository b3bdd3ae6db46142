//! System notifications: an approval waits while the user is in another window, or a task's
//! merge ended while no window of the app has the focus.

use std::collections::HashSet;

use foreman_protocol::EventMsg;
use tauri::{AppHandle, Manager};
use tauri_plugin_notification::NotificationExt;

/// Which of a session's waiting approvals the user has already been told about, so that a
/// request re-sent for the same call (its file changed while it waited) does not notify again.
#[derive(Debug, Default)]
pub struct ApprovalNotices {
    told: HashSet<String>,
}

impl ApprovalNotices {
    /// The tool and reason to notify about for `msg`: only a call's first approval request.
    pub fn news<'a>(&mut self, msg: &'a EventMsg) -> Option<(&'a str, &'a str)> {
        match msg {
            EventMsg::ApprovalRequested {
                call_id,
                tool,
                reason,
                ..
            } => self
                .told
                .insert(call_id.clone())
                .then_some((tool.as_str(), reason.as_str())),
            EventMsg::ToolCallFinished { call_id, .. } => {
                self.told.remove(call_id);
                None
            }
            _ => None,
        }
    }
}

/// Notifies that `tool` waits for approval, unless its session's window (`window`) has focus or
/// the user turned these notifications off.
pub fn approval_waiting(app: &AppHandle, window: &str, tool: &str, reason: &str) {
    let focused = app
        .get_webview_window(window)
        .and_then(|w| w.is_focused().ok())
        .unwrap_or(false);
    if focused || !notify_enabled(app) {
        return;
    }
    let shown = app
        .notification()
        .builder()
        .title(format!("Foreman: approve {tool}?"))
        .body(reason)
        .show();
    if let Err(error) = shown {
        log::warn!("cannot show a notification: {error}");
    }
}

/// Notifies that task `name`'s merge landed or stopped, unless a window of the app has focus
/// (its panel and the inbox say so there) or the user turned notifications off.
pub fn merge_over(app: &AppHandle, name: &str, merge: &foreman_protocol::MergeProgress) {
    let focused = app
        .webview_windows()
        .values()
        .any(|w| w.is_focused().unwrap_or(false));
    if focused || !notify_enabled(app) || !merge.step.is_over() {
        return;
    }
    let title = match merge.step {
        foreman_protocol::MergeStep::Merged => format!("Foreman: {name} merged"),
        foreman_protocol::MergeStep::Cancelled => return,
        _ => format!("Foreman: the merge of {name} stopped"),
    };
    let shown = app
        .notification()
        .builder()
        .title(title)
        .body(merge.message.clone().unwrap_or_default())
        .show();
    if let Err(error) = shown {
        log::warn!("cannot show a notification: {error}");
    }
}

/// Whether the user wants approval notifications (on unless the settings say otherwise).
fn notify_enabled(app: &AppHandle) -> bool {
    crate::settings::settings_path(app)
        .and_then(|path| crate::settings::load(&path))
        .map(|s| s.notify_approvals)
        .unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreman_protocol::CallState;

    fn requested(call_id: &str, hash: &str) -> EventMsg {
        EventMsg::ApprovalRequested {
            call_id: call_id.into(),
            tool: "write_file".into(),
            preview_hash: hash.into(),
            reason: "writes src/a.rs".into(),
            arguments: None,
            preview: None,
            suggested_rule: None,
            private_target: None,
        }
    }

    #[test]
    fn a_re_sent_request_does_not_notify_again() {
        let mut notices = ApprovalNotices::default();
        assert_eq!(
            notices.news(&requested("c1", "h1")),
            Some(("write_file", "writes src/a.rs"))
        );
        // The file changed while it waited: same call, new hash.
        assert_eq!(notices.news(&requested("c1", "h2")), None);
        // Another call waits: it is news.
        assert!(notices.news(&requested("c2", "h3")).is_some());
        assert_eq!(notices.news(&EventMsg::TaskStarted), None);
    }

    #[test]
    fn a_finished_call_is_forgotten() {
        let mut notices = ApprovalNotices::default();
        assert!(notices.news(&requested("c1", "h1")).is_some());
        let finished = EventMsg::ToolCallFinished {
            call_id: "c1".into(),
            state: CallState::Succeeded,
            result: "ok".into(),
            is_error: false,
            error: None,
            summary: None,
            decision: None,
        };
        assert_eq!(notices.news(&finished), None);
        assert!(notices.told.is_empty());
    }
}
