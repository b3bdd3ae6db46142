//! Commands for agent sessions: start or reopen one (with its event channel), send it ops, list,
//! rename, branch and delete stored ones, and complete `@file` references.

use foreman_core::conversation::branch_before_message;
use foreman_core::conversation::net_change::{NetChange, net_change};
use foreman_core::store::SessionSummary;
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::{Event, Op};
use tauri::ipc::Channel;
use tauri::{AppHandle, State, WebviewWindow};

use crate::session_open::{OpenedSession, Opening};
use crate::state::{AppState, open_store_ref};
use crate::view::CommandError;

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
    Opening::new(&app, &state, window.label(), workspace, resume)
        .open(channel)
        .await
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

/// Deletes a stored session (stopping it first if it runs). Files it changed stay changed; a
/// task's worktree goes with it, its work kept restorable as a discard keeps it.
#[tauri::command]
pub async fn delete_session(
    app: AppHandle,
    state: State<'_, AppState>,
    session_id: String,
) -> Result<(), CommandError> {
    state.sessions.send(&session_id, Op::Shutdown);
    state.windows().forget_session(&session_id);
    let tasks = crate::task_commands::tasks(&app, &state).await?;
    if let Some(folder) = tasks.delete_session(&session_id).await? {
        crate::task_commands::changed(&app, &folder);
    }
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
    let branch = branch_before_message(&store, &session_id, message_index, &text).await?;
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
