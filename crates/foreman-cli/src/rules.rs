//! `foreman-cli rules list|add|remove`: the allow, ask and deny rules of a workspace or of the
//! user (every workspace), on the store the app uses. Running sessions read them again when the
//! app changes them; a CLI session reads them when it starts.

use std::path::PathBuf;

use foreman_core::approval::Rule;
use foreman_core::store::{RuleAction, Store, rule_key};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::RuleScope;

use crate::args::{RulesCommand, StoreArgs};

/// `rules list|add|remove`.
pub async fn command(command: RulesCommand) -> Result<(), String> {
    let options: &StoreArgs = match &command {
        RulesCommand::List(store)
        | RulesCommand::Add { store, .. }
        | RulesCommand::Remove { store, .. } => store,
    };
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let workspace = WorkspaceDir::resolve(&options.workspace, &cwd).map_err(|e| e.to_string())?;
    let path = workspace.path.display().to_string();
    let db: PathBuf = match &options.db {
        Some(db) => db.clone(),
        None => crate::default_database()?,
    };
    let store = Store::open(&db).await.map_err(|e| e.to_string())?;
    let result = match command {
        RulesCommand::List(_) => list(&store, &path).await,
        RulesCommand::Add {
            scope,
            action,
            rule,
            ..
        } => add(&store, &path, scope, action, &rule.join(" ")).await,
        RulesCommand::Remove { id, .. } => {
            match store.delete_rule(id).await.map_err(|e| e.to_string()) {
                Ok(true) => list(&store, &path).await,
                Ok(false) => Err(format!("there is no rule {id}")),
                Err(e) => Err(e),
            }
        }
    };
    store.close().await;
    result
}

async fn add(
    store: &Store,
    path: &str,
    scope: RuleScope,
    action: RuleAction,
    text: &str,
) -> Result<(), String> {
    let rule = Rule::parse(action, text).map_err(|e| format!("`{text}`: {e}"))?;
    if rule.denies_a_path() {
        eprintln!(
            "`{}` also keeps commands from the files it names, but only the sandbox makes that \
             complete: in it they are hidden (read) or read-only (edit, write); outside it, a \
             command that names one asks, and one that reaches it without naming it is not \
             stopped.",
            rule.text
        );
    }
    let key = rule_key(scope, path, None);
    let now = foreman_core::store::now_ms();
    store
        .add_rule(&key, action, text.trim(), now)
        .await
        .map_err(|e| e.to_string())?;
    list(store, path).await
}

async fn list(store: &Store, workspace: &str) -> Result<(), String> {
    for rule in store
        .rules_in_force(workspace, None)
        .await
        .map_err(|e| e.to_string())?
    {
        let scope = match rule.scope {
            RuleScope::User => "user",
            RuleScope::Workspace => "workspace",
            RuleScope::Session => "session",
        };
        println!(
            "{}\t{scope}\t{}\t{}",
            rule.id,
            rule.action.as_str(),
            rule.pattern
        );
    }
    Ok(())
}
