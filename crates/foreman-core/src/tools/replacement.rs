//! A user's external tool standing in for a built-in (`"replaces": ["bash"]`): the model calls
//! it by the built-in's name and with the external tool's schema; the card and the approval
//! policy treat it as the built-in (a `bash` replacement's command is read and ruled like
//! `bash`'s) whenever its arguments fit the built-in's, and as an external tool otherwise.

use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use serde_json::Value;

use super::context::CallContext;
use super::error::{ToolError, codes};
use super::output::ToolOutput;
use super::tool::{AnyTool, Input, ProposedChange};
use crate::approval::CallFacts;
use crate::protocol::{ArgsView, ToolKind};
use crate::providers::ToolDefinition;

pub struct Replacement {
    tool: Arc<dyn AnyTool>,
    replaced: Arc<dyn AnyTool>,
}

impl Replacement {
    pub fn new(tool: Arc<dyn AnyTool>, replaced: Arc<dyn AnyTool>) -> Self {
        Self { tool, replaced }
    }
}

struct Both {
    own: Input,
    /// The arguments read as the built-in's, when they fit.
    replaced: Option<Input>,
}

impl AnyTool for Replacement {
    fn name(&self) -> &str {
        self.replaced.name()
    }

    fn kind(&self) -> ToolKind {
        self.replaced.kind()
    }

    fn view(&self) -> ArgsView {
        self.replaced.view()
    }

    fn definition(&self) -> ToolDefinition {
        ToolDefinition {
            name: self.replaced.name().to_owned(),
            ..self.tool.definition()
        }
    }

    fn title(&self, args: &Value) -> String {
        self.replaced.title(args)
    }

    fn parse(&self, args: &Value) -> Result<Input, ToolError> {
        Ok(Input::new(Both {
            own: self.tool.parse(args)?,
            replaced: self.replaced.parse(args).ok(),
        }))
    }

    fn facts(&self, input: &Input) -> Result<CallFacts, ToolError> {
        let both = input
            .get::<Both>()
            .ok_or_else(|| ToolError::new(codes::EXECUTION_FAILED, "not this tool's input"))?;
        let as_replaced = both
            .replaced
            .as_ref()
            .and_then(|i| self.replaced.facts(i).ok());
        match as_replaced {
            Some(facts) => Ok(facts),
            None => {
                let own = self.tool.facts(&both.own)?;
                Ok(CallFacts {
                    tool: self.name().to_owned(),
                    ..own
                })
            }
        }
    }

    /// It runs where the external tool runs: in the call's sandbox when that tool's command
    /// can be (a discovered tool), in its MCP server otherwise.
    fn sandboxable(&self) -> bool {
        self.tool.sandboxable()
    }

    /// What an external tool writes is its own business: no diff is promised.
    fn change(&self, _input: &Input) -> Option<ProposedChange> {
        None
    }

    fn changes_files(&self) -> bool {
        false
    }

    fn timeout(&self) -> Duration {
        self.tool.timeout()
    }

    fn run(
        self: Arc<Self>,
        input: Input,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<ToolOutput, ToolError>> {
        match input.take::<Both>() {
            Some(both) => Arc::clone(&self.tool).run(both.own, ctx),
            None => futures_util::future::ready(Err(ToolError::new(
                codes::EXECUTION_FAILED,
                "not this tool's input",
            )))
            .boxed(),
        }
    }

    fn replaces(&self) -> Option<&str> {
        Some(self.replaced.name())
    }
}
