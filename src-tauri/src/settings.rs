//! The user's settings: provider, model, approval mode, limits. Stored as JSON in the app's
//! config directory (written atomically); the API key is not here but in the system keychain.

use std::path::{Path, PathBuf};

use foreman_core::agent::DEFAULT_MAX_ITERATIONS;
use foreman_core::approval::ApprovalMode;
use foreman_core::providers::{KeyringKey, ProviderPreset, ProviderSettings};
use foreman_core::sandbox::hidden;
use foreman_protocol::Op;
use foreman_protocol::settings::{max_tokens_problem, thinking_budget_problem};
use foreman_protocol::{HiddenPath, SandboxLevel};
use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Manager};
use ts_rs::TS;

use crate::view::CommandError;

const SETTINGS_FILE: &str = "settings.json";

/// Everything on the settings screen except the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct AppSettings {
    pub provider: ProviderSettings,
    /// The approval mode new sessions start in.
    pub approval_mode: ApprovalMode,
    /// Most model requests per user message.
    pub max_iterations: u32,
    /// A system notification when an approval waits and the window is not focused.
    pub notify_approvals: bool,
    /// How far commands are confined (in every mode but "run everything").
    pub sandbox: SandboxLevel,
    /// Whether a confined command may reach the network.
    pub sandbox_network: bool,
    /// Paths hidden from confined commands (Settings › Sandbox); defaults a newer version
    /// brings are added when the file is read.
    pub sandbox_hidden: Vec<HiddenPath>,
    /// Files larger than this many MiB are left out of checkpoints.
    pub checkpoint_max_file_mib: u32,
    /// Checkpoints keep the small files git ignores (`.env.local`, local configuration).
    pub checkpoint_keep_ignored: bool,
    /// Folders whose ignored files checkpoints never keep (builds and dependencies, which can
    /// be made again), by name.
    pub checkpoint_excluded_folders: Vec<String>,
    /// How many tasks run at once; more wait in line.
    pub max_tasks: u32,
    /// The merge queue merges the target into a task (a merge commit) instead of rebasing it.
    pub merge_commit: bool,
    /// Hooks run outside the sandbox (by default they are confined as the `bash` tool is).
    pub hooks_outside_sandbox: bool,
}

impl Default for AppSettings {
    fn default() -> Self {
        Self {
            provider: ProviderSettings::default(),
            approval_mode: ApprovalMode::Ask,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            notify_approvals: true,
            sandbox: SandboxLevel::WorkspaceWrite,
            sandbox_network: false,
            sandbox_hidden: hidden::defaults(),
            checkpoint_max_file_mib: 10,
            checkpoint_keep_ignored: true,
            checkpoint_excluded_folders: foreman_core::checkpoints::coverage::DEFAULT_EXCLUDED
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            max_tasks: foreman_core::tasks::DEFAULT_LIMIT,
            merge_commit: false,
            hooks_outside_sandbox: false,
        }
    }
}

/// One provider preset as the settings screen offers it.
#[derive(Debug, Clone, Serialize, TS)]
pub struct PresetView {
    pub preset: ProviderPreset,
    pub label: String,
    pub base_url: String,
    pub model: String,
    pub requires_key: bool,
}

/// The settings screen's data. `key_stored` says whether the keychain holds a key for the
/// current preset; the key itself never goes to the UI.
#[derive(Debug, Clone, Serialize, TS)]
pub struct SettingsView {
    pub settings: AppSettings,
    pub key_stored: bool,
    /// Why the keychain could not be read, if it could not.
    pub keychain_error: Option<String>,
    /// What keeps a session from starting (no key, no model...), for a call to action.
    pub missing: Option<String>,
    pub presets: Vec<PresetView>,
    /// Where the settings file is.
    pub path: String,
    /// Where the provider's responses are recorded when `provider.record_streams` is on.
    pub recordings_path: String,
    /// Whether this machine can confine commands at the chosen level, in words.
    pub sandbox_status: String,
    /// Whether it can.
    pub sandbox_available: bool,
    /// The app's own folders, always hidden from confined commands (with the list's paths).
    pub sandbox_own_dirs: Vec<String>,
    /// The engine's default hidden paths: they can be turned off, not removed.
    pub sandbox_default_hidden: Vec<String>,
}

/// The directory the provider's responses are recorded into, when the settings ask for it: one
/// file per response, numbered (`foreman_core::providers::recording::Recorder::create_in`).
pub fn recordings_dir(app: &AppHandle) -> Result<PathBuf, CommandError> {
    app.path()
        .app_data_dir()
        .map(|dir| dir.join("recordings"))
        .map_err(|e| CommandError {
            message: format!("Cannot find the app data directory: {e}"),
        })
}

pub fn settings_path(app: &AppHandle) -> Result<PathBuf, CommandError> {
    app.path()
        .app_config_dir()
        .map(|dir| dir.join(SETTINGS_FILE))
        .map_err(|e| CommandError {
            message: format!("Cannot find the app config directory: {e}"),
        })
}

/// The settings as saved now (see [`load`]).
pub fn current(app: &AppHandle) -> Result<AppSettings, CommandError> {
    load(&settings_path(app)?)
}

/// Every path hidden from confined commands, as the saved settings say ([`hidden_paths`]).
pub fn hidden_now(app: &AppHandle) -> Result<Vec<PathBuf>, CommandError> {
    Ok(hidden_paths(app, &current(app)?))
}

/// Reads the settings; defaults when the file does not exist. A damaged file is an error that
/// names it (it is not overwritten until the user saves).
pub fn load(path: &Path) -> Result<AppSettings, CommandError> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str::<AppSettings>(&text)
            .map(|mut settings| {
                settings.sandbox_hidden = hidden::merged(&settings.sandbox_hidden);
                settings
            })
            .map_err(|e| CommandError {
                message: format!("The settings file {} is damaged: {e}", path.display()),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(AppSettings::default()),
        Err(e) => Err(CommandError {
            message: format!("Cannot read the settings file {}: {e}", path.display()),
        }),
    }
}

/// Why `settings` cannot be saved: they may be incomplete (no model yet), but never hold what a
/// request refuses.
pub fn check(settings: &AppSettings) -> Result<(), CommandError> {
    if settings.max_iterations == 0 {
        return Err(CommandError::new("The iteration cap must be at least 1."));
    }
    let provider = &settings.provider;
    match provider
        .thinking_budget()
        .and_then(thinking_budget_problem)
        .or_else(|| provider.max_tokens.and_then(max_tokens_problem))
    {
        Some(problem) => Err(CommandError::new(problem)),
        None => Ok(()),
    }
}

/// Writes the settings atomically (a temporary file renamed over the old one).
pub fn save(path: &Path, settings: &AppSettings) -> Result<(), CommandError> {
    let fail = |e: std::io::Error| CommandError {
        message: format!("Cannot save the settings to {}: {e}", path.display()),
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let text = serde_json::to_string_pretty(settings).map_err(|e| CommandError {
        message: format!("Cannot encode the settings: {e}"),
    })?;
    let temp = path.with_extension("json.tmp");
    std::fs::write(&temp, text).map_err(fail)?;
    std::fs::rename(&temp, path).map_err(fail)
}

/// Which provider a session talks to: its preset and base URL. A session keeps its provider;
/// a model chosen in Settings reaches the running sessions of the same one.
pub fn provider_identity(provider: &ProviderSettings) -> String {
    format!(
        "{} {}",
        provider.preset.keyring_account(),
        provider.effective_base_url().trim_end_matches('/')
    )
}

/// The op that gives the running sessions of `new`'s provider its model, when saving `new`
/// over `old` changed the model or how it thinks (`old` unknown: it did); `None` otherwise, and
/// when no model is set.
pub fn model_change(old: Option<&ProviderSettings>, new: &ProviderSettings) -> Option<Op> {
    let model = new.model.trim();
    let same = old.is_some_and(|old| {
        provider_identity(old) == provider_identity(new)
            && old.model.trim() == model
            && old.context_window == new.context_window
            && old.thinking_budget() == new.thinking_budget()
            && old.reasoning_effort() == new.reasoning_effort()
            && old.max_tokens() == new.max_tokens()
    });
    (!model.is_empty() && !same).then(|| Op::SetModel {
        model: model.to_owned(),
        context_window: new.context_window,
        thinking_budget: new.thinking_budget(),
        reasoning_effort: new.reasoning_effort(),
        max_tokens: Some(new.max_tokens()),
    })
}

/// The keychain entry of `preset`.
pub fn key_for(preset: ProviderPreset) -> KeyringKey {
    KeyringKey::new(preset.keyring_account())
}

/// Every path hidden from confined commands: Settings › Sandbox's list and the app's own
/// folders.
pub fn hidden_paths(app: &AppHandle, settings: &AppSettings) -> Vec<PathBuf> {
    foreman_core::sandbox::hidden::resolve(&settings.sandbox_hidden, &own_dirs(app))
}

/// The app's own folders (data, config, cache, logs): hidden from confined commands, since
/// they hold every workspace's conversations and the settings.
pub fn own_dirs(app: &AppHandle) -> Vec<PathBuf> {
    let paths = app.path();
    [
        paths.app_data_dir(),
        paths.app_local_data_dir(),
        paths.app_config_dir(),
        paths.app_cache_dir(),
        paths.app_log_dir(),
    ]
    .into_iter()
    .filter_map(Result::ok)
    .fold(Vec::new(), |mut dirs: Vec<PathBuf>, dir| {
        // One inside another (the logs in the data folder) is hidden with it.
        if !dirs.iter().any(|d| dir.starts_with(d)) {
            dirs.retain(|d| !d.starts_with(&dir));
            dirs.push(dir);
        }
        dirs
    })
}

/// Probes the sandbox of the saved level now, on a blocking thread, while the window's web
/// process starts: the probe runs a confined command, the result is remembered, and the page's
/// first `get_settings` (part of its first screen) would otherwise wait for it.
pub fn probe_sandbox_early(app: &AppHandle) {
    let Ok(path) = settings_path(app) else {
        return;
    };
    tauri::async_runtime::spawn_blocking(move || {
        if let Ok(settings) = load(&path)
            && settings.sandbox != SandboxLevel::Off
        {
            foreman_core::sandbox::availability(settings.sandbox);
        }
    });
}

/// The settings screen's view of `settings`; `own_dirs` are the app's own folders.
pub fn view(
    path: &Path,
    recordings: &Path,
    settings: AppSettings,
    own_dirs: &[PathBuf],
) -> SettingsView {
    let preset = settings.provider.preset;
    let sandbox = match settings.sandbox {
        SandboxLevel::Off => None,
        level => Some(foreman_core::sandbox::availability(level)),
    };
    let (key_stored, keychain_error) = match key_for(preset).is_stored() {
        Ok(stored) => (stored, None),
        Err(e) => (false, Some(e.to_string())),
    };
    let missing = if settings.provider.requires_key() && !key_stored {
        Some(format!(
            "Add your {} API key to start working.",
            preset.label()
        ))
    } else {
        settings.provider.problem()
    };
    SettingsView {
        settings,
        key_stored,
        keychain_error,
        missing,
        presets: ProviderPreset::ALL
            .iter()
            .map(|p| PresetView {
                preset: *p,
                label: p.label().to_owned(),
                base_url: p.default_base_url().to_owned(),
                model: p.default_model().to_owned(),
                requires_key: p.requires_key(),
            })
            .collect(),
        path: path.display().to_string(),
        recordings_path: recordings.display().to_string(),
        sandbox_status: sandbox.as_ref().map_or_else(
            || "The sandbox is off: commands run with your full rights.".to_owned(),
            |a| a.describe(),
        ),
        sandbox_available: sandbox.is_some_and(|a| a.is_available()),
        sandbox_own_dirs: own_dirs.iter().map(|d| d.display().to_string()).collect(),
        sandbox_default_hidden: hidden::defaults().into_iter().map(|e| e.path).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_are_up_to_date() {
        foreman_protocol::bindings::assert_bindings_current::<AppSettings>();
        foreman_protocol::bindings::assert_bindings_current::<SettingsView>();
        foreman_protocol::bindings::assert_bindings_current::<PresetView>();
    }

    #[test]
    fn settings_round_trip_and_missing_fields_take_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cfg").join(SETTINGS_FILE);
        assert_eq!(load(&path).unwrap(), AppSettings::default());
        let s = AppSettings {
            provider: ProviderSettings::for_preset(ProviderPreset::Ollama),
            max_iterations: 7,
            ..AppSettings::default()
        };
        save(&path, &s).unwrap();
        assert_eq!(load(&path).unwrap(), s);
        std::fs::write(&path, r#"{"max_iterations": 3}"#).unwrap();
        let partial = load(&path).unwrap();
        assert_eq!(partial.max_iterations, 3);
        assert_eq!(partial.provider, ProviderSettings::default());
    }

    #[test]
    fn sessions_of_the_same_preset_and_url_are_one_provider() {
        let openai = ProviderSettings::for_preset(ProviderPreset::OpenAi);
        let other_model = ProviderSettings {
            model: "o3".into(),
            base_url: "https://api.openai.com/v1/".into(),
            ..openai.clone()
        };
        assert_eq!(provider_identity(&openai), provider_identity(&other_model));
        let proxy = ProviderSettings {
            base_url: "http://localhost:4000/v1".into(),
            ..openai.clone()
        };
        assert_ne!(provider_identity(&openai), provider_identity(&proxy));
        let custom_same_url = ProviderSettings {
            preset: ProviderPreset::Custom,
            ..openai.clone()
        };
        assert_ne!(
            provider_identity(&openai),
            provider_identity(&custom_same_url)
        );
    }

    #[test]
    fn open_sessions_are_told_only_of_a_model_change() {
        use foreman_protocol::ReasoningEffort;
        let old = ProviderSettings::for_preset(ProviderPreset::OpenAi);
        assert_eq!(model_change(Some(&old), &old), None, "nothing changed");
        let timeouts = ProviderSettings {
            idle_timeout_secs: 5,
            ..old.clone()
        };
        assert_eq!(model_change(Some(&old), &timeouts), None);
        let effort = ProviderSettings {
            model: " o3 ".into(),
            reasoning_effort: Some(ReasoningEffort::High),
            thinking_budget: Some(4_096),
            ..old.clone()
        };
        assert_eq!(
            model_change(Some(&old), &effort),
            Some(Op::SetModel {
                model: "o3".into(),
                context_window: None,
                thinking_budget: None,
                reasoning_effort: Some(ReasoningEffort::High),
                max_tokens: Some(8_192),
            })
        );
        let limit = ProviderSettings {
            max_tokens: Some(1_024),
            ..old.clone()
        };
        assert!(
            matches!(
                model_change(Some(&old), &limit),
                Some(Op::SetModel {
                    max_tokens: Some(1_024),
                    ..
                })
            ),
            "a new answer limit reaches the open sessions"
        );
        assert!(model_change(None, &old).is_some(), "unknown before: tell");
        let empty = ProviderSettings {
            model: "  ".into(),
            ..old.clone()
        };
        assert_eq!(model_change(None, &empty), None);
        let other_provider = ProviderSettings::for_preset(ProviderPreset::Ollama);
        assert!(model_change(Some(&old), &other_provider).is_some());
    }

    #[test]
    fn a_damaged_file_is_named_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SETTINGS_FILE);
        std::fs::write(&path, "{not json").unwrap();
        let error = load(&path).unwrap_err();
        assert!(error.message.contains("damaged"), "{}", error.message);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{not json");
    }
}
