//! Stored checkpoints: what each file-changing call replaced, so that the person can undo the
//! change, also after the app was restarted.

use super::{Store, StoreError};

/// What a file-changing call replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    pub call_id: String,
    /// Workspace-relative path.
    pub path: String,
    /// The file's bytes before the call; `None` when the call created it.
    pub before: Option<Vec<u8>>,
    /// SHA-256 of the file's bytes after the call.
    pub after_hash: [u8; 32],
}

impl Store {
    /// Records `checkpoint` for a call of `session_id` (replacing one of the same call).
    pub async fn save_checkpoint(
        &self,
        session_id: &str,
        checkpoint: &Checkpoint,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT OR REPLACE INTO checkpoints
                (session_id, call_id, path, before, after_hash, created_at, undone_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL)",
        )
        .bind(session_id)
        .bind(&checkpoint.call_id)
        .bind(&checkpoint.path)
        .bind(checkpoint.before.as_deref())
        .bind(&checkpoint.after_hash[..])
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// The checkpoint of `call_id` in `session_id`, unless there is none or it was undone.
    pub async fn checkpoint(
        &self,
        session_id: &str,
        call_id: &str,
    ) -> Result<Option<Checkpoint>, StoreError> {
        type Row = (String, Option<Vec<u8>>, Vec<u8>);
        let row: Option<Row> = sqlx::query_as(
            "SELECT path, before, after_hash FROM checkpoints
             WHERE session_id = ?1 AND call_id = ?2 AND undone_at IS NULL",
        )
        .bind(session_id)
        .bind(call_id)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.and_then(|(path, before, hash)| {
            Some(Checkpoint {
                call_id: call_id.to_owned(),
                path,
                before,
                after_hash: hash.try_into().ok()?,
            })
        }))
    }

    /// Marks the checkpoint of `call_id` undone, and the stored call with it (`undo: "done"` in
    /// its snapshot), so a reopened session shows the change as undone.
    pub async fn mark_undone(
        &self,
        session_id: &str,
        call_id: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let fail = |e| StoreError::from_sqlx(self.path(), e);
        let mut tx = self.pool().begin().await.map_err(fail)?;
        sqlx::query("UPDATE checkpoints SET undone_at = ?3 WHERE session_id = ?1 AND call_id = ?2")
            .bind(session_id)
            .bind(call_id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await
            .map_err(fail)?;
        sqlx::query(
            "UPDATE tool_calls SET info = json_set(info, '$.undo', 'done'), updated_at = ?3
             WHERE session_id = ?1 AND call_id = ?2",
        )
        .bind(session_id)
        .bind(call_id)
        .bind(now_ms)
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        tx.commit().await.map_err(fail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    async fn store_with_session() -> (tempfile::TempDir, Store, String) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite")).await.unwrap();
        let session = store.create_session("/w", 1).await.unwrap();
        (dir, store, session.id)
    }

    fn checkpoint(call_id: &str, before: Option<&[u8]>) -> Checkpoint {
        Checkpoint {
            call_id: call_id.into(),
            path: "src/a.rs".into(),
            before: before.map(<[u8]>::to_vec),
            after_hash: [7; 32],
        }
    }

    #[tokio::test]
    async fn a_checkpoint_is_kept_until_undone_and_marks_the_stored_call() {
        let (_dir, store, id) = store_with_session().await;
        store
            .save_checkpoint(&id, &checkpoint("c1", Some(b"old\xff bytes")), 10)
            .await
            .unwrap();
        store
            .save_checkpoint(&id, &checkpoint("c2", None), 11)
            .await
            .unwrap();
        store
            .save_tool_call(
                &id,
                "c1",
                "write",
                "succeeded",
                &json!({"undo": "available"}),
                10,
            )
            .await
            .unwrap();
        assert_eq!(
            store.checkpoint(&id, "c1").await.unwrap(),
            Some(checkpoint("c1", Some(b"old\xff bytes")))
        );
        assert_eq!(
            store.checkpoint(&id, "c2").await.unwrap(),
            Some(checkpoint("c2", None))
        );
        assert_eq!(store.checkpoint(&id, "c3").await.unwrap(), None);
        store.mark_undone(&id, "c1", 20).await.unwrap();
        assert_eq!(
            store.checkpoint(&id, "c1").await.unwrap(),
            None,
            "undone once only"
        );
        assert_eq!(
            store.checkpoint(&id, "c2").await.unwrap(),
            Some(checkpoint("c2", None))
        );
        let calls = store.load_tool_calls(&id).await.unwrap();
        assert_eq!(calls[0].info["undo"], "done");
    }
}
