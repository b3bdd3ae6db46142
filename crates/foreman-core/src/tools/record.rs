//! The accumulated status of one call: applies [`StatusUpdate`]s through the state machine and
//! returns the patch each one produced.

use thiserror::Error;

use super::info::{TextPatch, ToolInfo, ToolInfoPatch};
use super::merge::{deep_merge, diff};
use super::status::{IllegalTransition, StatusUpdate};

/// Why a status update was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StatusError {
    #[error(transparent)]
    IllegalTransition(#[from] IllegalTransition),
}

/// The card of one call. Fields are private: [`StatusRecord::apply`] is the only mutation, and it
/// refuses every illegal transition, so a terminal record is frozen.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusRecord {
    info: ToolInfo,
}

impl StatusRecord {
    /// A record in `WAIT` for a fresh card.
    pub fn new(info: ToolInfo) -> Self {
        Self { info }
    }

    /// The accumulated card.
    pub fn info(&self) -> &ToolInfo {
        &self.info
    }

    /// Whether the call has reached `SUCCESS` or `ERROR`.
    pub fn is_terminal(&self) -> bool {
        self.info.status.is_terminal()
    }

    /// Accumulates `update` and returns the patch of what changed. Params deep-merge, tip and
    /// progress replace, result and error overwrite; illegal transitions change nothing.
    pub fn apply(&mut self, update: StatusUpdate) -> Result<ToolInfoPatch, StatusError> {
        let next = self.info.status.transition(update.status)?;
        let mut patch = ToolInfoPatch::empty(self.info.call_id.clone());
        if next != self.info.status {
            patch.status = Some(next);
            self.info.status = next;
        }
        if let Some(params) = update.params {
            let mut merged = self.info.params.clone();
            deep_merge(&mut merged, params);
            let change = diff(&self.info.params, &merged);
            patch.params = change.set;
            patch.params_append = change.append;
            self.info.params = merged;
        }
        if let Some(tip) = update.tip
            && self.info.tip.as_deref() != Some(tip.as_str())
        {
            patch.tip = Some(TextPatch::between(self.info.tip.as_deref(), &tip));
            self.info.tip = Some(tip);
        }
        if let Some(progress) = update.progress
            && self.info.progress.as_ref() != Some(&progress)
        {
            patch.progress = Some(progress.clone());
            self.info.progress = Some(progress);
        }
        if let Some(result) = update.result {
            patch.result = Some(result.clone());
            self.info.result = Some(result);
        }
        if let Some(error) = update.error {
            patch.error = Some(error.clone());
            self.info.error = Some(error);
        }
        Ok(patch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{Progress, ToolErrorKind, ToolKind, ToolStatus};
    use serde_json::json;

    fn record() -> StatusRecord {
        StatusRecord::new(ToolInfo::new("call-1", "write", None, ToolKind::Edit))
    }

    #[test]
    fn params_set_while_waiting_survive_to_success() {
        let mut rec = record();
        rec.apply(StatusUpdate::wait().params(json!({"path": "a.rs"})))
            .unwrap();
        rec.apply(
            StatusUpdate::doing()
                .params(json!({"bytes": 10}))
                .tip("Writing a.rs…"),
        )
        .unwrap();
        rec.apply(StatusUpdate::success(json!({"written": 10})))
            .unwrap();
        let info = rec.info();
        assert_eq!(info.status, ToolStatus::Success);
        assert_eq!(info.params, json!({"path": "a.rs", "bytes": 10}));
        assert_eq!(info.tip.as_deref(), Some("Writing a.rs…"));
        assert_eq!(info.result, Some(json!({"written": 10})));
    }

    #[test]
    fn a_terminal_record_is_frozen() {
        let mut rec = record();
        rec.apply(StatusUpdate::failed(
            ToolErrorKind::FileWriteFailure,
            "disk full",
        ))
        .unwrap();
        let frozen = rec.clone();
        let err = rec.apply(StatusUpdate::doing().tip("again")).unwrap_err();
        assert!(matches!(err, StatusError::IllegalTransition(_)));
        assert!(rec.apply(StatusUpdate::success(json!(1))).is_err());
        assert_eq!(rec, frozen);
        assert!(rec.is_terminal());
    }

    #[test]
    fn doing_cannot_go_back_to_wait() {
        let mut rec = record();
        rec.apply(StatusUpdate::doing()).unwrap();
        assert!(rec.apply(StatusUpdate::wait()).is_err());
        assert_eq!(rec.info().status, ToolStatus::Doing);
    }

    #[test]
    fn patches_carry_only_what_changed_and_rebuild_the_card() {
        let mut rec = record();
        let mut mirror = rec.info().clone();
        let updates = [
            StatusUpdate::wait().params(json!({"path": "a.rs", "content": "fn"})),
            StatusUpdate::wait()
                .params(json!({"content": "fn main"}))
                .tip("Writing"),
            StatusUpdate::doing()
                .tip("Writing a.rs")
                .progress(Progress {
                    current: 1,
                    total: Some(2),
                }),
            StatusUpdate::doing().progress(Progress {
                current: 1,
                total: Some(2),
            }),
            StatusUpdate::success(json!({"ok": true})),
        ];
        let mut patches = Vec::new();
        for update in updates {
            let patch = rec.apply(update).unwrap();
            patch.apply_to(&mut mirror);
            patches.push(patch);
        }
        assert_eq!(&mirror, rec.info());
        assert_eq!(patches[1].params, None);
        assert_eq!(patches[1].params_append, Some(json!({"content": " main"})));
        assert_eq!(patches[2].tip, Some(TextPatch::Append(" a.rs".into())));
        assert!(patches[3].is_empty(), "same progress again changes nothing");
        assert_eq!(patches[4].status, Some(ToolStatus::Success));
    }
}
