//! The one path of every call, whatever the tool:
//!
//! 1. **find** the tool by name (an unknown name gets every tool that exists);
//! 2. **repair** the arguments the model got wrong in common ways (`"50"` for 50, `"true"` for
//!    true, an object sent as JSON text, one value for a list), guided by the schema;
//! 3. **validate** them against the schema: every problem, each with its JSON path;
//! 4. **parse** them into the tool's input (once) and take the **facts** the policy needs;
//! 5. the session's **policy and approval** (`agent/calls/gate.rs`, `agent/calls/ask.rs`);
//! 6. **run** with the tool's timeout and the session's cancellation;
//! 7. the **result**: what the model reads (the tool's text, or a structured error, with a note
//!    of what was repaired) scrubbed of known keys, and what the user reads;
//! 8. **stats** (`stats.rs`, recorded as the call is settled: `agent/calls/settle.rs`).
//!
//! Steps 1–4 are [`ToolSet::prepare`], 6–7 [`execute`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::context::{CallContext, OutputSink};
use super::error::{ToolError, codes};
use super::output::ToolOutput;
use super::registry::ToolSet;
use super::repair::{Repair, RepairKind};
use super::tool::{AnyTool, Input, ProposedChange};
use crate::approval::CallFacts;
use crate::sandbox::SandboxPolicy;
use crate::secrets::scrub;

/// How long a tool that overran its timeout gets to stop after it is cancelled.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// A call ready for the policy.
#[derive(Debug)]
pub struct Prepared {
    pub tool: Arc<dyn AnyTool>,
    /// The arguments after repair.
    pub arguments: Value,
    pub input: Input,
    pub facts: CallFacts,
    pub repairs: Vec<Repair>,
}

impl Prepared {
    /// The file change the call would make (for its diff).
    pub fn change(&self) -> Option<ProposedChange> {
        self.tool.change(&self.input)
    }
}

impl ToolSet {
    /// Steps 1–4 for a call of `name` with `arguments`.
    pub fn prepare(&self, name: &str, arguments: Value) -> Result<Prepared, ToolError> {
        let tool = self
            .get(name)
            .cloned()
            .ok_or_else(|| ToolError::unknown_tool(name, &self.names()))?;
        let (arguments, repairs) = match self.validator(name) {
            Some(validator) => {
                let valid = validator
                    .check(arguments)
                    .map_err(ToolError::invalid_params)?;
                (valid.params, valid.repairs)
            }
            None => (arguments, Vec::new()),
        };
        let input = tool.parse(&arguments)?;
        let facts = tool.facts(&input)?;
        Ok(Prepared {
            tool,
            arguments,
            input,
            facts,
            repairs,
        })
    }
}

/// How a run ended.
#[derive(Debug)]
pub struct Executed {
    pub outcome: Result<ToolOutput, ToolError>,
    pub elapsed: Duration,
    pub timed_out: bool,
}

impl Executed {
    /// What the model reads: the output's text or the structured error, then a note of the
    /// repairs, scrubbed of known keys.
    pub fn model_text(&self, repairs: &[Repair]) -> String {
        let mut text = match &self.outcome {
            Ok(output) => output.text.clone(),
            Err(error) => error.for_model(),
        };
        if let Some(note) = repairs_note(repairs) {
            text.push_str("\n\n");
            text.push_str(&note);
        }
        scrub(&text).into_owned()
    }
}

/// Steps 6–7: runs `tool` with `input`, stopping it after `timeout` or when `cancel` fires.
pub async fn execute(
    tool: Arc<dyn AnyTool>,
    input: Input,
    timeout: Duration,
    cancel: CancellationToken,
    sink: OutputSink,
    sandbox: Option<SandboxPolicy>,
) -> Executed {
    let started = Instant::now();
    let own = cancel.child_token();
    let name = tool.name().to_owned();
    let ctx = CallContext::new(own.clone(), sink).confined(sandbox);
    let mut run = tool.run(input, ctx);
    let (outcome, timed_out) = tokio::select! {
        outcome = &mut run => (outcome, false),
        () = tokio::time::sleep(timeout) => {
            // Let it stop its processes before it is dropped.
            own.cancel();
            let _ = tokio::time::timeout(STOP_GRACE, &mut run).await;
            (Err(timeout_error(&name, timeout)), true)
        }
    };
    Executed {
        outcome: outcome.map(|mut output| {
            output.text = scrub(&output.text).into_owned();
            output
        }),
        elapsed: started.elapsed(),
        timed_out,
    }
}

fn timeout_error(tool: &str, timeout: Duration) -> ToolError {
    ToolError::new(
        codes::TIMEOUT,
        format!(
            "`{tool}` did not finish within {} and was stopped; anything it did before that \
             stays done.",
            human(timeout)
        ),
    )
    .with_suggestion("Do less in one call, or run the work in the background and check on it.")
}

fn human(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0 => format!("{} ms", d.as_millis()),
        1..60 => format!("{s} s"),
        _ if s.is_multiple_of(60) => format!("{} min", s / 60),
        _ => format!("{} min {} s", s / 60, s % 60),
    }
}

/// The note that tells the model which arguments were converted, so it learns the types.
pub fn repairs_note(repairs: &[Repair]) -> Option<String> {
    if repairs.is_empty() {
        return None;
    }
    let listed: Vec<String> = repairs
        .iter()
        .map(|r| {
            let at = if r.path.is_empty() { "(root)" } else { &r.path };
            let what = match r.kind {
                RepairKind::BoolFromString => "a boolean sent as a string",
                RepairKind::NumberFromString => "a number sent as a string",
                RepairKind::ParsedJsonString => "an object or list sent as JSON text",
                RepairKind::WrappedInArray => "a single value where a list is expected",
                RepairKind::EmptyObjectFromNull => "null instead of an object",
            };
            format!("{at} ({what})")
        })
        .collect();
    Some(format!(
        "[Note: some arguments had the wrong type and were converted before the call: {}. \
         Send them with the types the schema gives next time.]",
        listed.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repair_note_names_each_path() {
        let note = repairs_note(&[
            Repair {
                path: "/limit".into(),
                kind: RepairKind::NumberFromString,
            },
            Repair {
                path: "/replace_all".into(),
                kind: RepairKind::BoolFromString,
            },
        ])
        .unwrap();
        assert!(
            note.contains("/limit (a number sent as a string)"),
            "{note}"
        );
        assert!(
            note.contains("/replace_all (a boolean sent as a string)"),
            "{note}"
        );
        assert_eq!(repairs_note(&[]), None);
    }

    #[test]
    fn durations_read_well() {
        assert_eq!(human(Duration::from_millis(300)), "300 ms");
        assert_eq!(human(Duration::from_secs(1)), "1 s");
        assert_eq!(human(Duration::from_secs(660)), "11 min");
        assert_eq!(human(Duration::from_secs(90)), "1 min 30 s");
    }
}
