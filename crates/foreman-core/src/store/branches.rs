//! Branches: a new session that starts as a copy of the beginning of another one, so the user
//! can take the conversation another way from an earlier message while the original stays as it
//! was.

use super::db::Store;
use super::error::StoreError;
use super::history::SUMMARY_ROLE;
use super::sessions::{SessionSummary, new_session_id};

/// What a branch copies from its source session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchSpec<'a> {
    /// The user's message the branch is made at: the messages before it are copied.
    pub before_seq: i64,
    /// That message's text, checked inside the transaction (a compaction renumbers messages).
    pub message_text: &'a str,
    /// The tool calls to copy (with their checkpoints): those of the copied messages and of the
    /// sub-agents they started.
    pub call_ids: &'a [String],
    pub title: &'a str,
    /// The branch's task list (JSON), as it stood at the branch point.
    pub todos_json: &'a str,
}

/// A copied call whose change was undone, whole or in part, after the branch point: the branch's
/// history does not say so (the note to the model came later), so the branch must tell its model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoneSince {
    pub call_id: String,
    pub path: String,
    /// Only some hunks were undone; the rest of the change is in the file.
    pub partly: bool,
}

/// What [`Store::branch_session`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BranchOutcome {
    Created {
        session: SessionSummary,
        undone_since: Vec<UndoneSince>,
    },
    /// The source session does not exist.
    NoSession,
    /// The message at `before_seq` is not the user's message with that text (any more).
    MessageMoved,
}

impl Store {
    /// Creates a session in the workspace of `source` with the history `source` had when the
    /// user's message at `spec.before_seq` was sent, and the calls `spec.call_ids`, in one
    /// transaction; `source` is not changed.
    ///
    /// The history at that point: a compaction summary made after the message is left out, and
    /// the messages it (or any later compaction) replaced are live again; what was compacted
    /// before the message stays compacted behind its summary.
    pub async fn branch_session(
        &self,
        source: &str,
        spec: &BranchSpec<'_>,
        now_ms: i64,
    ) -> Result<BranchOutcome, StoreError> {
        let fail = |e| StoreError::from_sqlx(self.path(), e);
        let id = new_session_id(now_ms);
        // A write first, so the transaction holds the write lock from here on and every read
        // below sees the state it commits against.
        let mut tx = self.write_transaction().await.map_err(fail)?;
        let created = sqlx::query(
            "INSERT INTO sessions (id, workspace_path, title, created_at, updated_at, todos)
             SELECT ?2, workspace_path, ?3, ?4, ?4, ?5 FROM sessions WHERE id = ?1",
        )
        .bind(source)
        .bind(&id)
        .bind(spec.title)
        .bind(now_ms)
        .bind(spec.todos_json)
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        if created.rows_affected() == 0 {
            return Ok(BranchOutcome::NoSession);
        }
        let message: Option<(String, String, i64)> = sqlx::query_as(
            "SELECT role, content, created_at FROM messages WHERE session_id = ?1 AND seq = ?2",
        )
        .bind(source)
        .bind(spec.before_seq)
        .fetch_optional(&mut *tx)
        .await
        .map_err(fail)?;
        let Some(sent_at) = message.and_then(|(role, content, created_at)| {
            let content: serde_json::Value = serde_json::from_str(&content).ok()?;
            let text = content.get("text")?.as_str()?;
            (role == "user" && text == spec.message_text).then_some(created_at)
        }) else {
            return Ok(BranchOutcome::MessageMoved);
        };
        sqlx::query(
            "INSERT INTO messages (session_id, seq, role, content, tokens, created_at, compacted_at)
             SELECT ?2, seq, role, content, tokens, created_at,
                    CASE WHEN compacted_at <= ?4 THEN compacted_at ELSE NULL END
             FROM messages
             WHERE session_id = ?1 AND seq < ?3 AND NOT (role = ?5 AND created_at > ?4)",
        )
        .bind(source)
        .bind(&id)
        .bind(spec.before_seq)
        .bind(sent_at)
        .bind(SUMMARY_ROLE)
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        // The lines before the message (why tasks ended, compactions), as the source shows them.
        sqlx::query(
            "INSERT INTO notices (session_id, after_seq, body, created_at)
             SELECT ?2, after_seq, body, created_at FROM notices
             WHERE session_id = ?1 AND after_seq < ?3 ORDER BY rowid",
        )
        .bind(source)
        .bind(&id)
        .bind(spec.before_seq)
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        let call_ids = serde_json::Value::from(spec.call_ids).to_string();
        for statement in [
            "INSERT INTO tool_calls (session_id, call_id, name, state, info, created_at, updated_at)
             SELECT ?2, call_id, name, state, info, created_at, updated_at FROM tool_calls
             WHERE session_id = ?1 AND call_id IN (SELECT value FROM json_each(?3))",
            "INSERT INTO checkpoints
                (session_id, call_id, path, before, after_hash, created_at, undone_at, partly_at)
             SELECT ?2, call_id, path, before, after_hash, created_at, undone_at, partly_at
             FROM checkpoints
             WHERE session_id = ?1 AND call_id IN (SELECT value FROM json_each(?3))",
        ] {
            sqlx::query(statement)
                .bind(source)
                .bind(&id)
                .bind(&call_ids)
                .execute(&mut *tx)
                .await
                .map_err(fail)?;
        }
        let undone: Vec<(String, String, bool)> = sqlx::query_as(
            "SELECT call_id, path, undone_at IS NULL FROM checkpoints
             WHERE session_id = ?1 AND call_id IN (SELECT value FROM json_each(?2))
               AND (undone_at > ?3 OR (undone_at IS NULL AND partly_at > ?3))
             ORDER BY coalesce(undone_at, partly_at), rowid",
        )
        .bind(source)
        .bind(&call_ids)
        .bind(sent_at)
        .fetch_all(&mut *tx)
        .await
        .map_err(fail)?;
        let workspace_path: (String,) =
            sqlx::query_as("SELECT workspace_path FROM sessions WHERE id = ?1")
                .bind(&id)
                .fetch_one(&mut *tx)
                .await
                .map_err(fail)?;
        tx.commit().await.map_err(fail)?;
        Ok(BranchOutcome::Created {
            session: SessionSummary {
                id,
                workspace_path: workspace_path.0,
                title: spec.title.to_owned(),
                created_at: now_ms,
                updated_at: now_ms,
                activity: None,
                agent: None,
            },
            undone_since: undone
                .into_iter()
                .map(|(call_id, path, partly)| UndoneSince {
                    call_id,
                    path,
                    partly,
                })
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::store::Checkpoint;

    async fn messages(store: &Store, session: &str) -> Vec<(i64, String, bool)> {
        store
            .load_messages(session)
            .await
            .unwrap()
            .into_iter()
            .map(|m| {
                (
                    m.seq,
                    m.content["text"].as_str().unwrap_or("").to_owned(),
                    m.compacted,
                )
            })
            .collect()
    }

    async fn say(store: &Store, session: &str, text: &str, now: i64) -> i64 {
        let content = json!({"role": "user", "text": text});
        store
            .append_message(session, "user", &content, None, now)
            .await
            .unwrap()
    }

    fn spec<'a>(before_seq: i64, message_text: &'a str, call_ids: &'a [String]) -> BranchSpec<'a> {
        BranchSpec {
            before_seq,
            message_text,
            call_ids,
            title: "Branch",
            todos_json: r#"[{"id":"1"}]"#,
        }
    }

    async fn created(
        store: &Store,
        source: &str,
        spec: &BranchSpec<'_>,
        now: i64,
    ) -> (SessionSummary, Vec<UndoneSince>) {
        match store.branch_session(source, spec, now).await.unwrap() {
            BranchOutcome::Created {
                session,
                undone_since,
            } => (session, undone_since),
            other => panic!("no branch: {other:?}"),
        }
    }

    #[tokio::test]
    async fn copies_the_beginning_and_leaves_the_source_alone() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        for text in ["one", "two", "three"] {
            say(&store, &s.id, text, 2).await;
        }
        let info = json!({"call_id": "c1", "state": "succeeded"});
        for call in ["c1", "c2"] {
            store
                .save_tool_call(&s.id, call, "write", "succeeded", &info, 2)
                .await
                .unwrap();
        }
        let checkpoint = |call_id: &str| Checkpoint {
            call_id: call_id.into(),
            path: format!("{call_id}.rs"),
            before: Some(b"old".to_vec()),
            after_hash: [7; 32],
        };
        for call in ["c1", "c2"] {
            store
                .save_checkpoint(&s.id, &checkpoint(call), 10, 2)
                .await
                .unwrap();
        }
        // After "three" was sent, part of c1 and then all of c2 are undone: the branch must be
        // told of both.
        store
            .set_checkpoint_after(&s.id, "c1", &[9; 32], &json!({"path": "c1.rs"}), 4)
            .await
            .unwrap();
        store.mark_undone(&s.id, "c2", 5).await.unwrap();
        let calls = ["c1".to_owned(), "c2".to_owned()];
        let (branch, undone) = created(&store, &s.id, &spec(3, "three", &calls), 9).await;
        assert_ne!(branch.id, s.id);
        assert_eq!(branch.workspace_path, "/ws");
        assert_eq!(
            undone,
            [
                UndoneSince {
                    call_id: "c1".into(),
                    path: "c1.rs".into(),
                    partly: true
                },
                UndoneSince {
                    call_id: "c2".into(),
                    path: "c2.rs".into(),
                    partly: false
                }
            ]
        );

        assert_eq!(
            store.session(&branch.id).await.unwrap().unwrap().title,
            "Branch"
        );
        assert_eq!(
            messages(&store, &branch.id).await,
            [(1, "one".into(), false), (2, "two".into(), false)]
        );
        assert_eq!(store.load_tool_calls(&branch.id).await.unwrap().len(), 2);
        assert_eq!(
            store.checkpoint(&branch.id, "c1").await.unwrap(),
            Some(Checkpoint {
                after_hash: [9; 32],
                ..checkpoint("c1")
            })
        );
        assert_eq!(store.checkpoint(&branch.id, "c2").await.unwrap(), None);
        assert_eq!(store.todos(&branch.id).await.unwrap(), r#"[{"id":"1"}]"#);
        // The source keeps everything; a new message in the branch continues its numbering.
        assert_eq!(messages(&store, &s.id).await.len(), 3);
        assert_eq!(store.load_tool_calls(&s.id).await.unwrap().len(), 2);
        assert_eq!(say(&store, &branch.id, "edited", 10).await, 3);
        // Undone before the branch point: the history the branch copies says so already.
        say(&store, &s.id, "four", 6).await;
        let (_, undone) = created(&store, &s.id, &spec(4, "four", &calls), 11).await;
        assert_eq!(undone, []);
    }

    #[tokio::test]
    async fn a_message_that_moved_or_a_missing_session_makes_no_branch() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        say(&store, &s.id, "one", 2).await;
        say(&store, &s.id, "two", 2).await;
        for (seq, text) in [(2, "one"), (3, "two"), (1, "other")] {
            let outcome = store.branch_session(&s.id, &spec(seq, text, &[]), 9).await;
            assert_eq!(
                outcome.unwrap(),
                BranchOutcome::MessageMoved,
                "{seq} {text}"
            );
        }
        let outcome = store
            .branch_session("missing", &spec(1, "one", &[]), 9)
            .await;
        assert_eq!(outcome.unwrap(), BranchOutcome::NoSession);
        assert_eq!(store.list_sessions("/ws").await.unwrap().len(), 1);
    }

    #[tokio::test]
    async fn the_branch_has_the_history_as_it_was_when_the_message_was_sent() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        // t=1: a b c; t=2: a, b summarised by S1; t=3: d e; t=4: S1, c summarised by S2.
        for text in ["a", "b", "c"] {
            say(&store, &s.id, text, 1).await;
        }
        store
            .compact_messages(&s.id, 2, &json!({"text": "S1"}), 2)
            .await
            .unwrap();
        for text in ["d", "e"] {
            say(&store, &s.id, text, 3).await;
        }
        store
            .compact_messages(&s.id, 2, &json!({"text": "S2"}), 4)
            .await
            .unwrap();
        let all = messages(&store, &s.id).await;
        let texts: Vec<&str> = all.iter().map(|(_, t, _)| t.as_str()).collect();
        assert_eq!(texts, ["a", "b", "S1", "c", "S2", "d", "e"]);

        // When e was sent, the model had S1, c and d: S2 came later.
        let (branch, _) = created(&store, &s.id, &spec(7, "e", &[]), 9).await;
        assert_eq!(
            messages(&store, &branch.id).await,
            [
                (1, "a".into(), true),
                (2, "b".into(), true),
                (3, "S1".into(), false),
                (4, "c".into(), false),
                (6, "d".into(), false),
            ]
        );
        // When c was sent, nothing was compacted yet.
        let (branch, _) = created(&store, &s.id, &spec(4, "c", &[]), 9).await;
        assert_eq!(
            messages(&store, &branch.id).await,
            [(1, "a".into(), false), (2, "b".into(), false)]
        );
    }
}
