//! The approval mode: how much the agent may do without asking.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How much the agent may do without asking.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum ApprovalMode {
    /// Nothing that changes anything: edits, commands and fetches are refused.
    ReadOnly,
    /// Reads and searches run freely; edits, commands, fetches and external tools ask.
    #[default]
    Ask,
    /// Edits inside the workspace run freely; commands and fetches ask.
    AutoEdit,
    /// Edits run freely and commands run in the sandbox without asking; fetches, external tools
    /// and commands that cannot be confined ask.
    Auto,
    /// Everything runs without asking: file tools stay in the workspace, commands run with the
    /// user's rights; protected paths and private network targets still ask.
    Yolo,
}

impl ApprovalMode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReadOnly => "read-only",
            Self::Ask => "ask",
            Self::AutoEdit => "auto-edit",
            Self::Auto => "auto",
            Self::Yolo => "yolo",
        }
    }

    /// The mode's one name for people, as the app shows it (the UI's `approvalModes.ts` has the
    /// same names): reasons that name a mode use it, so a mode is never called two things.
    pub fn name(self) -> &'static str {
        match self {
            Self::ReadOnly => "Read only",
            Self::Ask => "Ask first",
            Self::AutoEdit => "Auto-edit",
            Self::Auto => "Auto, sandboxed",
            Self::Yolo => "Run everything",
        }
    }
}

impl std::str::FromStr for ApprovalMode {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "read-only" => Ok(Self::ReadOnly),
            "ask" => Ok(Self::Ask),
            "auto-edit" => Ok(Self::AutoEdit),
            "auto" => Ok(Self::Auto),
            "yolo" => Ok(Self::Yolo),
            other => Err(format!(
                "unknown approval mode `{other}`: use read-only, ask, auto-edit, auto or yolo"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ApprovalMode;

    #[test]
    fn each_mode_has_its_own_short_name() {
        let all = [
            ApprovalMode::ReadOnly,
            ApprovalMode::Ask,
            ApprovalMode::AutoEdit,
            ApprovalMode::Auto,
            ApprovalMode::Yolo,
        ];
        let names: std::collections::BTreeSet<_> = all.iter().map(|m| m.name()).collect();
        assert_eq!(names.len(), all.len(), "{names:?}");
        assert!(all.iter().all(|m| m.name().split(' ').count() <= 3));
        assert_eq!(ApprovalMode::Yolo.name(), "Run everything");
    }
}
