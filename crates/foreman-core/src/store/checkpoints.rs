//! Stored checkpoints: what each file-changing call replaced, so that the user can undo the
//! change, also after the app was restarted.

use super::db::Store;
use super::error::StoreError;

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
    /// Records `checkpoint` for a call of `session_id` (replacing one of the same call), keeping
    /// only the `keep` newest changes of its file that were not undone: the calls of older ones
    /// are returned, their checkpoints dropped and their stored calls marked `undo: "expired"`.
    pub async fn save_checkpoint(
        &self,
        session_id: &str,
        checkpoint: &Checkpoint,
        keep: u32,
        now_ms: i64,
    ) -> Result<Vec<String>, StoreError> {
        let fail = |e| StoreError::from_sqlx(self.path(), e);
        let mut tx = self.write_transaction().await.map_err(fail)?;
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
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        let expired: Vec<(String,)> = sqlx::query_as(
            "SELECT call_id FROM checkpoints
             WHERE session_id = ?1 AND path = ?2 AND undone_at IS NULL
             ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?3",
        )
        .bind(session_id)
        .bind(&checkpoint.path)
        .bind(keep)
        .fetch_all(&mut *tx)
        .await
        .map_err(fail)?;
        for (call_id,) in &expired {
            sqlx::query("DELETE FROM checkpoints WHERE session_id = ?1 AND call_id = ?2")
                .bind(session_id)
                .bind(call_id)
                .execute(&mut *tx)
                .await
                .map_err(fail)?;
            set_stored_undo(&mut tx, session_id, call_id, "expired", now_ms)
                .await
                .map_err(fail)?;
        }
        tx.commit().await.map_err(fail)?;
        Ok(expired.into_iter().map(|(call_id,)| call_id).collect())
    }

    /// Every path a file tool of `session_id` changed (or set out to), as its checkpoints keep
    /// them, in path order.
    pub async fn checkpoint_paths(&self, session_id: &str) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT DISTINCT path FROM checkpoints WHERE session_id = ?1 ORDER BY path",
        )
        .bind(session_id)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(rows.into_iter().map(|(path,)| path).collect())
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

    /// The oldest checkpoint, not undone, among those of calls `call_ids` in session
    /// `session_id` (`None`: none is kept).
    pub async fn oldest_checkpoint(
        &self,
        session_id: &str,
        call_ids: &[String],
    ) -> Result<Option<Checkpoint>, StoreError> {
        type Row = (String, String, Option<Vec<u8>>, Vec<u8>);
        let ids = serde_json::Value::from(call_ids.to_vec()).to_string();
        let row: Option<Row> = sqlx::query_as(
            "SELECT call_id, path, before, after_hash FROM checkpoints
             WHERE session_id = ?1 AND undone_at IS NULL
               AND call_id IN (SELECT value FROM json_each(?2))
             ORDER BY created_at, rowid LIMIT 1",
        )
        .bind(session_id)
        .bind(ids)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.and_then(|(call_id, path, before, hash)| {
            Some(Checkpoint {
                call_id,
                path,
                before,
                after_hash: hash.try_into().ok()?,
            })
        }))
    }

    /// After part of call `call_id`'s change was undone: the file now hashes to `after_hash`
    /// (what a later undo checks) since `now_ms` (`partly_at`, for a branch made before it), and
    /// the call's stored card shows `preview` and `undo: "partly"`.
    pub async fn set_checkpoint_after(
        &self,
        session_id: &str,
        call_id: &str,
        after_hash: &[u8; 32],
        preview: &serde_json::Value,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let fail = |e| StoreError::from_sqlx(self.path(), e);
        let mut tx = self.write_transaction().await.map_err(fail)?;
        sqlx::query(
            "UPDATE checkpoints SET after_hash = ?3, partly_at = ?4
             WHERE session_id = ?1 AND call_id = ?2 AND undone_at IS NULL",
        )
        .bind(session_id)
        .bind(call_id)
        .bind(&after_hash[..])
        .bind(now_ms)
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        sqlx::query(
            "UPDATE tool_calls SET info = json_set(info, '$.preview', json(?3)), updated_at = ?4
             WHERE session_id = ?1 AND call_id = ?2",
        )
        .bind(session_id)
        .bind(call_id)
        .bind(preview.to_string())
        .bind(now_ms)
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        set_stored_undo(&mut tx, session_id, call_id, "partly", now_ms)
            .await
            .map_err(fail)?;
        tx.commit().await.map_err(fail)
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
        let mut tx = self.write_transaction().await.map_err(fail)?;
        // The bytes are not needed any more: an undone change is not undone again.
        sqlx::query(
            "UPDATE checkpoints SET undone_at = ?3, before = NULL
             WHERE session_id = ?1 AND call_id = ?2",
        )
        .bind(session_id)
        .bind(call_id)
        .bind(now_ms)
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        set_stored_undo(&mut tx, session_id, call_id, "done", now_ms)
            .await
            .map_err(fail)?;
        tx.commit().await.map_err(fail)
    }
}

/// Sets `undo` (an `UndoState` in snake case) in the stored snapshot of `call_id`.
async fn set_stored_undo(
    tx: &mut sqlx::SqliteConnection,
    session_id: &str,
    call_id: &str,
    undo: &str,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE tool_calls SET info = json_set(info, '$.undo', ?3), updated_at = ?4
         WHERE session_id = ?1 AND call_id = ?2",
    )
    .bind(session_id)
    .bind(call_id)
    .bind(undo)
    .bind(now_ms)
    .execute(tx)
    .await?;
    Ok(())
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
            .save_checkpoint(&id, &checkpoint("c1", Some(b"old\xff bytes")), 10, 10)
            .await
            .unwrap();
        store
            .save_checkpoint(&id, &checkpoint("c2", None), 10, 11)
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
        // Part of c1 undone: the bytes it must find next time and its card change.
        store
            .set_checkpoint_after(&id, "c1", &[9; 32], &json!({"path": "src/a.rs"}), 15)
            .await
            .unwrap();
        assert_eq!(
            store
                .checkpoint(&id, "c1")
                .await
                .unwrap()
                .unwrap()
                .after_hash,
            [9; 32]
        );
        let calls = store.load_tool_calls(&id).await.unwrap();
        assert_eq!(calls[0].info["preview"]["path"], "src/a.rs");
        assert_eq!(calls[0].info["undo"], "partly");
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

#[cfg(test)]
mod pruning_tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn only_the_newest_changes_of_a_file_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite")).await.unwrap();
        let id = store.create_session("/w", 1).await.unwrap().id;
        let at = |call_id: &str, path: &str| Checkpoint {
            call_id: call_id.into(),
            path: path.into(),
            before: Some(vec![1, 2, 3]),
            after_hash: [1; 32],
        };
        for (n, call) in ["a1", "a2", "a3"].into_iter().enumerate() {
            store
                .save_tool_call(
                    &id,
                    call,
                    "edit",
                    "succeeded",
                    &json!({"undo": "available"}),
                    1,
                )
                .await
                .unwrap();
            let expired = store
                .save_checkpoint(&id, &at(call, "a.txt"), 2, n as i64)
                .await
                .unwrap();
            assert_eq!(
                expired,
                if n == 2 {
                    vec!["a1".to_owned()]
                } else {
                    vec![]
                }
            );
        }
        // Another file's changes do not count against this one's.
        assert!(
            store
                .save_checkpoint(&id, &at("b1", "b.txt"), 2, 9)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(store.checkpoint(&id, "a1").await.unwrap(), None);
        assert!(store.checkpoint(&id, "a2").await.unwrap().is_some());
        let calls = store.load_tool_calls(&id).await.unwrap();
        assert_eq!(calls[0].info["undo"], "expired");
        assert_eq!(calls[1].info["undo"], "available");
    }
}
