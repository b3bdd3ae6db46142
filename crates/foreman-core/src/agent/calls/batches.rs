//! The calls of one model response, in the order the model made them: each goes through the
//! gate (`gate.rs`); consecutive reads it lets through run together as one batch, and a call
//! that runs alone or asks first lets the batch before it run. Once the turn ends (the task
//! completed, was cancelled or stopped after a pause), the calls after it are not run. Results
//! go into history in call order, one per call, whatever happened (failure, rejection,
//! cancel), with what the hooks and the nested rule files add.

use super::gate::Gated;
use super::job::{CallsOutcome, Job, NOT_RUN_CANCELLED};
use super::results::Results;
use crate::agent::engine::Engine;
use crate::agent::task::turn::StreamedCall;
use crate::protocol::{CallDecision, CallState};
use crate::providers::Message;

impl Engine {
    /// Gates, batches and runs `calls`; appends their results to history in order.
    pub(crate) async fn run_calls(&mut self, calls: Vec<StreamedCall>) -> CallsOutcome {
        let mut results = Results::new(calls.len());
        let mut batch: Vec<Job> = Vec::new();
        let mut outcome = CallsOutcome::Continue;
        for (index, call) in calls.iter().enumerate() {
            if outcome == CallsOutcome::Continue && self.task.cancel.is_cancelled() {
                outcome = CallsOutcome::Cancelled;
            }
            if outcome != CallsOutcome::Continue {
                self.not_run(index, &call.id, &outcome, &mut results);
                continue;
            }
            let gated = self.gate(index, call, &mut results).await;
            if gated.waits_for_batch() {
                outcome = self.run_batch(&mut batch, &mut results).await;
                if outcome != CallsOutcome::Continue {
                    self.not_run(index, &call.id, &outcome, &mut results);
                    continue;
                }
            }
            outcome = match gated {
                Gated::Batch(job) => {
                    batch.push(job);
                    CallsOutcome::Continue
                }
                Gated::Alone(job) => {
                    self.calls
                        .transition(&mut self.events, &job.id, CallState::Scheduled, None);
                    self.run_jobs(vec![job], &mut results).await
                }
                Gated::Ask { job, reason } => self.ask(job, reason, &mut results).await,
                Gated::Done(outcome) => outcome,
            };
        }
        if outcome == CallsOutcome::Continue || matches!(outcome, CallsOutcome::Completed(_)) {
            let after = self.run_batch(&mut batch, &mut results).await;
            if after != CallsOutcome::Continue {
                outcome = after;
            }
        }
        for job in batch {
            self.not_run(job.index, &job.id, &outcome, &mut results);
        }
        self.flush_calls().await;
        self.record_results(&calls, results).await;
        if outcome == CallsOutcome::Continue && self.task.cancel.is_cancelled() {
            outcome = CallsOutcome::Cancelled;
        }
        outcome
    }

    /// Runs the reads gathered so far together.
    async fn run_batch(&mut self, batch: &mut Vec<Job>, results: &mut Results) -> CallsOutcome {
        if batch.is_empty() {
            return CallsOutcome::Continue;
        }
        let jobs = std::mem::take(batch);
        self.run_jobs(jobs, results).await
    }

    /// Appends the results of `calls` to history in call order, each with what the hooks told
    /// the model about it and the rule file it brings.
    async fn record_results(&mut self, calls: &[StreamedCall], results: Results) {
        for (call, mut slot) in calls.iter().zip(results.into_slots()) {
            let (path, note) = (slot.path.take(), slot.hook_note.take());
            let result = slot.into_result();
            let mut text = result.text;
            if let Some(note) = note {
                text.push_str(&format!("\n\n[PreToolUse hook context: {note}]"));
            }
            // The first call that did something in a directory brings its rule file: the model
            // reads it with the result, and the system prompt stays the same bytes.
            if !result.is_error
                && let Some(path) = path
                && let Some(rules) = self.frame.nested_rules.take_for(&self.workspace, &path)
            {
                text.push_str("\n\n");
                text.push_str(&rules);
            }
            self.record(Message::tool_result(&call.id, text, result.is_error))
                .await;
        }
    }

    /// Ends the `index`-th call, `id`, unrun because the turn ended as `outcome`.
    pub(crate) fn not_run(
        &mut self,
        index: usize,
        id: &str,
        outcome: &CallsOutcome,
        results: &mut Results,
    ) {
        let text = match outcome {
            CallsOutcome::Completed(_) => "Not run: the task was already marked complete.",
            CallsOutcome::Stopped => "Not run: the user stopped the task.",
            _ => NOT_RUN_CANCELLED,
        };
        let state = CallState::Cancelled;
        if matches!(outcome, CallsOutcome::Completed(_)) {
            // The agent ended the task, not the user: no decision of theirs to show.
            self.calls.finish(&mut self.events, id, state, text, true);
        } else {
            let decision = CallDecision::NotRun;
            self.calls
                .finish_decided(&mut self.events, id, state, text, decision);
        }
        results.error(index, text.to_owned());
    }

    /// Ends the `index`-th call, `id`, as cancelled before it ran.
    pub(crate) fn cancel_unrun(
        &mut self,
        index: usize,
        id: &str,
        results: &mut Results,
    ) -> CallsOutcome {
        self.calls.finish_decided(
            &mut self.events,
            id,
            CallState::Cancelled,
            NOT_RUN_CANCELLED,
            CallDecision::NotRun,
        );
        results.error(index, NOT_RUN_CANCELLED.to_owned());
        CallsOutcome::Cancelled
    }
}
