//! `foreman-cli hooks list`: the hooks in force for a workspace, where each comes from, and
//! which wait for consent; and how `exec` prints a hook's run and a consent request.

use foreman_core::hooks::{self, HookDirs};
use foreman_core::protocol::{HookConsent, HookRun, HookVerdict, HooksView};
use foreman_core::store::Store;
use foreman_core::workspace::WorkspaceDir;

/// The folders a session of `workspace` reads hooks from (the app's config folder included).
pub fn dirs_of(workspace: &std::path::Path) -> HookDirs {
    HookDirs::for_user(workspace.to_path_buf(), crate::app_config_dir())
}

/// Prints the hooks of the workspace.
pub async fn list(args: crate::args::HooksListArgs) -> Result<(), String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let ws = WorkspaceDir::resolve(&args.store.workspace, &cwd).map_err(|e| e.to_string())?;
    let db = match args.store.db {
        Some(db) => db,
        None => crate::default_database()?,
    };
    let store = Store::open(&db).await.map_err(|e| e.to_string())?;
    let key = ws.path.display().to_string();
    let view = hooks::view(&dirs_of(&ws.path), Some(&store), &key).await;
    store.close().await;
    if args.json {
        let line = serde_json::to_string(&view).map_err(|e| e.to_string())?;
        println!("{line}");
        return Ok(());
    }
    print!("{}", describe(&view));
    Ok(())
}

/// The view as text: one line per hook, then the warnings and what consent is needed.
pub fn describe(view: &HooksView) -> String {
    let mut out = String::new();
    if view.hooks.is_empty() {
        out.push_str("No hooks.\n");
    }
    for hook in &view.hooks {
        let matcher = hook
            .matcher
            .as_deref()
            .map(|m| format!(" [{m}]"))
            .unwrap_or_default();
        let consent = match hook.consent {
            HookConsent::NotNeeded => "",
            HookConsent::Given => " (allowed)",
            HookConsent::Waiting => " (waits for your consent: does not run)",
        };
        out.push_str(&format!(
            "{}{matcher}: {}  — {}, {} s{consent}\n",
            hook.event.name(),
            hook.command,
            hook.source,
            hook.timeout_secs
        ));
    }
    for warning in &view.warnings {
        out.push_str(&format!("warning: {warning}\n"));
    }
    if view.consent_hash.is_some() {
        out.push_str(
            "The workspace's hooks wait for your consent: run `foreman-cli exec --approve-hooks` \
             to allow them as they are now.\n",
        );
    }
    out
}

/// How `exec` prints one run of a hook.
pub fn run_line(run: &HookRun) -> String {
    let what = match run.verdict {
        HookVerdict::Continued => "ok",
        HookVerdict::Allowed => "allowed",
        HookVerdict::Blocked => "blocked",
        HookVerdict::Asked => "asks you",
        HookVerdict::AddedContext => "added context",
        HookVerdict::Stopped => "stopped the agent",
        HookVerdict::Failed => "failed",
        HookVerdict::TimedOut => "timed out",
    };
    let message = run
        .message
        .as_deref()
        .map(|m| format!(": {}", m.lines().next().unwrap_or_default()))
        .unwrap_or_default();
    let ended = run
        .ended
        .as_deref()
        .map(|e| format!(" ({e})"))
        .unwrap_or_default();
    format!(
        "hook {} `{}` ({} ms) {what}{message}{ended}",
        run.event.name(),
        run.command,
        run.elapsed_ms
    )
}

/// How `exec` says that the workspace's hooks wait for consent.
pub fn consent_request(view: &HooksView) -> String {
    let waiting = view
        .hooks
        .iter()
        .filter(|h| h.consent == HookConsent::Waiting)
        .count();
    format!(
        "this workspace has {waiting} hook(s) that run commands on your computer; they do not \
         run until you allow them (`foreman-cli hooks list --workspace DIR` shows them, \
         `--approve-hooks` allows them as they are now)"
    )
}
