//! `foreman-cli exec`: one task, headless.
//!
//! With `--json`, every event is one JSON line on stdout (a call's live output bounded,
//! [`crate::json_events`]) and ops are read as JSON lines from stdin. Without it, output is
//! readable text and approvals are y/n prompts on the terminal.

use std::io::IsTerminal;
use std::sync::Arc;

use foreman_core::agent::{DEFAULT_MAX_ITERATIONS, Session, SessionConfig, StoredSession};
use foreman_core::conversation::load_transcript;
use foreman_core::conversation::open_session;
use foreman_core::mcp::HubSandbox;
use foreman_core::providers::KeySource;
use foreman_core::providers::keys::{ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY};
use foreman_core::providers::{
    AnthropicConfig, AnthropicProvider, EnvKey, HttpSettings, Limits, OpenAiConfig, OpenAiProvider,
    Provider, ProviderPreset, ProviderSettings,
};
use foreman_core::store::Store;
use foreman_core::tasks::Tasks;
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::{ConfigArea, EventMsg, Op};
use tokio::io::AsyncBufReadExt;
use tokio::sync::mpsc;

use crate::args::{ExecArgs, ProviderKind};
use crate::json_events::JsonEvents;
use crate::render::Renderer;
use crate::stats::StatsTable;

/// What a resumed session is told when no new prompt is given.
pub const RESUME_PROMPT: &str =
    "The session was interrupted and has been resumed. Continue the task where you left off.";

/// The provider keys of the environment, taken out of it at start.
#[derive(Debug)]
pub struct Keys {
    anthropic: EnvKey,
    openai: EnvKey,
    openrouter: EnvKey,
}

impl Keys {
    /// The key the environment had in `var`, for an external agent that reads its key from it.
    fn in_var(&self, var: &str) -> Option<foreman_core::secrets::Secret> {
        [&self.anthropic, &self.openai, &self.openrouter]
            .into_iter()
            .find(|key| key.var() == var)
            .and_then(|key| key.api_key())
    }

    /// Takes `ANTHROPIC_API_KEY`, `OPENAI_API_KEY` and `OPENROUTER_API_KEY` out of the
    /// environment.
    ///
    /// # Safety
    /// Call it before any other thread exists (it changes the environment).
    pub unsafe fn take() -> Self {
        // SAFETY: the caller's promise.
        unsafe {
            Self {
                anthropic: EnvKey::take(ANTHROPIC_API_KEY),
                openai: EnvKey::take(OPENAI_API_KEY),
                openrouter: EnvKey::take(OPENROUTER_API_KEY),
            }
        }
    }
}

fn provider(args: &ExecArgs, keys: Keys) -> Result<(Arc<dyn Provider>, String), String> {
    let http = HttpSettings {
        record_to: args.record.clone(),
        ..HttpSettings::default()
    };
    match args.provider {
        ProviderKind::Anthropic => {
            let mut config = AnthropicConfig::new(Arc::new(keys.anthropic)).with_http(http);
            if let Some(url) = &args.base_url {
                config = config.with_base_url(url.clone());
            }
            let p = AnthropicProvider::new(config).map_err(|e| e.to_string())?;
            let model = args
                .model
                .clone()
                .unwrap_or_else(|| "claude-sonnet-4-5".into());
            Ok((Arc::new(p), model))
        }
        ProviderKind::OpenAi => {
            let url = args
                .base_url
                .clone()
                .unwrap_or_else(|| OpenAiConfig::DEFAULT_BASE_URL.to_owned());
            let key = if !keys.openai.is_set() && keys.openrouter.is_set() {
                keys.openrouter
            } else {
                keys.openai
            };
            let config = OpenAiConfig::new(url, Arc::new(key)).with_http(http);
            let p = OpenAiProvider::new(config).map_err(|e| e.to_string())?;
            let model = args.model.clone().unwrap_or_else(|| "gpt-4o".into());
            Ok((Arc::new(p), model))
        }
    }
}

/// The answer limit without `--max-tokens`: the desktop app's default for the same server (an
/// OpenAI-compatible `--base-url` on this computer or the local network gets the smaller one).
fn default_max_tokens(args: &ExecArgs) -> u32 {
    let preset = match args.provider {
        ProviderKind::Anthropic => ProviderPreset::Anthropic,
        ProviderKind::OpenAi if args.base_url.is_some() => ProviderPreset::Custom,
        ProviderKind::OpenAi => ProviderPreset::OpenAi,
    };
    ProviderSettings {
        base_url: args.base_url.clone().unwrap_or_default(),
        ..ProviderSettings::for_preset(preset)
    }
    .default_max_tokens()
}

/// The model's answer limits the flags give.
fn limits(args: &ExecArgs) -> Limits {
    Limits {
        max_tokens: args.max_tokens.unwrap_or_else(|| default_max_tokens(args)),
        reasoning_effort: args.reasoning_effort,
        ..Limits::default()
    }
    .with_thinking_budget(args.thinking_budget)
}

/// Reads stdin lines into a channel (ends when stdin closes).
fn stdin_lines() -> mpsc::UnboundedReceiver<String> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Runs the task; `Ok` when it completed, `Err(reason)` otherwise.
pub async fn run(args: ExecArgs, keys: Keys) -> Result<(), String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let workspace = WorkspaceDir::resolve(&args.workspace.to_string_lossy(), &cwd)
        .map_err(|e| e.to_string())?;
    // An external agent gets the key of its variable that the environment had (taken out of
    // it at start, so no command of a session sees it).
    let keys_for_agent: Vec<(String, foreman_core::secrets::Secret)> =
        [ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY]
            .into_iter()
            .filter_map(|var| keys.in_var(var).map(|k| (var.to_owned(), k)))
            .collect();
    let (provider, model) = provider(&args, keys)?;
    let db = match &args.db {
        Some(db) => db.clone(),
        None => crate::default_database()?,
    };
    let store = Store::open(&db).await.map_err(|e| e.to_string())?;
    let workspace_key = workspace.path.display().to_string();
    let data_dir = db
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir);
    let tasks = Tasks::new(store.clone(), data_dir.clone());
    let resume = match &args.resume {
        Some(id) => Some(id.clone()),
        None => Some(crate::task_start::start(&tasks, &workspace.path, &args, &db).await?),
    };
    let (session_id, history) = open_session(&store, &workspace_key, resume.as_deref())
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| {
            format!(
                "there is no session {}",
                args.resume.clone().unwrap_or_default()
            )
        })?;
    // A task holds its place (a slot of the limit; the folder, for a task in it) while it runs.
    let running = tasks
        .begin(&session_id, args.max_tasks, |why| {
            eprintln!("foreman-cli: {why}")
        })
        .await
        .map_err(|e| e.to_string())?;
    // Numbers the user's messages after the stored ones (`user_message_taken`).
    let user_messages = match &args.resume {
        Some(_) => load_transcript(&store, &session_id)
            .await
            .map_err(|e| e.to_string())?
            .user_messages(),
        None => 0,
    };
    let stored = StoredSession {
        workspace_key,
        id: session_id.clone(),
        history,
        user_messages,
    };
    // The app's own folders: the user's rule file, hooks, skills and commands (what is wrong
    // with them, and with the MCP files, the session tells as `config_warning` events, each
    // printed on stderr too), and what checkpoints keep.
    let app_settings = crate::app_settings::read_app()?;
    let config_dir = crate::app_config_dir();
    let resuming = args.resume.is_some();
    let agent = crate::agent_args::of_session(
        &args.agent,
        resuming,
        &store,
        &session_id,
        config_dir.as_deref(),
    )
    .await?
    .map(|mut spec| {
        let key = spec.key_env.as_ref().and_then(|var| {
            keys_for_agent
                .iter()
                .find(|(v, _)| v == var)
                .map(|(_, k)| k.clone())
        });
        spec.key(key);
        spec
    });
    let mut config = SessionConfig::builder(provider, model, workspace.path.clone())
        .stored(store.clone(), stored)
        .user_folders(crate::app_config_dir())
        .data_in(data_dir)
        .place(running.as_ref().map(|running| &running.place))
        .approval(args.approval)
        .sandbox(
            args.sandbox,
            args.allow_network,
            crate::hidden::paths(&db, &args.hide)?,
        )
        .hooks_outside_sandbox(args.hooks_outside_sandbox)
        .checkpoint_coverage(crate::app_settings::coverage(app_settings.as_ref())?)
        .model_limits(limits(&args), args.text_protocol, args.context_window)
        .max_iterations(args.max_iterations.unwrap_or(DEFAULT_MAX_ITERATIONS))
        .agent(agent)
        .build()
        .await
        .map_err(|e| e.to_string())?;
    let mcp_config = crate::mcp::load_config(args.mcp_config.as_deref(), &config.workspace)?;
    config.config_warnings = mcp_config
        .problems
        .iter()
        .map(|problem| (ConfigArea::Mcp, problem.clone()))
        .collect();
    let mut hub = None;
    let sandbox = HubSandbox {
        level: config.sandbox,
        network: config.sandbox_network,
        hidden: config.sandbox_hidden.clone(),
    };
    if let Some(started) = crate::mcp::session_tools(
        mcp_config,
        &store,
        // A task's worktree shares the approvals of the folder the user named.
        (&config.workspace, &workspace.path),
        args.trust_workspace_mcp,
        sandbox,
    )
    .await?
    {
        config.mcp = Some(started.clone());
        hub = Some(started);
    }
    if args.approve_hooks {
        approve_hooks(&config, &store).await?;
    }
    let attach = crate::attach::attachments(&args.attach, &cwd, &workspace.path)?;
    // Its folder exists (or the run stops) before the session starts.
    let mut json_events = JsonEvents::new(args.full_output.clone())?;
    let (ops, mut events) = Session::spawn(config).map_err(|e| e.to_string())?;
    let text = if args.prompt.is_empty() {
        RESUME_PROMPT.to_owned()
    } else {
        args.prompt.clone()
    };
    ops.send(Op::UserMessage { text, attach })
        .map_err(|_| "the session ended at once".to_owned())?;
    let mut input = stdin_lines();
    let mut input_open = true;
    let mut renderer = Renderer::new();
    let mut stats = StatsTable::default();
    let mut outcome: Option<Result<(), String>> = None;
    // The prompt was given back (a `/command` refused) and no task runs: with `--json` another
    // message may come on stdin; otherwise, or once stdin closes, the run ends with the reason.
    let mut refused: Option<String> = None;
    let (mut task_ran, mut last_error) = (false, None::<String>);
    loop {
        tokio::select! {
            event = events.recv() => {
                let Some(event) = event else { break };
                stats.observe(&event.msg);
                match &event.msg {
                    EventMsg::TaskStarted => (task_ran, refused) = (true, None),
                    EventMsg::Error { message } => last_error = Some(message.clone()),
                    // Where it is seen whatever is on stdout (a script reading `--json`).
                    EventMsg::ConfigWarning { message, .. } => {
                        eprintln!("foreman-cli: warning: {message}");
                    }
                    _ => {}
                }
                if args.json {
                    json_events.print(&event)?;
                } else {
                    renderer.show(&event);
                }
                match &event.msg {
                    // At a terminal, a task that may be retried asks first.
                    EventMsg::TaskEnded { reason }
                        if !args.json
                            && reason.may_retry()
                            && std::io::stdin().is_terminal()
                            && renderer.ask_retry(reason, &mut input).await =>
                    {
                        let _ = ops.send(Op::Retry);
                    }
                    EventMsg::TaskEnded { reason } => {
                        outcome = Some(if reason.is_success() { Ok(()) } else { Err(reason.describe()) });
                        let _ = ops.send(Op::Shutdown);
                    }
                    EventMsg::ShutdownComplete => break,
                    EventMsg::QueuedMessagesReturned { .. } if !task_ran => {
                        refused = Some(last_error.take().unwrap_or_else(|| "the prompt was not sent".into()));
                        if !args.json || !input_open {
                            outcome = refused.take().map(Err);
                            let _ = ops.send(Op::Shutdown);
                        }
                    }
                    EventMsg::ApprovalRequested { .. } | EventMsg::Paused { .. } if !args.json => {
                        if let Some(op) = renderer.ask(&event, &mut input).await {
                            let _ = ops.send(op);
                        }
                    }
                    // The whole diff the user asked for (or the error saying there is none):
                    // the request is asked again with it.
                    EventMsg::ToolCallUpdated { .. } | EventMsg::Error { .. } if !args.json => {
                        let again = match &event.msg {
                            EventMsg::Error { message } => renderer.whole_diff_failed(message),
                            _ => renderer.whole_diff_arrived(&event),
                        };
                        if let Some(again) = again
                            && let Some(op) = renderer.ask(&again, &mut input).await
                        {
                            let _ = ops.send(op);
                        }
                    }
                    _ => {}
                }
            }
            line = input.recv(), if input_open && args.json => {
                match line {
                    None => {
                        input_open = false;
                        if let Some(reason) = refused.take() {
                            outcome = Some(Err(reason));
                            let _ = ops.send(Op::Shutdown);
                        }
                    }
                    Some(line) if line.trim().is_empty() => {}
                    Some(line) => match serde_json::from_str::<Op>(&line) {
                        Ok(op) => { let _ = ops.send(op); }
                        Err(e) => eprintln!("foreman-cli: ignored an invalid op line: {e}"),
                    },
                }
            }
        }
    }
    if let Some(hub) = hub {
        hub.shutdown().await;
    }
    drop(running);
    store.close().await;
    if !args.json
        && let Some(table) = stats.render()
    {
        println!("\n{table}");
    }
    outcome.unwrap_or_else(|| Err("the session ended before the task did".into()))
}

/// `--approve-hooks`: records the consent to the workspace's hooks as they are now.
async fn approve_hooks(config: &SessionConfig, store: &Store) -> Result<(), String> {
    let Some(dirs) = &config.hooks else {
        return Ok(());
    };
    let key = config
        .consent_folder
        .as_ref()
        .unwrap_or(&config.workspace)
        .display()
        .to_string();
    let view = foreman_core::hooks::view(dirs, Some(store), &key).await;
    if let Some(hash) = &view.consent_hash {
        foreman_core::hooks::consent(dirs, store, &key, hash)
            .await
            .map_err(|e| e.to_string())?;
        eprintln!(
            "foreman-cli: allowed the workspace's hooks as they are now:\n{}",
            crate::hooks::describe(&view).trim_end()
        );
    }
    Ok(())
}

/// `foreman-cli sessions --workspace DIR [--db FILE]`: one JSON line per session, newest first.
pub async fn sessions(options: crate::args::StoreArgs) -> Result<(), String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let ws = WorkspaceDir::resolve(&options.workspace, &cwd).map_err(|e| e.to_string())?;
    let db = match options.db {
        Some(db) => db,
        None => crate::default_database()?,
    };
    let store = Store::open(&db).await.map_err(|e| e.to_string())?;
    let list = store
        .list_sessions(&ws.path.display().to_string())
        .await
        .map_err(|e| e.to_string())?;
    for s in list {
        let line = serde_json::json!({"id": s.id, "title": s.title, "created_at": s.created_at, "updated_at": s.updated_at});
        println!("{line}");
    }
    store.close().await;
    Ok(())
}
