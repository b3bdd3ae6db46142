//! [`ConnectionTest`]: what Settings' "Test connection" found out about a provider: whether it
//! answers, the models it lists, and whether its model calls tools natively (when it does not,
//! the text protocol is suggested).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::model_info::ModelInfo;

/// Whether the model calls tools through the API, as the test request found out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolSupport {
    /// The model called the tool it was asked to call.
    Native,
    /// The model answered in text and did not call the tool it was asked to call.
    Ignored {
        /// The start of its answer.
        answer: String,
    },
    /// The server refused the request with a tool definition and answered it without one.
    Refused {
        /// What the server said.
        message: String,
    },
    /// Not found out: the test request failed, or none was sent (no model chosen).
    Unknown,
}

impl ToolSupport {
    /// True when the model cannot call tools natively, so the text protocol is the way to go.
    pub fn lacks_tools(&self) -> bool {
        matches!(self, Self::Ignored { .. } | Self::Refused { .. })
    }
}

/// What "Test connection" found out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ConnectionTest {
    /// The model answered the test request.
    pub connected: bool,
    /// One sentence for the user: what worked, or what failed and why.
    pub message: String,
    /// The models the server lists (empty when it lists none or listing failed).
    pub models: Vec<ModelInfo>,
    /// Why the models could not be listed, when they could not.
    pub models_error: Option<String>,
    /// Whether the model calls tools natively.
    pub tool_support: ToolSupport,
    /// The settings use native tool calling, which the model lacks: turn the text protocol on.
    pub suggest_text_protocol: bool,
    /// How long the test request took, from sending it to the end of the answer.
    #[ts(type = "number | null")]
    pub latency_ms: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_up_to_date() {
        crate::bindings::assert_bindings_current::<ConnectionTest>();
        crate::bindings::assert_bindings_current::<ToolSupport>();
    }

    #[test]
    fn only_a_model_that_ignored_or_refused_the_tool_lacks_tools() {
        assert!(!ToolSupport::Native.lacks_tools());
        assert!(!ToolSupport::Unknown.lacks_tools());
        assert!(
            ToolSupport::Ignored {
                answer: "hi".into()
            }
            .lacks_tools()
        );
        assert!(
            ToolSupport::Refused {
                message: "tools are not supported".into()
            }
            .lacks_tools()
        );
        let json = serde_json::to_value(ToolSupport::Refused {
            message: "no".into(),
        })
        .unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "refused", "message": "no"})
        );
    }
}
