//! Which commit of the workspace's shadow repository ([`crate::checkpoints`]) records the
//! workspace at which step of a session.

use super::db::Store;
use super::error::StoreError;

/// A checkpoint of a session's workspace.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow, serde::Serialize)]
pub struct WorkspaceCheckpoint {
    pub id: i64,
    pub session_id: String,
    /// `message`, `call`, `after`, `task_end` or `rewind`.
    pub kind: String,
    pub call_id: Option<String>,
    /// For `message` and `rewind`: the user's message it comes before.
    pub message: Option<i64>,
    pub commit_id: String,
    /// The files it left out, as JSON (`[{path, reason}]`).
    pub skipped: String,
    pub created_at: i64,
}

/// A checkpoint to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewWorkspaceCheckpoint<'a> {
    pub kind: &'a str,
    pub call_id: Option<&'a str>,
    pub message: Option<u32>,
    pub commit_id: &'a str,
    pub skipped: &'a str,
}

impl Store {
    /// Records a checkpoint of `session_id`'s workspace.
    pub async fn record_workspace_checkpoint(
        &self,
        session_id: &str,
        checkpoint: NewWorkspaceCheckpoint<'_>,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO workspace_checkpoints
                (session_id, kind, call_id, message, commit_id, skipped, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )
        .bind(session_id)
        .bind(checkpoint.kind)
        .bind(checkpoint.call_id)
        .bind(checkpoint.message)
        .bind(checkpoint.commit_id)
        .bind(checkpoint.skipped)
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// The checkpoints of `session_id`, oldest first.
    pub async fn workspace_checkpoints(
        &self,
        session_id: &str,
    ) -> Result<Vec<WorkspaceCheckpoint>, StoreError> {
        sqlx::query_as(
            "SELECT id, session_id, kind, call_id, message, commit_id, skipped, created_at
             FROM workspace_checkpoints WHERE session_id = ?1 ORDER BY id",
        )
        .bind(session_id)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))
    }

    /// The checkpoints of every session of `workspace_path`, oldest first.
    pub async fn workspace_checkpoints_of(
        &self,
        workspace_path: &str,
    ) -> Result<Vec<WorkspaceCheckpoint>, StoreError> {
        sqlx::query_as(
            "SELECT c.id, c.session_id, c.kind, c.call_id, c.message, c.commit_id, c.skipped,
                    c.created_at
             FROM workspace_checkpoints c JOIN sessions s ON s.id = c.session_id
             WHERE s.workspace_path = ?1 ORDER BY c.id",
        )
        .bind(workspace_path)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))
    }

    /// The checkpoint from just before the user's message `message` of `session_id`.
    pub async fn checkpoint_before_message(
        &self,
        session_id: &str,
        message: u32,
    ) -> Result<Option<String>, StoreError> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT commit_id FROM workspace_checkpoints
             WHERE session_id = ?1 AND kind = 'message' AND message = ?2
             ORDER BY id DESC LIMIT 1",
        )
        .bind(session_id)
        .bind(message)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.map(|(id,)| id))
    }

    /// The checkpoint taken just before the last rewind of `session_id`, and the message that
    /// rewind went back to.
    pub async fn last_rewind(&self, session_id: &str) -> Result<Option<(String, u32)>, StoreError> {
        let row: Option<(String, Option<i64>)> = sqlx::query_as(
            "SELECT commit_id, message FROM workspace_checkpoints
             WHERE session_id = ?1 AND kind = 'rewind' ORDER BY id DESC LIMIT 1",
        )
        .bind(session_id)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.map(|(id, m)| (id, u32::try_from(m.unwrap_or(0)).unwrap_or(0))))
    }

    /// The oldest checkpoint of `session_id` still kept (the one before its first message,
    /// unless the cap collected it).
    pub async fn first_workspace_checkpoint(
        &self,
        session_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT commit_id FROM workspace_checkpoints WHERE session_id = ?1
             ORDER BY id LIMIT 1",
        )
        .bind(session_id)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.map(|(id,)| id))
    }

    /// The newest checkpoint of `session_id`.
    pub async fn latest_workspace_checkpoint(
        &self,
        session_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT commit_id FROM workspace_checkpoints WHERE session_id = ?1
             ORDER BY id DESC LIMIT 1",
        )
        .bind(session_id)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.map(|(id,)| id))
    }

    /// Forgets the checkpoints with these commits (their objects were collected).
    pub async fn forget_checkpoint_commits(&self, commits: &[String]) -> Result<(), StoreError> {
        for commit in commits {
            sqlx::query("DELETE FROM workspace_checkpoints WHERE commit_id = ?1")
                .bind(commit)
                .execute(self.pool())
                .await
                .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        }
        Ok(())
    }

    /// Forgets the checkpoints of every session of `workspace_path` (their repository was
    /// cleared).
    pub async fn forget_workspace_checkpoints(
        &self,
        workspace_path: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "DELETE FROM workspace_checkpoints WHERE session_id IN
                (SELECT id FROM sessions WHERE workspace_path = ?1)",
        )
        .bind(workspace_path)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }
}
