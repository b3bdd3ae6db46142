//! [`ScriptedProvider`]: an in-process provider that plays prepared event lists, one per request,
//! and records the requests. For benches and tests that must exclude HTTP.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use futures_util::stream;
use tokio_util::sync::CancellationToken;

use crate::providers::{EventStream, Provider, ProviderError, ProviderEvent, ProviderRequest};

/// Plays `turns` in order; an exhausted script answers with an error.
#[derive(Debug, Clone, Default)]
pub struct ScriptedProvider {
    turns: Arc<Mutex<VecDeque<Vec<ProviderEvent>>>>,
    requests: Arc<Mutex<Vec<ProviderRequest>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl ScriptedProvider {
    pub fn new(turns: Vec<Vec<ProviderEvent>>) -> Self {
        Self {
            turns: Arc::new(Mutex::new(turns.into())),
            requests: Arc::default(),
        }
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<ProviderRequest> {
        lock(&self.requests).clone()
    }
}

impl Provider for ScriptedProvider {
    fn name(&self) -> &str {
        "Scripted"
    }

    fn stream(&self, request: ProviderRequest, _cancel: CancellationToken) -> EventStream {
        lock(&self.requests).push(request);
        let items: Vec<Result<ProviderEvent, ProviderError>> = match lock(&self.turns).pop_front() {
            Some(events) => events.into_iter().map(Ok).collect(),
            None => vec![Err(ProviderError::InvalidRequest {
                provider: "Scripted".into(),
                status: 400,
                message: "the script has no more responses".into(),
            })],
        };
        Box::pin(stream::iter(items))
    }
}
