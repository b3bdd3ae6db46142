//! The [`ToolManager`]: resolves calls, streams partial invocations, validates and repairs
//! arguments, runs calls through the wrapper chain, and keeps cards, stats, failure streaks and
//! just-in-time notes for one session.
//!
//! Resolution order for a call: (1) the per-call instance cache (every partial invocation and the
//! final one of a call id hit the same instance and card), (2) the user registry, (3) the built-in
//! system tools. Unknown names get `TOOL_NOT_REGISTERED` with the available names.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};
use std::time::{Duration, Instant};

use futures::FutureExt;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::catalogue::{ToolDefinition, render_catalogue};
use super::context::{CallSlot, ToolContext, ToolEnv, ToolEvent};
use super::contract::{NotesTrigger, Tool, ToolFactory};
use super::error::{ToolError, ToolErrorKind};
use super::guard::settle_status;
use super::info::ToolInfo;
use super::kind::ToolKind;
use super::registry::ToolRegistry;
use super::repair::Repair;
use super::result::ToolResult;
use super::schema::clean_for_provider;
use super::stats::{StatsBook, ToolStats};
use super::status::StatusUpdate;
use super::system::system_factories;
use super::throttle::{PartialStream, ThrottleConfig};
use super::validation::ParamValidator;
use super::wrappers::{CallView, ToolWrapper, WrapperChain};

/// Manager settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ManagerConfig {
    /// When partial invocations run.
    pub throttle: ThrottleConfig,
    /// Consecutive failures (timeouts included) of one tool that raise a pause.
    pub pause_after_failures: u32,
    /// Longest a partial invocation may take before it is abandoned.
    pub partial_timeout: Duration,
}

impl Default for ManagerConfig {
    fn default() -> Self {
        Self {
            throttle: ThrottleConfig::default(),
            pause_after_failures: 3,
            partial_timeout: Duration::from_secs(5),
        }
    }
}

/// A complete call from the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub message_id: String,
    pub call_id: String,
    pub name: String,
    pub arguments: Value,
}

/// The loop should stop and ask the person: a tool keeps failing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PauseSignal {
    pub tool_name: String,
    pub consecutive_failures: u32,
}

/// Everything the loop needs after a call.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecutionOutcome {
    pub call_id: String,
    pub tool_name: String,
    /// The one result the model gets for this call.
    pub result: ToolResult,
    /// The final (frozen) card.
    pub info: ToolInfo,
    /// Repairs made to the arguments before running.
    pub repairs: Vec<Repair>,
    /// Set when this call made the tool's failure streak reach the threshold.
    pub pause: Option<PauseSignal>,
    /// Just-in-time notes to add to the conversation with this result.
    pub usage_notes: Option<String>,
    pub duration: Duration,
}

impl ExecutionOutcome {
    /// The completion summary when this was a successful `attempt_completion`.
    pub fn completion(&self) -> Option<&str> {
        if self.tool_name != super::system::ATTEMPT_COMPLETION || self.result.is_error() {
            return None;
        }
        self.info
            .result
            .as_ref()
            .and_then(|r| r.get("result"))
            .and_then(Value::as_str)
    }
}

struct ActiveCall {
    tool: Arc<dyn Tool>,
    slot: Arc<CallSlot>,
    cancel: CancellationToken,
    message_id: Arc<str>,
    call_id: Arc<str>,
    stream: Mutex<PartialStream>,
    executing: AtomicBool,
}

#[derive(Default)]
struct SessionState {
    active: HashMap<String, Arc<ActiveCall>>,
    finished: HashMap<String, ToolInfo>,
    failure_streaks: HashMap<String, u32>,
    notes_given: HashSet<(String, NotesTrigger)>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs the tools of one session.
pub struct ToolManager {
    env: ToolEnv,
    registry: ToolRegistry,
    system: BTreeMap<String, ToolFactory>,
    config: ManagerConfig,
    chain: RwLock<WrapperChain>,
    stats: Arc<Mutex<StatsBook>>,
    session_cancel: CancellationToken,
    state: Mutex<SessionState>,
}

impl std::fmt::Debug for ToolManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolManager")
            .field("env", &self.env)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl ToolManager {
    /// A manager over `registry` (shared: later registrations are seen) with the system tools and
    /// the standard wrapper chain (logging, stats).
    pub fn new(env: ToolEnv, registry: ToolRegistry) -> Self {
        let stats = Arc::new(Mutex::new(StatsBook::default()));
        Self {
            env,
            registry,
            system: system_factories()
                .into_iter()
                .map(|f| (f.name().to_owned(), f))
                .collect(),
            config: ManagerConfig::default(),
            chain: RwLock::new(WrapperChain::standard(Arc::clone(&stats))),
            stats,
            session_cancel: CancellationToken::new(),
            state: Mutex::new(SessionState::default()),
        }
    }

    #[must_use]
    pub fn with_config(mut self, config: ManagerConfig) -> Self {
        self.config = config;
        self
    }

    pub fn env(&self) -> &ToolEnv {
        &self.env
    }

    pub fn registry(&self) -> &ToolRegistry {
        &self.registry
    }

    /// Changes the wrapper chain, e.g. to insert an approval gate:
    /// `manager.edit_wrappers(|chain| chain.insert_after("stats", gate))`.
    pub fn edit_wrappers<R>(&self, edit: impl FnOnce(&mut WrapperChain) -> R) -> R {
        edit(&mut self.chain.write().unwrap_or_else(PoisonError::into_inner))
    }

    /// Appends an innermost wrapper.
    pub fn push_wrapper(&self, wrapper: Arc<dyn ToolWrapper>) {
        self.edit_wrappers(|chain| chain.push(wrapper));
    }

    /// The factory for `name`: user tools first, then system tools.
    fn resolve(&self, name: &str) -> Option<ToolFactory> {
        self.registry
            .get(name)
            .or_else(|| self.system.get(name).cloned())
    }

    /// Names of every tool the model may call (user tools override system ones), sorted.
    pub fn tool_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.registry.names();
        names.extend(self.system.keys().cloned());
        names.sort();
        names.dedup();
        names
    }

    /// Definitions for native function calling, sorted by name (stable across calls).
    pub async fn tool_definitions(&self) -> Vec<ToolDefinition> {
        let mut definitions = Vec::new();
        for name in self.tool_names() {
            let Some(factory) = self.resolve(&name) else {
                continue;
            };
            match factory.make(self.env.clone()).await {
                Ok(tool) => definitions.push(ToolDefinition {
                    name,
                    display_name: tool.display_name().map(str::to_owned),
                    kind: tool.kind(),
                    description: tool.description().await,
                    input_schema: clean_for_provider(tool.parameters_schema().await),
                }),
                Err(e) => tracing::warn!(tool = %name, "cannot list tool: {e}"),
            }
        }
        definitions
    }

    /// The Markdown `# Available Tools` catalogue.
    pub async fn catalogue(&self) -> String {
        render_catalogue(&self.tool_definitions().await)
    }

    /// The card of `call_id`, live or finished.
    pub fn snapshot(&self, call_id: &str) -> Option<ToolInfo> {
        let state = lock(&self.state);
        if let Some(active) = state.active.get(call_id) {
            return Some(active.slot.snapshot());
        }
        state.finished.get(call_id).cloned()
    }

    /// The stats of `tool`, if it ran.
    pub fn stats(&self, tool: &str) -> Option<ToolStats> {
        lock(&self.stats).get(tool).cloned()
    }

    /// Stats of every tool that ran.
    pub fn all_stats(&self) -> Vec<ToolStats> {
        lock(&self.stats).all()
    }

    /// Cancels `call_id`. A running call ends in `ERROR` (`CANCELLED`) when its tool yields; a
    /// call still streaming ends now. Returns whether the call was live.
    pub fn cancel(&self, call_id: &str) -> bool {
        let active = lock(&self.state).active.get(call_id).cloned();
        let Some(active) = active else {
            return false;
        };
        active.cancel.cancel();
        if !active.executing.load(Ordering::SeqCst) {
            let error = ToolError::new(
                ToolErrorKind::Cancelled,
                "The call was cancelled before it ran.",
            );
            let ctx = self.context(&active, false);
            settle_status(&ctx, &ToolResult::Error(error));
            self.finish(&active);
        }
        true
    }

    /// Cancels every call of the session.
    pub fn cancel_all(&self) {
        self.session_cancel.cancel();
        let ids: Vec<String> = lock(&self.state).active.keys().cloned().collect();
        for id in ids {
            self.cancel(&id);
        }
    }

    fn context(&self, active: &ActiveCall, partial: bool) -> ToolContext {
        ToolContext::new(
            self.env.clone(),
            Arc::clone(&active.message_id),
            Arc::clone(&active.call_id),
            active.cancel.clone(),
            partial,
            Arc::clone(&active.slot),
        )
    }

    /// The cached instance of `call_id`, or a new one from the factory of `name`.
    async fn active_call(
        &self,
        message_id: &str,
        call_id: &str,
        name: &str,
    ) -> Option<Arc<ActiveCall>> {
        if let Some(active) = lock(&self.state).active.get(call_id) {
            return Some(Arc::clone(active));
        }
        let factory = self.resolve(name)?;
        let tool = match factory.make(self.env.clone()).await {
            Ok(tool) => tool,
            Err(e) => {
                tracing::warn!(tool = %name, "tool factory failed: {e}");
                return None;
            }
        };
        let info = ToolInfo::new(
            call_id,
            name,
            tool.display_name().map(str::to_owned),
            tool.kind(),
        );
        let created = Arc::new(ActiveCall {
            slot: Arc::new(CallSlot::new(info.clone())),
            tool,
            cancel: self.session_cancel.child_token(),
            message_id: Arc::from(message_id),
            call_id: Arc::from(call_id),
            stream: Mutex::new(PartialStream::new()),
            executing: AtomicBool::new(false),
        });
        let mut state = lock(&self.state);
        if let Some(raced) = state.active.get(call_id) {
            return Some(Arc::clone(raced));
        }
        state
            .active
            .insert(call_id.to_owned(), Arc::clone(&created));
        drop(state);
        self.env.emit(ToolEvent::Started {
            session_id: self.env.session_id().to_owned(),
            message_id: message_id.to_owned(),
            info,
        });
        Some(created)
    }

    /// Feeds the next piece of a call's streaming argument text. When the throttle allows, runs
    /// a partial invocation (`is_partial = true`) with the params so far. Returns whether it did.
    pub async fn push_partial(
        &self,
        message_id: &str,
        call_id: &str,
        name: &str,
        delta: &str,
    ) -> bool {
        if lock(&self.state).finished.contains_key(call_id) {
            return false;
        }
        let Some(active) = self.active_call(message_id, call_id, name).await else {
            return false;
        };
        if active.executing.load(Ordering::SeqCst) {
            return false;
        }
        let params = {
            let mut stream = lock(&active.stream);
            if !stream.push(delta, &self.config.throttle, Instant::now()) {
                return false;
            }
            stream.current()
        };
        let ctx = self.context(&active, true);
        let work = AssertUnwindSafe(active.tool.execute(params, &ctx, true)).catch_unwind();
        match tokio::time::timeout(self.config.partial_timeout, work).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => tracing::debug!(call_id, "partial invocation failed: {e}"),
            Ok(Err(_)) => tracing::warn!(call_id, tool = %name, "partial invocation panicked"),
            Err(_) => tracing::warn!(call_id, tool = %name, "partial invocation timed out"),
        }
        true
    }

    /// Runs a complete call once: validation and repair, the wrapper chain, the guarded tool.
    /// Exactly one result comes back per call id; a repeated call id is refused.
    pub async fn execute(&self, call: ToolCall) -> ExecutionOutcome {
        let started = Instant::now();
        if let Some(info) = lock(&self.state).finished.get(&call.call_id).cloned() {
            let error = ToolError::execution_failed(format!(
                "The call `{}` already ran; each call id runs once.",
                call.call_id
            ));
            return self.outcome(&call, error.into(), info, Vec::new(), started);
        }
        let Some(active) = self
            .active_call(&call.message_id, &call.call_id, &call.name)
            .await
        else {
            return self.not_registered(&call, started);
        };
        if active.executing.swap(true, Ordering::SeqCst) {
            let error = ToolError::execution_failed(format!(
                "The call `{}` is already running.",
                call.call_id
            ));
            let info = active.slot.snapshot();
            return self.outcome(&call, error.into(), info, Vec::new(), started);
        }
        let ctx = self.context(&active, false);
        let (result, repairs) = match self
            .validate(active.tool.as_ref(), call.arguments.clone())
            .await
        {
            Err(error) => (ToolResult::Error(error), Vec::new()),
            Ok((params, repairs)) => {
                let timeout = self
                    .env
                    .settings()
                    .timeout_for(&call.name, active.tool.timeout());
                let chain = self
                    .chain
                    .read()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone();
                let view = CallView {
                    call_id: &call.call_id,
                    tool_name: &call.name,
                    kind: active.tool.kind(),
                    params: &params,
                };
                let result = chain.run(view, active.tool.as_ref(), timeout, &ctx).await;
                (result, repairs)
            }
        };
        settle_status(&ctx, &result);
        let info = self.finish(&active);
        let mut outcome = self.outcome(&call, result, info, repairs, started);
        outcome.pause = self.track_failures(&call.name, outcome.result.is_error());
        outcome.usage_notes = self.notes_for(active.tool.as_ref(), outcome.result.is_error());
        outcome
    }

    /// Schema validation with repair, then the tool's own checks.
    async fn validate(
        &self,
        tool: &dyn Tool,
        arguments: Value,
    ) -> Result<(Value, Vec<Repair>), ToolError> {
        let schema = clean_for_provider(tool.parameters_schema().await);
        let validator =
            ParamValidator::new(schema).map_err(|problem| ToolError::invalid_params(&[problem]))?;
        let validated = validator
            .check(arguments)
            .map_err(|problems| ToolError::invalid_params(&problems))?;
        tool.validate(&validated.params)
            .await
            .map_err(|problems| ToolError::invalid_params(&problems))?;
        Ok((validated.params, validated.repairs))
    }

    /// Freezes the card, frees the per-call cache and keeps the final card for `snapshot`.
    fn finish(&self, active: &ActiveCall) -> ToolInfo {
        let info = active.slot.snapshot();
        let mut state = lock(&self.state);
        state.active.remove(active.call_id.as_ref());
        state
            .finished
            .insert(active.call_id.to_string(), info.clone());
        info
    }

    fn not_registered(&self, call: &ToolCall, started: Instant) -> ExecutionOutcome {
        let error = ToolError::not_registered(&call.name, &self.tool_names());
        let mut info = ToolInfo::new(&call.call_id, &call.name, None, ToolKind::Other);
        let slot = CallSlot::new(info.clone());
        if let Ok(patch) = slot.apply(StatusUpdate::error(error.clone())) {
            patch.apply_to(&mut info);
        }
        self.env.emit(ToolEvent::Started {
            session_id: self.env.session_id().to_owned(),
            message_id: call.message_id.clone(),
            info: info.clone(),
        });
        lock(&self.state)
            .finished
            .insert(call.call_id.clone(), info.clone());
        self.outcome(call, error.into(), info, Vec::new(), started)
    }

    fn outcome(
        &self,
        call: &ToolCall,
        result: ToolResult,
        info: ToolInfo,
        repairs: Vec<Repair>,
        started: Instant,
    ) -> ExecutionOutcome {
        ExecutionOutcome {
            call_id: call.call_id.clone(),
            tool_name: call.name.clone(),
            result,
            info,
            repairs,
            pause: None,
            usage_notes: None,
            duration: started.elapsed(),
        }
    }

    /// Updates the tool's failure streak; a streak reaching the threshold raises a pause and
    /// starts over.
    fn track_failures(&self, tool: &str, failed: bool) -> Option<PauseSignal> {
        let mut state = lock(&self.state);
        let streak = state.failure_streaks.entry(tool.to_owned()).or_insert(0);
        if !failed {
            *streak = 0;
            return None;
        }
        *streak += 1;
        if *streak < self.config.pause_after_failures {
            return None;
        }
        let consecutive_failures = *streak;
        *streak = 0;
        Some(PauseSignal {
            tool_name: tool.to_owned(),
            consecutive_failures,
        })
    }

    /// The tool's usage notes, the first time their trigger happens in this session.
    fn notes_for(&self, tool: &dyn Tool, failed: bool) -> Option<String> {
        let notes = tool.usage_notes()?;
        if notes.trigger == NotesTrigger::FirstFailure && !failed {
            return None;
        }
        let key = (tool.name().to_owned(), notes.trigger);
        lock(&self.state)
            .notes_given
            .insert(key)
            .then_some(notes.text)
    }
}

#[cfg(test)]
mod tests;
