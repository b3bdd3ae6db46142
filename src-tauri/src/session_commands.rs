//! Commands for agent sessions: start or reopen one (with its event channel), send it ops, list,
//! rename, branch and delete stored ones, and complete `@file` references.

use std::sync::Arc;

use foreman_core::agent::{Session, SessionConfig};
use foreman_core::conversation::branch_before_message;
use foreman_core::conversation::net_change::{NetChange, net_change};
use foreman_core::conversation::open_session;
use foreman_core::conversation::{Transcript, load_transcript};
use foreman_core::hooks::HookDirs;
use foreman_core::providers::{SharedKeySource, build_provider, limits_for};
use foreman_core::store::{SessionSummary, Store};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::{Event, Op};
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State, WebviewWindow};
use ts_rs::TS;

use crate::bridge::Started;
use crate::settings::{self, AppSettings};
use crate::state::{AppState, open_store_ref};
use crate::view::CommandError;

/// A session the UI is now connected to.
#[derive(Debug, Clone, Serialize, TS)]
pub struct OpenedSession {
    pub session_id: String,
    /// What was said before (empty for a new session).
    pub transcript: Transcript,
    /// True when the session was already running (its state follows as a snapshot event).
    pub was_running: bool,
    pub model: String,
    pub provider: String,
    /// Why the engine is not running (the provider is not set up); the transcript is shown and
    /// opening the session again starts it.
    pub stopped: Option<String>,
}

/// Opens a session of `workspace` and connects `channel` to it: the stored session `resume`
/// (started again if it is not running), or a new one. The session belongs to the calling window
/// from then on. Fails with a message for the user when the provider is not set up (no key, no
/// model).
#[tauri::command]
pub async fn open_session_channel(
    app: AppHandle,
    window: WebviewWindow,
    state: State<'_, AppState>,
    workspace: String,
    resume: Option<String>,
    channel: Channel<Vec<Event>>,
) -> Result<OpenedSession, CommandError> {
    let store = open_store_ref(&state).await?;
    let settings = settings::load(&settings::settings_path(&app)?)?;
    let provider_label = settings.provider.preset.label().to_owned();
    let model = settings.provider.model.clone();
    let label = window.label();
    if let Some(id) = &resume
        && state.sessions.attach(id, label, channel.clone())
    {
        log::info!("session {id} reattached in window {label}");
        state.windows().get(label).shown_session = Some(id.clone());
        return Ok(OpenedSession {
            session_id: id.clone(),
            transcript: load_transcript(&store, id).await?,
            was_running: true,
            model,
            provider: provider_label,
            stopped: None,
        });
    }
    let config = match session_config(&app, &store, &workspace, &settings).await {
        Ok(config) => config,
        // A stored session can be read even when no model is set up; it runs once one is.
        Err(problem) => match &resume {
            Some(id) if store.session(id).await?.is_some() => {
                state.windows().get(label).shown_session = Some(id.clone());
                return Ok(OpenedSession {
                    session_id: id.clone(),
                    transcript: load_transcript(&store, id).await?,
                    was_running: false,
                    model,
                    provider: provider_label,
                    stopped: Some(problem.message),
                });
            }
            _ => return Err(problem),
        },
    };
    let key_path = workspace.clone();
    let (session_id, history) = open_session(&store, &key_path, resume.as_deref())
        .await?
        .ok_or_else(|| CommandError::new("That session no longer exists."))?;
    let transcript = load_transcript(&store, &session_id).await?;
    let mut config = config;
    // A task works in its own place (its worktree), once a slot of the limit is free.
    let running =
        crate::task_commands::hold_place(&app, &state, &session_id, &key_path, &settings).await?;
    if let Some(running) = &running {
        running.place.apply(&mut config);
    }
    config.data_dir = state_data_dir(&app)?.join("sessions").join(&session_id);
    config.checkpoints_dir = Some(state_data_dir(&app)?.join("checkpoints"));
    // The built-ins plus the workspace's MCP tools, with the same cards and approvals.
    // A task's servers run in its worktree, with the approvals of the folder it belongs to.
    let approvals_for = match &running {
        Some(running) => std::path::PathBuf::from(&running.place.task.workspace_path),
        None => config.workspace.clone(),
    };
    let hub = state
        .mcp
        .hub_in(&app, &store, &config.workspace, &approvals_for)
        .await?;
    hub.wait_settled(crate::mcp::SETTLE).await;
    config.mcp = Some(hub);
    config.session_id = Some(session_id.clone());
    config.history = history;
    config.user_messages = transcript.user_messages();
    // A resumed session's own rules join those of the user and the workspace.
    config.rules.extend(
        store
            .rules(&foreman_core::store::rule_key(
                foreman_protocol::RuleScope::Session,
                &key_path,
                Some(&session_id),
            ))
            .await?
            .into_iter()
            .map(|r| (r.action, r.pattern)),
    );
    let config_workspace = config.workspace.clone();
    let is_task = running.is_some();
    let (ops, events) = Session::spawn(config).map_err(|e| CommandError::new(e.to_string()))?;
    let started = Started {
        session_id: session_id.clone(),
        provider: settings::provider_identity(&settings.provider),
        window: label.to_owned(),
        workspace: config_workspace,
        task_folder: running.as_ref().map(|_| key_path.clone()),
        running,
        ops,
        events,
    };
    state.sessions.add(&app, started, channel);
    if is_task {
        // Until now the task read as running elsewhere (its lock is held, its session was not
        // listed yet): the windows read it again with what its session does.
        crate::task_commands::changed(&app, &key_path);
    }
    log::info!("session {session_id} started in {workspace} (window {label})");
    state.windows().get(label).shown_session = Some(session_id.clone());
    Ok(OpenedSession {
        session_id,
        transcript,
        was_running: false,
        model,
        provider: provider_label,
        stopped: None,
    })
}

pub(crate) fn state_data_dir(app: &AppHandle) -> Result<std::path::PathBuf, CommandError> {
    app.path()
        .app_data_dir()
        .map_err(|e| CommandError::new(format!("Cannot find the app data directory: {e}")))
}

async fn session_config(
    app: &AppHandle,
    store: &Store,
    workspace: &str,
    settings: &AppSettings,
) -> Result<SessionConfig, CommandError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("/"));
    let dir = WorkspaceDir::resolve(workspace, &cwd)?;
    let preset = settings.provider.preset;
    let key = settings::key_for(preset);
    if settings.provider.requires_key() && !key.is_stored()? {
        return Err(CommandError::new(format!(
            "No API key for {}. Add it in Settings.",
            preset.label()
        )));
    }
    let key: SharedKeySource = Arc::new(key);
    let recordings = settings::recordings_dir(app)?;
    let provider =
        build_provider(&settings.provider, key, Some(recordings)).map_err(CommandError::from)?;
    let mut config = SessionConfig::new(provider, settings.provider.model.clone(), dir.path);
    config.approval_mode = settings.approval_mode;
    config.sandbox = settings.sandbox;
    config.sandbox_network = settings.sandbox_network;
    config.sandbox_hidden = settings::hidden_paths(app, settings);
    config.checkpoint_coverage = foreman_core::checkpoints::Coverage::from_settings(
        settings.checkpoint_max_file_mib,
        settings.checkpoint_keep_ignored,
        settings.checkpoint_excluded_folders.clone(),
    );
    config.max_iterations = settings.max_iterations.max(1);
    config.text_protocol = settings.provider.text_protocol;
    config.limits = limits_for(&settings.provider);
    if let Some(window) = settings.provider.context_window {
        config.context_window = Some(usize::try_from(window).unwrap_or(usize::MAX));
    }
    config.rules = store
        .rules_in_force(workspace, None)
        .await?
        .into_iter()
        .map(|r| (r.action, r.pattern))
        .collect();
    config.store = Some(store.clone());
    config.user_rules = Some(crate::rule_file_commands::user_rules_path(app)?);
    config.hooks = Some(HookDirs::for_user(
        config.workspace.clone(),
        app.path().app_config_dir().ok(),
    ));
    config.hooks_unconfined = settings.hooks_outside_sandbox;
    // Skills and commands: the workspace's `.claude/`, the user's and the app's config folder.
    config.slash = Some(foreman_core::slash::SlashDirs::for_user(
        config.workspace.clone(),
        app.path().app_config_dir().ok(),
    ));
    Ok(config)
}

/// Sends `op` to a running session.
#[tauri::command]
pub fn send_op(state: State<'_, AppState>, session_id: String, op: Op) -> Result<(), CommandError> {
    if state.sessions.send(&session_id, op) {
        Ok(())
    } else {
        Err(CommandError::new(
            "This session is not running any more. Reopen it from the sidebar.",
        ))
    }
}

/// The stored sessions of `workspace`, newest first.
#[tauri::command]
pub async fn list_sessions(
    state: State<'_, AppState>,
    workspace: String,
) -> Result<Vec<SessionSummary>, CommandError> {
    let store = open_store_ref(&state).await?;
    let mut sessions = store.list_sessions(&workspace).await?;
    for session in &mut sessions {
        session.activity = state.sessions.activity(&session.id);
    }
    Ok(sessions)
}

#[tauri::command]
pub async fn rename_session(
    state: State<'_, AppState>,
    session_id: String,
    title: String,
) -> Result<(), CommandError> {
    let title = title.trim();
    if title.is_empty() {
        return Err(CommandError::new("A session needs a name."));
    }
    let store = open_store_ref(&state).await?;
    store.rename_session(&session_id, title).await?;
    Ok(())
}

/// Deletes a stored session (stopping it first if it runs). Files it changed stay changed.
#[tauri::command]
pub async fn delete_session(
    app: AppHandle,
    state: State<'_, AppState>,
    session_id: String,
) -> Result<(), CommandError> {
    state.sessions.send(&session_id, Op::Shutdown);
    state.windows().forget_session(&session_id);
    let store = open_store_ref(&state).await?;
    // A task's worktree goes with its conversation, its work kept restorable as a discard keeps it.
    if let Some(task) = store.task(&session_id).await?
        && task.state != foreman_core::store::TaskLife::Discarded
    {
        let tasks = crate::task_commands::tasks(&app, &state).await?;
        tasks
            .discard(&session_id, true)
            .await
            .map_err(|e| CommandError::new(e.to_string()))?;
        crate::task_commands::changed(&app, &task.workspace_path);
    }
    store.delete_session(&session_id).await?;
    Ok(())
}

/// Creates a branch of a stored session: a new session with the conversation before the
/// user's message number `message_index` (counted as the transcript shows them), whose text
/// must be `text`. The original session and the files are not changed.
#[tauri::command]
pub async fn branch_session(
    state: State<'_, AppState>,
    session_id: String,
    message_index: usize,
    text: String,
) -> Result<SessionSummary, CommandError> {
    let store = open_store_ref(&state).await?;
    let branch = branch_before_message(&store, &session_id, message_index, &text)
        .await
        .map_err(|e| CommandError::new(e.to_string()))?;
    log::info!(
        "session {} branched from {session_id} before message {message_index}",
        branch.id
    );
    Ok(branch)
}

/// What the changes `call_ids` of session `session_id` (one file's, from the status bar's list)
/// amount to now: the file before the oldest of them still kept, against the file on disk.
#[tauri::command]
pub async fn file_net_change(
    state: State<'_, AppState>,
    session_id: String,
    call_ids: Vec<String>,
) -> Result<NetChange, CommandError> {
    let store = open_store_ref(&state).await?;
    net_change(&store, &session_id, &call_ids)
        .await
        .map_err(|e| CommandError::new(e.to_string()))
}

/// The calling window now shows a new conversation, which has no session until its first
/// message: a page loaded again (after its web process ended) opens the workspace with a new
/// conversation too, not the session that was shown before.
#[tauri::command]
pub async fn show_new_session(
    window: WebviewWindow,
    state: State<'_, AppState>,
) -> Result<(), CommandError> {
    let label = window.label();
    if state.windows().get(label).shown_session.take().is_some() {
        log::info!("the window shows a new conversation ({label})");
    }
    Ok(())
}

/// Workspace files whose path contains `query` (case-insensitive), for `@` references; at most
/// 50, shortest paths first. Respects `.gitignore`.
#[tauri::command]
pub async fn workspace_files(
    workspace: String,
    query: String,
) -> Result<Vec<String>, CommandError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("/"));
    let dir = WorkspaceDir::resolve(&workspace, &cwd)?;
    tauri::async_runtime::spawn_blocking(move || {
        crate::files::matching_files(&dir.path, &query, 50)
    })
    .await
    .map_err(|e| CommandError::new(format!("The file search failed: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_up_to_date() {
        foreman_protocol::bindings::assert_bindings_current::<OpenedSession>();
    }
}
