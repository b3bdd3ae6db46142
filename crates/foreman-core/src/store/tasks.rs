//! Tasks: a session with a place to work (see `crate::tasks`). The row is what survives a
//! restart: where the task works, its branch and base, whether it merged or was discarded, and
//! its last merge's progress.

use super::db::Store;
use super::error::StoreError;

/// A stored task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskRow {
    pub id: String,
    pub workspace_path: String,
    pub name: String,
    /// `folder` or `worktree`.
    pub place: String,
    pub path: String,
    pub branch: Option<String>,
    pub base: String,
    pub base_commit: Option<String>,
    /// `active`, `merged` or `discarded`.
    pub state: String,
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
        .bind(&task.place)
        .bind(&task.path)
        .bind(&task.branch)
        .bind(&task.base)
        .bind(&task.base_commit)
        .bind(&task.state)
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
        .bind(&task.place)
        .bind(&task.path)
        .bind(&task.branch)
        .bind(&task.base)
        .bind(&task.base_commit)
        .bind(&task.state)
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
            sqlx::query_as("SELECT port FROM tasks WHERE port IS NOT NULL AND state = 'active'")
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
            place: "worktree".into(),
            path: format!("/data/worktrees/{name}"),
            branch: Some(format!("foreman/{name}")),
            base: "main".into(),
            base_commit: Some("abc".into()),
            state: "active".into(),
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
        b.state = "merged".into();
        b.merge = Some("{}".into());
        store.update_task(&b).await.unwrap();
        let listed = store.tasks("/repo").await.unwrap();
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[1], b);
        assert_eq!(store.ports_in_use().await.unwrap(), vec![41000]);
        store.delete_task("a").await.unwrap();
        assert_eq!(store.task("a").await.unwrap(), None);
    }
}
