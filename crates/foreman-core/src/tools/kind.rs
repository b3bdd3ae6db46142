//! What kind of action a tool performs; the approval policy decides per kind.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The category of a tool, used by the approval policy (reads may run freely, edits and
/// executions may need the person's approval).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ToolKind {
    /// Reads the workspace or other local state without changing it.
    Read,
    /// Changes files in the workspace.
    Edit,
    /// Runs a process or command.
    Execute,
    /// Talks to the network.
    Fetch,
    /// Only structures the model's own reasoning or flow (e.g. `attempt_completion`).
    Think,
    /// Anything else.
    Other,
}

impl ToolKind {
    /// The lowercase name used on the wire and in the catalogue.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Edit => "edit",
            Self::Execute => "execute",
            Self::Fetch => "fetch",
            Self::Think => "think",
            Self::Other => "other",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_lowercase_like_as_str() {
        for kind in [
            ToolKind::Read,
            ToolKind::Edit,
            ToolKind::Execute,
            ToolKind::Fetch,
            ToolKind::Think,
            ToolKind::Other,
        ] {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, serde_json::Value::String(kind.as_str().to_owned()));
        }
    }

    #[test]
    fn typescript_binding_is_current() {
        crate::bindings::assert_bindings_current::<ToolKind>();
    }
}
