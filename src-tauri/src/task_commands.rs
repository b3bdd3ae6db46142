//! Commands for tasks: where a new one can work, start one, list them (with what the running
//! sessions are doing), the inbox across every open workspace, review, merge through the queue,
//! discard, restore, hand back and clean up. Each delegates to `foreman_core::tasks`; the
//! window hears `tasks-changed` (`task_events.rs`) whenever one of its tasks moves.

use std::path::PathBuf;

use foreman_core::diff::HunkRef;
use foreman_core::store::TaskRow;
use foreman_core::tasks::{MergeOptions, NewTask, TaskError, Tasks};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::{
    InboxItem, MergeProgress, TaskChange, TaskPlace, TaskPlaces, TaskRun, TaskSummary,
};
use tauri::{AppHandle, State};

pub use crate::task_events::changed;

use crate::settings;
use crate::state::{AppState, open_store_ref, state_data_dir};
use crate::view::CommandError;

/// The app's tasks (one value: its merges can be cancelled).
pub async fn tasks(app: &AppHandle, state: &AppState) -> Result<Tasks, CommandError> {
    if let Some(tasks) = state.tasks_slot().clone() {
        return Ok(tasks);
    }
    let tasks = Tasks::new(open_store_ref(state).await?, state_data_dir(app)?);
    *state.tasks_slot() = Some(tasks.clone());
    Ok(tasks)
}

fn folder(workspace: &str) -> Result<PathBuf, CommandError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    Ok(WorkspaceDir::resolve(workspace, &cwd)?.path)
}

/// A task's error as the user reads it.
fn text(e: TaskError) -> CommandError {
    CommandError::new(e.sentence())
}

async fn list(
    app: &AppHandle,
    state: &AppState,
    workspace: &str,
) -> Result<Vec<TaskSummary>, CommandError> {
    let (live, queued) = (state.sessions.activities(), state.queued_tasks());
    let tasks = tasks(app, state).await?;
    tasks.list(workspace, &live, &queued).await.map_err(text)
}

/// Task `id` as its window lists it now; the windows hear that its folder's tasks changed.
async fn summary_of(
    app: &AppHandle,
    state: &AppState,
    id: &str,
) -> Result<TaskSummary, CommandError> {
    let gone = || CommandError::new("That task no longer exists.");
    let folder = match tasks(app, state).await?.folder_of(id).await {
        Err(TaskError::NoSuchTask(_)) => return Err(gone()),
        found => found?,
    };
    changed(app, &folder);
    let listed = list(app, state, &folder).await?;
    listed.into_iter().find(|t| t.id == id).ok_or_else(gone)
}

/// `done` as the command's answer; when it succeeded, the windows hear that task `id`'s
/// folder's tasks changed.
async fn and_changed<T>(
    app: &AppHandle,
    tasks: &Tasks,
    id: &str,
    done: Result<T, TaskError>,
) -> Result<T, CommandError> {
    let done = done.map_err(text)?;
    if let Ok(folder) = tasks.folder_of(id).await {
        changed(app, &folder);
    }
    Ok(done)
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

/// Starts the task `new` in `workspace` (its worktree made, the repository's setup run); its
/// id.
async fn start(
    app: &AppHandle,
    state: &AppState,
    workspace: &str,
    new: NewTask,
) -> Result<String, CommandError> {
    let hidden = settings::hidden_now(app)?;
    let tasks = tasks(app, state).await?;
    let started = tasks.start_set_up(&folder(workspace)?, new, hidden).await;
    started.map_err(text)
}

/// How the merge queue merges, as Settings say (`message`: the user's commit message).
fn merge_options(app: &AppHandle, message: Option<String>) -> Result<MergeOptions, CommandError> {
    let app_settings = settings::current(app)?;
    let hidden = settings::hidden_paths(app, &app_settings);
    Ok(MergeOptions::chosen(
        message,
        app_settings.merge_commit,
        hidden,
    ))
}

/// A merge ended: the user hears how (a notification), and the windows read the tasks again.
fn merge_over(app: &AppHandle, task: &TaskRow, result: Result<MergeProgress, TaskError>) {
    match result {
        Ok(done) => crate::notify::merge_over(app, &task.name, &done),
        Err(error) => log::warn!("merge of {}: {error}", task.id),
    }
    changed(app, &task.workspace_path);
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
    let (live, queued) = (state.sessions.activities(), state.queued_tasks());
    let tasks = tasks(&app, &state).await?;
    tasks.inbox_of(folders, &live, &queued).await.map_err(text)
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
    agent: Option<String>,
) -> Result<TaskSummary, CommandError> {
    let new = NewTask::in_place(place, name, base).by(agent);
    let id = start(&app, &state, &workspace, new).await?;
    summary_of(&app, &state, &id).await
}

/// Puts a task in the merge queue; its progress reaches the window through `tasks-changed`.
#[tauri::command]
pub async fn merge_task(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
    message: Option<String>,
) -> Result<(), CommandError> {
    let options = merge_options(&app, message)?;
    let (stepped, over) = (app.clone(), app.clone());
    let stepped = move |task: &TaskRow, _: &MergeProgress| changed(&stepped, &task.workspace_path);
    let over = move |task: &TaskRow, result| merge_over(&over, task, result);
    let tasks = tasks(&app, &state).await?;
    let merging = tasks.start_merge(&task_id, options, stepped, over);
    merging.await.map_err(text)
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
    let dropped = tasks.drop_change(&task_id, &path, hunks.as_deref()).await;
    and_changed(&app, &tasks, &task_id, dropped).await
}

/// Starts the repository's run command in the task's worktree (confined, network on).
#[tauri::command]
pub async fn start_task_run(
    app: AppHandle,
    state: State<'_, AppState>,
    task_id: String,
) -> Result<TaskRun, CommandError> {
    let hidden = settings::hidden_now(&app)?;
    let tasks = tasks(&app, &state).await?;
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
