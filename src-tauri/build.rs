//! Build script of the desktop app: resolves the root `tauri.conf.json`, the capabilities under
//! `src-tauri/capabilities/`, and the permissions of the app's own commands (each must be allowed
//! explicitly by a capability).

/// Every command the UI may call. Each gets an `allow-<command>` / `deny-<command>` permission.
const COMMANDS: &[&str] = &[
    "list_tasks",
    "list_agents",
    "task_inbox",
    "task_places",
    "start_task",
    "merge_task",
    "draft_merge_message",
    "cancel_merge",
    "discard_task",
    "restore_task",
    "hand_back_task",
    "clean_up_merged",
    "task_change",
    "drop_task_change",
    "start_task_run",
    "stop_task_run",
    "task_run",
    "startup",
    "open_workspace",
    "choose_folder",
    "recent_workspaces",
    "forget_workspace",
    "move_database_aside",
    "open_new_window",
    "show_welcome",
    "open_session_channel",
    "send_op",
    "list_sessions",
    "rename_session",
    "delete_session",
    "branch_session",
    "file_net_change",
    "checkpoints_usage",
    "clear_checkpoints",
    "rules_list",
    "rules_add",
    "rules_remove",
    "rule_files",
    "show_new_session",
    "workspace_files",
    "get_settings",
    "save_settings",
    "set_api_key",
    "delete_api_key",
    "test_connection",
    "list_provider_models",
    "open_external",
    "mcp_status",
    "mcp_approve",
    "mcp_restart",
    "mcp_set_enabled",
    "mcp_save_user_config",
    "copy_diagnostics",
    "hooks_view",
    "consent_hooks",
    "slash_catalog",
];

fn main() {
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(error) = tauri_build::try_build(attributes) {
        eprintln!("tauri-build failed: {error:#}");
        std::process::exit(1);
    }
}
