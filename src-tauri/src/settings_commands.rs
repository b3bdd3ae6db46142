//! Commands of the settings screen. The API key only ever travels from the UI to the keychain;
//! nothing returns it.

use std::sync::Arc;
use std::time::Duration;

use foreman_core::providers::{
    LIST_TIMEOUT, Message, ModelInfo, ProviderPreset, ProviderRequest, ProviderSettings,
    SharedKeySource, StaticKey, build_provider, collect, limits_for, list_models,
};
use foreman_protocol::settings::thinking_budget_problem;
use tauri::AppHandle;
use tokio_util::sync::CancellationToken;

use crate::settings::{self, AppSettings, SettingsView, key_for, settings_path};
use crate::state::AppState;
use crate::view::CommandError;

/// The settings screen's data.
#[tauri::command]
pub async fn get_settings(app: AppHandle) -> Result<SettingsView, CommandError> {
    let path = settings_path(&app)?;
    let recordings = settings::recordings_dir(&app)?;
    let settings = settings::load(&path)?;
    blocking(move || Ok(settings::view(&path, &recordings, settings))).await
}

/// Saves the settings. New sessions use them; running sessions of the same provider take the
/// model (and its thinking settings) from their next request on.
#[tauri::command]
pub async fn save_settings(
    app: AppHandle,
    state: tauri::State<'_, AppState>,
    settings: AppSettings,
) -> Result<SettingsView, CommandError> {
    let path = settings_path(&app)?;
    let recordings = settings::recordings_dir(&app)?;
    if settings.max_iterations == 0 {
        return Err(CommandError::new("The iteration cap must be at least 1."));
    }
    // Saved settings may be incomplete (no model yet), but never hold what a request refuses.
    if let Some(problem) = settings
        .provider
        .thinking_budget()
        .and_then(thinking_budget_problem)
    {
        return Err(CommandError::new(problem));
    }
    // What was saved before, to tell the open sessions only what changed (unreadable: all).
    let before = settings::load(&path).ok();
    settings::save(&path, &settings)?;
    log::info!(
        "settings saved: {:?}, model {}",
        settings.provider.preset,
        settings.provider.model
    );
    if let Some(op) =
        settings::model_change(before.map(|b| b.provider).as_ref(), &settings.provider)
    {
        let reached = state
            .sessions
            .send_to_provider(&settings::provider_identity(&settings.provider), &op);
        log::info!("the model change went to {reached} open session(s)");
    }
    blocking(move || Ok(settings::view(&path, &recordings, settings))).await
}

/// Stores the API key of `preset` in the system keychain.
#[tauri::command]
pub async fn set_api_key(
    app: AppHandle,
    preset: ProviderPreset,
    key: String,
) -> Result<SettingsView, CommandError> {
    let path = settings_path(&app)?;
    let recordings = settings::recordings_dir(&app)?;
    let settings = settings::load(&path)?;
    blocking(move || {
        key_for(preset).store(&key)?;
        log::info!("API key stored in the keychain for {preset:?}");
        Ok(settings::view(&path, &recordings, settings))
    })
    .await
}

/// Removes the API key of `preset` from the system keychain.
#[tauri::command]
pub async fn delete_api_key(
    app: AppHandle,
    preset: ProviderPreset,
) -> Result<SettingsView, CommandError> {
    let path = settings_path(&app)?;
    let recordings = settings::recordings_dir(&app)?;
    let settings = settings::load(&path)?;
    blocking(move || {
        key_for(preset).delete()?;
        Ok(settings::view(&path, &recordings, settings))
    })
    .await
}

/// Sends a tiny request with `settings` (and the key stored for their preset) and says what
/// happened, in a sentence for the user.
#[tauri::command]
pub async fn test_connection(settings: AppSettings) -> Result<String, CommandError> {
    let preset = settings.provider.preset;
    let keyring = key_for(preset);
    let stored = blocking(move || Ok(keyring.read()?)).await?;
    let key: SharedKeySource = Arc::new(StaticKey(stored));
    let mut provider_settings = settings.provider.clone();
    provider_settings.max_attempts = 1;
    let provider = build_provider(&provider_settings, key, None)
        .map_err(|e| CommandError::new(e.to_string()))?;
    let mut request = ProviderRequest::new(
        settings.provider.model.clone(),
        "Reply with the single word OK.",
        vec![Message::user("ping")],
    );
    request.limits = limits_for(&settings.provider);
    // Room for the one word, beside the thinking the settings ask for.
    request.limits.max_tokens = request
        .limits
        .thinking_budget
        .unwrap_or(0)
        .saturating_add(16);
    let cancel = CancellationToken::new();
    let run = collect(provider.stream(request, cancel.clone()));
    let (collected, failure) = match tokio::time::timeout(Duration::from_secs(30), run).await {
        Ok(result) => result,
        Err(_) => {
            cancel.cancel();
            return Err(CommandError::new("No answer within 30 seconds."));
        }
    };
    if let Some(failure) = failure {
        return Err(CommandError::new(failure.to_string()));
    }
    let answer: String = collected.text.chars().take(80).collect();
    Ok(format!(
        "Connected to {}: {} answered “{}”.",
        preset.label(),
        settings.provider.model,
        answer.trim()
    ))
}

/// The models of the provider `settings` describe (as the form holds them, not yet saved),
/// asked with the key stored for their preset.
#[tauri::command]
pub async fn list_provider_models(
    settings: ProviderSettings,
) -> Result<Vec<ModelInfo>, CommandError> {
    let preset = settings.preset;
    let keyring = key_for(preset);
    let stored = blocking(move || Ok(keyring.read()?)).await?;
    if stored.is_none() && preset.requires_key() {
        return Err(CommandError::new(format!(
            "no API key is stored for {}",
            preset.label()
        )));
    }
    list_models(&settings, &StaticKey(stored), LIST_TIMEOUT)
        .await
        .map_err(|e| CommandError::new(e.to_string()))
}

/// Opens an http(s) link in the system browser; other schemes are refused.
#[tauri::command]
pub fn open_external(app: AppHandle, url: String) -> Result<(), CommandError> {
    let parsed =
        url::Url::parse(&url).map_err(|_| CommandError::new(format!("`{url}` is not a link.")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(CommandError::new("Only http and https links are opened."));
    }
    use tauri_plugin_opener::OpenerExt;
    app.opener()
        .open_url(parsed.as_str(), None::<&str>)
        .map_err(|e| CommandError::new(format!("Cannot open the link: {e}")))
}

/// Runs keychain work off the async runtime (the Secret Service calls block).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, CommandError> + Send + 'static,
) -> Result<T, CommandError> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .map_err(|e| CommandError::new(format!("The keychain call failed: {e}")))?
}
