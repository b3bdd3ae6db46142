//! Consents to a workspace's hooks, keyed by workspace and the hash of the set.

use super::db::Store;
use super::error::StoreError;

impl Store {
    /// Records that the user approved the hooks of `workspace_path` whose set hashes to `hash`.
    pub async fn consent_to_hooks(
        &self,
        workspace_path: &str,
        hash: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT OR IGNORE INTO hook_consents (workspace_path, hooks_hash, approved_at)
             VALUES (?1, ?2, ?3)",
        )
        .bind(workspace_path)
        .bind(hash)
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// Whether the user approved the hooks of `workspace_path` as `hash` pins them.
    pub async fn hooks_consented(
        &self,
        workspace_path: &str,
        hash: &str,
    ) -> Result<bool, StoreError> {
        let row: Option<(i64,)> = sqlx::query_as(
            "SELECT 1 FROM hook_consents WHERE workspace_path = ?1 AND hooks_hash = ?2",
        )
        .bind(workspace_path)
        .bind(hash)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.is_some())
    }
}

#[cfg(test)]
mod tests {
    use crate::store::Store;

    #[tokio::test]
    async fn a_consent_holds_for_one_set_of_one_workspace() {
        let store = Store::open_in_memory().await.unwrap();
        assert!(!store.hooks_consented("/w", "h1").await.unwrap());
        store.consent_to_hooks("/w", "h1", 1).await.unwrap();
        store.consent_to_hooks("/w", "h1", 2).await.unwrap();
        assert!(store.hooks_consented("/w", "h1").await.unwrap());
        assert!(!store.hooks_consented("/w", "h2").await.unwrap());
        assert!(!store.hooks_consented("/other", "h1").await.unwrap());
    }
}
