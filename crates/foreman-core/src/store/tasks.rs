//! Tasks: a session with a place to work (see `crate::tasks`). The row is what survives a
//! restart: where the task works, its branch and base, whether it merged or was discarded, and
//! its last merge's progress.

use crate::protocol::TaskPlace;

use super::db::Store;
use super::error::StoreError;

/// Where a stored task is in its life; the protocol's `TaskState` adds what its session does.
/// Kept as text (`active`, `merged`, `discarded`): a value the store does not know reads as an
/// error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum TaskLife {
    /// Not merged or discarded (yet).
    Active,
    /// Its change landed.
    Merged,
    /// The user discarded it (restorable for a while).
    Discarded,
}

impl TaskLife {
    /// The word the store keeps, which error messages use too.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Merged => "merged",
            Self::Discarded => "discarded",
        }
    }
}

impl std::fmt::Display for TaskLife {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A stored task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskRow {
    pub id: String,
    pub workspace_path: String,
    pub name: String,
    pub place: TaskPlace,
    pub path: String,
    pub branch: Option<String>,
    pub base: String,
    pub base_commit: Option<String>,
    pub state: TaskLife,
    /// The last merge's progress (JSON).
    pub merge: Option<String>,
    pub merge_at: Option<i64>,
    pub note: Option<String>,
    pub port: Option<i64>,
    pub trash_ref: Option<String>,
    pub discarded_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "id, workspace_path, name, place, path, branch, base, base_commit, state, \
    merge, merge_at, note, port, trash_ref, discarded_at, created_at, updated_at";

impl<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow> for TaskRow {
    fn from_row(r: &'r sqlx::sqlite::SqliteRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            id: r.try_get("id")?,
            workspace_path: r.try_get("workspace_path")?,
            name: r.try_get("name")?,
            place: r.try_get("place")?,
            path: r.try_get("path")?,
            branch: r.try_get("branch")?,
            base: r.try_get("base")?,
            base_commit: r.try_get("base_commit")?,
            state: r.try_get("state")?,
            merge: r.try_get("merge")?,
            merge_at: r.try_get("merge_at")?,
            note: r.try_get("note")?,
            port: r.try_get("port")?,
            trash_ref: r.try_get("trash_ref")?,
            discarded_at: r.try_get("discarded_at")?,
            created_at: r.try_get("created_at")?,
            updated_at: r.try_get("updated_at")?,
        })
    }
}

impl Store {
    /// Stores a new task (its session exists already).
    pub async fn insert_task(&self, task: &TaskRow) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO tasks ({COLUMNS}) VALUES \
             (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)"
        ))
        .bind(&task.id)
        .bind(&task.workspace_path)
        .bind(&task.name)
        .bind(task.place)
        .bind(&task.path)
        .bind(&task.branch)
        .bind(&task.base)
        .bind(&task.base_commit)
        .bind(task.state)
        .bind(&task.merge)
        .bind(task.merge_at)
        .bind(&task.note)
        .bind(task.port)
        .bind(&task.trash_ref)
        .bind(task.discarded_at)
        .bind(task.created_at)
        .bind(task.updated_at)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// Writes every field of `task` back.
    pub async fn update_task(&self, task: &TaskRow) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE tasks SET name = ?2, place = ?3, path = ?4, branch = ?5, base = ?6,
             base_commit = ?7, state = ?8, merge = ?9, merge_at = ?10, note = ?11, port = ?12,
             trash_ref = ?13, discarded_at = ?14, updated_at = ?15 WHERE id = ?1",
        )
        .bind(&task.id)
        .bind(&task.name)
        .bind(task.place)
        .bind(&task.path)
        .bind(&task.branch)
        .bind(&task.base)
        .bind(&task.base_commit)
        .bind(task.state)
        .bind(&task.merge)
        .bind(task.merge_at)
        .bind(&task.note)
        .bind(task.port)
        .bind(&task.trash_ref)
        .bind(task.discarded_at)
        .bind(task.updated_at)
        .execute(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// The task `id` (a session id).
    pub async fn task(&self, id: &str) -> Result<Option<TaskRow>, StoreError> {
        let found: Option<TaskRow> =
            sqlx::query_as(&format!("SELECT {COLUMNS} FROM tasks WHERE id = ?1"))
                .bind(id)
                .fetch_optional(self.pool())
                .await
                .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(found)
    }

    /// The tasks of the folder `workspace_path`, oldest first.
    pub async fn tasks(&self, workspace_path: &str) -> Result<Vec<TaskRow>, StoreError> {
        let rows: Vec<TaskRow> = sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM tasks WHERE workspace_path = ?1 ORDER BY created_at, id"
        ))
        .bind(workspace_path)
        .fetch_all(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(rows)
    }

    /// Every task that still holds a port (not merged, not discarded), for choosing a free one.
    pub async fn ports_in_use(&self) -> Result<Vec<i64>, StoreError> {
        let rows: Vec<(i64,)> =
            sqlx::query_as("SELECT port FROM tasks WHERE port IS NOT NULL AND state = ?1")
                .bind(TaskLife::Active)
                .fetch_all(self.pool())
                .await
                .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(rows.into_iter().map(|(p,)| p).collect())
    }

    /// Forgets the task `id` (its session stays).
    pub async fn delete_task(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM tasks WHERE id = ?1")
            .bind(id)
            .execute(self.pool())
            .await
            .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(())
    }

    /// How the last task of session `id` ended (the protocol's `TaskEndReason` as JSON) and
    /// when; `None` when no task of it ended yet.
    pub async fn last_task_end(
        &self,
        session_id: &str,
    ) -> Result<Option<(serde_json::Value, i64)>, StoreError> {
        let found: Option<(String, i64)> = sqlx::query_as(
            "SELECT body, created_at FROM notices
             WHERE session_id = ?1 AND json_extract(body, '$.kind') = 'task_ended'
             ORDER BY rowid DESC LIMIT 1",
        )
        .bind(session_id)
        .fetch_optional(self.pool())
        .await
        .map_err(|e| StoreError::from_sqlx(self.path(), e))?;
        Ok(found.and_then(|(body, at)| {
            let body: serde_json::Value = serde_json::from_str(&body).ok()?;
            Some((body.get("reason")?.clone(), at))
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, name: &str) -> TaskRow {
        TaskRow {
            id: id.into(),
            workspace_path: "/repo".into(),
            name: name.into(),
            place: TaskPlace::Worktree,
            path: format!("/data/worktrees/{name}"),
            branch: Some(format!("foreman/{name}")),
            base: "main".into(),
            base_commit: Some("abc".into()),
            state: TaskLife::Active,
            merge: None,
            merge_at: None,
            note: None,
            port: Some(41000),
            trash_ref: None,
            discarded_at: None,
            created_at: 1,
            updated_at: 1,
        }
    }

    #[tokio::test]
    async fn tasks_are_stored_listed_and_updated() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.db")).await.unwrap();
        store.insert_task(&task("a", "one")).await.unwrap();
        store.insert_task(&task("b", "two")).await.unwrap();
        assert!(
            store.insert_task(&task("c", "one")).await.is_err(),
            "names are unique"
        );
        let mut b = store.task("b").await.unwrap().unwrap();
        b.state = TaskLife::Merged;
        b.merge = Some("{}".into());
        store.update_task(&b).await.unwrap();
        let listed = store.tasks("/repo").await.unwrap();
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[1], b);
        assert_eq!(store.ports_in_use().await.unwrap(), vec![41000]);
        store.delete_task("a").await.unwrap();
        assert_eq!(store.task("a").await.unwrap(), None);
    }

    #[tokio::test]
    async fn a_rows_text_reads_into_its_enums_and_an_unknown_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.db")).await.unwrap();
        // As an older version wrote them: the place and the state as text.
        let sql = format!(
            "INSERT INTO tasks ({COLUMNS}) VALUES (?1, '/repo', ?1, ?2, '/p', NULL, 'main', \
             NULL, ?3, NULL, NULL, NULL, NULL, NULL, NULL, 1, 1)"
        );
        let insert = |id: &'static str, place: &'static str, state: &'static str| {
            sqlx::query(&sql).bind(id).bind(place).bind(state)
        };
        insert("a", "worktree", "discarded")
            .execute(store.pool())
            .await
            .unwrap();
        insert("b", "folder", "merged")
            .execute(store.pool())
            .await
            .unwrap();
        let a = store.task("a").await.unwrap().unwrap();
        assert_eq!(
            (a.place, a.state),
            (TaskPlace::Worktree, TaskLife::Discarded)
        );
        let b = store.task("b").await.unwrap().unwrap();
        assert_eq!((b.place, b.state), (TaskPlace::Folder, TaskLife::Merged));
        // Written back, the text is what it was.
        store.update_task(&a).await.unwrap();
        let text: (String, String) =
            sqlx::query_as("SELECT place, state FROM tasks WHERE id = 'a'")
                .fetch_one(store.pool())
                .await
                .unwrap();
        assert_eq!(text, ("worktree".to_owned(), "discarded".to_owned()));
        // The words errors use are the ones the store keeps.
        let mut row = a;
        for life in [TaskLife::Active, TaskLife::Merged, TaskLife::Discarded] {
            row.state = life;
            store.update_task(&row).await.unwrap();
            let (text,): (String,) = sqlx::query_as("SELECT state FROM tasks WHERE id = 'a'")
                .fetch_one(store.pool())
                .await
                .unwrap();
            assert_eq!(text, life.as_str());
        }
        // The table's CHECK keeps an unknown place out; an unknown state reads as an error.
        assert!(
            insert("c", "attic", "active")
                .execute(store.pool())
                .await
                .is_err()
        );
        insert("d", "folder", "paused")
            .execute(store.pool())
            .await
            .unwrap();
        let error = store.task("d").await.unwrap_err().to_string();
        assert!(error.contains("paused"), "{error}");
        assert!(store.tasks("/repo").await.is_err());
    }
}
