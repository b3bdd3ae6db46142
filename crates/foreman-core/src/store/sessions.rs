//! Sessions: one conversation with the agent in a workspace.

use super::db::Store;
use super::error::StoreError;
pub use foreman_protocol::records::SessionSummary;

type SessionRow = (String, String, String, i64, i64, Option<String>);

fn summary(
    (id, workspace_path, title, created_at, updated_at, agent): SessionRow,
) -> SessionSummary {
    SessionSummary {
        id,
        workspace_path,
        title,
        created_at,
        updated_at,
        activity: None,
        agent,
    }
}

/// A new session id: time-ordered and unique (the time in milliseconds plus randomness).
pub fn new_session_id(now_ms: i64) -> String {
    let random: u64 = rand_u64();
    format!("{now_ms:013x}-{random:016x}")
}

fn rand_u64() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    hasher.write_u128(nanos);
    hasher.finish()
}

impl Store {
    /// Creates an empty session in `workspace_path`.
    pub async fn create_session(
        &self,
        workspace_path: &str,
        now_ms: i64,
    ) -> Result<SessionSummary, StoreError> {
        let id = new_session_id(now_ms);
        sqlx::query(
            "INSERT INTO sessions (id, workspace_path, title, created_at, updated_at)
             VALUES (?1, ?2, '', ?3, ?3)",
        )
        .bind(&id)
        .bind(workspace_path)
        .bind(now_ms)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(SessionSummary {
            id,
            workspace_path: workspace_path.to_owned(),
            title: String::new(),
            created_at: now_ms,
            updated_at: now_ms,
            activity: None,
            agent: None,
        })
    }

    /// The sessions of a workspace, most recently changed first.
    pub async fn list_sessions(
        &self,
        workspace_path: &str,
    ) -> Result<Vec<SessionSummary>, StoreError> {
        let rows: Vec<SessionRow> = sqlx::query_as(
            "SELECT id, workspace_path, title, created_at, updated_at, agent FROM sessions
             WHERE workspace_path = ?1 ORDER BY updated_at DESC, id DESC",
        )
        .bind(workspace_path)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(rows.into_iter().map(summary).collect())
    }

    /// One session, if it exists.
    pub async fn session(&self, id: &str) -> Result<Option<SessionSummary>, StoreError> {
        let row: Option<SessionRow> = sqlx::query_as(
            "SELECT id, workspace_path, title, created_at, updated_at, agent FROM sessions \
             WHERE id = ?1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.map(summary))
    }

    /// Sets the title (the first message's opening words, or the user's rename).
    pub async fn rename_session(&self, id: &str, title: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE sessions SET title = ?2 WHERE id = ?1")
            .bind(id)
            .bind(title)
            .execute(self.pool())
            .await
            .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(done.rows_affected() > 0)
    }

    /// Deletes a session with its history, tool calls and usage.
    pub async fn delete_session(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE id = ?1")
            .bind(id)
            .execute(self.pool())
            .await
            .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(done.rows_affected() > 0)
    }

    /// Replaces the session's task list (JSON from `todo_write`).
    pub async fn set_todos(&self, id: &str, todos_json: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET todos = ?2 WHERE id = ?1")
            .bind(id)
            .bind(todos_json)
            .execute(self.pool())
            .await
            .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// Records the external agent that does the session's work, and its own id of the session.
    pub async fn set_session_agent(
        &self,
        id: &str,
        agent: &str,
        agent_session: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET agent = ?2, agent_session = ?3 WHERE id = ?1")
            .bind(id)
            .bind(agent)
            .bind(agent_session)
            .execute(self.pool())
            .await
            .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// The external agent of the session and its own id of it (`None`: Foreman's own agent).
    pub async fn session_agent(
        &self,
        id: &str,
    ) -> Result<Option<(String, Option<String>)>, StoreError> {
        let row: Option<(Option<String>, Option<String>)> =
            sqlx::query_as("SELECT agent, agent_session FROM sessions WHERE id = ?1")
                .bind(id)
                .fetch_optional(self.pool())
                .await
                .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.and_then(|(agent, session)| agent.map(|a| (a, session))))
    }

    /// The session's task list as JSON (`[]` when none).
    pub async fn todos(&self, id: &str) -> Result<String, StoreError> {
        let row: Option<(String,)> = sqlx::query_as("SELECT todos FROM sessions WHERE id = ?1")
            .bind(id)
            .fetch_optional(self.pool())
            .await
            .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(row.map(|r| r.0).unwrap_or_else(|| "[]".to_owned()))
    }
}

/// A title from the first message: its first line, at most 60 characters, cut at a word.
pub fn title_from_message(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() <= 60 {
        return line.to_owned();
    }
    let cut: String = line.chars().take(60).collect();
    let at_word = cut
        .rfind(' ')
        .filter(|&i| i > 30)
        .map_or(cut.as_str(), |i| &cut[..i]);
    format!("{}…", at_word.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn sessions_are_listed_per_workspace_newest_first() {
        let store = Store::open_in_memory().await.unwrap();
        let a = store.create_session("/ws", 1).await.unwrap();
        let b = store.create_session("/ws", 2).await.unwrap();
        store.create_session("/other", 3).await.unwrap();
        let listed: Vec<_> = store
            .list_sessions("/ws")
            .await
            .unwrap()
            .into_iter()
            .map(|s| s.id)
            .collect();
        assert_eq!(listed, [b.id.clone(), a.id.clone()]);

        assert!(store.rename_session(&a.id, "Fix the parser").await.unwrap());
        assert_eq!(
            store.session(&a.id).await.unwrap().unwrap().title,
            "Fix the parser"
        );
        assert!(store.delete_session(&b.id).await.unwrap());
        assert_eq!(store.list_sessions("/ws").await.unwrap().len(), 1);
        assert!(store.session(&b.id).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn todos_round_trip() {
        let store = Store::open_in_memory().await.unwrap();
        let s = store.create_session("/ws", 1).await.unwrap();
        assert_eq!(store.todos(&s.id).await.unwrap(), "[]");
        store.set_todos(&s.id, r#"[{"id":"1"}]"#).await.unwrap();
        assert_eq!(store.todos(&s.id).await.unwrap(), r#"[{"id":"1"}]"#);
    }

    #[test]
    fn titles_come_from_the_first_line() {
        assert_eq!(title_from_message("\n  Fix the bug\nmore"), "Fix the bug");
        let long = "Refactor the streaming parser so that every push costs time proportional to the fragment";
        let title = title_from_message(long);
        assert!(title.ends_with('…'));
        assert!(title.chars().count() <= 61);
        assert!(long.starts_with(title.trim_end_matches('…')));
    }

    #[test]
    fn session_ids_sort_by_time_and_differ() {
        let a = new_session_id(1_000);
        let b = new_session_id(2_000);
        assert!(a < b);
        assert_ne!(new_session_id(5), new_session_id(5));
    }
}
