//! The lines of a conversation that the history sent to the model does not hold (why a task
//! ended, where the context was compacted), stored so that a reopened conversation shows each
//! where the live one did.

use super::db::Store;
use super::error::StoreError;

/// A stored line: after which stored message, and what it says (the protocol's `TranscriptItem`
/// as JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredNotice {
    /// The sequence number of the last message stored before it (0 for none).
    pub after_seq: i64,
    pub body: serde_json::Value,
}

impl Store {
    /// Records `body` as a line of `session_id` after the messages stored so far.
    pub async fn record_notice(
        &self,
        session_id: &str,
        body: &serde_json::Value,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO notices (session_id, after_seq, body, created_at)
             VALUES (?1, (SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ?1), ?2, ?3)",
        )
        .bind(session_id)
        .bind(body.to_string())
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// The lines of `session_id`, in the order they were recorded. One whose body is not JSON (a
    /// damaged row) is left out: it only ever adds a line to what the user sees.
    pub async fn load_notices(&self, session_id: &str) -> Result<Vec<StoredNotice>, StoreError> {
        let rows: Vec<(i64, String)> = sqlx::query_as(
            "SELECT after_seq, body FROM notices WHERE session_id = ?1 ORDER BY after_seq, rowid",
        )
        .bind(session_id)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(rows
            .into_iter()
            .filter_map(|(after_seq, body)| {
                let body = serde_json::from_str(&body).ok()?;
                Some(StoredNotice { after_seq, body })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[tokio::test]
    async fn notices_follow_the_messages_and_move_with_a_compaction() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/w", 1).await.unwrap();
        let stopped = json!({"kind": "task_ended", "reason": {"kind": "cancelled"}});
        store.record_notice(&s.id, &stopped, 1).await.unwrap();
        for (i, text) in ["one", "two", "three"].iter().enumerate() {
            let message = json!({"role": "user", "text": text});
            store
                .append_message(&s.id, "user", &message, None, i as i64)
                .await
                .unwrap();
        }
        let compacted = json!({"kind": "compacted", "removed_messages": 2});
        store.record_notice(&s.id, &compacted, 5).await.unwrap();
        let notices = store.load_notices(&s.id).await.unwrap();
        assert_eq!(
            notices,
            [
                StoredNotice {
                    after_seq: 0,
                    body: stopped.clone()
                },
                StoredNotice {
                    after_seq: 3,
                    body: compacted.clone()
                }
            ]
        );
        // The summary takes the place of the third message, which moves up by one: so does the
        // notice that followed it.
        let summary = json!({"role": "user", "text": "summary"});
        store.compact_messages(&s.id, 2, &summary, 6).await.unwrap();
        let notices = store.load_notices(&s.id).await.unwrap();
        assert_eq!(notices[0].after_seq, 0);
        assert_eq!(notices[1].after_seq, 4);
        assert!(store.delete_session(&s.id).await.unwrap());
        assert!(store.load_notices(&s.id).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn the_task_ends_of_an_older_database_become_notices() {
        use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};
        // A database as the build before migration 0008 left it, with one task end stored.
        let dir = tempfile::tempdir().unwrap();
        let older = dir.path().join("migrations");
        std::fs::create_dir(&older).unwrap();
        let ours = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        for entry in std::fs::read_dir(ours).unwrap() {
            let entry = entry.unwrap();
            if entry.file_name().to_string_lossy().as_ref() < "0008" {
                std::fs::copy(entry.path(), older.join(entry.file_name())).unwrap();
            }
        }
        let path = dir.path().join("foreman.db");
        let options = SqliteConnectOptions::new()
            .filename(&path)
            .create_if_missing(true);
        let pool = SqlitePool::connect_with(options).await.unwrap();
        let migrator = sqlx::migrate::Migrator::new(older.as_path()).await.unwrap();
        migrator.run(&pool).await.unwrap();
        for statement in [
            "INSERT INTO sessions (id, workspace_path, created_at, updated_at) VALUES ('s', '/w', 1, 1)",
            r#"INSERT INTO task_ends (session_id, after_seq, reason, created_at)
               VALUES ('s', 2, '{"kind":"cancelled"}', 3), ('s', 4, 'damaged', 5)"#,
        ] {
            sqlx::query(statement).execute(&pool).await.unwrap();
        }
        pool.close().await;

        let store = Store::open(&path).await.unwrap();
        assert_eq!(
            store.load_notices("s").await.unwrap(),
            [StoredNotice {
                after_seq: 2,
                body: json!({"kind": "task_ended", "reason": {"kind": "cancelled"}}),
            }]
        );
        store.close().await;
    }
}
