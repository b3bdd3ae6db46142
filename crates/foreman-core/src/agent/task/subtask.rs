//! `new_task`: a sub-agent with its own history and tool set, run inside the parent's call.
//!
//! The child is not a second session: it runs in the parent's engine task, on the same provider
//! and model, with the same approval policy, op channel, cancel token, call registry and event
//! stream. Only its frame is its own ([`Frame`]: history, system prompt, tool definitions,
//! iteration cap, failure counts, depth), swapped in for the call and swapped back after. So the
//! user approves the child's writes and commands exactly like the parent's (an answer to a
//! child's call id reaches the child, which is the one waiting), `cancel` stops both, the child's
//! requests count into the session's usage, and every event it causes carries the `new_task`
//! call as `parent_call_id` (see [`EventSink`](crate::agent::events::EventSink)).
//!
//! The child's history is not stored (the session's stored history is what the parent model was
//! sent); its tool calls are, with `parent_call_id`, so a reopened session shows them nested.

use std::collections::HashMap;

use crate::agent::engine::Engine;
use crate::agent::frame::Frame;
use crate::builtin_tools::attempt_completion::AttemptCompletionTool;
use crate::builtin_tools::new_task::NewTaskTool;
use crate::project_rules::NestedRules;
use crate::protocol::{CallState, TaskEndReason};
use crate::providers::{Message, ToolDefinition};
use crate::tools::{SubAgentRequest, Tool};

/// The system tool that runs a sub-agent.
pub const NEW_TASK: &str = NewTaskTool::NAME;
/// The system tool that ends a task.
const ATTEMPT_COMPLETION: &str = AttemptCompletionTool::NAME;

/// What the sub-agent is told about itself, after the session's system prompt.
pub const SUB_AGENT_NOTE: &str = "\nYou are a sub-agent: another agent gave you the task in the \
first message and waits for your answer. Work only on that task, with the tools you have. When \
you are done, call `attempt_completion` with a summary of what you did and found: it is the only \
thing the other agent sees of your work.\n";

/// Why a sub-agent cannot have the tools asked for; the text is the model's result.
#[derive(Debug, thiserror::Error)]
pub enum ChildToolsError {
    #[error(
        "InvalidParams: a sub-agent cannot start sub-agents of its own here; leave `new_task` \
         out of `tools`."
    )]
    NoNesting,
    #[error(
        "InvalidParams: `{name}` is not one of your tools, so a sub-agent cannot have it. Choose \
         among: {yours}."
    )]
    NotYours { name: String, yours: String },
}

/// The tool definitions of a child of a frame offering `offered`: the `requested` names (all
/// offered ones but `new_task` when `None`), never one the parent does not have, `new_task` only
/// when `nested` allows another level, and always `attempt_completion`.
pub fn child_definitions(
    offered: &[ToolDefinition],
    requested: Option<&[String]>,
    nested: bool,
) -> Result<Vec<ToolDefinition>, ChildToolsError> {
    let completion = offered
        .iter()
        .find(|d| d.name == ATTEMPT_COMPLETION)
        .cloned();
    let available: Vec<&ToolDefinition> = offered
        .iter()
        .filter(|d| d.name != ATTEMPT_COMPLETION && (nested || d.name != NEW_TASK))
        .collect();
    let mut chosen: Vec<ToolDefinition> = match requested {
        None => available
            .iter()
            .filter(|d| d.name != NEW_TASK)
            .map(|d| (*d).clone())
            .collect(),
        Some(names) => {
            let mut chosen = Vec::new();
            for name in names {
                if name == ATTEMPT_COMPLETION
                    || chosen.iter().any(|d: &ToolDefinition| &d.name == name)
                {
                    continue;
                }
                match available.iter().find(|d| &d.name == name) {
                    Some(d) => chosen.push((*d).clone()),
                    None if name == NEW_TASK => return Err(ChildToolsError::NoNesting),
                    None => {
                        let names: Vec<&str> = available.iter().map(|d| d.name.as_str()).collect();
                        return Err(ChildToolsError::NotYours {
                            name: name.clone(),
                            yours: names.join(", "),
                        });
                    }
                }
            }
            chosen
        }
    };
    chosen.extend(completion);
    Ok(chosen)
}

/// The `new_task` call's final state and result for the model, from why its child ended: the
/// summary (or final answer) on success, otherwise what happened.
fn call_outcome(reason: TaskEndReason) -> (CallState, String, bool) {
    match reason {
        TaskEndReason::Completed { summary: text } | TaskEndReason::FinalAnswer { text } => {
            (CallState::Succeeded, text, false)
        }
        TaskEndReason::Cancelled => (
            CallState::Cancelled,
            "Cancelled by the user while the sub-agent worked; what it did so far stays done."
                .to_owned(),
            true,
        ),
        TaskEndReason::IterationCap { max_iterations } => (
            CallState::Failed,
            format!(
                "The sub-agent stopped after {max_iterations} model requests without finishing; \
                 check what it did before continuing."
            ),
            true,
        ),
        TaskEndReason::Stopped => (
            CallState::Failed,
            "The user stopped the sub-agent after repeated tool failures.".to_owned(),
            true,
        ),
        TaskEndReason::Error { message, .. } => (
            CallState::Failed,
            format!("The sub-agent failed: {message}"),
            true,
        ),
    }
}

impl Engine {
    /// Puts `frame` in place and returns the one it replaces.
    fn swap_frame(&mut self, frame: Frame) -> Frame {
        std::mem::replace(&mut self.frame, frame)
    }

    /// True when the current frame offers `name` to the model. The session's own frame leaves
    /// unknown names to the tool backend (which explains them); a sub-agent gets only its set.
    pub(crate) fn offers(&self, name: &str) -> bool {
        let offered = self.frame.definitions.iter().any(|d| d.name == name);
        let every = self.frame.depth == 0 && !self.task.slash.limits_tools();
        offered || (every && name != NEW_TASK)
    }

    /// The message for a call of a tool the current frame does not offer.
    pub(crate) fn not_offered_text(&self, name: &str) -> String {
        let names: Vec<&str> = self
            .frame
            .definitions
            .iter()
            .map(|d| d.name.as_str())
            .collect();
        format!(
            "Refused: `{name}` is not among the tools you were given ({}). Nothing was done.",
            names.join(", ")
        )
    }

    /// Runs the sub-agent the `new_task` call `id` asked for (its call was approved and ran);
    /// returns the call's final state and result for the model (the child's summary when it
    /// completed).
    pub(crate) async fn run_sub_agent(
        &mut self,
        id: &str,
        request: SubAgentRequest,
    ) -> (CallState, String, bool) {
        let nested = self.frame.depth + 1 < self.tools.max_task_depth;
        let definitions =
            match child_definitions(&self.frame.definitions, request.tools.as_deref(), nested) {
                Ok(d) => d,
                Err(e) => return (CallState::Failed, e.to_string(), true),
            };
        self.calls.set_status(
            &mut self.events,
            id,
            format!("Sub-agent: {}", request.description),
        );
        self.flush_calls().await;
        let reason = Box::pin(self.run_child(id, request.prompt, definitions)).await;
        call_outcome(reason)
    }

    /// Runs a sub-agent for the call `parent_call` on `prompt` with `definitions`, its events
    /// nested under the call; returns why it ended.
    async fn run_child(
        &mut self,
        parent_call: &str,
        prompt: String,
        definitions: Vec<ToolDefinition>,
    ) -> TaskEndReason {
        let child = Frame {
            history: vec![Message::user(prompt)],
            system: format!("{}{SUB_AGENT_NOTE}", self.frame.system),
            definitions,
            max_iterations: self.tools.sub_agent_iterations,
            failures: HashMap::new(),
            depth: self.frame.depth + 1,
            // Its conversation has none of the parent's nested rule files.
            nested_rules: NestedRules::default(),
        };
        // The session's history is set aside unchanged while the child runs (a nested child
        // finds it already noted): a snapshot meanwhile reports the session's messages.
        let outermost = self.task.session_messages.is_none();
        if outermost {
            self.task.session_messages = Some(self.frame.history.len());
        }
        let parent = self.swap_frame(child);
        let outer = self.events.set_parent(Some(parent_call.to_owned()));
        let reason = self.run_loop(false).await;
        self.events.set_parent(outer);
        self.swap_frame(parent);
        if outermost {
            self.task.session_messages = None;
        }
        reason
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin_tools::attempt_completion::AttemptCompletionParams;
    use crate::builtin_tools::new_task::NewTaskParams;
    use crate::tools::typed_definition;
    use serde_json::Value;

    fn attempt_completion_definition() -> ToolDefinition {
        typed_definition::<AttemptCompletionParams>(ATTEMPT_COMPLETION)
    }

    fn new_task_definition() -> ToolDefinition {
        typed_definition::<NewTaskParams>(NEW_TASK)
    }

    fn def(name: &str) -> ToolDefinition {
        ToolDefinition {
            name: name.into(),
            description: String::new(),
            input_schema: Value::Null,
        }
    }

    fn names(defs: &[ToolDefinition]) -> Vec<&str> {
        defs.iter().map(|d| d.name.as_str()).collect()
    }

    fn parent() -> Vec<ToolDefinition> {
        vec![
            def("read"),
            def("write"),
            def("bash"),
            attempt_completion_definition(),
            new_task_definition(),
        ]
    }

    #[test]
    fn a_child_gets_the_parents_tools_without_new_task_by_default() {
        let defs = child_definitions(&parent(), None, false).unwrap();
        assert_eq!(names(&defs), ["read", "write", "bash", ATTEMPT_COMPLETION]);
        let defs = child_definitions(&parent(), None, true).unwrap();
        assert_eq!(names(&defs), ["read", "write", "bash", ATTEMPT_COMPLETION]);
    }

    #[test]
    fn a_requested_subset_is_kept_and_never_exceeds_the_parent() {
        let requested = [
            "read".to_owned(),
            "read".to_owned(),
            ATTEMPT_COMPLETION.to_owned(),
        ];
        let defs = child_definitions(&parent(), Some(&requested), false).unwrap();
        assert_eq!(names(&defs), ["read", ATTEMPT_COMPLETION]);
        let err = child_definitions(&parent(), Some(&["http_fetch".to_owned()]), false)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`http_fetch` is not one of your tools"),
            "{err}"
        );
        assert!(err.contains("read, write, bash"), "{err}");
    }

    #[test]
    fn new_task_is_given_only_below_the_depth_limit() {
        let requested = ["new_task".to_owned()];
        let err = child_definitions(&parent(), Some(&requested), false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot start sub-agents"), "{err}");
        let defs = child_definitions(&parent(), Some(&requested), true).unwrap();
        assert_eq!(names(&defs), [NEW_TASK, ATTEMPT_COMPLETION]);
    }

    #[test]
    fn the_schema_names_the_parameters() {
        let schema = new_task_definition().input_schema;
        let required = schema["required"].as_array().unwrap();
        assert!(required.contains(&Value::from("description")));
        assert!(required.contains(&Value::from("prompt")));
        assert!(schema["properties"]["tools"].is_object());
    }

    #[test]
    fn only_success_gives_the_summary() {
        let done = call_outcome(TaskEndReason::Completed {
            summary: "s".into(),
        });
        assert_eq!(done, (CallState::Succeeded, "s".to_owned(), false));
        let (state, text, is_error) =
            call_outcome(TaskEndReason::IterationCap { max_iterations: 4 });
        assert_eq!((state, is_error), (CallState::Failed, true));
        assert!(text.contains("4 model requests"), "{text}");
        assert_eq!(
            call_outcome(TaskEndReason::Cancelled).0,
            CallState::Cancelled
        );
    }
}
