//! The Foreman desktop app: a thin Tauri shell over `foreman-core`.
//!
//! This crate owns the windows, the plugins, the commands the UI may call and the bridge that
//! carries engine events to the webview. Everything else lives in `foreman-core`.

mod activity;
mod agents;
mod bridge;
mod checkpoint_commands;
mod clipboard;
#[cfg(test)]
mod command_permissions;
mod commands;
mod diagnostics;
mod diagnostics_commands;
mod files;
mod hook_commands;
mod launch;
mod mcp;
mod mcp_commands;
mod menu;
mod menu_edit;
mod notify;
mod rendering;
mod rule_commands;
mod rule_file_commands;
mod session_commands;
mod session_open;
mod settings;
mod settings_commands;
mod startup_clock;
mod state;
mod task_commands;
mod task_events;
mod view;
mod web_process;
mod window_commands;
mod window_state;
mod windows;

use tauri::Manager;

/// Builds and runs the app. Returns when the last window closes.
pub fn run() {
    startup_clock::begin();
    // `--version` and `--help` answer here, before any window, display or store is touched.
    let launch = launch::LaunchRequest::from_args(std::env::args_os());
    // First, while no other thread exists: it may set an environment variable for WebKit.
    let rendering = rendering::choose();
    // Keys in the environment are scrubbed from tool output, and commands the agent runs cannot
    // read this process's environment or memory (Linux: non-dumpable).
    foreman_core::secrets::process::harden();
    let result = tauri::Builder::default()
        // First: a second `foreman` hands its command line to this one and ends here, before
        // it opens a window or the database (`windows::second_launch`).
        .plugin(tauri_plugin_single_instance::init(|app, args, cwd| {
            windows::second_launch(app, args, cwd);
        }))
        .plugin(
            tauri_plugin_log::Builder::new()
                .level(log::LevelFilter::Info)
                // The D-Bus library the single-instance plugin uses logs every call it serves.
                .level_for("zbus", log::LevelFilter::Warn)
                .level_for("tracing", log::LevelFilter::Warn)
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
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_opener::init())
        .menu(menu::build)
        .on_menu_event(menu::on_event)
        .setup(move |app| {
            log::info!("webview rendering: {}", rendering.describe());
            log::info!(
                "startup: setup at {} ms (run began at epoch {} ms)",
                startup_clock::ms(),
                startup_clock::began_epoch_ms()
            );
            app.manage(state::AppState::load(app.handle(), launch));
            settings::probe_sandbox_early(app.handle());
            // File → Open Recent, once the store is open (it waits for it).
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(async move { menu::refresh_recent(&handle).await });
            match app.get_webview_window(window_state::FIRST_WINDOW) {
                Some(window) => web_process::reload_when_it_ends(&window),
                None => log::warn!("no first window to watch for its web process ending"),
            }
            Ok(())
        })
        .on_window_event(windows::on_event)
        .invoke_handler(tauri::generate_handler![
            task_commands::list_tasks,
            agents::list_agents,
            task_commands::task_inbox,
            task_commands::task_places,
            task_commands::start_task,
            task_commands::merge_task,
            task_commands::draft_merge_message,
            task_commands::cancel_merge,
            task_commands::discard_task,
            task_commands::restore_task,
            task_commands::hand_back_task,
            task_commands::clean_up_merged,
            task_commands::task_change,
            task_commands::drop_task_change,
            task_commands::start_task_run,
            task_commands::stop_task_run,
            task_commands::task_run,
            commands::startup,
            commands::open_workspace,
            commands::choose_folder,
            commands::recent_workspaces,
            commands::forget_workspace,
            commands::move_database_aside,
            window_commands::open_new_window,
            window_commands::show_welcome,
            session_commands::open_session_channel,
            session_commands::send_op,
            session_commands::list_sessions,
            session_commands::rename_session,
            session_commands::delete_session,
            session_commands::branch_session,
            session_commands::file_net_change,
            checkpoint_commands::checkpoints_usage,
            checkpoint_commands::clear_checkpoints,
            rule_commands::rules_list,
            rule_commands::rules_add,
            rule_commands::rules_remove,
            rule_file_commands::rule_files,
            session_commands::show_new_session,
            session_commands::workspace_files,
            settings_commands::get_settings,
            settings_commands::save_settings,
            settings_commands::set_api_key,
            settings_commands::delete_api_key,
            settings_commands::test_connection,
            settings_commands::list_provider_models,
            settings_commands::open_external,
            mcp_commands::mcp_status,
            mcp_commands::mcp_approve,
            mcp_commands::mcp_restart,
            mcp_commands::mcp_set_enabled,
            mcp_commands::mcp_save_user_config,
            diagnostics_commands::copy_diagnostics,
            hook_commands::hooks_view,
            hook_commands::consent_hooks,
            hook_commands::slash_catalog,
        ])
        .build(tauri::generate_context!());
    let app = match result {
        Ok(app) => {
            log::info!("startup: built at {} ms", startup_clock::ms());
            app
        }
        Err(error) => {
            eprintln!("Foreman could not start: {error}");
            std::process::exit(1);
        }
    };
    app.run(|handle, event| {
        if let tauri::RunEvent::ExitRequested { .. } = event
            && let Some(state) = handle.try_state::<state::AppState>()
        {
            // Running commands are killed and unfinished calls recorded as the sessions end.
            state.sessions.shutdown_all();
            // MCP servers are child processes: stop them before the app goes.
            tauri::async_runtime::block_on(state.mcp.shutdown_all());
        }
    });
}
