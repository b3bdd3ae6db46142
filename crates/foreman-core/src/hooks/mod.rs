//! Hooks in Claude Code's format: commands that run when a tool is about to be called or has
//! been, when the user sends a message, when the agent would stop, when a session starts or
//! ends, before compaction, when the agent needs the user, and when a call would ask for
//! approval. An existing `.claude/settings.json` works unchanged.
//!
//! - [`config`]: the settings files, their schema and warnings;
//! - [`matcher`]: which tools a hook is for;
//! - [`claude_names`]: a call in Claude Code's words (`Bash`, `file_path`);
//! - [`run`]: one hook's process (stdin, environment, sandbox, timeout, output cap);
//! - [`reply`]: what its exit code and output mean;
//! - [`consent`]: the hash that a consent to a workspace's hooks pins.
//!
//! [`Hooks`] is what a session holds: it reads the files again for every event (a hook the
//! agent wrote, or a changed script, is seen at once and waits for consent), runs the hooks
//! that match, each in the sandbox at the `bash` tool's level unless the user turned that off,
//! and gives back each run for the card and the replies combined. The engine acts on them in
//! its tool pipeline (`agent/calls/hook_points.rs`): a hook's allow never beats a deny rule and
//! never lifts the sandbox.

pub mod claude_names;
pub mod config;
pub mod consent;
mod error;
pub mod matcher;
pub mod reply;
pub mod run;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use futures_util::future::join_all;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

pub use self::config::{HookDef, HookDirs};
pub use self::error::HookError;
pub use self::reply::{Permission, Reply};
use self::run::HookProcess;
use crate::process_tree::ProcessTree;
use crate::protocol::{HookConsent, HookEvent, HookInfo, HookRun, HooksView};
use crate::sandbox::SandboxPolicy;
use crate::store::Store;

/// The hooks of `dirs` with their consent (`key`: the workspace whose consents apply; a task's
/// worktree shares its folder's).
pub async fn view(dirs: &HookDirs, store: Option<&Store>, key: &str) -> HooksView {
    let loaded = config::load(dirs);
    let hash = consent::workspace_hash(&loaded.hooks, &dirs.workspace);
    let given = match (&hash, store) {
        (Some(hash), Some(store)) => store.hooks_consented(key, hash).await.unwrap_or(false),
        _ => false,
    };
    let hooks = loaded
        .hooks
        .iter()
        .map(|h| HookInfo {
            event: h.event,
            matcher: h.matcher.shown(),
            command: h.command.clone(),
            timeout_secs: u32::try_from(h.timeout.as_secs()).unwrap_or(u32::MAX),
            source: h.source.clone(),
            consent: match (h.workspace, given) {
                (false, _) => HookConsent::NotNeeded,
                (true, true) => HookConsent::Given,
                (true, false) => HookConsent::Waiting,
            },
        })
        .collect();
    HooksView {
        hooks,
        warnings: loaded.warnings,
        consent_hash: hash.filter(|_| !given),
    }
}

/// Records the user's consent to the hooks of `dirs` as `hash` pins them; refused when they
/// changed since.
pub async fn consent(
    dirs: &HookDirs,
    store: &Store,
    key: &str,
    hash: &str,
) -> Result<(), HookError> {
    let loaded = config::load(dirs);
    match consent::workspace_hash(&loaded.hooks, &dirs.workspace) {
        None => Err(HookError::NothingToConsent),
        Some(now) if now != hash => Err(HookError::Changed),
        Some(now) => {
            store
                .consent_to_hooks(key, &now, crate::store::now_ms())
                .await?;
            Ok(())
        }
    }
}

/// One event to dispatch.
#[derive(Debug)]
pub struct Dispatch {
    pub event: HookEvent,
    /// What the matchers are tried on: a tool's Claude Code name and ours, or the event's
    /// subject (`startup`, `auto`, `permission_prompt`).
    pub subject: Option<(String, String)>,
    /// The event's own fields of the input (`tool_name`, `tool_input`, `prompt`…).
    pub fields: Map<String, Value>,
    /// How a hook is confined (`None`: it is not).
    pub sandbox: Option<SandboxPolicy>,
}

/// What [`Hooks::plan`] gives.
#[derive(Debug)]
pub struct Planned {
    /// The workspace has hooks that wait for consent and the user has not been shown this set
    /// yet: show it.
    pub awaiting: Option<HooksView>,
    pub runs: RunPlan,
    /// What is wrong with the settings files as they were read for this event (each file's
    /// hooks that could not be read do not run).
    pub warnings: Vec<String>,
}

/// The hooks to run for one event, owned, so the session can answer the user (a Stop) while
/// they run.
#[derive(Debug)]
pub struct RunPlan {
    event: HookEvent,
    hooks: Vec<HookDef>,
    input: Vec<u8>,
    workspace: PathBuf,
    sandbox: Option<SandboxPolicy>,
    env: Vec<(String, String)>,
    /// Where the trees of hooks that keep their children go (the session's [`Hooks`]).
    kept: KeptTrees,
}

/// The process trees of hooks that keep their children: ended when the session's [`Hooks`] is
/// dropped.
pub type KeptTrees = Arc<Mutex<Vec<ProcessTree>>>;

impl RunPlan {
    /// Whether there is nothing to run.
    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }

    /// Runs the hooks concurrently; each run, for its card, with its reply.
    pub async fn run(self, cancel: CancellationToken) -> Vec<(HookRun, Reply)> {
        let runs = self.hooks.iter().map(|hook| {
            let cancel = &cancel;
            let this = &self;
            async move {
                let mut ran = run::run(
                    HookProcess {
                        command: &hook.command,
                        workspace: &this.workspace,
                        timeout: hook.timeout,
                        sandbox: this.sandbox.as_ref(),
                        env: &this.env,
                        keep_children: hook.keep_children,
                    },
                    &this.input,
                    cancel,
                )
                .await;
                if let Some(tree) = ran.kept.take() {
                    this.kept
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(tree);
                }
                let reply = reply::read(this.event, &ran);
                let run = HookRun {
                    event: this.event,
                    command: hook.command.clone(),
                    source: hook.source.clone(),
                    elapsed_ms: u64::try_from(ran.elapsed.as_millis()).unwrap_or(u64::MAX),
                    verdict: reply.verdict(),
                    message: reply.message(),
                    ended: ran.ended.clone(),
                };
                (run, reply)
            }
        });
        join_all(runs).await
    }
}

/// The replies of one event's runs combined: the first block, stop and reasons; the strictest
/// permission (deny over ask over allow); every context.
pub fn combined(runs: &[(HookRun, Reply)]) -> Reply {
    let mut all = Reply::default();
    let mut contexts = Vec::new();
    for (_, reply) in runs {
        if all.block.is_none() {
            all.block.clone_from(&reply.block);
        }
        if all.stop.is_none() {
            all.stop.clone_from(&reply.stop);
        }
        if reply.permission > all.permission {
            all.permission = reply.permission;
            all.permission_reason.clone_from(&reply.permission_reason);
        }
        if let Some(context) = &reply.context {
            contexts.push(context.clone());
        }
    }
    all.context = (!contexts.is_empty()).then(|| contexts.join("\n\n"));
    all
}

/// A session's hooks.
#[derive(Debug)]
pub struct Hooks {
    pub dirs: HookDirs,
    store: Option<Store>,
    /// The workspace whose consents apply.
    key: String,
    session_id: String,
    /// Where the session's conversation is written for hooks that read it.
    pub transcript_path: PathBuf,
    /// Whether hooks run outside the sandbox (the user said so).
    pub unconfined: bool,
    /// The extra environment of every command (a task's `FOREMAN_PORT`).
    env: Vec<(String, String)>,
    /// The consented hash last seen, and the hash last shown for consent.
    consented: Option<String>,
    announced: Option<String>,
    /// Messages of the history written to the transcript file so far.
    transcript_written: usize,
    /// What hooks that keep their children left running: ended with the session.
    kept: KeptTrees,
}

impl Hooks {
    pub fn new(
        dirs: HookDirs,
        store: Option<Store>,
        key: String,
        session_id: String,
        transcript_path: PathBuf,
    ) -> Self {
        Self {
            dirs,
            store,
            key,
            session_id,
            transcript_path,
            unconfined: false,
            env: Vec::new(),
            consented: None,
            announced: None,
            transcript_written: 0,
            kept: KeptTrees::default(),
        }
    }

    /// Gives every hook the commands' extra environment.
    pub fn with_env(mut self, env: Vec<(String, String)>) -> Self {
        self.env = env;
        self
    }

    /// Whether any hook of `event` is configured (consented or not); cheap enough to call
    /// before building an event's input.
    pub fn any_for(&self, event: HookEvent) -> bool {
        config::load(&self.dirs)
            .hooks
            .iter()
            .any(|h| h.event == event)
    }

    /// Records the user's consent to the set `hash` pins (refused when it changed since).
    pub async fn consent(&mut self, store: &Store, hash: &str) -> Result<(), HookError> {
        consent(&self.dirs, store, &self.key, hash).await?;
        self.consented = Some(hash.to_owned());
        Ok(())
    }

    /// The view to show for consent again, even when this set was shown already (a consent that
    /// came too late or named another set).
    pub async fn awaiting_consent_again(&mut self) -> Option<HooksView> {
        self.announced = None;
        self.awaiting_consent().await
    }

    /// Writes `history` to [`Self::transcript_path`] as JSON lines (one message each) for the
    /// hooks that read the conversation; appends what is new, rewrites when it shrank
    /// (compaction, a rewind).
    pub fn write_transcript(&mut self, history: &[crate::providers::Message]) {
        use std::io::Write as _;
        let append = self.transcript_written <= history.len();
        let from = if append { self.transcript_written } else { 0 };
        if append && from == history.len() && from > 0 {
            return;
        }
        let written = (|| -> std::io::Result<()> {
            if let Some(dir) = self.transcript_path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(append)
                .truncate(!append)
                .open(&self.transcript_path)?;
            for message in &history[from..] {
                let line = serde_json::to_string(message).map_err(std::io::Error::other)?;
                writeln!(file, "{line}")?;
            }
            Ok(())
        })();
        match written {
            Ok(()) => self.transcript_written = history.len(),
            Err(error) => tracing::warn!(%error, "the transcript for hooks was not written"),
        }
    }

    /// The workspace's hooks as they wait for consent now (`None`: none waits).
    pub async fn pending(&self) -> Option<HooksView> {
        let view = view(&self.dirs, self.store.as_ref(), &self.key).await;
        view.consent_hash.is_some().then_some(view)
    }

    /// The view to show for consent when the workspace's hooks wait for it and this set was not
    /// shown yet.
    pub async fn awaiting_consent(&mut self) -> Option<HooksView> {
        let view = view(&self.dirs, self.store.as_ref(), &self.key).await;
        let hash = view.consent_hash.clone()?;
        if self.announced.as_ref() == Some(&hash) {
            return None;
        }
        self.announced = Some(hash);
        Some(view)
    }

    /// The hooks of `dispatch.event` that match and may run (each command once), with their
    /// input; and the view to show when the workspace's hooks wait for consent.
    pub async fn plan(&mut self, dispatch: Dispatch) -> Planned {
        let loaded = config::load(&self.dirs);
        let matching: Vec<HookDef> = loaded
            .hooks
            .iter()
            .filter(|h| h.event == dispatch.event)
            .filter(|h| match &dispatch.subject {
                Some((claude, ours)) => h.matcher.matches(claude, ours),
                None => true,
            })
            .cloned()
            .collect();
        let mut planned = Planned {
            awaiting: None,
            warnings: loaded.warnings.clone(),
            runs: RunPlan {
                event: dispatch.event,
                hooks: Vec::new(),
                input: Vec::new(),
                workspace: self.dirs.workspace.clone(),
                sandbox: None,
                env: self.env.clone(),
                kept: Arc::clone(&self.kept),
            },
        };
        if matching.is_empty() {
            return planned;
        }
        let allowed = self.workspace_allowed(&loaded.hooks).await;
        if !allowed {
            planned.awaiting = self.awaiting_consent().await;
        }
        let mut seen = std::collections::HashSet::new();
        planned.runs.hooks = matching
            .into_iter()
            .filter(|h| !h.workspace || allowed)
            .filter(|h| seen.insert(h.command.clone()))
            .collect();
        planned.runs.input = self.input(&dispatch);
        planned.runs.sandbox = dispatch.sandbox.filter(|_| !self.unconfined);
        planned
    }

    /// Whether the workspace's hooks among `hooks` may run: none need consent, or the user gave
    /// it for this set.
    async fn workspace_allowed(&mut self, hooks: &[HookDef]) -> bool {
        let Some(hash) = consent::workspace_hash(hooks, &self.dirs.workspace) else {
            return true;
        };
        if self.consented.as_ref() == Some(&hash) {
            return true;
        }
        let given = match &self.store {
            Some(store) => store
                .hooks_consented(&self.key, &hash)
                .await
                .unwrap_or(false),
            None => false,
        };
        if given {
            self.consented = Some(hash);
        }
        given
    }

    /// The JSON a hook reads on stdin.
    fn input(&self, dispatch: &Dispatch) -> Vec<u8> {
        let mut input = Map::new();
        input.insert("session_id".into(), Value::String(self.session_id.clone()));
        input.insert(
            "transcript_path".into(),
            Value::String(self.transcript_path.display().to_string()),
        );
        input.insert(
            "cwd".into(),
            Value::String(self.dirs.workspace.display().to_string()),
        );
        input.insert(
            "hook_event_name".into(),
            Value::String(dispatch.event.name().into()),
        );
        for (key, value) in &dispatch.fields {
            input.insert(key.clone(), value.clone());
        }
        serde_json::to_vec(&Value::Object(input)).unwrap_or_default()
    }
}
