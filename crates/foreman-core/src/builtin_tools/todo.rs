//! The `todo_write` tool and the per-session task list it replaces. At most one task may be in
//! progress. (Persistence in SQLite comes later; the list lives in memory for the session.)

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::BuiltinError;
use super::listed::Builtin;
use super::session::BuiltinSession;
pub use super::todo_list::{TodoItem, TodoList, TodoStatus};

use std::sync::Arc;

use serde_json::Value;

use crate::approval::{ActionClass, CallFacts};
use crate::protocol::ToolKind;
use crate::tools::{CallContext, Control, Tool, ToolError, ToolOutput};

/// Replace your task list for this session with `todos` (each with id, content and status pending,
/// in_progress or completed). Keep exactly one task in_progress while working.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct TodoWriteParams {
    /// The complete new task list; it replaces the previous one.
    pub todos: Vec<TodoItem>,
}

/// Result of the `todo_write` tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TodoWriteOutput {
    /// Short title, e.g. `Tasks: 2 done, 1 in progress, 3 pending`.
    pub title: String,
    /// The list as stored.
    pub todos: Vec<TodoItem>,
    /// Count of pending tasks.
    pub pending: usize,
    /// Count of tasks in progress (0 or 1).
    pub in_progress: usize,
    /// Count of completed tasks.
    pub completed: usize,
}

impl TodoWriteOutput {
    /// Text given to the model: a checklist.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for item in &self.todos {
            let mark = match item.status {
                TodoStatus::Pending => "[ ]",
                TodoStatus::InProgress => "[~]",
                TodoStatus::Completed => "[x]",
            };
            out.push_str(&format!("{mark} {} ({})\n", item.content, item.id));
        }
        if out.is_empty() {
            out.push_str("The task list is now empty.\n");
        }
        out
    }
}

/// The progress tip shown while the tool runs.
pub fn todo_tip(params: &TodoWriteParams) -> String {
    format!("Updating the task list ({} tasks)…", params.todos.len())
}

/// Runs the `todo_write` tool.
pub async fn run_todo_write(
    session: &BuiltinSession,
    params: TodoWriteParams,
) -> Result<TodoWriteOutput, BuiltinError> {
    session.todos.replace(params.todos.clone())?;
    let count = |s| params.todos.iter().filter(|t| t.status == s).count();
    let (pending, in_progress, completed) = (
        count(TodoStatus::Pending),
        count(TodoStatus::InProgress),
        count(TodoStatus::Completed),
    );
    Ok(TodoWriteOutput {
        title: format!("Tasks: {completed} done, {in_progress} in progress, {pending} pending"),
        todos: params.todos,
        pending,
        in_progress,
        completed,
    })
}

/// `todo_write`, for the runtime: its output tells the loop the new list.
#[derive(Debug, Clone)]
pub struct TodoWriteTool {
    session: BuiltinSession,
}

impl TodoWriteTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Builtin for TodoWriteTool {
    const CLAUDE_NAME: Option<&'static str> = Some("TodoWrite");

    fn for_session(session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self::new(session.clone()))
    }
}

impl Tool for TodoWriteTool {
    type Input = TodoWriteParams;
    const NAME: &'static str = "todo_write";
    const KIND: ToolKind = ToolKind::Plan;

    fn title(&self, _args: &Value) -> String {
        "task list".to_owned()
    }

    fn facts(&self, _input: &TodoWriteParams) -> Result<CallFacts, ToolError> {
        Ok(CallFacts::new(Self::NAME, ActionClass::Read))
    }

    async fn run(
        self: Arc<Self>,
        input: TodoWriteParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        ctx.sink.status(todo_tip(&input));
        let output = run_todo_write(&self.session, input).await?;
        let todos = serde_json::to_value(&output.todos).unwrap_or(Value::Array(Vec::new()));
        Ok(ToolOutput {
            control: Some(Control::Todos(todos)),
            ..ToolOutput::text(output.render()).summarised(output.title)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::WorkspaceBoundary;

    fn item(id: &str, status: TodoStatus) -> TodoItem {
        TodoItem {
            id: id.into(),
            content: format!("task {id}"),
            status,
        }
    }

    fn session() -> (tempfile::TempDir, BuiltinSession) {
        let dir = tempfile::tempdir().unwrap();
        let s = BuiltinSession::new(
            WorkspaceBoundary::new(dir.path()).unwrap(),
            dir.path().into(),
        );
        (dir, s)
    }

    #[tokio::test]
    async fn replaces_the_list() {
        let (_d, s) = session();
        let todos = vec![
            item("1", TodoStatus::Completed),
            item("2", TodoStatus::InProgress),
            item("3", TodoStatus::Pending),
        ];
        let out = run_todo_write(
            &s,
            TodoWriteParams {
                todos: todos.clone(),
            },
        )
        .await
        .unwrap();
        assert_eq!(out.title, "Tasks: 1 done, 1 in progress, 1 pending");
        assert_eq!(s.todos.items(), todos);
        assert!(out.render().contains("[~] task 2 (2)"));
        run_todo_write(&s, TodoWriteParams { todos: vec![] })
            .await
            .unwrap();
        assert!(s.todos.items().is_empty());
    }

    #[tokio::test]
    async fn rejects_two_in_progress_and_keeps_old_list() {
        let (_d, s) = session();
        run_todo_write(
            &s,
            TodoWriteParams {
                todos: vec![item("a", TodoStatus::Pending)],
            },
        )
        .await
        .unwrap();
        let err = run_todo_write(
            &s,
            TodoWriteParams {
                todos: vec![
                    item("a", TodoStatus::InProgress),
                    item("b", TodoStatus::InProgress),
                ],
            },
        )
        .await
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("at most one task may be in_progress")
        );
        assert_eq!(s.todos.items(), vec![item("a", TodoStatus::Pending)]);
    }

    #[tokio::test]
    async fn rejects_duplicate_and_empty_ids() {
        let (_d, s) = session();
        let dup = vec![
            item("a", TodoStatus::Pending),
            item("a", TodoStatus::Completed),
        ];
        assert!(
            run_todo_write(&s, TodoWriteParams { todos: dup })
                .await
                .is_err()
        );
        let empty = vec![item(" ", TodoStatus::Pending)];
        assert!(
            run_todo_write(&s, TodoWriteParams { todos: empty })
                .await
                .is_err()
        );
    }

    #[test]
    fn status_serialises_snake_case() {
        let t: TodoItem =
            serde_json::from_str(r#"{"id":"1","content":"c","status":"in_progress"}"#).unwrap();
        assert_eq!(t.status, TodoStatus::InProgress);
    }
}
