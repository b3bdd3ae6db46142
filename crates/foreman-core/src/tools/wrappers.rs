//! The ordered chain every final invocation passes through (logging, timing/stats, and whatever
//! the loop inserts, e.g. an approval gate) before the guarded tool runs.
//!
//! A [`ToolWrapper`] gets the call, the context and a [`Next`]; it may act before and after
//! `next.run(ctx)`, or return a result without calling it (an approval gate refusing the call).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use serde_json::Value;

use super::context::{ToolContext, ToolEvent};
use super::contract::Tool;
use super::guard::run_guarded;
use super::kind::ToolKind;
use super::result::ToolResult;
use super::stats::StatsBook;

/// What a wrapper can see of the call.
#[derive(Debug, Clone, Copy)]
pub struct CallView<'a> {
    pub call_id: &'a str,
    pub tool_name: &'a str,
    pub kind: ToolKind,
    /// The validated (and possibly repaired) params.
    pub params: &'a Value,
}

/// One link of the chain.
#[async_trait]
pub trait ToolWrapper: Send + Sync + 'static {
    /// A name to position other wrappers relative to this one.
    fn name(&self) -> &str;

    /// Handles the call; call `next.run(ctx)` to continue down the chain.
    async fn around(&self, call: CallView<'_>, ctx: &ToolContext, next: Next<'_>) -> ToolResult;
}

/// The rest of the chain, ending in the guarded tool.
pub struct Next<'a> {
    rest: &'a [Arc<dyn ToolWrapper>],
    call: CallView<'a>,
    tool: &'a dyn Tool,
    timeout: Duration,
}

impl Next<'_> {
    /// Runs the remaining wrappers and then the tool.
    pub async fn run(self, ctx: &ToolContext) -> ToolResult {
        match self.rest.split_first() {
            Some((first, rest)) => {
                let next = Next { rest, ..self };
                first.around(self.call, ctx, next).await
            }
            None => run_guarded(self.tool, self.call.params.clone(), ctx, self.timeout).await,
        }
    }
}

/// An ordered list of wrappers; the first is outermost.
#[derive(Clone, Default)]
pub struct WrapperChain {
    wrappers: Vec<Arc<dyn ToolWrapper>>,
}

impl std::fmt::Debug for WrapperChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl WrapperChain {
    /// An empty chain.
    pub fn new() -> Self {
        Self::default()
    }

    /// Logging, then stats recorded into `stats`.
    pub fn standard(stats: Arc<Mutex<StatsBook>>) -> Self {
        let mut chain = Self::new();
        chain.push(Arc::new(LoggingWrapper));
        chain.push(Arc::new(StatsWrapper::new(stats)));
        chain
    }

    /// Appends an innermost wrapper.
    pub fn push(&mut self, wrapper: Arc<dyn ToolWrapper>) {
        self.wrappers.push(wrapper);
    }

    /// Inserts `wrapper` right before (outside) the one named `name`; `false` if absent.
    pub fn insert_before(&mut self, name: &str, wrapper: Arc<dyn ToolWrapper>) -> bool {
        match self.position(name) {
            Some(index) => {
                self.wrappers.insert(index, wrapper);
                true
            }
            None => false,
        }
    }

    /// Inserts `wrapper` right after (inside) the one named `name`; `false` if absent.
    pub fn insert_after(&mut self, name: &str, wrapper: Arc<dyn ToolWrapper>) -> bool {
        match self.position(name) {
            Some(index) => {
                self.wrappers.insert(index + 1, wrapper);
                true
            }
            None => false,
        }
    }

    /// Removes the wrapper named `name`.
    pub fn remove(&mut self, name: &str) -> bool {
        let before = self.wrappers.len();
        self.wrappers.retain(|w| w.name() != name);
        self.wrappers.len() != before
    }

    /// Wrapper names, outermost first.
    pub fn names(&self) -> Vec<String> {
        self.wrappers.iter().map(|w| w.name().to_owned()).collect()
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.wrappers.iter().position(|w| w.name() == name)
    }

    /// Runs `tool` through the chain.
    pub(crate) async fn run(
        &self,
        call: CallView<'_>,
        tool: &dyn Tool,
        timeout: Duration,
        ctx: &ToolContext,
    ) -> ToolResult {
        Next {
            rest: &self.wrappers,
            call,
            tool,
            timeout,
        }
        .run(ctx)
        .await
    }
}

/// Logs every call's start and end with `tracing`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LoggingWrapper;

#[async_trait]
impl ToolWrapper for LoggingWrapper {
    fn name(&self) -> &str {
        "logging"
    }

    async fn around(&self, call: CallView<'_>, ctx: &ToolContext, next: Next<'_>) -> ToolResult {
        tracing::debug!(
            tool = call.tool_name,
            call_id = call.call_id,
            "tool call started"
        );
        let result = next.run(ctx).await;
        match result.error() {
            Some(error) => tracing::info!(
                tool = call.tool_name,
                call_id = call.call_id,
                code = error.kind.code(),
                "tool call failed: {}",
                error.message
            ),
            None => tracing::debug!(
                tool = call.tool_name,
                call_id = call.call_id,
                "tool call succeeded"
            ),
        }
        result
    }
}

/// Times every call, records it in the [`StatsBook`] and emits [`ToolEvent::Stats`].
#[derive(Debug, Clone)]
pub struct StatsWrapper {
    book: Arc<Mutex<StatsBook>>,
}

impl StatsWrapper {
    pub fn new(book: Arc<Mutex<StatsBook>>) -> Self {
        Self { book }
    }
}

#[async_trait]
impl ToolWrapper for StatsWrapper {
    fn name(&self) -> &str {
        "stats"
    }

    async fn around(&self, call: CallView<'_>, ctx: &ToolContext, next: Next<'_>) -> ToolResult {
        let started = Instant::now();
        let result = next.run(ctx).await;
        let stats = self
            .book
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .record(call.tool_name, !result.is_error(), started.elapsed());
        ctx.env().emit(ToolEvent::Stats {
            session_id: ctx.session_id().to_owned(),
            stats,
        });
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Named(&'static str);

    #[async_trait]
    impl ToolWrapper for Named {
        fn name(&self) -> &str {
            self.0
        }
        async fn around(&self, _: CallView<'_>, ctx: &ToolContext, next: Next<'_>) -> ToolResult {
            next.run(ctx).await
        }
    }

    #[test]
    fn wrappers_can_be_positioned_by_name() {
        let mut chain = WrapperChain::standard(Arc::default());
        assert_eq!(chain.names(), ["logging", "stats"]);
        assert!(chain.insert_after("stats", Arc::new(Named("approval"))));
        assert!(chain.insert_before("logging", Arc::new(Named("outer"))));
        assert!(!chain.insert_before("missing", Arc::new(Named("x"))));
        assert_eq!(chain.names(), ["outer", "logging", "stats", "approval"]);
        assert!(chain.remove("outer"));
        assert!(!chain.remove("outer"));
        assert_eq!(chain.names(), ["logging", "stats", "approval"]);
    }
}
