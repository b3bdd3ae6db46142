//! Why each task of a session ended, stored so that a reopened conversation says it where the
//! live one did (the history sent to the model does not hold it).

use super::{Store, StoreError};

/// A task's end: after which stored message, and why (the protocol's `TaskEndReason` as JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredTaskEnd {
    /// The sequence number of the last message stored before the task ended (0 for none).
    pub after_seq: i64,
    pub reason: serde_json::Value,
}

impl Store {
    /// Records that a task of `session_id` ended for `reason`, after the messages stored so far.
    pub async fn record_task_end(
        &self,
        session_id: &str,
        reason: &serde_json::Value,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO task_ends (session_id, after_seq, reason, created_at)
             VALUES (?1, (SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ?1), ?2, ?3)",
        )
        .bind(session_id)
        .bind(reason.to_string())
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// The task ends of `session_id`, in the order they happened. One whose reason is not JSON
    /// (a damaged row) is left out: it only ever adds a line to what the person sees.
    pub async fn load_task_ends(&self, session_id: &str) -> Result<Vec<StoredTaskEnd>, StoreError> {
        let rows: Vec<(i64, String)> = sqlx::query_as(
            "SELECT after_seq, reason FROM task_ends WHERE session_id = ?1
             ORDER BY after_seq, rowid",
        )
        .bind(session_id)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(rows
            .into_iter()
            .filter_map(|(after_seq, reason)| {
                let reason = serde_json::from_str(&reason).ok()?;
                Some(StoredTaskEnd { after_seq, reason })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[tokio::test]
    async fn task_ends_follow_the_messages_and_move_with_a_compaction() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/w", 1).await.unwrap();
        let stopped = json!({"kind": "cancelled"});
        store.record_task_end(&s.id, &stopped, 1).await.unwrap();
        for (i, text) in ["one", "two", "three"].iter().enumerate() {
            let message = json!({"role": "user", "text": text});
            store
                .append_message(&s.id, "user", &message, None, i as i64)
                .await
                .unwrap();
        }
        let failed = json!({"kind": "error", "message": "dropped", "retryable": true});
        store.record_task_end(&s.id, &failed, 5).await.unwrap();
        let ends = store.load_task_ends(&s.id).await.unwrap();
        assert_eq!(
            ends,
            [
                StoredTaskEnd {
                    after_seq: 0,
                    reason: stopped.clone()
                },
                StoredTaskEnd {
                    after_seq: 3,
                    reason: failed.clone()
                }
            ]
        );
        // The summary takes the place of the third message, which moves up by one: so does the
        // end that followed it.
        let summary = json!({"role": "user", "text": "summary"});
        store.compact_messages(&s.id, 2, &summary, 6).await.unwrap();
        let ends = store.load_task_ends(&s.id).await.unwrap();
        assert_eq!(ends[0].after_seq, 0);
        assert_eq!(ends[1].after_seq, 4);
        assert!(store.delete_session(&s.id).await.unwrap());
        assert!(store.load_task_ends(&s.id).await.unwrap().is_empty());
    }
}
