//! [`ToolSet`]: the tools of one session by name — the built-ins and system tools, then the
//! external ones (MCP, discovery). An external tool replaces a built-in only when its
//! configuration says so (`"replaces": ["bash"]`); it then takes the built-in's name and goes
//! through the policy as the built-in would ([`Replacement`]).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use super::replacement::Replacement;
use super::tool::AnyTool;
use super::validation::ParamValidator;
use crate::providers::ToolDefinition;

struct Entry {
    tool: Arc<dyn AnyTool>,
    definition: ToolDefinition,
    /// `None` when the schema does not compile: the tool itself is left to refuse bad input.
    validator: Option<ParamValidator>,
}

/// The tools a session offers.
#[derive(Clone)]
pub struct ToolSet {
    entries: Arc<Vec<Entry>>,
    /// Configured timeouts by tool name; they win over a tool's own.
    timeouts: Arc<HashMap<String, Duration>>,
}

impl std::fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolSet")
            .field("tools", &self.names())
            .finish_non_exhaustive()
    }
}

impl ToolSet {
    /// `builtins` in their order, then `external`; an external tool that replaces a built-in
    /// takes its place.
    pub fn new(builtins: Vec<Arc<dyn AnyTool>>, external: Vec<Arc<dyn AnyTool>>) -> Self {
        let mut tools = builtins;
        for tool in external {
            let replaced = tool
                .replaces()
                .and_then(|name| tools.iter().position(|t| t.name() == name));
            match replaced {
                Some(at) => {
                    let builtin = Arc::clone(&tools[at]);
                    tools[at] = Arc::new(Replacement::new(tool, builtin));
                }
                None => tools.push(tool),
            }
        }
        let entries = tools
            .into_iter()
            .map(|tool| {
                let definition = tool.definition();
                let validator = ParamValidator::new(definition.input_schema.clone()).ok();
                Entry {
                    tool,
                    definition,
                    validator,
                }
            })
            .collect();
        Self {
            entries: Arc::new(entries),
            timeouts: Arc::default(),
        }
    }

    /// With configured timeouts by tool name (they win over a tool's own).
    #[must_use]
    pub fn with_timeouts(mut self, timeouts: HashMap<String, Duration>) -> Self {
        self.timeouts = Arc::new(timeouts);
        self
    }

    fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.definition.name == name)
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn AnyTool>> {
        self.entry(name).map(|e| &e.tool)
    }

    pub(super) fn validator(&self, name: &str) -> Option<&ParamValidator> {
        self.entry(name).and_then(|e| e.validator.as_ref())
    }

    /// Every tool's name, in order.
    pub fn names(&self) -> Vec<String> {
        self.entries
            .iter()
            .map(|e| e.definition.name.clone())
            .collect()
    }

    /// What the model is given.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        self.entries.iter().map(|e| e.definition.clone()).collect()
    }

    /// How long a call of `tool` may run: the configured timeout, else the tool's own.
    pub fn timeout(&self, tool: &Arc<dyn AnyTool>) -> Duration {
        self.timeouts
            .get(tool.name())
            .copied()
            .unwrap_or_else(|| tool.timeout())
    }
}
