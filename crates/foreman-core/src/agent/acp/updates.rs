//! What an external agent reports (`session/update`), shown as Foreman shows its own agent:
//! message and thought chunks in the conversation, its plan as the task list, and each of its
//! tool calls as a card — title, kind, its arguments as they grow (patches from what the card
//! had to what came, so a field that grows is appended to), a diff it sends in the diff view,
//! its state. A whole-workspace checkpoint is taken when a call is reported and again when it
//! ends, so the card shows what the call changed (from the checkpoints, whatever the agent
//! said), and rewind and the session's count of changed files cover it; a read or a search
//! takes none (what it changes, if anything, the next checkpoint has).

use serde_json::{Value, json};

use super::state::{AgentCall, SessionAgent};
use crate::acp::wire::{
    PlanEntry, SessionNotification, SessionUpdate, ToolCallContent, ToolCallFields, ToolCallStatus,
    ToolKind as AcpKind,
};
use crate::agent::calls::preview::diff_preview;
use crate::agent::checkpoints::checkpointing::Moment;
use crate::agent::engine::Engine;
use crate::partial_json::{CompactString, JsonPath, Patch, PathSegment};
use crate::protocol::{ArgsView, CallState, EventMsg, ToolKind};

/// The card's kind for an agent's tool kind.
pub(crate) fn card_kind(kind: Option<AcpKind>) -> ToolKind {
    match kind {
        Some(AcpKind::Read) => ToolKind::Read,
        Some(AcpKind::Edit | AcpKind::Delete | AcpKind::Move) => ToolKind::Edit,
        Some(AcpKind::Search) => ToolKind::Search,
        Some(AcpKind::Execute) => ToolKind::Execute,
        Some(AcpKind::Fetch) => ToolKind::Fetch,
        Some(AcpKind::Think | AcpKind::SwitchMode | AcpKind::Other) | None => ToolKind::Other,
    }
}

/// The card's name for an agent's call: what kind of thing it does (its title says on what).
fn kind_word(kind: Option<AcpKind>) -> &'static str {
    match kind {
        Some(AcpKind::Read) => "read",
        Some(AcpKind::Edit) => "edit",
        Some(AcpKind::Delete) => "delete",
        Some(AcpKind::Move) => "move",
        Some(AcpKind::Search) => "search",
        Some(AcpKind::Execute) => "run",
        Some(AcpKind::Think) => "think",
        Some(AcpKind::Fetch) => "fetch",
        Some(AcpKind::SwitchMode) => "mode",
        Some(AcpKind::Other) | None => "tool",
    }
}

/// The command an agent's call runs, when its input names one (`command`, a string or words).
pub(crate) fn command_of(raw: &Value) -> Option<String> {
    match raw.get("command")? {
        Value::String(line) => Some(line.clone()),
        Value::Array(words) => {
            let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
            (!words.is_empty()).then(|| words.join(" "))
        }
        _ => None,
    }
}

/// The patches that turn `old` into `new`: a key that appeared is set, a string that grew is
/// appended to, anything else that changed is set whole.
pub(crate) fn value_patches(old: &Value, new: &Value) -> Vec<Patch> {
    let mut patches = Vec::new();
    diff_into(&mut Vec::new(), old, new, &mut patches);
    patches
}

fn diff_into(path: &mut Vec<PathSegment>, old: &Value, new: &Value, out: &mut Vec<Patch>) {
    match (old, new) {
        (a, b) if a == b => {}
        (Value::Object(a), Value::Object(b)) => {
            if a.keys().any(|k| !b.contains_key(k)) {
                out.push(Patch::Set {
                    path: JsonPath::from(path.clone()),
                    value: new.clone(),
                });
                return;
            }
            for (key, value) in b {
                path.push(PathSegment::Key(CompactString::from(key.as_str())));
                match a.get(key) {
                    Some(before) => diff_into(path, before, value, out),
                    None => out.push(Patch::Set {
                        path: JsonPath::from(path.clone()),
                        value: value.clone(),
                    }),
                }
                path.pop();
            }
        }
        (Value::String(a), Value::String(b)) if b.starts_with(a.as_str()) => {
            out.push(Patch::Append {
                path: JsonPath::from(path.clone()),
                text: CompactString::from(&b[a.len()..]),
            });
        }
        _ => out.push(Patch::Set {
            path: JsonPath::from(path.clone()),
            value: new.clone(),
        }),
    }
}

impl Engine {
    /// Reads one notification of the agent; `said` gathers what it says in this turn.
    pub(crate) async fn agent_notification(
        &mut self,
        method: &str,
        params: Value,
        said: &mut String,
    ) {
        if method != "session/update" {
            tracing::debug!(method, "an agent's notification that Foreman does not read");
            return;
        }
        let (update, ours) = match serde_json::from_value::<SessionNotification>(params) {
            Ok(notification) => {
                // Another session's settings (a sub-agent's) are not this one's.
                let ours = match &self.agent {
                    SessionAgent::External(external) => {
                        notification.session_id.is_empty()
                            || external.acp_session.as_deref() == Some(&notification.session_id)
                    }
                    SessionAgent::Foreman => false,
                };
                (notification.update, ours)
            }
            Err(error) => {
                tracing::warn!(%error, "an agent's update is not what ACP says; skipped");
                return;
            }
        };
        match update {
            SessionUpdate::AgentMessageChunk { content } => {
                if let Some(text) = content.text() {
                    said.push_str(&text);
                    self.events.emit(EventMsg::TextDelta { text });
                }
            }
            SessionUpdate::AgentThoughtChunk { content } => {
                if let Some(text) = content.text() {
                    self.events.emit(EventMsg::ThinkingDelta { text });
                }
            }
            SessionUpdate::ToolCall(fields) | SessionUpdate::ToolCallUpdate(fields) => {
                self.agent_tool_call(fields).await;
            }
            SessionUpdate::Plan { entries } => self.show_agent_plan(&entries).await,
            SessionUpdate::CurrentModeUpdate { current_mode_id } => {
                if let SessionAgent::External(external) = &mut self.agent {
                    external.took_mode(&current_mode_id);
                }
                self.emit_agent_settings();
            }
            SessionUpdate::ConfigOptionUpdate { config_options } if ours => {
                self.agent_offers(Some(config_options), None);
            }
            SessionUpdate::AvailableCommandsUpdate { available_commands } if ours => {
                self.agent_offers(None, Some(available_commands));
            }
            SessionUpdate::ConfigOptionUpdate { .. }
            | SessionUpdate::AvailableCommandsUpdate { .. } => {}
            SessionUpdate::UserMessageChunk { .. } | SessionUpdate::Other => {}
        }
    }

    /// The card of the agent's call `fields.tool_call_id`, made when it is new, and what it is
    /// known by (its checkpoint comes once the card shows it: `checkpoint_agent_call`).
    pub(crate) async fn agent_card(&mut self, fields: &ToolCallFields) -> Option<AgentCall> {
        let SessionAgent::External(external) = &mut self.agent else {
            return None;
        };
        if let Some(known) = external.calls.get(&fields.tool_call_id) {
            return Some(known.clone());
        }
        let card = match self.calls.get(&fields.tool_call_id) {
            // Another call of the session has that id already.
            Some(_) => external.fresh_id("agent-call"),
            None => fields.tool_call_id.clone(),
        };
        let kind = card_kind(fields.kind);
        let raw = fields.raw_input.clone().unwrap_or(Value::Null);
        let view = match command_of(&raw) {
            Some(command) if kind == ToolKind::Execute => ArgsView::Command { command },
            _ => ArgsView::Json,
        };
        let name = kind_word(fields.kind).to_owned();
        self.calls
            .create(&mut self.events, &card, &name, kind, view);
        let call = AgentCall {
            card,
            before: None,
            // A call that only looks changes nothing to measure.
            measured: matches!(kind, ToolKind::Read | ToolKind::Search),
            raw_input: Value::Null,
            content: Vec::new(),
            ended: false,
        };
        if let SessionAgent::External(external) = &mut self.agent {
            external
                .calls
                .insert(fields.tool_call_id.clone(), call.clone());
        }
        Some(call)
    }

    /// Takes the checkpoint what the agent's call `id` changes is measured from, once.
    pub(crate) async fn checkpoint_agent_call(&mut self, id: &str) {
        let SessionAgent::External(external) = &mut self.agent else {
            return;
        };
        let Some(call) = external.calls.get_mut(id).filter(|c| !c.measured) else {
            return;
        };
        call.measured = true;
        let card = call.card.clone();
        let before = self.checkpoint(Moment::Call(&card)).await;
        if let SessionAgent::External(external) = &mut self.agent
            && let Some(call) = external.calls.get_mut(id)
        {
            call.before = before;
        }
    }

    /// Shows what the agent reported of one of its calls.
    async fn agent_tool_call(&mut self, fields: ToolCallFields) {
        let Some(call) = self.agent_card(&fields).await else {
            return;
        };
        let card = call.card.clone();
        if let Some(title) = &fields.title {
            self.calls.set_title(&mut self.events, &card, title.clone());
        }
        if let Some(raw) = &fields.raw_input {
            let args = value_patches(&call.raw_input, raw);
            if !args.is_empty() {
                self.events.emit(EventMsg::ToolCallUpdated {
                    call_id: card.clone(),
                    state: None,
                    args,
                    preview: None,
                    status: None,
                    images: None,
                    title: None,
                });
            }
            self.calls.set_arguments(&card, raw.clone());
            if let SessionAgent::External(external) = &mut self.agent
                && let Some(known) = external.calls.get_mut(&fields.tool_call_id)
            {
                known.raw_input = raw.clone();
            }
        }
        if let Some(content) = fields.content.as_ref().filter(|c| !c.is_empty())
            && let SessionAgent::External(external) = &mut self.agent
            && let Some(known) = external.calls.get_mut(&fields.tool_call_id)
        {
            known.content = content.clone();
        }
        let mut said = Vec::new();
        for content in fields.content.iter().flatten() {
            match content {
                ToolCallContent::Diff {
                    path,
                    old_text,
                    new_text,
                } => {
                    let shown = self.shown_path(path);
                    let preview = diff_preview(&shown, old_text.as_deref(), new_text);
                    self.calls.show_preview(&mut self.events, &card, preview);
                }
                ToolCallContent::Content { content } => said.extend(content.text()),
                ToolCallContent::Terminal { .. } | ToolCallContent::Other => {}
            }
        }
        // Once the card shows what it is, and before the agent's change lands (as far as the
        // agent reports it first).
        self.checkpoint_agent_call(&fields.tool_call_id).await;
        let output = raw_output_text(fields.raw_output.as_ref());
        let result = match (said.is_empty(), output) {
            (false, _) => said.join("\n"),
            (true, Some(output)) => output,
            (true, None) => String::new(),
        };
        match fields.status {
            Some(ToolCallStatus::InProgress) => self.advance(&card, CallState::Executing),
            Some(ToolCallStatus::Completed) => {
                self.advance(&card, CallState::Executing);
                self.end_agent_call(&fields.tool_call_id, CallState::Succeeded, &result)
                    .await;
            }
            Some(ToolCallStatus::Failed) => {
                self.end_agent_call(&fields.tool_call_id, CallState::Failed, &result)
                    .await;
            }
            Some(ToolCallStatus::Pending | ToolCallStatus::Other) | None => {}
        }
    }

    /// Moves `card` on towards `to` through the states between (a card the agent reports
    /// running went through validation and scheduling as far as Foreman shows).
    pub(crate) fn advance(&mut self, card: &str, to: CallState) {
        const PATH: [CallState; 4] = [
            CallState::Streaming,
            CallState::Validating,
            CallState::Scheduled,
            CallState::Executing,
        ];
        let Some(mut now) = self.calls.state(card) else {
            return;
        };
        if now == CallState::AwaitingApproval {
            // Approved: on from where it was asked.
            now = CallState::Validating;
        }
        let (Some(from), Some(target)) = (
            PATH.iter().position(|s| *s == now),
            PATH.iter().position(|s| *s == to),
        ) else {
            return;
        };
        for state in PATH.iter().take(target + 1).skip(from + 1) {
            self.calls.transition(&mut self.events, card, *state, None);
        }
    }

    /// Ends the agent's call `id` in `state`, with what it changed.
    async fn end_agent_call(&mut self, id: &str, state: CallState, result: &str) {
        let SessionAgent::External(external) = &mut self.agent else {
            return;
        };
        let Some(call) = external.calls.get_mut(id) else {
            return;
        };
        if call.ended {
            return;
        }
        call.ended = true;
        let (card, before) = (call.card.clone(), call.before.clone());
        if self.calls.state(&card).is_some_and(|s| !s.is_terminal()) {
            self.calls.finish(
                &mut self.events,
                &card,
                state,
                result,
                state != CallState::Succeeded,
            );
        }
        if let Some(before) = before {
            self.show_changes(&card, &before).await;
            self.report_session_changes().await;
        }
    }

    /// The agent's plan as the session's task list.
    async fn show_agent_plan(&mut self, entries: &[PlanEntry]) {
        let todos: Vec<Value> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let status = match e.status.as_str() {
                    "in_progress" | "completed" => e.status.as_str(),
                    _ => "pending",
                };
                json!({"id": (i + 1).to_string(), "content": e.content, "status": status})
            })
            .collect();
        let todos = Value::Array(todos);
        self.save_todos(&todos).await;
        self.events.emit(EventMsg::TodosChanged { todos });
    }

    /// `path` as a card shows it: relative to the workspace when inside it.
    pub(crate) fn shown_path(&self, path: &str) -> String {
        std::path::Path::new(path)
            .strip_prefix(&self.workspace)
            .map_or_else(|_| path.to_owned(), |p| p.display().to_string())
    }
}

/// What the agent's `rawOutput` says, as text.
fn raw_output_text(raw: Option<&Value>) -> Option<String> {
    match raw? {
        Value::Null => None,
        Value::String(text) => Some(text.clone()),
        other => other
            .get("output")
            .or_else(|| other.get("stdout"))
            .and_then(Value::as_str)
            .map_or_else(|| Some(other.to_string()), |s| Some(s.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partial_json::apply_patch;

    #[test]
    fn patches_grow_a_card_s_arguments_field_by_field() {
        let steps = [
            json!({}),
            json!({"file_path": "/w/a.txt"}),
            json!({"file_path": "/w/a.txt", "new_string": "hel"}),
            json!({"file_path": "/w/a.txt", "new_string": "hello"}),
            json!({"command": ["ls", "-l"]}),
        ];
        let mut shown = Value::Null;
        let mut last = Value::Null;
        for step in steps {
            for patch in value_patches(&last, &step) {
                apply_patch(&mut shown, &patch);
            }
            assert_eq!(shown, step);
            last = step;
        }
        let grew = value_patches(&json!({"s": "hel"}), &json!({"s": "hello"}));
        assert!(matches!(&grew[..], [Patch::Append { text, .. }] if text == "lo"));
    }

    #[test]
    fn a_command_is_read_from_a_string_or_its_words() {
        assert_eq!(
            command_of(&json!({"command": "ls -l"})).as_deref(),
            Some("ls -l")
        );
        assert_eq!(
            command_of(&json!({"command": ["git", "status"]})).as_deref(),
            Some("git status")
        );
        assert_eq!(command_of(&json!({"path": "x"})), None);
    }
}
