//! The Foreman desktop app: a thin Tauri shell over `foreman-core`.
//!
//! This crate owns the window, the plugins, the commands the UI may call and the bridge that
//! carries engine events to the webview. Everything else lives in `foreman-core`.

mod commands;
mod launch;
mod state;
mod view;

use tauri::Manager;

/// Builds and runs the app. Returns when the last window closes.
pub fn run() {
    let launch = launch::LaunchRequest::from_args(std::env::args_os().skip(1));
    let result = tauri::Builder::default()
        .plugin(
            tauri_plugin_log::Builder::new()
                .level(log::LevelFilter::Info)
                .target(tauri_plugin_log::Target::new(
                    tauri_plugin_log::TargetKind::LogDir {
                        file_name: Some("foreman".into()),
                    },
                ))
                .target(tauri_plugin_log::Target::new(
                    tauri_plugin_log::TargetKind::Stderr,
                ))
                .build(),
        )
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .plugin(tauri_plugin_dialog::init())
        .setup(move |app| {
            let state = tauri::async_runtime::block_on(state::AppState::load(app.handle(), launch));
            app.manage(state);
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::startup,
            commands::open_workspace,
            commands::choose_folder,
            commands::recent_workspaces,
            commands::forget_workspace,
            commands::move_database_aside,
        ])
        .run(tauri::generate_context!());
    if let Err(error) = result {
        eprintln!("Foreman could not start: {error}");
        std::process::exit(1);
    }
}
