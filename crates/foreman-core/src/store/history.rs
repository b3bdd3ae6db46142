//! The model-facing history of a session, exactly as sent, plus its tool calls.
//!
//! Every write is its own transaction at a step boundary, so a crash loses at most the streaming
//! delta in flight. Compaction ([`Store::compact_messages`]) marks the summarised messages and
//! puts the summary in their place in one transaction; the marked messages stay for the
//! transcript but are no longer live history. On restart, [`Store::interrupt_unfinished_calls`] turns calls that never
//! finished into `Interrupted` ones the loop can answer for the model.

use serde::Serialize;
use sqlx::SqliteConnection;

use super::db::Store;
use super::error::StoreError;

/// One stored history message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredMessage {
    pub seq: i64,
    pub role: String,
    /// The message as sent to the model.
    pub content: serde_json::Value,
    pub tokens: Option<i64>,
    /// Replaced by a compaction summary: kept for display, not sent to the model any more.
    pub compacted: bool,
}

/// The role column of a compaction summary (its content is a user [`Message`] as sent).
///
/// [`Message`]: crate::providers::Message
pub const SUMMARY_ROLE: &str = "summary";

/// A stored tool call: the scheduler state and the user-facing status.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredToolCall {
    pub call_id: String,
    pub name: String,
    pub state: String,
    pub info: serde_json::Value,
}

/// The scheduler states that mean a call is over.
pub const FINISHED_CALL_STATES: &[&str] = &[
    "succeeded",
    "failed",
    "cancelled",
    "rejected",
    "interrupted",
];

/// seq, role, content, tokens, compacted_at.
type MessageRow = (i64, String, String, Option<i64>, Option<i64>);

fn json_text(value: &serde_json::Value) -> String {
    value.to_string()
}

/// The sequence number after a session's last message.
async fn next_seq(conn: &mut SqliteConnection, session_id: &str) -> Result<i64, sqlx::Error> {
    let (next,): (i64,) =
        sqlx::query_as("SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE session_id = ?1")
            .bind(session_id)
            .fetch_one(conn)
            .await?;
    Ok(next)
}

/// One message row to insert.
struct NewMessage<'a> {
    session_id: &'a str,
    seq: i64,
    role: &'a str,
    content: &'a serde_json::Value,
    tokens: Option<i64>,
    now_ms: i64,
}

/// Inserts `message` and marks its session updated.
async fn insert_message(
    conn: &mut SqliteConnection,
    message: NewMessage<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO messages (session_id, seq, role, content, tokens, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
    .bind(message.session_id)
    .bind(message.seq)
    .bind(message.role)
    .bind(json_text(message.content))
    .bind(message.tokens)
    .bind(message.now_ms)
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE sessions SET updated_at = ?2 WHERE id = ?1")
        .bind(message.session_id)
        .bind(message.now_ms)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

impl Store {
    /// Appends one message to a session's history and returns its sequence number. Sets the
    /// session title from the first user message when it has none.
    pub async fn append_message(
        &self,
        session_id: &str,
        role: &str,
        content: &serde_json::Value,
        tokens: Option<i64>,
        now_ms: i64,
    ) -> Result<i64, StoreError> {
        let err = |e| StoreError::from_sqlx(self.path(), e);
        let mut tx = self.write_transaction().await.map_err(err)?;
        let next = next_seq(&mut tx, session_id).await.map_err(err)?;
        let message = NewMessage {
            session_id,
            seq: next,
            role,
            content,
            tokens,
            now_ms,
        };
        insert_message(&mut tx, message).await.map_err(err)?;
        tx.commit().await.map_err(err)?;
        Ok(next)
    }

    /// Replaces the first `removed` live messages of a session by one summary message (stored
    /// with role [`SUMMARY_ROLE`]) in one transaction: they are marked compacted and the summary
    /// takes the place right before the first message that stays live. Returns the summary's
    /// sequence number.
    pub async fn compact_messages(
        &self,
        session_id: &str,
        removed: usize,
        summary: &serde_json::Value,
        now_ms: i64,
    ) -> Result<i64, StoreError> {
        let err = |e| StoreError::from_sqlx(self.path(), e);
        let mut tx = self.write_transaction().await.map_err(err)?;
        let live: Vec<(i64,)> = sqlx::query_as(
            "SELECT seq FROM messages WHERE session_id = ?1 AND compacted_at IS NULL ORDER BY seq",
        )
        .bind(session_id)
        .fetch_all(&mut *tx)
        .await
        .map_err(err)?;
        let boundary = match live.get(removed) {
            Some((seq,)) => *seq,
            None => next_seq(&mut tx, session_id).await.map_err(err)?,
        };
        // Make room at `boundary`: shift the later messages up by one, through negative numbers
        // so no two rows share a sequence number in between, and the notices that follow them.
        for statement in [
            "UPDATE messages SET seq = -seq - 1 WHERE session_id = ?1 AND seq >= ?2",
            "UPDATE messages SET seq = -seq WHERE session_id = ?1 AND seq < 0",
            "UPDATE notices SET after_seq = after_seq + 1 WHERE session_id = ?1 AND after_seq >= ?2",
        ] {
            sqlx::query(statement)
                .bind(session_id)
                .bind(boundary)
                .execute(&mut *tx)
                .await
                .map_err(err)?;
        }
        sqlx::query(
            "UPDATE messages SET compacted_at = ?3
             WHERE session_id = ?1 AND seq < ?2 AND compacted_at IS NULL",
        )
        .bind(session_id)
        .bind(boundary)
        .bind(now_ms)
        .execute(&mut *tx)
        .await
        .map_err(err)?;
        let message = NewMessage {
            session_id,
            seq: boundary,
            role: SUMMARY_ROLE,
            content: summary,
            tokens: None,
            now_ms,
        };
        insert_message(&mut tx, message).await.map_err(err)?;
        tx.commit().await.map_err(err)?;
        Ok(boundary)
    }

    /// The whole history of a session, in order, compacted messages included.
    pub async fn load_messages(&self, session_id: &str) -> Result<Vec<StoredMessage>, StoreError> {
        let rows: Vec<MessageRow> = sqlx::query_as(
            "SELECT seq, role, content, tokens, compacted_at FROM messages WHERE session_id = ?1
             ORDER BY seq",
        )
        .bind(session_id)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        rows.into_iter()
            .map(|(seq, role, content, tokens, compacted_at)| {
                let content = serde_json::from_str(&content).map_err(|e| StoreError::Corrupt {
                    path: self.path().to_path_buf(),
                    reason: format!("message {seq} of session {session_id} is not JSON: {e}"),
                })?;
                Ok(StoredMessage {
                    seq,
                    role,
                    content,
                    tokens,
                    compacted: compacted_at.is_some(),
                })
            })
            .collect()
    }

    /// Records a tool call's current state and status (inserting or updating it).
    pub async fn save_tool_call(
        &self,
        session_id: &str,
        call_id: &str,
        name: &str,
        state: &str,
        info: &serde_json::Value,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tool_calls (session_id, call_id, name, state, info, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
             ON CONFLICT (session_id, call_id) DO UPDATE SET
                name = excluded.name, state = excluded.state, info = excluded.info,
                updated_at = excluded.updated_at",
        )
        .bind(session_id)
        .bind(call_id)
        .bind(name)
        .bind(state)
        .bind(json_text(info))
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// The tool calls of a session in the order they were created.
    pub async fn load_tool_calls(
        &self,
        session_id: &str,
    ) -> Result<Vec<StoredToolCall>, StoreError> {
        let rows: Vec<(String, String, String, String)> = sqlx::query_as(
            "SELECT call_id, name, state, info FROM tool_calls WHERE session_id = ?1
             ORDER BY created_at, call_id",
        )
        .bind(session_id)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(rows
            .into_iter()
            .map(|(call_id, name, state, info)| StoredToolCall {
                call_id,
                name,
                state,
                info: serde_json::from_str(&info).unwrap_or(serde_json::Value::Null),
            })
            .collect())
    }

    /// Marks every call of the session that never finished as `interrupted` and returns them,
    /// so the loop can give the model a result for each before continuing.
    pub async fn interrupt_unfinished_calls(
        &self,
        session_id: &str,
        now_ms: i64,
    ) -> Result<Vec<StoredToolCall>, StoreError> {
        let unfinished: Vec<StoredToolCall> = self
            .load_tool_calls(session_id)
            .await?
            .into_iter()
            .filter(|c| !FINISHED_CALL_STATES.contains(&c.state.as_str()))
            .collect();
        let err = |e| StoreError::from_sqlx(self.path(), e);
        let mut tx = self.write_transaction().await.map_err(err)?;
        for call in &unfinished {
            sqlx::query(
                "UPDATE tool_calls SET state = 'interrupted', updated_at = ?3
                 WHERE session_id = ?1 AND call_id = ?2",
            )
            .bind(session_id)
            .bind(&call.call_id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await
            .map_err(err)?;
        }
        tx.commit().await.map_err(err)?;
        Ok(unfinished)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sessions_writing_at_once_never_find_the_database_locked() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.db")).await.unwrap();
        let mut writers = Vec::new();
        for n in 0..6 {
            let store = store.clone();
            writers.push(tokio::spawn(async move {
                let s = store.create_session("/ws", n).await.unwrap();
                for i in 0..60 {
                    let m = json!({"role": "user", "content": format!("message {i}")});
                    store.append_message(&s.id, "user", &m, None, i).await?;
                }
                Ok::<_, StoreError>(s.id)
            }));
        }
        for writer in writers {
            let id = writer.await.unwrap().unwrap();
            assert_eq!(store.load_messages(&id).await.unwrap().len(), 60);
        }
    }

    #[tokio::test]
    async fn messages_keep_their_order_and_exact_content() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        let first = json!({"role": "user", "content": [{"type": "text", "text": "hi ✓"}]});
        let second = json!({"role": "assistant", "content": "hello"});
        assert_eq!(
            store
                .append_message(&s.id, "user", &first, Some(3), 10)
                .await
                .unwrap(),
            1
        );
        assert_eq!(
            store
                .append_message(&s.id, "assistant", &second, None, 11)
                .await
                .unwrap(),
            2
        );
        let loaded = store.load_messages(&s.id).await.unwrap();
        assert_eq!(loaded.len(), 2);
        assert_eq!(loaded[0].content, first);
        assert_eq!(loaded[0].tokens, Some(3));
        assert_eq!(loaded[1].role, "assistant");
        assert_eq!(store.session(&s.id).await.unwrap().unwrap().updated_at, 11);
    }

    #[tokio::test]
    async fn compaction_puts_the_summary_before_the_live_tail_and_keeps_the_old_messages() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        for (i, role) in ["user", "assistant", "user", "assistant"]
            .iter()
            .enumerate()
        {
            store
                .append_message(&s.id, role, &json!(format!("m{i}")), None, 2)
                .await
                .unwrap();
        }
        let seq = store
            .compact_messages(&s.id, 2, &json!("summary 1"), 3)
            .await
            .unwrap();
        assert_eq!(seq, 3);
        let rows = |loaded: Vec<StoredMessage>| -> Vec<(i64, String, bool)> {
            loaded
                .into_iter()
                .map(|m| (m.seq, m.content.as_str().unwrap().to_owned(), m.compacted))
                .collect()
        };
        let loaded = store.load_messages(&s.id).await.unwrap();
        assert_eq!(loaded[2].role, SUMMARY_ROLE);
        assert_eq!(
            rows(loaded),
            [
                (1, "m0".into(), true),
                (2, "m1".into(), true),
                (3, "summary 1".into(), false),
                (4, "m2".into(), false),
                (5, "m3".into(), false),
            ]
        );
        // A second compaction counts live messages only: the first summary and m2 go.
        store
            .compact_messages(&s.id, 2, &json!("summary 2"), 4)
            .await
            .unwrap();
        let live: Vec<String> = store
            .load_messages(&s.id)
            .await
            .unwrap()
            .into_iter()
            .filter(|m| !m.compacted)
            .map(|m| m.content.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(live, ["summary 2", "m3"]);
        // Compacting everything puts the summary at the end.
        store
            .compact_messages(&s.id, 2, &json!("summary 3"), 5)
            .await
            .unwrap();
        let loaded = store.load_messages(&s.id).await.unwrap();
        assert_eq!(loaded.len(), 7);
        let last = loaded.last().unwrap();
        assert_eq!(
            (last.content.as_str(), last.compacted),
            (Some("summary 3"), false)
        );
        assert_eq!(loaded.iter().filter(|m| !m.compacted).count(), 1);
    }

    #[tokio::test]
    async fn unfinished_calls_become_interrupted() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        let info = json!({"params": {"path": "a.rs"}});
        store
            .save_tool_call(&s.id, "c1", "read", "succeeded", &info, 1)
            .await
            .unwrap();
        store
            .save_tool_call(&s.id, "c2", "write", "awaiting_approval", &info, 2)
            .await
            .unwrap();
        store
            .save_tool_call(&s.id, "c3", "bash", "executing", &info, 3)
            .await
            .unwrap();
        let interrupted = store.interrupt_unfinished_calls(&s.id, 4).await.unwrap();
        let ids: Vec<_> = interrupted.iter().map(|c| c.call_id.as_str()).collect();
        assert_eq!(ids, ["c2", "c3"]);
        let states: Vec<_> = store
            .load_tool_calls(&s.id)
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.state)
            .collect();
        assert_eq!(states, ["succeeded", "interrupted", "interrupted"]);
        assert!(
            store
                .interrupt_unfinished_calls(&s.id, 5)
                .await
                .unwrap()
                .is_empty()
        );
    }

    #[tokio::test]
    async fn deleting_a_session_removes_its_history() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        store
            .append_message(&s.id, "user", &json!("x"), None, 1)
            .await
            .unwrap();
        store
            .save_tool_call(&s.id, "c", "read", "succeeded", &json!({}), 1)
            .await
            .unwrap();
        store.delete_session(&s.id).await.unwrap();
        assert!(store.load_messages(&s.id).await.unwrap().is_empty());
        assert!(store.load_tool_calls(&s.id).await.unwrap().is_empty());
    }
}
