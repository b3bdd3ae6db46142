//! Approvals of workspace MCP servers, keyed by workspace, server name and definition hash.

use super::db::Store;
use super::error::StoreError;

impl Store {
    /// Records that the user approved `server` of `workspace_path` as defined by `hash`.
    pub async fn approve_mcp_server(
        &self,
        workspace_path: &str,
        server: &str,
        hash: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT OR IGNORE INTO mcp_approvals (workspace_path, server_name, definition_hash, approved_at)
             VALUES (?1, ?2, ?3, ?4)",
        )
        .bind(workspace_path)
        .bind(server)
        .bind(hash)
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// Whether `server` of `workspace_path` was approved in exactly the definition `hash`.
    pub async fn is_mcp_server_approved(
        &self,
        workspace_path: &str,
        server: &str,
        hash: &str,
    ) -> Result<bool, StoreError> {
        let row: Option<(i64,)> = sqlx::query_as(
            "SELECT 1 FROM mcp_approvals
             WHERE workspace_path = ?1 AND server_name = ?2 AND definition_hash = ?3",
        )
        .bind(workspace_path)
        .bind(server)
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
    async fn an_approval_holds_for_one_definition_of_one_workspace() {
        let store = Store::open_in_memory().await.unwrap();
        assert!(!store.is_mcp_server_approved("/w", "s", "h1").await.unwrap());
        store.approve_mcp_server("/w", "s", "h1", 1).await.unwrap();
        store.approve_mcp_server("/w", "s", "h1", 2).await.unwrap();
        assert!(store.is_mcp_server_approved("/w", "s", "h1").await.unwrap());
        assert!(!store.is_mcp_server_approved("/w", "s", "h2").await.unwrap());
        assert!(
            !store
                .is_mcp_server_approved("/other", "s", "h1")
                .await
                .unwrap()
        );
    }
}
