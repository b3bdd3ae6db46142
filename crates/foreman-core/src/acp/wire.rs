//! The parts of the Agent Client Protocol (v1) that a client reads, as serde types, written
//! after the schema of `agent-client-protocol-schema` 1.20 (the crate itself is not a
//! dependency: its `serde_json` features would change every map of the build). What Foreman
//! sends is built with `serde_json::json!` in `agent/acp/`, beside where it is sent.
//!
//! Every type takes what a newer agent adds without failing: unknown fields are ignored and an
//! unknown `sessionUpdate` or content type becomes `Other`.

use serde::Deserialize;
use serde_json::Value;

/// The protocol version Foreman speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The agent's answer to `initialize`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResponse {
    #[serde(default)]
    pub protocol_version: Value,
    #[serde(default)]
    pub agent_capabilities: AgentCapabilities,
    #[serde(default)]
    pub auth_methods: Vec<AuthMethod>,
    #[serde(default)]
    pub agent_info: Option<Implementation>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentCapabilities {
    #[serde(default)]
    pub load_session: bool,
    #[serde(default)]
    pub prompt_capabilities: PromptCapabilities,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptCapabilities {
    #[serde(default)]
    pub image: bool,
    #[serde(default)]
    pub embedded_context: bool,
}

/// A way to log in that the agent offers.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthMethod {
    pub id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Implementation {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub version: Option<String>,
}

/// The agent's answer to `session/new` (and, without the id, to `session/load`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewSessionResponse {
    #[serde(default)]
    pub session_id: String,
    #[serde(default)]
    pub modes: Option<SessionModes>,
    /// Its settings (ACP's session config options), each read on its own
    /// ([`ConfigOption::read`]) so that one Foreman cannot read does not fail the session.
    #[serde(default)]
    pub config_options: Vec<Value>,
}

/// One of an agent's session config options. Only `select` options are read: a value out of a
/// list, which may come in groups.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigOption {
    #[serde(alias = "configId")]
    pub id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(rename = "type", default)]
    pub kind: String,
    #[serde(default)]
    pub current_value: Value,
    #[serde(default)]
    pub options: Vec<Value>,
}

/// A value of a `select` option (or a group of them).
#[derive(Debug, Clone, Deserialize)]
pub struct ConfigValue {
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    /// The values of a group.
    #[serde(default)]
    pub options: Vec<ConfigValue>,
}

impl ConfigOption {
    /// The option in `value`, when it is a `select` Foreman can show.
    pub fn read(value: &Value) -> Option<Self> {
        let option: Self = serde_json::from_value(value.clone()).ok()?;
        (option.kind == "select" && option.current_value.is_string()).then_some(option)
    }

    /// Its values, groups flattened, in the agent's order.
    pub fn values(&self) -> Vec<ConfigValue> {
        fn flatten(values: Vec<ConfigValue>, out: &mut Vec<ConfigValue>) {
            for value in values {
                match value.value {
                    Some(_) => out.push(value),
                    None => flatten(value.options, out),
                }
            }
        }
        let mut out = Vec::new();
        let values = self
            .options
            .iter()
            .filter_map(|v| serde_json::from_value(v.clone()).ok())
            .collect();
        flatten(values, &mut out);
        out
    }
}

/// One of the agent's own commands (`available_commands_update`).
#[derive(Debug, Clone, Deserialize)]
pub struct AvailableCommand {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub input: Option<CommandInput>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CommandInput {
    #[serde(default)]
    pub hint: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionModes {
    pub current_mode_id: String,
    #[serde(default)]
    pub available_modes: Vec<SessionMode>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SessionMode {
    pub id: String,
    #[serde(default)]
    pub name: String,
}

/// Why a prompt turn ended.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptResponse {
    pub stop_reason: StopReason,
    /// What the turn cost, when the agent says.
    #[serde(default)]
    pub usage: Option<TurnUsage>,
}

/// The tokens of a prompt turn.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnUsage {
    #[serde(default)]
    pub input_tokens: u64,
    #[serde(default)]
    pub output_tokens: u64,
    #[serde(default)]
    pub cached_read_tokens: Option<u64>,
    #[serde(default)]
    pub cached_write_tokens: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    EndTurn,
    MaxTokens,
    MaxTurnRequests,
    Refusal,
    Cancelled,
    #[serde(other)]
    Other,
}

/// The params of a `session/update` notification.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionNotification {
    #[serde(default)]
    pub session_id: String,
    pub update: SessionUpdate,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "sessionUpdate", rename_all = "snake_case")]
pub enum SessionUpdate {
    UserMessageChunk {
        content: ContentBlock,
    },
    AgentMessageChunk {
        content: ContentBlock,
    },
    AgentThoughtChunk {
        content: ContentBlock,
    },
    ToolCall(ToolCallFields),
    ToolCallUpdate(ToolCallFields),
    Plan {
        #[serde(default)]
        entries: Vec<PlanEntry>,
    },
    CurrentModeUpdate {
        #[serde(rename = "currentModeId")]
        current_mode_id: String,
    },
    /// The whole list of the agent's settings, as it is now.
    ConfigOptionUpdate {
        #[serde(rename = "configOptions", default)]
        config_options: Vec<Value>,
    },
    AvailableCommandsUpdate {
        #[serde(rename = "availableCommands", default)]
        available_commands: Vec<Value>,
    },
    #[serde(other)]
    Other,
}

/// What a `tool_call` carries, and what a `tool_call_update` may change (each field it leaves
/// out stays as it was).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallFields {
    pub tool_call_id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub kind: Option<ToolKind>,
    #[serde(default)]
    pub status: Option<ToolCallStatus>,
    #[serde(default)]
    pub content: Option<Vec<ToolCallContent>>,
    #[serde(default)]
    pub locations: Option<Vec<Location>>,
    #[serde(default)]
    pub raw_input: Option<Value>,
    #[serde(default)]
    pub raw_output: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    Read,
    Edit,
    Delete,
    Move,
    Search,
    Execute,
    Think,
    Fetch,
    SwitchMode,
    #[serde(other)]
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolCallStatus {
    Pending,
    InProgress,
    Completed,
    Failed,
    #[serde(other)]
    Other,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToolCallContent {
    Content {
        content: ContentBlock,
    },
    Diff {
        path: String,
        #[serde(default, rename = "oldText")]
        old_text: Option<String>,
        #[serde(rename = "newText")]
        new_text: String,
    },
    Terminal {
        #[serde(rename = "terminalId")]
        terminal_id: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Location {
    pub path: String,
    #[serde(default)]
    pub line: Option<u32>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    Text {
        text: String,
    },
    ResourceLink {
        uri: String,
        #[serde(default)]
        name: String,
    },
    #[serde(other)]
    Other,
}

impl ContentBlock {
    /// The block as text for the conversation (`None`: nothing a person reads).
    pub fn text(&self) -> Option<String> {
        match self {
            Self::Text { text } => Some(text.clone()),
            Self::ResourceLink { uri, name } if name.is_empty() => Some(uri.clone()),
            Self::ResourceLink { name, .. } => Some(name.clone()),
            Self::Other => None,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct PlanEntry {
    pub content: String,
    #[serde(default)]
    pub status: String,
}

/// `session/request_permission`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestPermission {
    #[serde(default)]
    pub session_id: String,
    pub tool_call: ToolCallFields,
    #[serde(default)]
    pub options: Vec<PermissionOption>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionOption {
    pub option_id: String,
    #[serde(default)]
    pub name: String,
    pub kind: PermissionKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PermissionKind {
    AllowOnce,
    AllowAlways,
    RejectOnce,
    RejectAlways,
    #[serde(other)]
    Other,
}

/// `fs/read_text_file`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadTextFile {
    pub path: String,
    /// The first line, 1-based.
    #[serde(default)]
    pub line: Option<u32>,
    #[serde(default)]
    pub limit: Option<u32>,
}

/// `fs/write_text_file`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteTextFile {
    pub path: String,
    pub content: String,
}

/// `terminal/create`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateTerminal {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: Vec<EnvVariable>,
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub output_byte_limit: Option<u64>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct EnvVariable {
    pub name: String,
    pub value: String,
}

/// `terminal/output`, `terminal/wait_for_exit`, `terminal/kill`, `terminal/release`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TerminalRef {
    pub terminal_id: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tool_call_update_with_a_diff_and_unknown_fields_parses() {
        let update: SessionNotification = serde_json::from_value(json!({
            "sessionId": "s1",
            "update": {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "t1",
                "status": "in_progress",
                "content": [
                    {"type": "diff", "path": "/w/a.txt", "oldText": "a", "newText": "b"},
                    {"type": "something_new", "x": 1}
                ],
                "_meta": {"claudeCode": {}},
                "rawInput": {"file_path": "/w/a.txt"}
            }
        }))
        .unwrap();
        let SessionUpdate::ToolCallUpdate(fields) = update.update else {
            panic!("not a tool call update");
        };
        assert_eq!(fields.tool_call_id, "t1");
        assert_eq!(fields.status, Some(ToolCallStatus::InProgress));
        let content = fields.content.unwrap();
        assert!(matches!(&content[0], ToolCallContent::Diff { new_text, .. } if new_text == "b"));
        assert!(matches!(content[1], ToolCallContent::Other));
    }

    #[test]
    fn a_select_option_reads_with_its_groups_and_other_types_are_left_out() {
        let option = ConfigOption::read(&json!({
            "id": "model", "name": "Model", "category": "model", "type": "select",
            "currentValue": "b",
            "options": [
                {"value": "a", "name": "A"},
                {"group": "more", "name": "More", "options": [{"value": "b", "name": "B"}]}
            ]
        }))
        .unwrap();
        let values: Vec<_> = option
            .values()
            .into_iter()
            .filter_map(|v| v.value)
            .collect();
        assert_eq!(values, ["a", "b"]);
        assert!(
            ConfigOption::read(&json!({"id": "fast", "type": "boolean", "currentValue": true}))
                .is_none()
        );
        assert!(ConfigOption::read(&json!({"name": "no id"})).is_none());
    }

    #[test]
    fn an_unknown_session_update_is_other() {
        let update: SessionNotification = serde_json::from_value(json!({
            "sessionId": "s1",
            "update": {"sessionUpdate": "usage_update", "used": 3}
        }))
        .unwrap();
        assert!(matches!(update.update, SessionUpdate::Other));
    }
}
