//! [`StreamingCall`]: the cheap per-call handle for streaming arguments into partial invocations.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{ActiveCall, ToolManager, lock};
use crate::tools::throttle::PartialStream;

/// One call whose arguments are streaming in. Each [`push`](Self::push) appends a piece; when
/// the manager's throttle allows, the tool gets a partial invocation with the params so far.
/// Once the call's final invocation starts (or the call is cancelled), pushes do nothing.
pub struct StreamingCall<'m> {
    manager: &'m ToolManager,
    message_id: String,
    call_id: String,
    name: String,
    active: Option<Arc<ActiveCall>>,
    stream: PartialStream,
    closed: bool,
}

impl std::fmt::Debug for StreamingCall<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamingCall")
            .field("call_id", &self.call_id)
            .field("name", &self.name)
            .field("bytes", &self.stream.text().len())
            .field("closed", &self.closed)
            .finish_non_exhaustive()
    }
}

impl<'m> StreamingCall<'m> {
    pub(super) fn new(
        manager: &'m ToolManager,
        message_id: &str,
        call_id: &str,
        name: &str,
    ) -> Self {
        Self {
            manager,
            message_id: message_id.to_owned(),
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            active: None,
            stream: PartialStream::new(),
            closed: false,
        }
    }

    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The argument text received so far.
    pub fn text(&self) -> &str {
        self.stream.text()
    }

    /// Appends `delta`; returns whether a partial invocation ran. Pieces the throttle lets pass
    /// cost only the append and the scan.
    pub async fn push(&mut self, delta: &str) -> bool {
        if self.closed {
            return false;
        }
        // Boxed so the future of every cheap push stays small; both run rarely.
        if self.active.is_none() && !Box::pin(self.resolve()).await {
            return false;
        }
        if !self
            .stream
            .push(delta, &self.manager.config.throttle, Instant::now)
        {
            return false;
        }
        let Some(active) = &self.active else {
            return false;
        };
        if active.executing.load(Ordering::Relaxed) || active.cancel.is_cancelled() {
            self.closed = true;
            return false;
        }
        let params = self.stream.current();
        Box::pin(self.manager.run_partial(active, params)).await;
        true
    }

    /// Finds or creates the call's instance; closes the handle when there is none.
    async fn resolve(&mut self) -> bool {
        if lock(&self.manager.state)
            .finished
            .contains_key(&self.call_id)
        {
            self.closed = true;
            return false;
        }
        let resolved = self
            .manager
            .active_call(&self.message_id, &self.call_id, &self.name)
            .await;
        match resolved {
            Some(active) => {
                self.active = Some(active);
                true
            }
            None => {
                self.closed = true;
                false
            }
        }
    }
}
