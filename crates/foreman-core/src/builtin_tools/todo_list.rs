//! The session's task list, which `todo_write` replaces: its items and the checks they pass.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::BuiltinError;

/// State of one task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on (at most one task at a time).
    InProgress,
    /// Done.
    Completed,
}

/// One task in the list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct TodoItem {
    /// Stable identifier of the task, unique within the list.
    pub id: String,
    /// What the task is, in one short sentence.
    pub content: String,
    /// The task's state: pending, in_progress or completed.
    pub status: TodoStatus,
}

/// The session's task list. Cheap to clone; clones share the list.
#[derive(Debug, Clone, Default)]
pub struct TodoList {
    items: Arc<Mutex<Vec<TodoItem>>>,
}

impl TodoList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// A snapshot of the current list.
    pub fn items(&self) -> Vec<TodoItem> {
        self.items.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Validates and replaces the list.
    pub fn replace(&self, todos: Vec<TodoItem>) -> Result<(), BuiltinError> {
        validate(&todos)?;
        *self.items.lock().unwrap_or_else(|p| p.into_inner()) = todos;
        Ok(())
    }
}

fn validate(todos: &[TodoItem]) -> Result<(), BuiltinError> {
    let mut seen = HashSet::new();
    for item in todos {
        if item.id.trim().is_empty() {
            return Err(BuiltinError::InvalidParams(
                "every task needs a non-empty id".into(),
            ));
        }
        if item.content.trim().is_empty() {
            return Err(BuiltinError::InvalidParams(format!(
                "task `{}` has empty content",
                item.id
            )));
        }
        if !seen.insert(item.id.as_str()) {
            return Err(BuiltinError::InvalidParams(format!(
                "task id `{}` is used twice",
                item.id
            )));
        }
    }
    let active: Vec<&str> = todos
        .iter()
        .filter(|t| t.status == TodoStatus::InProgress)
        .map(|t| t.id.as_str())
        .collect();
    if active.len() > 1 {
        return Err(BuiltinError::InvalidParams(format!(
            "at most one task may be in_progress, but {} are: {}",
            active.len(),
            active.join(", ")
        )));
    }
    Ok(())
}
