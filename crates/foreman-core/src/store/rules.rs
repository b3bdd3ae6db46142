//! Stored approval rules ("always allow" decisions scoped to a workspace).

use super::db::Store;
use super::error::StoreError;
pub use foreman_protocol::RuleScope;
pub use foreman_protocol::records::{RuleAction, StoredRule};

/// The key of the rules that apply to every workspace.
const USER_KEY: &str = "*";

/// The key under which a rule of `scope` is stored.
pub fn rule_key(scope: RuleScope, workspace_path: &str, session_id: Option<&str>) -> String {
    match (scope, session_id) {
        (RuleScope::User, _) => USER_KEY.to_owned(),
        (RuleScope::Session, Some(id)) => format!("session:{id}"),
        _ => workspace_path.to_owned(),
    }
}

fn scope_of(key: &str) -> RuleScope {
    match key {
        USER_KEY => RuleScope::User,
        k if k.starts_with("session:") => RuleScope::Session,
        _ => RuleScope::Workspace,
    }
}

impl Store {
    /// Adds a rule for a workspace (a duplicate is ignored). Returns the rules after the change.
    pub async fn add_rule(
        &self,
        workspace_path: &str,
        action: RuleAction,
        pattern: &str,
        now_ms: i64,
    ) -> Result<Vec<StoredRule>, StoreError> {
        sqlx::query(
            "INSERT OR IGNORE INTO approval_rules (workspace_path, action, pattern, created_at)
             VALUES (?1, ?2, ?3, ?4)",
        )
        .bind(workspace_path)
        .bind(action.as_str())
        .bind(pattern)
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        self.rules(workspace_path).await
    }

    /// The workspace's rules, oldest first.
    /// The rules stored under `workspace_path` (a workspace, or a key of [`rule_key`]).
    pub async fn rules(&self, workspace_path: &str) -> Result<Vec<StoredRule>, StoreError> {
        let rows: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT id, action, pattern FROM approval_rules WHERE workspace_path = ?1 ORDER BY id",
        )
        .bind(workspace_path)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        let scope = scope_of(workspace_path);
        Ok(rows
            .into_iter()
            .filter_map(|(id, action, pattern)| {
                RuleAction::parse(&action).map(|action| StoredRule {
                    id,
                    action,
                    pattern,
                    scope,
                })
            })
            .collect())
    }

    /// The rules in force for a session of `workspace_path`: the user's, the workspace's and
    /// (when it has one) the session's own.
    pub async fn rules_in_force(
        &self,
        workspace_path: &str,
        session_id: Option<&str>,
    ) -> Result<Vec<StoredRule>, StoreError> {
        let mut rules = self.rules(USER_KEY).await?;
        rules.extend(self.rules(workspace_path).await?);
        if let Some(id) = session_id {
            rules.extend(
                self.rules(&rule_key(RuleScope::Session, workspace_path, Some(id)))
                    .await?,
            );
        }
        Ok(rules)
    }

    /// Removes a rule by id.
    pub async fn delete_rule(&self, id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM approval_rules WHERE id = ?1")
            .bind(id)
            .execute(self.pool())
            .await
            .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(done.rows_affected() > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn rules_are_per_workspace_and_deduplicated() {
        let store = Store::open_in_memory().await.unwrap();
        store
            .add_rule("/ws", RuleAction::Allow, "bash(cargo test*)", 1)
            .await
            .unwrap();
        store
            .add_rule("/ws", RuleAction::Allow, "bash(cargo test*)", 2)
            .await
            .unwrap();
        let rules = store
            .add_rule("/ws", RuleAction::Deny, "bash(rm -rf*)", 3)
            .await
            .unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[1].action, RuleAction::Deny);
        assert!(store.rules("/other").await.unwrap().is_empty());
        assert!(store.delete_rule(rules[0].id).await.unwrap());
        assert_eq!(store.rules("/ws").await.unwrap().len(), 1);
    }
}
