//! `foreman-cli rules list|add|remove`: the allow, ask and deny rules of a workspace or of the
//! user (every workspace), on the store the app uses. Running sessions read them again when the
//! app changes them; a CLI session reads them when it starts.

use std::path::PathBuf;

use foreman_core::approval::Rule;
use foreman_core::store::{RuleAction, Store, rule_key};
use foreman_core::workspace::WorkspaceDir;
use foreman_protocol::RuleScope;

use crate::args::USAGE;

/// `rules list|add|remove --workspace DIR [--scope workspace|user] [--action allow|ask|deny]
/// [RULE | ID]`.
pub async fn command(args: &[String]) -> Result<(), String> {
    let verb = args
        .first()
        .map(String::as_str)
        .ok_or_else(|| USAGE.to_owned())?;
    let mut workspace = None;
    let mut db: Option<PathBuf> = None;
    let mut scope = RuleScope::Workspace;
    let mut action = RuleAction::Allow;
    let mut rest: Vec<String> = Vec::new();
    let mut it = args[1..].iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "--workspace" => workspace = Some(value()?),
            "--db" => db = Some(PathBuf::from(value()?)),
            "--scope" => {
                scope = match value()?.as_str() {
                    "workspace" => RuleScope::Workspace,
                    "user" => RuleScope::User,
                    other => return Err(format!("unknown scope `{other}` (workspace|user)")),
                }
            }
            "--action" => {
                let v = value()?;
                action = RuleAction::parse(&v)
                    .ok_or_else(|| format!("unknown action `{v}` (allow|ask|deny)"))?;
            }
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option {flag}\n{USAGE}"));
            }
            text => rest.push(text.to_owned()),
        }
    }
    let raw = workspace.ok_or_else(|| format!("--workspace is required\n{USAGE}"))?;
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let workspace = WorkspaceDir::resolve(&raw, &cwd).map_err(|e| e.to_string())?;
    let path = workspace.path.display().to_string();
    let db = match db {
        Some(db) => db,
        None => crate::default_database()?,
    };
    let store = Store::open(&db).await.map_err(|e| e.to_string())?;
    let key = rule_key(scope, &path, None);
    let result = match verb {
        "list" => list(&store, &path).await,
        "add" => {
            let text = rest.join(" ");
            Rule::parse(action, &text).map_err(|e| format!("`{text}`: {e}"))?;
            let now = foreman_core::conversation::now_ms();
            store
                .add_rule(&key, action, text.trim(), now)
                .await
                .map_err(|e| e.to_string())?;
            list(&store, &path).await
        }
        "remove" => {
            let id: i64 = rest
                .first()
                .and_then(|id| id.parse().ok())
                .ok_or("remove needs the rule's id, as `rules list` shows it")?;
            match store.delete_rule(id).await.map_err(|e| e.to_string())? {
                true => list(&store, &path).await,
                false => Err(format!("there is no rule {id}")),
            }
        }
        _ => Err(USAGE.to_owned()),
    };
    store.close().await;
    result
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
