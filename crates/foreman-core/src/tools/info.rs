//! The UI channel's data: the accumulated [`ToolInfo`] card of a call and the [`ToolInfoPatch`]
//! emitted for each change.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::error::ToolError;
use super::kind::ToolKind;
use super::status::ToolStatus;

/// How far a long-running tool has got.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Progress {
    /// Units done so far (lines, bytes, files…).
    pub current: u64,
    /// Units in total, when known.
    pub total: Option<u64>,
}

/// Everything the person sees about one call, accumulated from every status the tool sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ToolInfo {
    pub call_id: String,
    pub tool_name: String,
    pub display_name: Option<String>,
    pub kind: ToolKind,
    pub status: ToolStatus,
    /// The params the tool chose to show, deep-merged over time (always a JSON object).
    #[ts(type = "Record<string, unknown>")]
    pub params: Value,
    /// A one-line hint, e.g. "Reading src/main.rs…".
    pub tip: Option<String>,
    pub progress: Option<Progress>,
    /// What the tool reported on success (for the UI, not the model).
    #[ts(type = "unknown")]
    pub result: Option<Value>,
    pub error: Option<ToolError>,
}

impl ToolInfo {
    /// A fresh card in `WAIT` with no params.
    pub fn new(
        call_id: impl Into<String>,
        tool_name: impl Into<String>,
        display_name: Option<String>,
        kind: ToolKind,
    ) -> Self {
        Self {
            call_id: call_id.into(),
            tool_name: tool_name.into(),
            display_name,
            kind,
            status: ToolStatus::Wait,
            params: Value::Object(serde_json::Map::new()),
            tip: None,
            progress: None,
            result: None,
            error: None,
        }
    }
}

/// A change to a text field: replace it, or append to it (when the new text extends the old).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TextPatch {
    Set(String),
    Append(String),
}

impl TextPatch {
    /// The patch that turns `old` into `new`.
    pub fn between(old: Option<&str>, new: &str) -> Self {
        match old {
            Some(old) if new.len() > old.len() && new.starts_with(old) => {
                Self::Append(new[old.len()..].to_owned())
            }
            _ => Self::Set(new.to_owned()),
        }
    }

    /// Applies the patch to `target`.
    pub fn apply(&self, target: &mut Option<String>) {
        match self {
            Self::Set(text) => *target = Some(text.clone()),
            Self::Append(suffix) => target.get_or_insert_with(String::new).push_str(suffix),
        }
    }
}

/// The fields of a [`ToolInfo`] that one status change touched; absent fields are unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ToolInfoPatch {
    pub call_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<ToolStatus>,
    /// A merge patch of params that changed or appeared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, unknown>")]
    pub params: Option<Value>,
    /// Suffixes to append to string params that grew, mirroring the params' structure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, unknown>")]
    pub params_append: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tip: Option<TextPatch>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub progress: Option<Progress>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<ToolError>,
}

impl ToolInfoPatch {
    /// An empty patch for `call_id`.
    pub fn empty(call_id: impl Into<String>) -> Self {
        Self {
            call_id: call_id.into(),
            status: None,
            params: None,
            params_append: None,
            tip: None,
            progress: None,
            result: None,
            error: None,
        }
    }

    /// Whether the patch changes nothing.
    pub fn is_empty(&self) -> bool {
        self.status.is_none()
            && self.params.is_none()
            && self.params_append.is_none()
            && self.tip.is_none()
            && self.progress.is_none()
            && self.result.is_none()
            && self.error.is_none()
    }

    /// Applies the patch to a copy of the card held elsewhere (the UI does the same in TS).
    pub fn apply_to(&self, info: &mut ToolInfo) {
        if let Some(status) = self.status {
            info.status = status;
        }
        let params = super::merge::ParamsPatch {
            set: self.params.clone(),
            append: self.params_append.clone(),
        };
        params.apply_to(&mut info.params);
        if let Some(tip) = &self.tip {
            tip.apply(&mut info.tip);
        }
        if let Some(progress) = &self.progress {
            info.progress = Some(progress.clone());
        }
        if let Some(result) = &self.result {
            info.result = Some(result.clone());
        }
        if let Some(error) = &self.error {
            info.error = Some(error.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_patch_appends_only_when_the_text_grew() {
        assert_eq!(
            TextPatch::between(Some("Reading"), "Reading a.rs"),
            TextPatch::Append(" a.rs".into())
        );
        assert_eq!(
            TextPatch::between(Some("Reading"), "Writing"),
            TextPatch::Set("Writing".into())
        );
        let mut tip = Some("Reading".to_owned());
        TextPatch::Append(" a.rs".into()).apply(&mut tip);
        assert_eq!(tip.as_deref(), Some("Reading a.rs"));
    }

    #[test]
    fn new_card_waits_with_empty_params() {
        let info = ToolInfo::new("c1", "read", None, ToolKind::Read);
        assert_eq!(info.status, ToolStatus::Wait);
        assert_eq!(info.params, serde_json::json!({}));
        assert!(ToolInfoPatch::empty("c1").is_empty());
    }

    #[test]
    fn typescript_bindings_are_current() {
        crate::bindings::assert_bindings_current::<Progress>();
        crate::bindings::assert_bindings_current::<ToolInfo>();
        crate::bindings::assert_bindings_current::<TextPatch>();
        crate::bindings::assert_bindings_current::<ToolInfoPatch>();
    }
}
