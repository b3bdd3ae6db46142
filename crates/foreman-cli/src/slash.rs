//! `foreman-cli slash list --workspace DIR [--json]`: the `/` menu a session in DIR has
//! (Foreman's built-ins, the custom commands and the skills, from the workspace's `.claude/`,
//! `.foreman/` and `.agents/` folders and the user's), then the files that could not be loaded
//! and why. `exec` runs a prompt that starts with one of them.

use foreman_core::slash::{SlashDirs, catalog};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::SlashKind;

use crate::args::SlashCommand;

/// Runs `slash list`.
pub fn command(command: SlashCommand) -> Result<(), String> {
    let SlashCommand::List { workspace, json } = command;
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let ws = WorkspaceDir::resolve(&workspace, &cwd).map_err(|e| e.to_string())?;
    let catalog = catalog(&SlashDirs::for_user(ws.path, crate::app_config_dir()));
    if json {
        let line = serde_json::to_string(&catalog).map_err(|e| e.to_string())?;
        println!("{line}");
        return Ok(());
    }
    for entry in &catalog.entries {
        let kind = match entry.kind {
            SlashKind::BuiltIn => "built-in",
            SlashKind::Command => "command",
            SlashKind::Skill => "skill",
            SlashKind::Agent => "agent",
        };
        let name = match &entry.argument_hint {
            Some(hint) => format!("/{} {hint}", entry.name),
            None => format!("/{}", entry.name),
        };
        let source = entry
            .source
            .as_deref()
            .map(|s| format!("  ({s})"))
            .unwrap_or_default();
        println!("{name:<28} {kind:<9} {}{source}", entry.description);
    }
    for warning in &catalog.warnings {
        println!("warning: {warning}");
    }
    Ok(())
}
