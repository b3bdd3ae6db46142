//! The settings screen's rules: list, add and remove the allow, ask and deny rules of the
//! user, the workspace and the shown session. A change goes to every running session at once
//! (`Op::ReloadRules`).

use foreman_core::approval::Rule;
use foreman_core::store::{RuleAction, StoredRule, rule_key};
use foreman_protocol::{Op, RuleScope};
use tauri::State;

use crate::state::{AppState, open_store_ref};
use crate::view::CommandError;

async fn in_force(
    state: &State<'_, AppState>,
    workspace: &str,
    session_id: Option<&str>,
) -> Result<Vec<StoredRule>, CommandError> {
    let store = open_store_ref(state).await?;
    store
        .rules_in_force(workspace, session_id)
        .await
        .map_err(|e| CommandError::new(e.to_string()))
}

/// The rules in force for `workspace` (and the session `session_id`, when one is shown).
#[tauri::command]
pub async fn rules_list(
    state: State<'_, AppState>,
    workspace: String,
    session_id: Option<String>,
) -> Result<Vec<StoredRule>, CommandError> {
    in_force(&state, &workspace, session_id.as_deref()).await
}

/// Adds a rule after checking its syntax; the rules in force after it.
#[tauri::command]
pub async fn rules_add(
    state: State<'_, AppState>,
    workspace: String,
    session_id: Option<String>,
    action: RuleAction,
    pattern: String,
    scope: RuleScope,
) -> Result<Vec<StoredRule>, CommandError> {
    let key = checked_key(action, &pattern, scope, &workspace, session_id.as_deref())?;
    add(&state, &key, action, pattern.trim()).await?;
    in_force(&state, &workspace, session_id.as_deref()).await
}

/// The store's key for a rule of `scope`, once `pattern` parses as a rule and a session rule
/// has its session.
fn checked_key(
    action: RuleAction,
    pattern: &str,
    scope: RuleScope,
    workspace: &str,
    session_id: Option<&str>,
) -> Result<String, CommandError> {
    Rule::parse(action, pattern).map_err(|e| CommandError::new(format!("`{pattern}`: {e}")))?;
    if scope == RuleScope::Session && session_id.is_none() {
        return Err(CommandError::new(
            "There is no session yet: send a message first, or choose this workspace.",
        ));
    }
    Ok(rule_key(scope, workspace, session_id))
}

/// Stores the rule under `key`; every running session reads its rules again.
async fn add(
    state: &AppState,
    key: &str,
    action: RuleAction,
    pattern: &str,
) -> Result<(), CommandError> {
    let store = open_store_ref(state).await?;
    let now = foreman_core::store::now_ms();
    store.add_rule(key, action, pattern, now).await?;
    state.sessions.send_all(Op::ReloadRules);
    Ok(())
}

/// Removes the rule `id`; the rules in force after it.
#[tauri::command]
pub async fn rules_remove(
    state: State<'_, AppState>,
    workspace: String,
    session_id: Option<String>,
    id: i64,
) -> Result<Vec<StoredRule>, CommandError> {
    let store = open_store_ref(&state).await?;
    store
        .delete_rule(id)
        .await
        .map_err(|e| CommandError::new(e.to_string()))?;
    state.sessions.send_all(Op::ReloadRules);
    in_force(&state, &workspace, session_id.as_deref()).await
}
