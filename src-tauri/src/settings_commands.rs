//! Commands of the settings screen. The API key only ever travels from the UI to the keychain;
//! nothing returns it.

use std::sync::Arc;

use foreman_core::providers::{
    ConnectionTest, LIST_TIMEOUT, ModelInfo, ProviderPreset, ProviderSettings, SharedKeySource,
    StaticKey, TEST_TIMEOUT, list_models, test_connection as run_connection_test,
};
use foreman_core::secrets::Secret;
use tauri::AppHandle;

use crate::settings::{self, AppSettings, SettingsView, key_for, settings_path};
use crate::state::AppState;
use crate::view::CommandError;

/// The settings screen's data.
#[tauri::command]
pub async fn get_settings(app: AppHandle) -> Result<SettingsView, CommandError> {
    view_of(&app, settings::current(&app)?).await
}

/// Saves the settings. New sessions use them; running sessions of the same provider take the
/// model (and its thinking settings and answer limit) from their next request on.
#[tauri::command]
pub async fn save_settings(
    app: AppHandle,
    state: tauri::State<'_, AppState>,
    settings: AppSettings,
) -> Result<SettingsView, CommandError> {
    let path = settings_path(&app)?;
    settings::check(&settings)?;
    // What was saved before, to tell the open sessions only what changed (unreadable: all).
    let before = settings::load(&path).ok();
    settings::save(&path, &settings)?;
    saved(&state, before, &settings);
    view_of(&app, settings).await
}

/// Stores the API key of `preset` in the system keychain.
#[tauri::command]
pub async fn set_api_key(
    app: AppHandle,
    preset: ProviderPreset,
    key: String,
) -> Result<SettingsView, CommandError> {
    let settings = settings::current(&app)?;
    blocking(move || Ok(key_for(preset).store(&key)?)).await?;
    log::info!("API key stored in the keychain for {preset:?}");
    view_of(&app, settings).await
}

/// Removes the API key of `preset` from the system keychain.
#[tauri::command]
pub async fn delete_api_key(
    app: AppHandle,
    preset: ProviderPreset,
) -> Result<SettingsView, CommandError> {
    let settings = settings::current(&app)?;
    blocking(move || Ok(key_for(preset).delete()?)).await?;
    view_of(&app, settings).await
}

/// Tests the provider `settings` describe (as the form holds them, not yet saved) with the key
/// stored for their preset: lists its models and sends one small request with a tool
/// (`foreman_core::providers::connection_test`). What failed is in the result, not an error.
#[tauri::command]
pub async fn test_connection(settings: AppSettings) -> Result<ConnectionTest, CommandError> {
    let preset = settings.provider.preset;
    log::info!("testing the connection to {preset:?}");
    let key: SharedKeySource = Arc::new(StaticKey(stored_key(preset).await?));
    let result = run_connection_test(&settings.provider, key, TEST_TIMEOUT).await;
    log::info!(
        "connection test of {preset:?}: connected {}, {} model(s), tools {:?}",
        result.connected,
        result.models.len(),
        result.tool_support
    );
    Ok(result)
}

/// The models of the provider `settings` describe (as the form holds them, not yet saved),
/// asked with the key stored for their preset.
#[tauri::command]
pub async fn list_provider_models(
    settings: ProviderSettings,
) -> Result<Vec<ModelInfo>, CommandError> {
    let stored = stored_key(settings.preset).await?;
    if stored.is_none() && settings.requires_key() {
        let label = settings.preset.label();
        return Err(CommandError::new(format!(
            "no API key is stored for {label}"
        )));
    }
    let models = list_models(&settings, &StaticKey(stored), LIST_TIMEOUT).await;
    models.map_err(|e| CommandError::new(e.to_string()))
}

/// The settings screen's view of `settings`.
async fn view_of(app: &AppHandle, settings: AppSettings) -> Result<SettingsView, CommandError> {
    let path = settings_path(app)?;
    let recordings = settings::recordings_dir(app)?;
    let own = settings::own_dirs(app);
    blocking(move || Ok(settings::view(&path, &recordings, settings, &own))).await
}

/// The settings were saved over `before`: the running sessions of their provider get the
/// model, when it (or how it thinks) changed.
fn saved(state: &AppState, before: Option<AppSettings>, settings: &AppSettings) {
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
}

/// The key the keychain holds for `preset`, read off the async runtime.
async fn stored_key(preset: ProviderPreset) -> Result<Option<Secret>, CommandError> {
    let keyring = key_for(preset);
    blocking(move || Ok(keyring.read()?)).await
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
