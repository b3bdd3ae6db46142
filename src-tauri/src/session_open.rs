//! Opening a session in a window: a running one gets the window's channel again; otherwise the
//! stored one (or a new one) starts with what the settings say (`SessionConfig::builder`), in
//! its task's place once it holds one, with the workspace's MCP tools. Without a usable
//! provider a stored session is still shown, stopped.

use std::path::PathBuf;
use std::sync::Arc;

use foreman_core::acp::AgentSpec;
use foreman_core::agent::{Session, SessionConfig, StoredSession};
use foreman_core::checkpoints::Coverage;
use foreman_core::conversation::{Transcript, load_transcript, open_session};
use foreman_core::providers::{Provider, SharedKeySource, build_provider, limits_for};
use foreman_core::store::Store;
use foreman_core::tasks::{Place, Running};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::Event;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager};
use ts_rs::TS;

use crate::bridge::Started;
use crate::settings::{self, AppSettings};
use crate::state::{AppState, open_store_ref, state_data_dir};
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

/// What a window asked to open.
pub struct Opening<'a> {
    app: &'a AppHandle,
    state: &'a AppState,
    /// The calling window's label.
    window: &'a str,
    /// The folder, as the window names it (the store's key for its sessions).
    workspace: String,
    /// The stored session to open; a new one when `None`.
    resume: Option<String>,
}

impl<'a> Opening<'a> {
    pub fn new(
        app: &'a AppHandle,
        state: &'a AppState,
        window: &'a str,
        workspace: String,
        resume: Option<String>,
    ) -> Self {
        Self {
            app,
            state,
            window,
            workspace,
            resume,
        }
    }

    /// Connects `channel` to the session; it belongs to the calling window from then on.
    /// Fails with a message for the user when the provider is not set up (no key, no model)
    /// and there is no stored session to show.
    pub async fn open(self, channel: Channel<Vec<Event>>) -> Result<OpenedSession, CommandError> {
        let store = open_store_ref(self.state).await?;
        let settings = settings::load(&settings::settings_path(self.app)?)?;
        if let Some(id) = &self.resume
            && self.state.sessions.attach(id, self.window, channel.clone())
        {
            log::info!("session {id} reattached in window {}", self.window);
            return self.shown(&store, &settings, id.clone(), true, None).await;
        }
        // An external agent brings its own model: Foreman's needs no key then.
        let agent = match &self.resume {
            Some(id) => crate::agents::of_session(self.app, &store, id).await?,
            None => None,
        };
        let needs_key = agent.is_none();
        let (provider, dir) = match provider_for(self.app, &self.workspace, &settings, needs_key) {
            Ok(found) => found,
            // A stored session can be read even when no model is set up; it runs once one is.
            Err(problem) => match &self.resume {
                Some(id) if store.session(id).await?.is_some() => {
                    let why = Some(problem.message);
                    return self.shown(&store, &settings, id.clone(), false, why).await;
                }
                _ => return Err(problem),
            },
        };
        self.start(&store, &settings, (provider, agent), dir, channel)
            .await
    }

    /// The stored session `id` as the window now shows it (`stopped`: why it does not run).
    async fn shown(
        &self,
        store: &Store,
        settings: &AppSettings,
        id: String,
        was_running: bool,
        stopped: Option<String>,
    ) -> Result<OpenedSession, CommandError> {
        self.state.windows().get(self.window).shown_session = Some(id.clone());
        Ok(OpenedSession {
            transcript: load_transcript(store, &id).await?,
            session_id: id,
            was_running,
            model: settings.provider.model.clone(),
            provider: settings.provider.preset.label().to_owned(),
            stopped,
        })
    }

    /// Starts the session's engine: the stored session (or a new one) with the settings, in
    /// its task's place once it holds one, with the MCP tools of where it works.
    async fn start(
        &self,
        store: &Store,
        settings: &AppSettings,
        (provider, agent): (Arc<dyn Provider>, Option<AgentSpec>),
        dir: PathBuf,
        channel: Channel<Vec<Event>>,
    ) -> Result<OpenedSession, CommandError> {
        let (app, key) = (self.app, &self.workspace);
        let (session_id, history) = open_session(store, key, self.resume.as_deref())
            .await?
            .ok_or_else(|| CommandError::new("That session no longer exists."))?;
        let transcript = load_transcript(store, &session_id).await?;
        // A task works in its own place (its worktree), once a slot of the limit is free.
        let running =
            crate::task_commands::hold_place(app, self.state, &session_id, key, settings).await?;
        let place = running.as_ref().map(|running| &running.place);
        let stored = StoredSession {
            workspace_key: key.clone(),
            id: session_id.clone(),
            history,
            user_messages: transcript.user_messages(),
        };
        let provider_settings = &settings.provider;
        let mut config = SessionConfig::builder(provider, provider_settings.model.clone(), dir)
            .stored(store.clone(), stored)
            .user_folders(Some(config_dir(app)?))
            .data_in(state_data_dir(app)?)
            .place(place)
            .approval(settings.approval_mode)
            .sandbox(
                settings.sandbox,
                settings.sandbox_network,
                settings::hidden_paths(app, settings),
            )
            .hooks_outside_sandbox(settings.hooks_outside_sandbox)
            .checkpoint_coverage(Coverage::from_settings(
                settings.checkpoint_max_file_mib,
                settings.checkpoint_keep_ignored,
                settings.checkpoint_excluded_folders.clone(),
            ))
            .model_limits(
                limits_for(provider_settings),
                provider_settings.text_protocol,
                provider_settings.context_window,
            )
            .max_iterations(settings.max_iterations.max(1))
            .agent(agent)
            .build()
            .await?;
        // The built-ins plus the MCP tools, with the same cards and approvals. A task's
        // servers run in its worktree, with the approvals of the folder it belongs to.
        let approvals_for = place.map_or_else(|| config.workspace.clone(), Place::folder);
        let hub = self
            .state
            .mcp
            .hub_in(app, store, &config.workspace, &approvals_for)
            .await?;
        hub.wait_settled(crate::mcp::SETTLE).await;
        config.mcp = Some(hub);
        let (model, provider) = match &config.agent {
            Some(agent) => (agent.name.clone(), "an external agent (ACP)".to_owned()),
            None => (
                provider_settings.model.clone(),
                provider_settings.preset.label().to_owned(),
            ),
        };
        self.spawn(config, settings, running, channel)?;
        self.state.windows().get(self.window).shown_session = Some(session_id.clone());
        Ok(OpenedSession {
            session_id,
            transcript,
            was_running: false,
            model,
            provider,
            stopped: None,
        })
    }

    /// Starts the engine with `config` and carries its events to `channel`.
    fn spawn(
        &self,
        config: SessionConfig,
        settings: &AppSettings,
        running: Option<Running>,
        channel: Channel<Vec<Event>>,
    ) -> Result<(), CommandError> {
        let session_id = config.session_id.clone().unwrap_or_default();
        let workspace = config.workspace.clone();
        let is_task = running.is_some();
        let (ops, events) = Session::spawn(config).map_err(|e| CommandError::new(e.to_string()))?;
        let started = Started {
            session_id: session_id.clone(),
            provider: settings::provider_identity(&settings.provider),
            window: self.window.to_owned(),
            workspace,
            task_folder: is_task.then(|| self.workspace.clone()),
            running,
            ops,
            events,
        };
        self.state.sessions.add(self.app, started, channel);
        if is_task {
            // Until now the task read as running elsewhere (its lock is held, its session was
            // not listed yet): the windows read it again with what its session does.
            crate::task_commands::changed(self.app, &self.workspace);
        }
        log::info!(
            "session {session_id} started in {} (window {})",
            self.workspace,
            self.window
        );
        Ok(())
    }
}

/// The provider the settings name, with its key from the keychain, and the folder `workspace`
/// resolves to; a message for the user when a session cannot start (no key, no model).
fn provider_for(
    app: &AppHandle,
    workspace: &str,
    settings: &AppSettings,
    needs_key: bool,
) -> Result<(Arc<dyn Provider>, PathBuf), CommandError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let dir = WorkspaceDir::resolve(workspace, &cwd)?;
    let preset = settings.provider.preset;
    let key = settings::key_for(preset);
    if needs_key && settings.provider.requires_key() && !key.is_stored()? {
        return Err(CommandError::new(format!(
            "No API key for {}. Add it in Settings.",
            preset.label()
        )));
    }
    let key: SharedKeySource = Arc::new(key);
    let recordings = settings::recordings_dir(app)?;
    let provider =
        build_provider(&settings.provider, key, Some(recordings)).map_err(CommandError::from)?;
    Ok((provider, dir.path))
}

/// The app's config folder: the user's rule file, hooks, skills and commands beside the
/// settings.
fn config_dir(app: &AppHandle) -> Result<PathBuf, CommandError> {
    app.path()
        .app_config_dir()
        .map_err(|e| CommandError::new(format!("Cannot find the app config directory: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_up_to_date() {
        foreman_protocol::bindings::assert_bindings_current::<OpenedSession>();
    }
}
