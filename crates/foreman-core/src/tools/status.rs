//! The status state machine of one call: `WAIT → DOING → SUCCESS | ERROR`.
//!
//! [`ToolStatus::transition`] is the only way to move between states and returns an error for
//! every illegal move; [`StatusUpdate`] can only carry a `result` when built with
//! [`StatusUpdate::success`] and an `error` when built with [`StatusUpdate::error`], so "result on
//! a non-terminal state" cannot even be expressed.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;
use ts_rs::TS;

use super::error::{ToolError, ToolErrorKind};
use super::info::Progress;

/// Where a call is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ToolStatus {
    /// Arguments are streaming in or the call awaits approval; no real work yet.
    Wait,
    /// The tool is doing its work.
    Doing,
    /// Finished successfully (terminal).
    Success,
    /// Finished with an error (terminal).
    Error,
}

/// A move the state machine forbids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("illegal tool status transition {from:?} -> {to:?}")]
pub struct IllegalTransition {
    pub from: ToolStatus,
    pub to: ToolStatus,
}

impl ToolStatus {
    /// Whether the call has finished; a terminal record never changes again.
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Success | Self::Error)
    }

    /// The state after moving to `to`, or why that move is illegal. Legal moves: `WAIT → WAIT |
    /// DOING | SUCCESS | ERROR`, `DOING → DOING | SUCCESS | ERROR`; nothing leaves a terminal
    /// state and nothing goes back to `WAIT`.
    pub fn transition(self, to: ToolStatus) -> Result<ToolStatus, IllegalTransition> {
        let legal = match self {
            Self::Wait => true,
            Self::Doing => to != Self::Wait,
            Self::Success | Self::Error => false,
        };
        if legal {
            Ok(to)
        } else {
            Err(IllegalTransition { from: self, to })
        }
    }
}

/// One call to [`ToolContext::send_status`](super::ToolContext::send_status): the target state
/// plus the fields to accumulate. `params` deep-merge into what was sent before, `tip` and
/// `progress` replace, `result`/`error` are only settable on the terminal constructors.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusUpdate {
    pub(crate) status: ToolStatus,
    pub(crate) params: Option<Value>,
    pub(crate) tip: Option<String>,
    pub(crate) progress: Option<Progress>,
    pub(crate) result: Option<Value>,
    pub(crate) error: Option<ToolError>,
}

impl StatusUpdate {
    fn to(status: ToolStatus) -> Self {
        Self {
            status,
            params: None,
            tip: None,
            progress: None,
            result: None,
            error: None,
        }
    }

    /// Stay in or enter `WAIT` (arguments still streaming, or awaiting approval).
    pub fn wait() -> Self {
        Self::to(ToolStatus::Wait)
    }

    /// Enter or stay in `DOING`.
    pub fn doing() -> Self {
        Self::to(ToolStatus::Doing)
    }

    /// Finish successfully with a result for the UI (e.g. `{"lines": 42}`); may be `Value::Null`.
    pub fn success(result: Value) -> Self {
        let mut update = Self::to(ToolStatus::Success);
        update.result = (!result.is_null()).then_some(result);
        update
    }

    /// Finish with an error.
    pub fn error(error: ToolError) -> Self {
        let mut update = Self::to(ToolStatus::Error);
        update.error = Some(error);
        update
    }

    /// Finish with an error of `kind` and `message`.
    pub fn failed(kind: ToolErrorKind, message: impl Into<String>) -> Self {
        Self::error(ToolError::new(kind, message))
    }

    /// Params to deep-merge into the accumulated ones (must be a JSON object to merge; any other
    /// value replaces).
    #[must_use]
    pub fn params(mut self, params: Value) -> Self {
        self.params = Some(params);
        self
    }

    /// A one-line hint for the UI, e.g. "Reading src/main.rs…"; replaces the previous tip.
    #[must_use]
    pub fn tip(mut self, tip: impl Into<String>) -> Self {
        self.tip = Some(tip.into());
        self
    }

    /// Progress; replaces the previous progress.
    #[must_use]
    pub fn progress(mut self, progress: Progress) -> Self {
        self.progress = Some(progress);
        self
    }

    /// The target state.
    pub fn status(&self) -> ToolStatus {
        self.status
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ToolStatus::*;

    const ALL: [ToolStatus; 4] = [Wait, Doing, Success, Error];

    #[test]
    fn legal_transitions_are_exactly_the_documented_ones() {
        for from in ALL {
            for to in ALL {
                let expected = matches!(
                    (from, to),
                    (Wait, _) | (Doing, Doing) | (Doing, Success) | (Doing, Error)
                );
                assert_eq!(from.transition(to).is_ok(), expected, "{from:?} -> {to:?}");
            }
        }
    }

    #[test]
    fn nothing_leaves_a_terminal_state() {
        assert_eq!(
            Success.transition(Doing),
            Err(IllegalTransition {
                from: Success,
                to: Doing
            })
        );
        assert!(Error.transition(Error).is_err());
        assert!(Success.is_terminal() && Error.is_terminal());
        assert!(!Wait.is_terminal() && !Doing.is_terminal());
    }

    #[test]
    fn only_terminal_constructors_carry_result_or_error() {
        assert_eq!(StatusUpdate::wait().result, None);
        assert_eq!(StatusUpdate::doing().error, None);
        let ok = StatusUpdate::success(serde_json::json!({"lines": 2}));
        assert_eq!(ok.status(), Success);
        assert!(ok.result.is_some());
        let failed = StatusUpdate::failed(ToolErrorKind::Timeout, "too slow");
        assert_eq!(failed.status(), Error);
        assert_eq!(failed.error.map(|e| e.kind), Some(ToolErrorKind::Timeout));
    }

    #[test]
    fn typescript_binding_is_current() {
        crate::bindings::assert_bindings_current::<ToolStatus>();
    }
}
