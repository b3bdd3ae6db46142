//! Running the calls of one model response.
//!
//! Calls are taken in the order the model made them. Consecutive read-only calls that need no
//! approval run concurrently; every other call runs alone, in order, after the ones before it.
//! Results go into history in call order, one per call, whatever happens (failure, rejection,
//! cancel). A tool failing [`Engine::pause_after`] times in a row pauses the task until the
//! person continues or cancels.

use std::collections::HashMap;

use futures_util::FutureExt;
use futures_util::future::join_all;
use serde_json::Value;

use super::Engine;
use super::approvals::{ApprovalOutcome, PersonVersion, PersonWrite, person_version_text};
use super::preview::diff_preview;
use super::subtask::NEW_TASK;
use super::task::{ATTEMPT_COMPLETION, NOT_RUN_CANCELLED};
use super::tools::{ActionClass, CallOutput, OutputSink, ToolOutcome};
use super::turn::StreamedCall;
use crate::approval::Decision;
use crate::approval::network::private_target;
use crate::protocol::{CallState, EventMsg, Op};
use crate::providers::Message;
use crate::secrets::{StreamScrubber, scrub};

/// How the calls of a response ended the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CallsOutcome {
    /// Ask the model again.
    Continue,
    /// `attempt_completion` was called with this summary.
    Completed(String),
    Cancelled,
    /// The person stopped after a pause.
    Stopped,
}

/// A call ready to run.
struct Job {
    index: usize,
    id: String,
    name: String,
    arguments: Value,
    /// The file a file-changing call changes (what it replaced is kept for an undo).
    changes: Option<String>,
    /// Not a read: it may change the workspace (a file tool, a command, an external tool).
    mutates: bool,
}

type Results = Vec<Option<(String, bool)>>;

impl Engine {
    /// Validates, approves and runs `calls`; appends their results to history in order.
    pub(crate) async fn run_calls(&mut self, calls: Vec<StreamedCall>) -> CallsOutcome {
        let mut results: Results = vec![None; calls.len()];
        let mut batch: Vec<Job> = Vec::new();
        let mut outcome = CallsOutcome::Continue;
        for (index, call) in calls.iter().enumerate() {
            if outcome == CallsOutcome::Continue && self.cancel.is_cancelled() {
                outcome = CallsOutcome::Cancelled;
            }
            if outcome != CallsOutcome::Continue {
                self.not_run(&call.id, &outcome, &mut results[index]);
                continue;
            }
            let arguments = match &call.arguments {
                Ok(v) => v.clone(),
                Err(message) => {
                    self.calls
                        .finish(&mut self.events, &call.id, CallState::Failed, message, true);
                    results[index] = Some((message.clone(), true));
                    continue;
                }
            };
            self.calls
                .transition(&mut self.events, &call.id, CallState::Validating, None);
            if !self.offers(&call.name) {
                let text = self.not_offered_text(&call.name);
                self.calls
                    .finish(&mut self.events, &call.id, CallState::Rejected, &text, true);
                results[index] = Some((text, true));
                continue;
            }
            if call.name == NEW_TASK {
                outcome = self.flush(&mut batch, &mut results).await;
                if outcome != CallsOutcome::Continue {
                    self.not_run(&call.id, &outcome, &mut results[index]);
                    continue;
                }
                let (state, text, is_error) = self.run_new_task(&call.id, &arguments).await;
                results[index] = Some((text, is_error));
                if state == CallState::Cancelled || self.cancel.is_cancelled() {
                    outcome = CallsOutcome::Cancelled;
                }
                self.flush_calls().await;
                continue;
            }
            if call.name == ATTEMPT_COMPLETION {
                outcome = self.flush(&mut batch, &mut results).await;
                if outcome != CallsOutcome::Continue {
                    self.not_run(&call.id, &outcome, &mut results[index]);
                    continue;
                }
                let summary = arguments
                    .get("result")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                for state in [CallState::Scheduled, CallState::Executing] {
                    self.calls
                        .transition(&mut self.events, &call.id, state, None);
                }
                let text = "The task is marked complete.";
                self.calls.finish(
                    &mut self.events,
                    &call.id,
                    CallState::Succeeded,
                    text,
                    false,
                );
                results[index] = Some((text.to_owned(), false));
                outcome = CallsOutcome::Completed(summary);
                continue;
            }
            let mut facts = match self.tools.facts(&call.name, &arguments) {
                Ok(facts) => facts,
                Err(message) => {
                    self.calls.finish(
                        &mut self.events,
                        &call.id,
                        CallState::Failed,
                        &message,
                        true,
                    );
                    results[index] = Some((message, true));
                    outcome = self.count_failure(&call.id, &call.name).await;
                    continue;
                }
            };
            if facts.class == ActionClass::Fetch
                && let Some(host) = &facts.host
            {
                facts.private_target = private_target(host).await;
            }
            let job = Job {
                index,
                id: call.id.clone(),
                name: call.name.clone(),
                arguments,
                changes: facts
                    .path
                    .clone()
                    .filter(|_| facts.class == ActionClass::Edit),
                mutates: facts.class != ActionClass::Read,
            };
            let decision = self.policy.decide(&facts, self.auto_approved);
            if matches!(decision, Decision::Allow { .. }) && facts.class != ActionClass::Read {
                self.auto_approved += 1;
            }
            match decision {
                Decision::Deny { reason } => {
                    let text =
                        format!("Refused by the approval policy: {reason}. Nothing was done.");
                    self.calls
                        .finish(&mut self.events, &call.id, CallState::Rejected, &text, true);
                    results[index] = Some((text, true));
                }
                Decision::Allow { .. } if facts.class == ActionClass::Read => {
                    self.calls
                        .transition(&mut self.events, &call.id, CallState::Scheduled, None);
                    batch.push(job);
                }
                Decision::Allow { .. } => {
                    outcome = self.flush(&mut batch, &mut results).await;
                    if outcome != CallsOutcome::Continue {
                        self.not_run(&call.id, &outcome, &mut results[index]);
                        continue;
                    }
                    self.calls
                        .transition(&mut self.events, &call.id, CallState::Scheduled, None);
                    outcome = self.run_jobs(vec![job], &mut results).await;
                }
                Decision::Ask { reason } => {
                    outcome = self.flush(&mut batch, &mut results).await;
                    if outcome != CallsOutcome::Continue {
                        self.not_run(&call.id, &outcome, &mut results[index]);
                        continue;
                    }
                    outcome = self
                        .approve_and_run(job, &facts, reason, &mut results)
                        .await;
                }
            }
        }
        if outcome == CallsOutcome::Continue || matches!(outcome, CallsOutcome::Completed(_)) {
            let after = self.flush(&mut batch, &mut results).await;
            if after != CallsOutcome::Continue {
                outcome = after;
            }
        }
        for job in batch {
            self.not_run(&job.id, &outcome, &mut results[job.index]);
        }
        self.flush_calls().await;
        for (call, result) in calls.iter().zip(results) {
            let (text, is_error) = result.unwrap_or_else(|| (NOT_RUN_CANCELLED.to_owned(), true));
            self.record(Message::tool_result(&call.id, text, is_error))
                .await;
        }
        if outcome == CallsOutcome::Continue && self.cancel.is_cancelled() {
            outcome = CallsOutcome::Cancelled;
        }
        outcome
    }

    fn not_run(&mut self, id: &str, outcome: &CallsOutcome, slot: &mut Option<(String, bool)>) {
        let text = match outcome {
            CallsOutcome::Completed(_) => "Not run: the task was already marked complete.",
            CallsOutcome::Stopped => "Not run: the person stopped the task.",
            _ => NOT_RUN_CANCELLED,
        };
        self.calls
            .finish(&mut self.events, id, CallState::Cancelled, text, true);
        *slot = Some((text.to_owned(), true));
    }

    async fn flush(&mut self, batch: &mut Vec<Job>, results: &mut Results) -> CallsOutcome {
        if batch.is_empty() {
            return CallsOutcome::Continue;
        }
        let jobs = std::mem::take(batch);
        self.run_jobs(jobs, results).await
    }

    async fn approve_and_run(
        &mut self,
        job: Job,
        facts: &super::tools::CallFacts,
        reason: String,
        results: &mut Results,
    ) -> CallsOutcome {
        match self
            .await_approval(&job.id, &job.name, &job.arguments, facts, reason)
            .await
        {
            ApprovalOutcome::Run => {
                self.calls
                    .transition(&mut self.events, &job.id, CallState::Scheduled, None);
                self.run_jobs(vec![job], results).await
            }
            ApprovalOutcome::RunEdited(write) => {
                self.calls
                    .transition(&mut self.events, &job.id, CallState::Scheduled, None);
                let PersonWrite {
                    path,
                    shown,
                    old,
                    seen,
                    content,
                    proposed,
                    how,
                } = write;
                let status = match &how {
                    PersonVersion::Edited => format!("Writing your version of {path}…"),
                    PersonVersion::Hunks { applied, total } => format!(
                        "Writing the {} of {total} hunks you chose to {path}…",
                        applied.len()
                    ),
                };
                self.calls.transition(
                    &mut self.events,
                    &job.id,
                    CallState::Executing,
                    Some(status),
                );
                self.flush_calls().await;
                let before = self.bytes_before(&path);
                let written = self
                    .tools
                    .write_as_person(&path, content.clone(), seen)
                    .await;
                let succeeded = written.is_ok();
                let (state, text, is_error) = match written {
                    Ok(_) => (
                        CallState::Succeeded,
                        person_version_text(&path, &proposed, &content, &how),
                        false,
                    ),
                    Err(e) => (CallState::Failed, e, true),
                };
                if succeeded {
                    // The card shows what was written over the file the person saw (which the
                    // file still had), not what the model proposed.
                    let written = diff_preview(&shown, old.as_deref(), &content);
                    self.calls.show_preview(&mut self.events, &job.id, written);
                }
                self.calls
                    .finish(&mut self.events, &job.id, state, &text, is_error);
                results[job.index] = Some((text, is_error));
                if succeeded && let Some(before) = before {
                    self.keep_checkpoint(&job.id, &path, before).await;
                }
                CallsOutcome::Continue
            }
            ApprovalOutcome::Rejected(text) => {
                self.calls
                    .finish(&mut self.events, &job.id, CallState::Rejected, &text, true);
                results[job.index] = Some((text, true));
                CallsOutcome::Continue
            }
            ApprovalOutcome::Cancelled => {
                self.calls.finish(
                    &mut self.events,
                    &job.id,
                    CallState::Cancelled,
                    NOT_RUN_CANCELLED,
                    true,
                );
                results[job.index] = Some((NOT_RUN_CANCELLED.to_owned(), true));
                CallsOutcome::Cancelled
            }
        }
    }

    /// Runs `jobs` concurrently (a single job alone), answering ops meanwhile.
    async fn run_jobs(&mut self, jobs: Vec<Job>, results: &mut Results) -> CallsOutcome {
        let mut futures = Vec::with_capacity(jobs.len());
        let (output_tx, mut output_rx) = tokio::sync::mpsc::unbounded_channel();
        // What each file-changing call is about to replace (`None`: nothing can be kept).
        let befores: Vec<Option<Option<Vec<u8>>>> = jobs
            .iter()
            .map(|job| {
                job.changes
                    .as_deref()
                    .and_then(|path| self.bytes_before(path))
            })
            .collect();
        for job in &jobs {
            let status = self.tools.status(&job.name, &job.arguments);
            self.calls
                .transition(&mut self.events, &job.id, CallState::Executing, status);
            let run = self.tools.execute(
                &job.name,
                job.arguments.clone(),
                self.cancel.child_token(),
                OutputSink::new(job.id.clone(), output_tx.clone()),
            );
            // What a tool returns is scrubbed of known keys here, before anything keeps it.
            futures.push(run.map(|outcome| match outcome {
                Ok(text) => Ok(scrub(&text).into_owned()),
                Err(text) => Err(scrub(&text).into_owned()),
            }));
        }
        let mut scrubbers: HashMap<String, StreamScrubber> = HashMap::new();
        drop(output_tx);
        self.flush_calls().await;
        // An undo checks a file, then writes it: nothing else may write meanwhile.
        self.undo.changing = jobs.iter().any(|job| job.mutates);
        let mut all = join_all(futures);
        let outcomes: Vec<ToolOutcome> = loop {
            tokio::select! {
                biased;
                Some((call_id, output)) = output_rx.recv() => {
                    self.show_output(&mut scrubbers, call_id, output);
                }
                done = &mut all => break done,
                op = self.next_op() => self.handle_side_op(op).await,
            }
        };
        self.undo.changing = false;
        // Output sent just before a call ended comes before its result.
        while let Ok((call_id, output)) = output_rx.try_recv() {
            self.show_output(&mut scrubbers, call_id, output);
        }
        for (call_id, mut scrubber) in scrubbers {
            let text = scrubber.finish_str();
            if !text.is_empty() {
                self.events.emit(EventMsg::ToolCallOutput { call_id, text });
            }
        }
        let mut outcome = CallsOutcome::Continue;
        for ((job, result), before) in jobs.into_iter().zip(outcomes).zip(befores) {
            if self.cancel.is_cancelled() {
                // A change that went through before the cancel can still be undone.
                let changed = result.is_ok();
                let text = match result {
                    Ok(text) | Err(text) => format!("Cancelled by the user while running.\n{text}"),
                };
                self.calls
                    .finish(&mut self.events, &job.id, CallState::Cancelled, &text, true);
                results[job.index] = Some((text, true));
                outcome = CallsOutcome::Cancelled;
                if changed && let (Some(path), Some(before)) = (&job.changes, before) {
                    self.keep_checkpoint(&job.id, path, before).await;
                }
                continue;
            }
            match result {
                Ok(text) => {
                    self.failures.remove(&job.name);
                    if job.name == "todo_write" {
                        self.save_todos(&job.arguments).await;
                    }
                    self.calls.finish(
                        &mut self.events,
                        &job.id,
                        CallState::Succeeded,
                        &text,
                        false,
                    );
                    results[job.index] = Some((text, false));
                    if let (Some(path), Some(before)) = (&job.changes, before) {
                        self.keep_checkpoint(&job.id, path, before).await;
                    }
                    self.flush_calls().await;
                }
                Err(text) => {
                    self.calls
                        .finish(&mut self.events, &job.id, CallState::Failed, &text, true);
                    results[job.index] = Some((text, true));
                    if outcome == CallsOutcome::Continue {
                        outcome = self.count_failure(&job.id, &job.name).await;
                    }
                }
            }
        }
        outcome
    }

    /// Shows what a running call sent for the person: live text, scrubbed of known keys (a key
    /// split between two pieces included), or its result's images (kept in the call's state, so
    /// a snapshot and the stored session have them too).
    fn show_output(
        &mut self,
        scrubbers: &mut HashMap<String, StreamScrubber>,
        call_id: String,
        output: CallOutput,
    ) {
        match output {
            CallOutput::Text(text) => {
                let text = scrubbers
                    .entry(call_id.clone())
                    .or_default()
                    .push_str(&text);
                if !text.is_empty() {
                    self.events.emit(EventMsg::ToolCallOutput { call_id, text });
                }
            }
            CallOutput::Images(images) => {
                self.calls.set_images(&mut self.events, &call_id, images);
            }
        }
    }

    /// Counts a failure of `tool`; at the threshold, pauses until `continue` or `cancel`.
    async fn count_failure(&mut self, call_id: &str, tool: &str) -> CallsOutcome {
        let count = self.failures.entry(tool.to_owned()).or_insert(0);
        *count += 1;
        let failures = *count;
        if failures < self.pause_after {
            return CallsOutcome::Continue;
        }
        self.events.emit(EventMsg::Paused {
            call_id: call_id.to_owned(),
            tool: tool.to_owned(),
            failures,
            message: format!(
                "`{tool}` failed {failures} times in a row. Continue, or stop the task?"
            ),
        });
        loop {
            if self.cancel.is_cancelled() {
                return CallsOutcome::Stopped;
            }
            match self.next_op().await {
                Op::Continue => {
                    self.failures.remove(tool);
                    self.events.emit(EventMsg::Resumed);
                    return CallsOutcome::Continue;
                }
                Op::Cancel => {
                    self.stop();
                    return CallsOutcome::Stopped;
                }
                op => self.handle_side_op(op).await,
            }
        }
    }
}
