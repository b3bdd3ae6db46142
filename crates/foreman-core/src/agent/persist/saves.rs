//! The engine's saves: each write of [`Persist`](super::state::Persist), its error reported to
//! the user as an event. A store that fails must not stop the agent, so the work goes on.

use serde_json::Value;

use crate::agent::engine::Engine;
use crate::conversation::transcript::TranscriptItem;
use crate::protocol::EventMsg;
use crate::providers::{Message, Usage};
use crate::store::StoreError;

impl Engine {
    pub(crate) fn store_failed(&mut self, e: &StoreError) {
        self.events.emit(EventMsg::Error {
            message: format!("could not save the session: {e}"),
        });
    }

    fn report(&mut self, result: Result<(), StoreError>) {
        if let Err(e) = result {
            self.store_failed(&e);
        }
    }

    /// Appends `message` to history and persists it (a sub-agent's history is its own and is
    /// not stored; its calls are). The user's first message names the session at once.
    pub(crate) async fn record(&mut self, message: Message) {
        if self.frame.depth == 0 {
            match self.persist.append(&message).await {
                Ok(Some(title)) => self.events.emit(EventMsg::SessionTitled { title }),
                Ok(None) => {}
                Err(e) => self.store_failed(&e),
            }
        }
        self.frame.history.push(message);
    }

    /// Stores a line of the conversation that the history does not hold (a task's end, a
    /// compaction), so a reopened conversation shows it where the live one did. The session's
    /// own only: a sub-agent's conversation is not shown as such.
    pub(crate) async fn save_notice(&mut self, notice: &TranscriptItem) {
        if self.frame.depth == 0 {
            let stored = self.persist.notice(notice).await;
            self.report(stored);
        }
    }

    /// Saves the current state of `call_id`.
    pub(crate) async fn save_call(&mut self, call_id: &str) {
        if let Some(call) = self.calls.get(call_id) {
            let stored = self.persist.call(call).await;
            self.report(stored);
        }
    }

    /// Keeps the session's task list (the JSON array `todo_write` set), so a reopened session
    /// shows it.
    pub(crate) async fn save_todos(&mut self, todos: &Value) {
        let stored = self.persist.todos(todos).await;
        self.report(stored);
    }

    /// Continues the session's usage and cost from its stored requests (none for a new session).
    pub(crate) async fn restore_spend(&mut self) -> Result<(), StoreError> {
        let (prior, last) = self.persist.prior_usage().await?;
        self.llm.spend.restore(&prior, last);
        Ok(())
    }

    /// Persists the usage of one request.
    pub(crate) async fn save_usage(&mut self, usage: Usage) {
        let stored = self.persist.usage(&self.llm.model, usage).await;
        self.report(stored);
    }
}
