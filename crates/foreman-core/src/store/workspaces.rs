//! Recently opened workspaces.

use super::db::Store;
use super::error::StoreError;
pub use foreman_protocol::records::RecentWorkspace;

impl Store {
    /// Records that the workspace at `path` was opened at `now_ms` (inserting or updating it).
    pub async fn touch_workspace(
        &self,
        path: &str,
        name: &str,
        now_ms: i64,
    ) -> Result<RecentWorkspace, StoreError> {
        sqlx::query(
            "INSERT INTO workspaces (path, name, last_opened) VALUES (?1, ?2, ?3)
             ON CONFLICT(path) DO UPDATE SET name = excluded.name, last_opened = excluded.last_opened",
        )
        .bind(path)
        .bind(name)
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(RecentWorkspace {
            path: path.to_owned(),
            name: name.to_owned(),
            last_opened: now_ms,
        })
    }

    /// The most recently opened workspaces, newest first.
    pub async fn recent_workspaces(&self, limit: u32) -> Result<Vec<RecentWorkspace>, StoreError> {
        let rows: Vec<(String, String, i64)> = sqlx::query_as(
            "SELECT path, name, last_opened FROM workspaces ORDER BY last_opened DESC, id DESC LIMIT ?1",
        )
        .bind(i64::from(limit))
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(rows
            .into_iter()
            .map(|(path, name, last_opened)| RecentWorkspace {
                path,
                name,
                last_opened,
            })
            .collect())
    }

    /// Removes a workspace from the recent list (the folder itself is untouched).
    /// Returns whether it was listed.
    pub async fn forget_workspace(&self, path: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM workspaces WHERE path = ?1")
            .bind(path)
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
    async fn recent_workspaces_are_newest_first_and_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("foreman.db");
        let store = Store::open(&path).await.unwrap();
        store.touch_workspace("/a", "a", 1).await.unwrap();
        store.touch_workspace("/b", "b", 2).await.unwrap();
        store.touch_workspace("/a", "a", 3).await.unwrap();
        store.close().await;

        let store = Store::open(&path).await.unwrap();
        let recent = store.recent_workspaces(10).await.unwrap();
        let paths: Vec<_> = recent.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(paths, ["/a", "/b"]);
        assert_eq!(recent[0].last_opened, 3);

        assert!(store.forget_workspace("/a").await.unwrap());
        assert!(!store.forget_workspace("/a").await.unwrap());
        assert_eq!(store.recent_workspaces(10).await.unwrap().len(), 1);
        assert_eq!(store.recent_workspaces(0).await.unwrap().len(), 0);
    }
}
