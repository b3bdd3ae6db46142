//! Storing a running session through [`crate::store`]: the history exactly as sent to the
//! model, tool calls with their latest state, the task list and usage. [`Persist`] does the
//! writes and returns their errors; `saves` reports them.

use serde_json::Value;

use crate::agent::llm::spend::PriorUsage;
use crate::conversation::notes::is_model_note;
use crate::conversation::resume::role;
use crate::conversation::transcript::TranscriptItem;
use crate::protocol::CallSnapshot;
use crate::providers::{Message, Usage};
use crate::store::now_ms;
use crate::store::{NewWorkspaceCheckpoint, Store, StoreError, UsageTotals, title_from_message};

/// Where a session is stored, when it is.
#[derive(Debug)]
pub(crate) struct Persist {
    store: Option<Store>,
    session_id: String,
    /// Whether the session has its title (from its first message).
    titled: bool,
}

impl Persist {
    pub(crate) fn new(store: Option<Store>, session_id: String, titled: bool) -> Self {
        Self {
            store,
            session_id,
            titled,
        }
    }

    /// Appends a message of the session's own history, titling the session by its first
    /// message of the user; the title, when this message gave it.
    pub(crate) async fn append(&mut self, message: &Message) -> Result<Option<String>, StoreError> {
        let Some(store) = &self.store else {
            return Ok(None);
        };
        let mut titled = None;
        if let Message::User { text, .. } = message
            && !self.titled
            && !is_model_note(text)
        {
            self.titled = true;
            let title = title_from_message(text);
            store.rename_session(&self.session_id, &title).await?;
            titled = Some(title);
        }
        let content = serde_json::to_value(message).unwrap_or(Value::Null);
        store
            .append_message(&self.session_id, role(message), &content, None, now_ms())
            .await?;
        Ok(titled)
    }

    pub(crate) async fn notice(&self, notice: &TranscriptItem) -> Result<(), StoreError> {
        let (Some(store), Ok(body)) = (&self.store, serde_json::to_value(notice)) else {
            return Ok(());
        };
        store.record_notice(&self.session_id, &body, now_ms()).await
    }

    pub(crate) async fn call(&self, call: &CallSnapshot) -> Result<(), StoreError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let state = serde_json::to_value(call.state)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let info = serde_json::to_value(call).unwrap_or(Value::Null);
        store
            .save_tool_call(
                &self.session_id,
                &call.call_id,
                &call.name,
                &state,
                &info,
                now_ms(),
            )
            .await
    }

    pub(crate) async fn todos(&self, todos: &Value) -> Result<(), StoreError> {
        match &self.store {
            Some(store) => store.set_todos(&self.session_id, &todos.to_string()).await,
            None => Ok(()),
        }
    }

    /// The usage of the session's stored requests per model, and of its last request.
    pub(crate) async fn prior_usage(&self) -> Result<(Vec<PriorUsage>, Option<Usage>), StoreError> {
        let Some(store) = &self.store else {
            return Ok((Vec::new(), None));
        };
        let prior = store
            .usage_by_model(&self.session_id)
            .await?
            .into_iter()
            .map(|m| PriorUsage {
                usage: usage_of(&m.totals),
                requests: u64::try_from(m.totals.requests).unwrap_or(0),
                model: m.model,
            })
            .collect();
        let last = store
            .last_usage(&self.session_id)
            .await?
            .map(|t| usage_of(&t));
        Ok((prior, last))
    }

    pub(crate) async fn usage(&self, model: &str, usage: Usage) -> Result<(), StoreError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let to_i64 = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        let totals = UsageTotals {
            input: to_i64(usage.input),
            output: to_i64(usage.output),
            cache_read: to_i64(usage.cache_read),
            cache_write: to_i64(usage.cache_write),
            requests: 1,
        };
        store
            .record_usage(&self.session_id, model, totals, now_ms())
            .await
    }

    /// Records a checkpoint of the session's workspace.
    pub(crate) async fn workspace_checkpoint(
        &self,
        checkpoint: NewWorkspaceCheckpoint<'_>,
    ) -> Result<(), StoreError> {
        match &self.store {
            Some(store) => {
                store
                    .record_workspace_checkpoint(&self.session_id, checkpoint, now_ms())
                    .await
            }
            None => Ok(()),
        }
    }

    /// The checkpoint from before the user's message `message`.
    pub(crate) async fn checkpoint_before(
        &self,
        message: u32,
    ) -> Result<Option<String>, StoreError> {
        match &self.store {
            Some(store) => {
                store
                    .checkpoint_before_message(&self.session_id, message)
                    .await
            }
            None => Ok(None),
        }
    }

    /// The checkpoint from just before the session's last rewind, and its message.
    pub(crate) async fn last_rewind(&self) -> Result<Option<(String, u32)>, StoreError> {
        match &self.store {
            Some(store) => store.last_rewind(&self.session_id).await,
            None => Ok(None),
        }
    }

    /// The session's newest checkpoint.
    pub(crate) async fn latest_checkpoint(&self) -> Result<Option<String>, StoreError> {
        match &self.store {
            Some(store) => store.latest_workspace_checkpoint(&self.session_id).await,
            None => Ok(None),
        }
    }

    /// The store, for what the undo keeps there and the checkpoints' retention.
    pub(crate) fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }
}

/// The token counts of stored totals (negative counts, which the store never writes, read as 0).
fn usage_of(totals: &UsageTotals) -> Usage {
    let count = |n: i64| u64::try_from(n).unwrap_or(0);
    Usage {
        input: count(totals.input),
        output: count(totals.output),
        cache_read: count(totals.cache_read),
        cache_write: count(totals.cache_write),
    }
}
