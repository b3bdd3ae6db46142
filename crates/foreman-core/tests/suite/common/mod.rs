//! What the engine's integration tests share: a session against the scripted SSE server in
//! either wire format, and a harness that waits for its events.

#![allow(dead_code)] // each test module uses its own part of it

use std::sync::Arc;
use std::time::Duration;

use foreman_core::agent::{Session, SessionConfig};
use foreman_core::conversation::open_session;
use foreman_core::protocol::{
    ApprovalMode, CallDecision, CallState, Event, EventMsg, Op, TaskEndReason, UndoState,
};
use foreman_core::providers::keys::static_key;
use foreman_core::providers::{
    AnthropicConfig, AnthropicProvider, HttpSettings, OpenAiConfig, OpenAiProvider, Provider,
    RetryPolicy,
};
use foreman_core::store::Store;
use foreman_core::testing::scripts::{self, Step, call};
use foreman_core::testing::sse_server::{ScriptedResponse, ScriptedServer};
use serde_json::json;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

#[derive(Clone, Copy, Debug)]
pub enum Wire {
    Anthropic,
    OpenAi,
}

pub const BOTH: [Wire; 2] = [Wire::Anthropic, Wire::OpenAi];

pub fn http() -> HttpSettings {
    HttpSettings {
        retry: RetryPolicy {
            max_attempts: 1,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(10),
            max_retry_after: Duration::from_millis(10),
            jitter: 0.0,
        },
        ..HttpSettings::default()
    }
}

pub fn body(wire: Wire, steps: &[Step]) -> String {
    match wire {
        Wire::Anthropic => scripts::anthropic(steps, 7),
        Wire::OpenAi => scripts::openai(steps, 7),
    }
}

pub struct Harness {
    pub server: ScriptedServer,
    pub dir: tempfile::TempDir,
    pub ops: UnboundedSender<Op>,
    pub events: UnboundedReceiver<Event>,
    pub wire: Wire,
    pub seen: Vec<Event>,
}

/// The scripted model server on 127.0.0.1, answering `responses` in order.
pub async fn serve(responses: Vec<ScriptedResponse>) -> ScriptedServer {
    ScriptedServer::start(responses).await.unwrap()
}

pub async fn start_with(
    wire: Wire,
    responses: Vec<ScriptedResponse>,
    configure: impl FnOnce(&mut SessionConfig),
) -> Harness {
    let server = ScriptedServer::start(responses).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "alpha\nbeta\n").unwrap();
    let provider: Arc<dyn Provider> = match wire {
        Wire::Anthropic => Arc::new(
            AnthropicProvider::new(
                AnthropicConfig::new(static_key("k"))
                    .with_base_url(server.url())
                    .with_http(http()),
            )
            .unwrap(),
        ),
        Wire::OpenAi => Arc::new(
            OpenAiProvider::new(
                OpenAiConfig::new(format!("{}/v1", server.url()), static_key("k"))
                    .with_http(http()),
            )
            .unwrap(),
        ),
    };
    let mut config = SessionConfig::new(provider, "test-model", dir.path().to_path_buf());
    config.data_dir = dir.path().join(".foreman-data");
    config.preview_poll = Duration::from_millis(20);
    configure(&mut config);
    let (ops, events) = Session::spawn(config).unwrap();
    Harness {
        server,
        dir,
        ops,
        events,
        wire,
        seen: Vec::new(),
    }
}

/// A session whose model answers `turns` in order, configured by `configure`.
pub async fn start_turns(
    wire: Wire,
    turns: &[Vec<Step>],
    configure: impl FnOnce(&mut SessionConfig),
) -> Harness {
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(wire, t)))
        .collect();
    start_with(wire, responses, configure).await
}

pub async fn start(wire: Wire, turns: &[Vec<Step>], mode: ApprovalMode) -> Harness {
    let responses = turns
        .iter()
        .map(|t| ScriptedResponse::sse(body(wire, t)))
        .collect();
    start_with(wire, responses, |c| c.approval_mode = mode).await
}

impl Harness {
    /// Sends a message of the user.
    pub fn say(&self, text: &str) {
        self.send(Op::user_message(text));
    }

    pub fn send(&self, op: Op) {
        self.ops.send(op).unwrap();
    }

    /// Waits for the first event matching `pred`.
    pub async fn until(&mut self, pred: impl Fn(&EventMsg) -> bool) -> EventMsg {
        loop {
            let event = tokio::time::timeout(Duration::from_secs(20), self.events.recv())
                .await
                .expect("timed out waiting for an event")
                .expect("the session ended");
            let msg = event.msg.clone();
            self.seen.push(event);
            if pred(&msg) {
                return msg;
            }
        }
    }

    pub async fn end(&mut self) -> TaskEndReason {
        match self
            .until(|m| matches!(m, EventMsg::TaskEnded { .. }))
            .await
        {
            EventMsg::TaskEnded { reason } => reason,
            _ => unreachable!(),
        }
    }

    /// Waits until a call starts executing.
    pub async fn until_executing(&mut self) {
        self.until(|m| {
            matches!(
                m,
                EventMsg::ToolCallUpdated {
                    state: Some(CallState::Executing),
                    ..
                }
            )
        })
        .await;
    }

    /// The next approval request, whole.
    pub async fn approval_request(&mut self) -> EventMsg {
        self.until(|m| matches!(m, EventMsg::ApprovalRequested { .. }))
            .await
    }

    pub async fn approval(&mut self) -> (String, String) {
        match self.approval_request().await {
            EventMsg::ApprovalRequested {
                call_id,
                preview_hash,
                ..
            } => (call_id, preview_hash),
            _ => unreachable!(),
        }
    }

    /// What a snapshot says about a retry now.
    pub async fn snapshot_retry(&mut self) -> Option<TaskEndReason> {
        self.send(Op::Snapshot);
        match self.until(|m| matches!(m, EventMsg::Snapshot { .. })).await {
            EventMsg::Snapshot { retry, .. } => retry,
            _ => unreachable!(),
        }
    }

    pub fn request_text(&self, n: usize) -> String {
        String::from_utf8_lossy(&self.server.requests()[n].body).into_owned()
    }

    /// The sandbox notes the session announced for call `id`'s card, in order.
    pub fn sandbox_notes(&self, id: &str) -> Vec<foreman_core::protocol::SandboxNote> {
        self.seen
            .iter()
            .filter_map(|e| match &e.msg {
                EventMsg::SandboxChanged { call_id, sandbox } if call_id == id => {
                    Some(sandbox.clone())
                }
                _ => None,
            })
            .collect()
    }

    pub fn file(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default()
    }

    /// The diff of the newest preview sent for call `id`'s card.
    pub fn card_diff(&self, id: &str) -> Option<foreman_core::diff::FileDiff> {
        self.seen.iter().rev().find_map(|e| match &e.msg {
            EventMsg::ToolCallUpdated {
                call_id,
                preview: Some(p),
                ..
            } if call_id == id => p.diff.clone(),
            _ => None,
        })
    }

    pub fn finished(&self, id: &str) -> Option<(CallState, String)> {
        self.seen.iter().find_map(|e| match &e.msg {
            EventMsg::ToolCallFinished {
                call_id,
                state,
                result,
                ..
            } if call_id == id => Some((*state, result.clone())),
            _ => None,
        })
    }

    /// The person's decision the finished event of `id` carried.
    pub fn decision(&self, id: &str) -> Option<CallDecision> {
        self.seen.iter().find_map(|e| match &e.msg {
            EventMsg::ToolCallFinished {
                call_id, decision, ..
            } if call_id == id => decision.clone(),
            _ => None,
        })
    }

    /// Every tool call id in the last request has exactly one result, right after its message.
    pub fn assert_one_result_per_call(&self) {
        self.assert_one_result_per_call_in(self.server.requests().len() - 1);
    }

    /// Every tool call id in request `n` has exactly one result, right after its message.
    pub fn assert_one_result_per_call_in(&self, n: usize) {
        let last = self.server.requests()[n].json();
        let (calls, results) = match self.wire {
            Wire::Anthropic => {
                let mut calls = Vec::new();
                let mut results = Vec::new();
                for m in last["messages"].as_array().unwrap() {
                    for block in m["content"].as_array().into_iter().flatten() {
                        match block["type"].as_str() {
                            Some("tool_use") => {
                                calls.push(block["id"].as_str().unwrap().to_owned())
                            }
                            Some("tool_result") => {
                                results.push(block["tool_use_id"].as_str().unwrap().to_owned())
                            }
                            _ => {}
                        }
                    }
                }
                (calls, results)
            }
            Wire::OpenAi => {
                let mut calls = Vec::new();
                let mut results = Vec::new();
                for m in last["messages"].as_array().unwrap() {
                    for c in m["tool_calls"].as_array().into_iter().flatten() {
                        calls.push(c["id"].as_str().unwrap().to_owned());
                    }
                    if m["role"] == "tool" {
                        results.push(m["tool_call_id"].as_str().unwrap().to_owned());
                    }
                }
                (calls, results)
            }
        };
        assert!(!calls.is_empty());
        assert_eq!(
            calls, results,
            "every call has exactly one result, in order"
        );
    }
}

pub fn read(id: &str, path: &str) -> Step {
    call(id, "read", json!({"path": path}))
}

/// A `write` call of `content` to `path`.
pub fn write(id: &str, path: &str, content: &str) -> Step {
    call(id, "write", json!({"path": path, "content": content}))
}

pub fn done(id: &str) -> Vec<Step> {
    vec![call(
        id,
        "attempt_completion",
        json!({"result": "all done"}),
    )]
}

impl Harness {
    /// Sends `op` and returns the reason of the refusal it gets.
    pub async fn refused(&mut self, op: Op) -> String {
        self.send(op);
        match self
            .until(|m| matches!(m, EventMsg::ApprovalRefused { .. }))
            .await
        {
            EventMsg::ApprovalRefused { reason, .. } => reason,
            _ => unreachable!(),
        }
    }
}

/// A session on `model` with `store`, resuming `session_id` when it has history there.
pub async fn start_stored(
    model: &str,
    store: &Store,
    session_id: &str,
    responses: Vec<ScriptedResponse>,
) -> Harness {
    let history = open_session(store, "/w", Some(session_id))
        .await
        .unwrap()
        .unwrap()
        .1;
    let (model, store, id) = (model.to_owned(), store.clone(), session_id.to_owned());
    start_with(Wire::Anthropic, responses, move |c| {
        c.model = model;
        c.context_window = Some(100_000);
        c.approval_mode = ApprovalMode::Ask;
        c.store = Some(store);
        c.session_id = Some(id);
        c.history = history;
    })
    .await
}

impl Harness {
    /// The undo state announced last for `id`.
    pub fn undo_of(&self, id: &str) -> Option<UndoState> {
        self.seen.iter().rev().find_map(|e| match &e.msg {
            EventMsg::UndoChanged { call_id, undo } if call_id == id => Some(*undo),
            _ => None,
        })
    }

    /// Asks to undo `id`'s change; `Err` is the refusal's reason.
    pub async fn undo(&mut self, id: &str) -> Result<(), String> {
        self.send(Op::UndoChange { call_id: id.into() });
        match self
            .until(|m| {
                matches!(
                    m,
                    EventMsg::UndoChanged {
                        undo: UndoState::Done,
                        ..
                    } | EventMsg::UndoRefused { .. }
                )
            })
            .await
        {
            EventMsg::UndoRefused { reason, .. } => Err(reason),
            _ => Ok(()),
        }
    }
}
