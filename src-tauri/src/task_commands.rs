//! Commands for tasks: where a new one can work, start one, list them (with what the running
//! sessions are doing), the inbox across every open workspace, review, merge through the queue,
//! discard, restore, hand back and clean up. Each delegates to `foreman_core::tasks`; the
//! window hears `tasks-changed` (`task_events.rs`) whenever one of its tasks moves.

use std::collections::HashMap;
use std::path::PathBuf;

use foreman_core::diff::HunkRef;
use foreman_core::tasks::lifecycle::NewTask;
use foreman_core::tasks::place::SetupSandbox;
use foreman_core::tasks::summary::inbox;
use foreman_core::tasks::{MergeOptions, MergeStrategy, Tasks};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::records::SessionActivity;
use foreman_protocol::{InboxItem, TaskChange, TaskPlace, TaskPlaces, TaskRun, TaskSummary};
use tauri::{AppHandle, Manager, State};

pub use crate::task_events::changed;

use crate::settings;
use crate::state::{AppState, open_store_ref};
use crate::view::CommandError;

/// The app's tasks (one value: its merges can be cancelled).
pub async fn tasks(app: &AppHandle, state: &AppState) -> Result<Tasks, CommandError> {
    if let Some(tasks) = state.tasks_slot().clone() {
        return Ok(tasks);
    }
    let store = open_store_ref(state).await?;
    let data_dir = app
        .path()
        .app_data_dir()
        .map_err(|e| CommandError::new(format!("Cannot find the app data directory: {e}")))?;
    let tasks = Tasks::new(store, data_dir);
    *state.tasks_slot() = Some(tasks.clone());
    Ok(tasks)
}

fn folder(workspace: &str) -> Result<PathBuf, CommandError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    Ok(WorkspaceDir::resolve(workspace, &cwd)?.path)
}

fn text(e: foreman_core::tasks::TaskError) -> CommandError {
    CommandError::new(upper_first(&e.to_string()))
}

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        let mut out: String = c.to_uppercase().collect();
        out.push_str(chars.as_str());
        if !out.ends_with('.') {
            out.push('.');
        }
        out
    })
}

/// What the running sessions of this app are doing, by id.
fn live(state: &AppState, ids: impl Iterator<Item = String>) -> HashMap<String, SessionActivity> {
    ids.filter_map(|id| state.sessions.activity(&id).map(|a| (id, a)))
        .collect()
}

async fn list(
    app: &AppHandle,
    state: &AppState,
    workspace: &str,
) -> Result<Vec<TaskSummary>, CommandError> {
    let tasks = tasks(app, state).await?;
    let ids = tasks
        .store()
        .tasks(workspace)
        .await?
        .into_iter()
        .map(|t| t.id);
    let live = live(state, ids);
    let queued = state.queued_tasks();
    let ids: Vec<String> = queued.keys().cloned().collect();
    let mut list = tasks.list(workspace, &live, &ids).await.map_err(text)?;
    // Why a queued task waits: for a slot, or for the folder another task works in.
    for task in &mut list {
        if let Some(why) = queued.get(&task.id) {
            task.note = Some(why.clone());
        }
    }
    Ok(list)
}

async fn summary_of(
    app: &AppHandle,
    state: &AppState,
    id: &str,
) -> Result<TaskSummary, CommandError> {
    let tasks = tasks(app, state).await?;
    let row = tasks
        .store()
        .task(id)
        .await?
        .ok_or_else(|| CommandError::new("That task no longer exists."))?;
    changed(app, &row.workspace_path);
    list(app, state, &row.workspace_path)
        .await?
        .into_iter()
        .find(|t| t.id == id)
        .ok_or_else(|| CommandError::new("That task no longer exists."))
}

/// Holds task `id`'s place for its session (`None`: the session is not a task): waits for a
/// slot of the limit (and for the folder, for a task in it), the task shown as queued meanwhile.
pub async fn hold_place(
    app: &AppHandle,
    state: &AppState,
    id: &str,
    workspace: &str,
    app_settings: &settings::AppSettings,
) -> Result<Option<foreman_core::tasks::Running>, CommandError> {
    let tasks = tasks(app, state).await?;
    let limit = app_settings.max_tasks.max(1);
    let running = tasks
        .begin(id, limit, |why| {
            log::info!("task {id}: {why}");
            state.set_queued(id, Some(why));
            changed(app, workspace);
        })
        .await;
    state.set_queued(id, None);
    let running = running.map_err(text)?;
    if running.is_some() {
        changed(app, workspace);
    }
    Ok(running)
}

#[tauri::command]
pub async fn list_tasks(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
) -> Result<Vec<TaskSummary>, CommandError> {
    list(&app, &state, &workspace).await
}

/// What needs the user across the tasks of every open workspace.
#[tauri::command]
pub async fn task_inbox(
    app: AppHandle,
    state: State<'_, AppState>,
) -> Result<Vec<InboxItem>, CommandError> {
    let folders = state.windows().folders();
    let mut all = Vec::new();
    for folder in folders {
        all.extend(list(&app, &state, &folder.display().to_string()).await?);
    }
    let waiting: HashMap<String, u32> = all
        .iter()
        .filter_map(|t| {
            state
                .sessions
                .activity(&t.id)
                .map(|a| (t.id.clone(), a.waiting))
        })
        .collect();
    Ok(inbox(&all, &waiting))
}

#[tauri::command]
pub async fn task_places(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
) -> Result<TaskPlaces, CommandError> {
    let tasks = tasks(&app, &state).await?;
    tasks.places(&folder(&workspace)?).map_err(text)
}

/// Starts a task (its worktree made, the repository's setup run); the window then opens its
/// session, which waits for a free slot when the limit is reached.
#[tauri::command]
pub async fn start_task(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
    place: TaskPlace,
    name: Option<String>,
    base: Option<String>,
) -> Result<TaskSummary, CommandError> {
    let tasks = tasks(&app, &state).await?;
    let new = NewTask {
        place,
        name: name.filter(|n| !n.trim().is_empty()),
        base: base.filter(|b| !b.trim().is_empty()),
        prompt: String::new(),
    };
    let started = tasks.start(&folder(&workspace)?, new).await.map_err(text)?;
    let app_settings = settings::load(&settings::settings_path(&app)?)?;
    let hidden = SetupSandbox {
        hidden: settings::hidden_paths(&app, &app_settings),
    };
    if let Err(error) = tasks
        .setup(&started.task.id, &started.config, &hidden, |_| {})
        .await
    {
        log::warn!("task {}: setup: {error}", started.task.name);
    }
    summary_of(&app, &state, &started.task.id).await
}

/// Puts a task in the merge queue; its progress reaches the window through `tasks-changed`.
#[tauri::command]
pub async fn merge_task(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
    message: Option<String>,
) -> Result<(), CommandError> {
    let tasks = tasks(&app, &state).await?;
    let row = tasks
        .store()
        .task(&task_id)
        .await?
        .ok_or_else(|| CommandError::new("That task no longer exists."))?;
    let app_settings = settings::load(&settings::settings_path(&app)?)?;
    let options = MergeOptions {
        message,
        check: None,
        into: None,
        strategy: if app_settings.merge_commit {
            MergeStrategy::MergeCommit
        } else {
            MergeStrategy::Rebase
        },
        hidden: settings::hidden_paths(&app, &app_settings),
    };
    let workspace = row.workspace_path.clone();
    let name = row.name.clone();
    let emitter = app.clone();
    tauri::async_runtime::spawn(async move {
        let key = workspace.clone();
        let progress = move |_: &foreman_protocol::MergeProgress| changed(&emitter, &key);
        match tasks.merge(&task_id, options, &progress).await {
            Ok(done) => crate::notify::merge_over(&app, &name, &done),
            Err(error) => log::warn!("merge of {task_id}: {error}"),
        }
        changed(&app, &workspace);
    });
    Ok(())
}

/// The drafted commit message of the task's uncommitted changes; `None` when everything is
/// committed on its branch already.
#[tauri::command]
pub async fn draft_merge_message(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<Option<String>, CommandError> {
    let tasks = tasks(&app, &state).await?;
    tasks.draft_message(&task_id).await.map_err(text)
}

#[tauri::command]
pub async fn cancel_merge(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<(), CommandError> {
    let tasks = tasks(&app, &state).await?;
    tasks.cancel_merge(&task_id).await.map_err(text)?;
    summary_of(&app, &state, &task_id).await.map(|_| ())
}

/// Discards a task (the window asked the user first); its work stays restorable.
#[tauri::command]
pub async fn discard_task(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<TaskSummary, CommandError> {
    let tasks = tasks(&app, &state).await?;
    // Its session stops first: nothing may write the worktree while it goes.
    state
        .sessions
        .send(&task_id, foreman_protocol::Op::Shutdown);
    tasks.discard(&task_id, true).await.map_err(text)?;
    summary_of(&app, &state, &task_id).await
}

#[tauri::command]
pub async fn restore_task(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<TaskSummary, CommandError> {
    let tasks = tasks(&app, &state).await?;
    tasks.restore(&task_id).await.map_err(text)?;
    summary_of(&app, &state, &task_id).await
}

#[tauri::command]
pub async fn hand_back_task(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<TaskSummary, CommandError> {
    let tasks = tasks(&app, &state).await?;
    state
        .sessions
        .send(&task_id, foreman_protocol::Op::Shutdown);
    tasks.hand_back(&task_id).await.map_err(text)?;
    summary_of(&app, &state, &task_id).await
}

/// Removes the worktrees of merged tasks; the bytes freed.
#[tauri::command]
pub async fn clean_up_merged(
    app: AppHandle,
    state: State<'_, AppState>,
    workspace: String,
) -> Result<u64, CommandError> {
    let tasks = tasks(&app, &state).await?;
    let (freed, kept) = tasks.clean_up_merged(&workspace).await.map_err(text)?;
    for why in kept {
        log::info!("clean-up kept {why}");
    }
    changed(&app, &workspace);
    Ok(freed)
}

#[tauri::command]
pub async fn task_change(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<TaskChange, CommandError> {
    let tasks = tasks(&app, &state).await?;
    tasks.change(&task_id).await.map_err(text)
}

#[tauri::command]
pub async fn drop_task_change(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
    path: String,
    hunks: Option<Vec<HunkRef>>,
) -> Result<TaskChange, CommandError> {
    let tasks = tasks(&app, &state).await?;
    let change = tasks
        .drop_change(&task_id, &path, hunks.as_deref())
        .await
        .map_err(text)?;
    if let Ok(Some(row)) = tasks.store().task(&task_id).await {
        changed(&app, &row.workspace_path);
    }
    Ok(change)
}

/// Starts the repository's run command in the task's worktree (confined, network on).
#[tauri::command]
pub async fn start_task_run(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<TaskRun, CommandError> {
    let tasks = tasks(&app, &state).await?;
    let app_settings = settings::load(&settings::settings_path(&app)?)?;
    let hidden = settings::hidden_paths(&app, &app_settings);
    tasks.start_run(&task_id, hidden).await.map_err(text)
}

#[tauri::command]
pub async fn stop_task_run(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<(), CommandError> {
    tasks(&app, &state).await?.stop_run(&task_id);
    Ok(())
}

/// The task's run as its panel shows it (`None`: it has not run in this app).
#[tauri::command]
pub async fn task_run(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<Option<TaskRun>, CommandError> {
    Ok(tasks(&app, &state).await?.run_view(&task_id))
}
