//! Branches: a new session that starts as a copy of the beginning of another one, so the person
//! can take the conversation another way from an earlier message while the original stays as it
//! was.

use super::history::SUMMARY_ROLE;
use super::{SessionSummary, Store, StoreError, new_session_id};

/// What a branch copies from its source session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchSpec<'a> {
    /// The messages before this sequence number are copied.
    pub before_seq: i64,
    /// The tool calls to copy (with their checkpoints): those of the copied messages and of the
    /// sub-agents they started.
    pub call_ids: &'a [String],
    pub title: &'a str,
    /// The branch's task list (JSON), as it stood at the branch point.
    pub todos_json: &'a str,
}

impl Store {
    /// Creates a session in the workspace of `source` holding the messages of `source` before
    /// `spec.before_seq` and the calls `spec.call_ids`, in one transaction. `source` is not
    /// changed. `None` when `source` does not exist.
    ///
    /// A compaction summary stays where it is with the messages it replaced; messages that a
    /// summary after the branch point replaced are live in the branch (that summary is not
    /// copied, so the branch's history is what the source's was at that point).
    pub async fn branch_session(
        &self,
        source: &str,
        spec: &BranchSpec<'_>,
        now_ms: i64,
    ) -> Result<Option<SessionSummary>, StoreError> {
        let fail = |e| StoreError::from_sqlx(self.path(), e);
        let Some(original) = self.session(source).await? else {
            return Ok(None);
        };
        let id = new_session_id(now_ms);
        let mut tx = self.pool().begin().await.map_err(fail)?;
        sqlx::query(
            "INSERT INTO sessions (id, workspace_path, title, created_at, updated_at, todos)
             VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
        )
        .bind(&id)
        .bind(&original.workspace_path)
        .bind(spec.title)
        .bind(now_ms)
        .bind(spec.todos_json)
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        // The last summary before the branch point: what comes before it stays compacted.
        let (live_from,): (Option<i64>,) = sqlx::query_as(
            "SELECT MAX(seq) FROM messages WHERE session_id = ?1 AND role = ?2 AND seq < ?3",
        )
        .bind(source)
        .bind(SUMMARY_ROLE)
        .bind(spec.before_seq)
        .fetch_one(&mut *tx)
        .await
        .map_err(fail)?;
        sqlx::query(
            "INSERT INTO messages (session_id, seq, role, content, tokens, created_at, compacted_at)
             SELECT ?2, seq, role, content, tokens, created_at,
                    CASE WHEN seq < ?4 THEN compacted_at ELSE NULL END
             FROM messages WHERE session_id = ?1 AND seq < ?3",
        )
        .bind(source)
        .bind(&id)
        .bind(spec.before_seq)
        .bind(live_from.unwrap_or(i64::MIN))
        .execute(&mut *tx)
        .await
        .map_err(fail)?;
        for call_id in spec.call_ids {
            for statement in [
                "INSERT INTO tool_calls (session_id, call_id, name, state, info, created_at, updated_at)
                 SELECT ?2, call_id, name, state, info, created_at, updated_at
                 FROM tool_calls WHERE session_id = ?1 AND call_id = ?3",
                "INSERT INTO checkpoints
                    (session_id, call_id, path, before, after_hash, created_at, undone_at)
                 SELECT ?2, call_id, path, before, after_hash, created_at, undone_at
                 FROM checkpoints WHERE session_id = ?1 AND call_id = ?3",
            ] {
                sqlx::query(statement)
                    .bind(source)
                    .bind(&id)
                    .bind(call_id)
                    .execute(&mut *tx)
                    .await
                    .map_err(fail)?;
            }
        }
        tx.commit().await.map_err(fail)?;
        Ok(Some(SessionSummary {
            id,
            workspace_path: original.workspace_path,
            title: spec.title.to_owned(),
            created_at: now_ms,
            updated_at: now_ms,
        }))
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

    #[tokio::test]
    async fn copies_the_beginning_and_leaves_the_source_alone() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        for text in ["one", "two", "three"] {
            store
                .append_message(&s.id, "user", &json!({"text": text}), None, 2)
                .await
                .unwrap();
        }
        let info = json!({"call_id": "c1", "state": "succeeded"});
        for call in ["c1", "c2"] {
            store
                .save_tool_call(&s.id, call, "write", "succeeded", &info, 3)
                .await
                .unwrap();
        }
        let checkpoint = Checkpoint {
            call_id: "c1".into(),
            path: "a.rs".into(),
            before: Some(b"old".to_vec()),
            after_hash: [7; 32],
        };
        store
            .save_checkpoint(&s.id, &checkpoint, 10, 3)
            .await
            .unwrap();
        let spec = BranchSpec {
            before_seq: 3,
            call_ids: &["c1".to_owned()],
            title: "Branch",
            todos_json: r#"[{"id":"1"}]"#,
        };
        let branch = store
            .branch_session(&s.id, &spec, 9)
            .await
            .unwrap()
            .unwrap();
        assert_ne!(branch.id, s.id);
        assert_eq!(branch.workspace_path, "/ws");
        assert_eq!(
            store.session(&branch.id).await.unwrap().unwrap().title,
            "Branch"
        );
        assert_eq!(
            messages(&store, &branch.id).await,
            [(1, "one".into(), false), (2, "two".into(), false)]
        );
        let calls: Vec<_> = store
            .load_tool_calls(&branch.id)
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.call_id)
            .collect();
        assert_eq!(calls, ["c1"]);
        assert_eq!(
            store.checkpoint(&branch.id, "c1").await.unwrap(),
            Some(checkpoint)
        );
        assert_eq!(store.todos(&branch.id).await.unwrap(), r#"[{"id":"1"}]"#);
        // The source keeps everything; a new message in the branch continues its numbering.
        assert_eq!(messages(&store, &s.id).await.len(), 3);
        assert_eq!(store.load_tool_calls(&s.id).await.unwrap().len(), 2);
        let next = store
            .append_message(&branch.id, "user", &json!({"text": "edited"}), None, 10)
            .await
            .unwrap();
        assert_eq!(next, 3);
        assert!(
            store
                .branch_session("missing", &spec, 9)
                .await
                .unwrap()
                .is_none()
        );
    }

    #[tokio::test]
    async fn a_summary_after_the_branch_point_is_left_out_and_its_messages_are_live() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        for text in ["a", "b", "c", "d", "e"] {
            store
                .append_message(&s.id, "user", &json!({"text": text}), None, 2)
                .await
                .unwrap();
        }
        // a, b summarised by S1 (seq 3); then S1, c, d summarised by S2 (seq 6): a b S1 c d S2 e.
        store
            .compact_messages(&s.id, 2, &json!({"text": "S1"}), 3)
            .await
            .unwrap();
        store
            .compact_messages(&s.id, 3, &json!({"text": "S2"}), 4)
            .await
            .unwrap();
        let all = messages(&store, &s.id).await;
        let texts: Vec<&str> = all.iter().map(|(_, t, _)| t.as_str()).collect();
        assert_eq!(texts, ["a", "b", "S1", "c", "d", "S2", "e"]);

        // Before `d`: a and b stay compacted behind S1; S1 and c are live again.
        let spec = BranchSpec {
            before_seq: 5,
            call_ids: &[],
            title: "",
            todos_json: "[]",
        };
        let branch = store
            .branch_session(&s.id, &spec, 9)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            messages(&store, &branch.id).await,
            [
                (1, "a".into(), true),
                (2, "b".into(), true),
                (3, "S1".into(), false),
                (4, "c".into(), false),
            ]
        );
        // Before `b`: no summary before it, so `a` is live.
        let spec = BranchSpec {
            before_seq: 2,
            ..spec
        };
        let branch = store
            .branch_session(&s.id, &spec, 9)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(messages(&store, &branch.id).await, [(1, "a".into(), false)]);
    }
}
