//! [`CallDecision`]: what the person decided about a call when that decided how it ended, as
//! facts the card words for them. The model reads the same facts in the call's `result`, in
//! words written for it; a front end never reads them back out of that text.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The person's decision that shaped how a call ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CallDecision {
    /// They rejected the call, with the note they gave the agent (if any).
    Rejected { reason: Option<String> },
    /// They edited the change before approving it; `lines` lines differ from the proposal.
    Edited { lines: u32 },
    /// They approved `written` of the change's `total` parts; the rest was left out.
    Parts { written: u32, total: u32 },
    /// Their Stop came before the call ran; nothing was done.
    NotRun,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn decisions_travel_tagged_by_kind() {
        let cases = [
            (
                CallDecision::Rejected {
                    reason: Some("Keep it".into()),
                },
                json!({"kind": "rejected", "reason": "Keep it"}),
            ),
            (
                CallDecision::Edited { lines: 1 },
                json!({"kind": "edited", "lines": 1}),
            ),
            (
                CallDecision::Parts {
                    written: 2,
                    total: 3,
                },
                json!({"kind": "parts", "written": 2, "total": 3}),
            ),
            (CallDecision::NotRun, json!({"kind": "not_run"})),
        ];
        for (decision, wire) in cases {
            assert_eq!(serde_json::to_value(&decision).unwrap(), wire);
            assert_eq!(
                serde_json::from_value::<CallDecision>(wire).unwrap(),
                decision
            );
        }
    }

    #[test]
    fn a_call_stored_before_decisions_loads_with_none() {
        let stored = json!({
            "call_id": "c1", "name": "write", "state": "rejected", "arguments": {},
            "preview": null, "preview_hash": null, "status": null,
            "result": "The user rejected this change. The file was not modified.",
            "is_error": true
        });
        let call: crate::call::CallSnapshot = serde_json::from_value(stored).unwrap();
        assert_eq!(call.decision, None);
    }
}
