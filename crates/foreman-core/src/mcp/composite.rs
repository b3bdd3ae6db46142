//! [`CompositeBackend`]: the built-in tools plus the hub's external tools behind one
//! [`ToolBackend`], so the session shows them with the same cards and approvals.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::hub::McpHub;
use crate::builtin_tools::stale_guard::ContentHash;
use crate::providers::ToolDefinition;
use crate::session::builtin_backend::BuiltinBackend;
use crate::session::task::ATTEMPT_COMPLETION;
use crate::session::tools::{CallFacts, OutputSink, ProposedChange, ToolBackend, ToolOutcome};

/// Built-ins first; external tools never shadow a built-in (their names are made unique).
/// Cheap to construct per session from a shared hub.
#[derive(Debug, Clone)]
pub struct CompositeBackend {
    builtin: Arc<dyn ToolBackend>,
    hub: McpHub,
    reserved: Arc<[String]>,
}

impl CompositeBackend {
    pub fn new(builtin: Arc<dyn ToolBackend>, hub: McpHub) -> Self {
        let reserved: Vec<String> = builtin
            .definitions()
            .into_iter()
            .map(|d| d.name)
            .chain(std::iter::once(ATTEMPT_COMPLETION.to_owned()))
            .collect();
        Self {
            builtin,
            hub,
            reserved: reserved.into(),
        }
    }

    /// The names external tools may not take (built-ins and `attempt_completion`), for
    /// [`McpHub::status`].
    /// The names external tools must not take when the built-ins are [`BuiltinBackend`]'s:
    /// what `reserved_names` gives for a composite over them, without building one.
    pub fn builtin_reserved_names() -> Vec<String> {
        BuiltinBackend::tool_names()
            .chain(std::iter::once(ATTEMPT_COMPLETION))
            .map(str::to_owned)
            .collect()
    }

    pub fn reserved_names(&self) -> &[String] {
        &self.reserved
    }

    pub fn hub(&self) -> &McpHub {
        &self.hub
    }
}

impl ToolBackend for CompositeBackend {
    fn definitions(&self) -> Vec<ToolDefinition> {
        let mut all = self.builtin.definitions();
        all.extend(self.hub.definitions(&self.reserved));
        all
    }

    fn facts(&self, name: &str, arguments: &Value) -> Result<CallFacts, String> {
        match self.hub.facts(&self.reserved, name, arguments) {
            Some(facts) => facts,
            None => self.builtin.facts(name, arguments),
        }
    }

    fn proposed_change(&self, name: &str, arguments: &Value) -> Option<ProposedChange> {
        self.builtin.proposed_change(name, arguments)
    }

    fn status(&self, name: &str, arguments: &Value) -> Option<String> {
        if self.reserved.iter().any(|r| r == name) {
            self.builtin.status(name, arguments)
        } else {
            None
        }
    }

    fn execute(
        &self,
        name: &str,
        arguments: Value,
        cancel: CancellationToken,
        output: OutputSink,
    ) -> BoxFuture<'static, ToolOutcome> {
        if self.reserved.iter().any(|r| r == name) {
            self.builtin.execute(name, arguments, cancel, output)
        } else {
            self.hub
                .call(&self.reserved, name, arguments, cancel, output)
        }
    }

    fn write_as_person(
        &self,
        path: &str,
        content: String,
        seen: Option<ContentHash>,
    ) -> BoxFuture<'static, ToolOutcome> {
        self.builtin.write_as_person(path, content, seen)
    }

    fn file_bytes(&self, path: &str) -> Result<Option<Vec<u8>>, String> {
        self.builtin.file_bytes(path)
    }

    fn restore_file(
        &self,
        path: &str,
        before: Option<&[u8]>,
        left: &[u8; 32],
    ) -> Result<(), String> {
        self.builtin.restore_file(path, before, left)
    }
}

#[cfg(test)]
mod reserved_tests {
    use super::*;
    use crate::mcp::{HubOptions, McpConfig};

    #[tokio::test]
    async fn the_static_reserved_names_match_a_composite_over_the_builtins() {
        let dir = tempfile::tempdir().unwrap();
        let builtin = BuiltinBackend::new(dir.path(), dir.path().join("data")).unwrap();
        let hub = McpHub::start(McpConfig::default(), HubOptions::default())
            .await
            .unwrap();
        let composite = CompositeBackend::new(Arc::new(builtin), hub);
        assert_eq!(
            composite.reserved_names(),
            CompositeBackend::builtin_reserved_names().as_slice()
        );
    }
}
