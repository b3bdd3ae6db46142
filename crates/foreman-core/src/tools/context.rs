//! What a tool gets when it runs: the session environment ([`ToolEnv`]) and the per-call
//! [`ToolContext`] with its two channels (`set_result` for the model, `send_status` for the
//! person).

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use super::error::ToolError;
use super::info::{ToolInfo, ToolInfoPatch};
use super::record::{StatusError, StatusRecord};
use super::result::ToolResult;
use super::stats::ToolStats;
use super::status::StatusUpdate;

/// The default execution timeout of a tool.
pub const DEFAULT_TOOL_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// Something the tool layer tells the rest of the engine (and, through it, the UI).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToolEvent {
    /// A call got its card (first partial or final invocation).
    Started {
        session_id: String,
        message_id: String,
        info: ToolInfo,
    },
    /// A card changed; only the changed fields.
    Patch {
        session_id: String,
        patch: ToolInfoPatch,
    },
    /// A tool's stats after one of its executions.
    Stats {
        session_id: String,
        stats: ToolStats,
    },
}

/// Settings visible to tools: timeouts and free-form values (e.g. `"bash.shell": "/bin/zsh"`).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSettings {
    /// Timeout of tools without their own or a configured one.
    pub default_timeout: Duration,
    /// Configured per-tool timeouts; they win over a tool's own [`Tool::timeout`](super::Tool).
    pub timeouts: HashMap<String, Duration>,
    /// Free-form values for tools.
    pub values: BTreeMap<String, Value>,
}

impl Default for ToolSettings {
    fn default() -> Self {
        Self {
            default_timeout: DEFAULT_TOOL_TIMEOUT,
            timeouts: HashMap::new(),
            values: BTreeMap::new(),
        }
    }
}

impl ToolSettings {
    /// The timeout for `tool`: configured override, else the tool's own, else the default.
    pub fn timeout_for(&self, tool: &str, tool_own: Option<Duration>) -> Duration {
        self.timeouts
            .get(tool)
            .copied()
            .or(tool_own)
            .unwrap_or(self.default_timeout)
    }
}

/// What a `new_task` call asks a child agent to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubAgentRequest {
    pub parent_session_id: String,
    pub parent_call_id: String,
    /// A short description of the task (shown to the person).
    pub description: String,
    /// The full instructions for the child agent.
    pub prompt: String,
}

/// Runs a child agent to completion; injected by the agent loop.
#[async_trait]
pub trait SubAgentRunner: Send + Sync {
    /// Runs the child agent and returns its final report for the parent model.
    async fn run(
        &self,
        request: SubAgentRequest,
        cancel: CancellationToken,
    ) -> Result<String, ToolError>;
}

/// The session-level environment shared by every call and handed to tool factories.
#[derive(Clone)]
pub struct ToolEnv {
    workspace_root: Arc<PathBuf>,
    session_id: Arc<str>,
    http: reqwest::Client,
    settings: Arc<ToolSettings>,
    events: UnboundedSender<ToolEvent>,
    sub_agent: Option<Arc<dyn SubAgentRunner>>,
}

impl std::fmt::Debug for ToolEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolEnv")
            .field("workspace_root", &self.workspace_root)
            .field("session_id", &self.session_id)
            .field("settings", &self.settings)
            .field("sub_agent", &self.sub_agent.is_some())
            .finish_non_exhaustive()
    }
}

impl ToolEnv {
    /// An environment with default settings, a fresh HTTP client and no sub-agent runner.
    pub fn new(
        workspace_root: impl Into<PathBuf>,
        session_id: impl Into<String>,
        events: UnboundedSender<ToolEvent>,
    ) -> Self {
        Self {
            workspace_root: Arc::new(workspace_root.into()),
            session_id: Arc::from(session_id.into()),
            http: reqwest::Client::new(),
            settings: Arc::new(ToolSettings::default()),
            events,
            sub_agent: None,
        }
    }

    /// Shares an existing HTTP client (connection pool) with the tools.
    #[must_use]
    pub fn with_http(mut self, http: reqwest::Client) -> Self {
        self.http = http;
        self
    }

    #[must_use]
    pub fn with_settings(mut self, settings: ToolSettings) -> Self {
        self.settings = Arc::new(settings);
        self
    }

    /// Lets `new_task` run child agents.
    #[must_use]
    pub fn with_sub_agent(mut self, runner: Arc<dyn SubAgentRunner>) -> Self {
        self.sub_agent = Some(runner);
        self
    }

    pub fn workspace_root(&self) -> &Path {
        &self.workspace_root
    }

    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    pub fn http(&self) -> &reqwest::Client {
        &self.http
    }

    pub fn settings(&self) -> &ToolSettings {
        &self.settings
    }

    pub fn sub_agent(&self) -> Option<&Arc<dyn SubAgentRunner>> {
        self.sub_agent.as_ref()
    }

    /// Sends an event; a closed receiver (nobody listening) is not an error for tools.
    pub(crate) fn emit(&self, event: ToolEvent) {
        if self.events.send(event).is_err() {
            tracing::trace!("tool event dropped: no receiver");
        }
    }
}

/// The per-call state shared by the manager and every invocation of one call.
#[derive(Debug)]
pub(crate) struct CallSlot {
    record: Mutex<StatusRecord>,
    result: Mutex<Option<ToolResult>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl CallSlot {
    pub(crate) fn new(info: ToolInfo) -> Self {
        Self {
            record: Mutex::new(StatusRecord::new(info)),
            result: Mutex::new(None),
        }
    }

    pub(crate) fn snapshot(&self) -> ToolInfo {
        lock(&self.record).info().clone()
    }

    pub(crate) fn apply(&self, update: StatusUpdate) -> Result<ToolInfoPatch, StatusError> {
        lock(&self.record).apply(update)
    }

    pub(crate) fn is_terminal(&self) -> bool {
        lock(&self.record).is_terminal()
    }

    pub(crate) fn set_result(&self, result: ToolResult) -> Option<ToolResult> {
        lock(&self.result).replace(result)
    }

    pub(crate) fn take_result(&self) -> Option<ToolResult> {
        lock(&self.result).take()
    }
}

/// Everything one invocation of a tool gets: ids, workspace, cancellation, HTTP client,
/// settings, and the two channels.
///
/// * [`set_result`](Self::set_result) — what the model sees on its next turn.
/// * [`send_status`](Self::send_status) — what the person sees (the accumulated [`ToolInfo`]).
#[derive(Debug, Clone)]
pub struct ToolContext {
    env: ToolEnv,
    message_id: Arc<str>,
    call_id: Arc<str>,
    cancel: CancellationToken,
    partial: bool,
    slot: Arc<CallSlot>,
}

impl ToolContext {
    pub(crate) fn new(
        env: ToolEnv,
        message_id: Arc<str>,
        call_id: Arc<str>,
        cancel: CancellationToken,
        partial: bool,
        slot: Arc<CallSlot>,
    ) -> Self {
        Self {
            env,
            message_id,
            call_id,
            cancel,
            partial,
            slot,
        }
    }

    /// A context detached from any manager, for testing a tool on its own; events go to `env`.
    pub fn standalone(env: ToolEnv, tool_name: &str, call_id: &str) -> Self {
        let info = ToolInfo::new(call_id, tool_name, None, super::ToolKind::Other);
        Self::new(
            env,
            Arc::from("standalone"),
            Arc::from(call_id),
            CancellationToken::new(),
            false,
            Arc::new(CallSlot::new(info)),
        )
    }

    pub fn env(&self) -> &ToolEnv {
        &self.env
    }

    pub fn workspace_root(&self) -> &Path {
        self.env.workspace_root()
    }

    pub fn session_id(&self) -> &str {
        self.env.session_id()
    }

    pub fn message_id(&self) -> &str {
        &self.message_id
    }

    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// Cancelled when the person or the loop stops the call; long tools should check it.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    pub fn http(&self) -> &reqwest::Client {
        self.env.http()
    }

    pub fn settings(&self) -> &ToolSettings {
        self.env.settings()
    }

    /// Whether this invocation only previews streaming params.
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// The model channel: sets what the model sees for this call (the last call wins). Ignored
    /// during partial invocations, which must not produce results.
    pub fn set_result(&self, result: impl Into<ToolResult>) {
        if self.partial {
            tracing::debug!(call_id = %self.call_id, "set_result ignored during a partial invocation");
            return;
        }
        if self.slot.set_result(result.into()).is_some() {
            tracing::debug!(call_id = %self.call_id, "set_result called again; the last result wins");
        }
    }

    /// The UI channel: moves the card through the state machine, accumulates the fields and
    /// emits the patch. Illegal transitions are refused and change nothing.
    pub fn send_status(&self, update: StatusUpdate) -> Result<(), StatusError> {
        let patch = self.slot.apply(update)?;
        if !patch.is_empty() {
            self.env.emit(ToolEvent::Patch {
                session_id: self.env.session_id().to_owned(),
                patch,
            });
        }
        Ok(())
    }

    /// The accumulated card of this call.
    pub fn snapshot(&self) -> ToolInfo {
        self.slot.snapshot()
    }

    pub(crate) fn slot(&self) -> &Arc<CallSlot> {
        &self.slot
    }
}

impl From<String> for ToolResult {
    fn from(text: String) -> Self {
        Self::Text(text)
    }
}

impl From<&str> for ToolResult {
    fn from(text: &str) -> Self {
        Self::Text(text.to_owned())
    }
}

impl From<Value> for ToolResult {
    fn from(value: Value) -> Self {
        Self::Json(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{ToolErrorKind, ToolStatus};
    use serde_json::json;
    use tokio::sync::mpsc::unbounded_channel;

    #[test]
    fn configured_timeouts_win_over_the_tools_own() {
        let mut settings = ToolSettings::default();
        settings
            .timeouts
            .insert("bash".into(), Duration::from_secs(5));
        assert_eq!(
            settings.timeout_for("bash", Some(Duration::from_secs(60))),
            Duration::from_secs(5)
        );
        assert_eq!(
            settings.timeout_for("grep", Some(Duration::from_secs(60))),
            Duration::from_secs(60)
        );
        assert_eq!(settings.timeout_for("grep", None), DEFAULT_TOOL_TIMEOUT);
    }

    #[test]
    fn send_status_emits_patches_and_set_result_fills_the_model_channel() {
        let (tx, mut rx) = unbounded_channel();
        let ctx = ToolContext::standalone(ToolEnv::new("/tmp", "s1", tx), "read", "c1");
        ctx.send_status(StatusUpdate::doing().tip("Reading a.rs…"))
            .unwrap();
        ctx.set_result("three lines");
        ctx.send_status(StatusUpdate::success(json!({"lines": 3})))
            .unwrap();
        let Some(ToolEvent::Patch { patch, .. }) = rx.try_recv().ok() else {
            panic!("expected a patch");
        };
        assert_eq!(patch.status, Some(ToolStatus::Doing));
        assert!(rx.try_recv().is_ok());
        assert_eq!(ctx.snapshot().status, ToolStatus::Success);
        assert_eq!(
            ctx.slot().take_result(),
            Some(ToolResult::text("three lines"))
        );
        let refused = ctx.send_status(StatusUpdate::failed(ToolErrorKind::Unknown, "late"));
        assert!(refused.is_err());
        assert!(rx.try_recv().is_err(), "a refused update emits nothing");
    }

    #[test]
    fn partial_invocations_cannot_set_results() {
        let (tx, _rx) = unbounded_channel();
        let standalone = ToolContext::standalone(ToolEnv::new("/tmp", "s1", tx), "w", "c1");
        let partial = ToolContext {
            partial: true,
            ..standalone
        };
        partial.set_result("too early");
        assert_eq!(partial.slot().take_result(), None);
    }
}
