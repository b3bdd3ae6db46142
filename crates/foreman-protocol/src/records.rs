//! What the store keeps that the UI lists: sessions, recent workspaces, approval rules, token
//! totals.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::op::RuleScope;

/// A session as the sidebar lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SessionSummary {
    pub id: String,
    pub workspace_path: String,
    pub title: String,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Unix milliseconds of the last change.
    #[ts(type = "number")]
    pub updated_at: i64,
    /// What the session is doing, when it is running in this app (the store does not know).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub activity: Option<SessionActivity>,
    /// The external agent that does its work (`None`: Foreman's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent: Option<String>,
}

/// What a running session is doing, for its badge in the sidebar.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionActivity {
    /// A task runs.
    pub running: bool,
    /// Calls waiting for the user's approval.
    pub waiting: u32,
}

/// A workspace as the welcome screen lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct RecentWorkspace {
    pub path: String,
    pub name: String,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub last_opened: i64,
}

/// What a rule does when its pattern matches a tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RuleAction {
    Allow,
    Ask,
    Deny,
}

impl RuleAction {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::Deny => "deny",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "allow" => Some(Self::Allow),
            "ask" => Some(Self::Ask),
            "deny" => Some(Self::Deny),
            _ => None,
        }
    }
}

/// A stored rule, e.g. allow `bash(cargo test*)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct StoredRule {
    #[ts(type = "number")]
    pub id: i64,
    pub action: RuleAction,
    pub pattern: String,
    /// Where it applies: this session, this workspace, or every workspace.
    pub scope: RuleScope,
}

/// Token totals for a session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, TS)]
pub struct UsageTotals {
    #[ts(type = "number")]
    pub input: i64,
    #[ts(type = "number")]
    pub output: i64,
    #[ts(type = "number")]
    pub cache_read: i64,
    #[ts(type = "number")]
    pub cache_write: i64,
    #[ts(type = "number")]
    pub requests: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::assert_bindings_current;

    #[test]
    fn bindings_are_current() {
        assert_bindings_current::<SessionSummary>();
        assert_bindings_current::<SessionActivity>();
        assert_bindings_current::<RecentWorkspace>();
        assert_bindings_current::<RuleAction>();
        assert_bindings_current::<StoredRule>();
        assert_bindings_current::<UsageTotals>();
    }
}
