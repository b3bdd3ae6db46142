//! Running the calls of one model response, each through the tool runtime's pipeline
//! ([`crate::tools::pipeline`]): prepare (find, repair, validate, parse, facts), the approval
//! policy, the user's answer when it asks, then the run.
//!
//! Calls are taken in the order the model made them. Consecutive read-only calls that need no
//! approval run concurrently; every other call runs alone, in order, after the ones before it.
//! Results go into history in call order, one per call, whatever happens (failure, rejection,
//! cancel). What a system tool asks for ([`Control`]: end the task, run a sub-agent, a new task
//! list) is acted on here; no tool is known by its name. A tool failing [`Engine::pause_after`]
//! times in a row pauses the task until the user continues or cancels.

use std::collections::HashMap;

use futures_util::future::join_all;

use crate::agent::calls::approvals::{
    ApprovalOutcome, UserVersion, UserWrite, user_version_decision, user_version_text,
};
use crate::agent::calls::job::{CallsOutcome, Escalation, Job, NOT_RUN_CANCELLED, Results};
use crate::agent::calls::preview::diff_preview;
use crate::agent::calls::sandboxing::AfterRun;
use crate::agent::checkpoints::checkpointing::Moment;
use crate::agent::engine::Engine;
use crate::agent::task::turn::StreamedCall;
use crate::approval::network::private_target;
use crate::approval::{ActionClass, Decision, DeniedPaths};
use crate::protocol::{CallDecision, CallState, EventMsg, Op};
use crate::providers::Message;
use crate::secrets::{StreamScrubber, scrub};
use crate::tools::{CallEnd, CallOutput, Control, Executed, OutputSink, Prepared, execute};

impl Engine {
    /// Prepares, approves and runs `calls`; appends their results to history in order.
    pub(crate) async fn run_calls(&mut self, calls: Vec<StreamedCall>) -> CallsOutcome {
        let mut results: Results = vec![None; calls.len()];
        // The path each call's facts name, for the nested rule files it brings.
        let mut touched: Vec<Option<String>> = vec![None; calls.len()];
        // What the hooks told the model about each call.
        let mut hook_notes: Vec<Option<String>> = vec![None; calls.len()];
        let mut batch: Vec<Job> = Vec::new();
        let mut outcome = CallsOutcome::Continue;
        for (index, call) in calls.iter().enumerate() {
            if outcome == CallsOutcome::Continue && self.task.cancel.is_cancelled() {
                outcome = CallsOutcome::Cancelled;
            }
            if outcome != CallsOutcome::Continue {
                self.not_run(&call.id, &outcome, &mut results[index]);
                continue;
            }
            let arguments = match &call.arguments {
                Ok(v) => v.clone(),
                Err(unusable) => {
                    let message = unusable.to_string();
                    self.calls.finish(
                        &mut self.events,
                        &call.id,
                        CallState::Failed,
                        &message,
                        true,
                    );
                    results[index] = Some((message, true));
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
            let mut prepared = match self.tools.set.prepare(&call.name, arguments) {
                Ok(prepared) => prepared,
                Err(error) => {
                    let text = scrub(&error.for_model()).into_owned();
                    self.calls.fail(&mut self.events, &call.id, &text, &error);
                    results[index] = Some((text, true));
                    outcome = self.count_failure(&call.id, &call.name).await;
                    continue;
                }
            };
            touched[index].clone_from(&prepared.facts.path);
            let facts = &mut prepared.facts;
            if facts.class == ActionClass::Fetch
                && let Some(host) = &facts.host
            {
                facts.private_target = private_target(host).await;
            }
            self.oversight.policy.name_denied(facts, &self.workspace);
            let facts = prepared.facts.clone();
            let job = Job {
                index,
                id: call.id.clone(),
                changes: facts
                    .path
                    .clone()
                    .filter(|_| facts.class == ActionClass::Edit),
                mutates: !matches!(facts.class, ActionClass::Read | ActionClass::Control),
                prepared,
                outside: false,
            };
            let hooked = self
                .pre_tool_hooks(&call.id, &call.name, &job.prepared.arguments)
                .await;
            hook_notes[index] = hooked.context.clone();
            if let Some(reason) = hooked.blocked {
                let text = format!("Blocked by a PreToolUse hook: {reason}. Nothing was done.");
                self.calls
                    .finish(&mut self.events, &call.id, CallState::Rejected, &text, true);
                results[index] = Some((text, true));
                continue;
            }
            if self.task.cancel.is_cancelled() {
                // A hook stopped the agent.
                outcome = self.cancel_unrun(&call.id, &mut results[index]);
                continue;
            }
            let decision = hooked.decide(
                self.oversight
                    .policy
                    .decide(&facts, self.oversight.auto_approved),
            );
            if matches!(decision, Decision::Allow { .. }) && job.mutates {
                self.oversight.auto_approved += 1;
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
                    outcome = self.ask_or_hook(job, reason, &mut results).await;
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
        for (((call, result), path), note) in calls.iter().zip(results).zip(touched).zip(hook_notes)
        {
            let (mut text, is_error) =
                result.unwrap_or_else(|| (NOT_RUN_CANCELLED.to_owned(), true));
            if let Some(note) = note {
                text.push_str(&format!("\n\n[PreToolUse hook context: {note}]"));
            }
            // The first call that did something in a directory brings its rule file: the model
            // reads it with the result, and the system prompt stays the same bytes.
            if !is_error
                && let Some(path) = path
                && let Some(rules) = self.frame.nested_rules.take_for(&self.workspace, &path)
            {
                text.push_str("\n\n");
                text.push_str(&rules);
            }
            self.record(Message::tool_result(&call.id, text, is_error))
                .await;
        }
        if outcome == CallsOutcome::Continue && self.task.cancel.is_cancelled() {
            outcome = CallsOutcome::Cancelled;
        }
        outcome
    }

    fn not_run(&mut self, id: &str, outcome: &CallsOutcome, slot: &mut Option<(String, bool)>) {
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
        *slot = Some((text.to_owned(), true));
    }

    /// Ends `id` as cancelled before it ran.
    pub(crate) fn cancel_unrun(
        &mut self,
        id: &str,
        slot: &mut Option<(String, bool)>,
    ) -> CallsOutcome {
        self.calls.finish_decided(
            &mut self.events,
            id,
            CallState::Cancelled,
            NOT_RUN_CANCELLED,
            CallDecision::NotRun,
        );
        *slot = Some((NOT_RUN_CANCELLED.to_owned(), true));
        CallsOutcome::Cancelled
    }

    async fn flush(&mut self, batch: &mut Vec<Job>, results: &mut Results) -> CallsOutcome {
        if batch.is_empty() {
            return CallsOutcome::Continue;
        }
        let jobs = std::mem::take(batch);
        self.run_jobs(jobs, results).await
    }

    pub(crate) async fn approve_and_run(
        &mut self,
        job: Job,
        reason: String,
        results: &mut Results,
    ) -> CallsOutcome {
        match self.await_approval(&job.id, &job.prepared, reason).await {
            ApprovalOutcome::Run => {
                self.calls
                    .transition(&mut self.events, &job.id, CallState::Scheduled, None);
                self.run_jobs(vec![job], results).await
            }
            ApprovalOutcome::RunEdited(write) => {
                self.write_users_version(&job, write, results).await;
                CallsOutcome::Continue
            }
            ApprovalOutcome::Rejected { text, reason } => {
                self.calls.finish_decided(
                    &mut self.events,
                    &job.id,
                    CallState::Rejected,
                    &text,
                    CallDecision::Rejected { reason },
                );
                results[job.index] = Some((text, true));
                CallsOutcome::Continue
            }
            ApprovalOutcome::Cancelled => self.cancel_unrun(&job.id, &mut results[job.index]),
        }
    }

    /// Writes the user's version of a change (edited, or some of its hunks) instead of the
    /// model's.
    async fn write_users_version(&mut self, job: &Job, write: UserWrite, results: &mut Results) {
        self.calls
            .transition(&mut self.events, &job.id, CallState::Scheduled, None);
        let UserWrite {
            path,
            shown,
            old,
            seen,
            content,
            proposed,
            how,
        } = write;
        let status = match &how {
            UserVersion::Edited => format!("Writing your version of {path}…"),
            UserVersion::Hunks { applied, total } => format!(
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
        match self
            .tools
            .files
            .write_as_user(&path, content.clone(), seen)
            .await
        {
            Ok(_) => {
                let text = user_version_text(&path, &proposed, &content, &how);
                let decision = user_version_decision(&proposed, &content, &how);
                // The card shows what was written over the file the user saw (which the
                // file still had), not what the model proposed.
                let written = diff_preview(&shown, old.as_deref(), &content);
                self.calls.show_preview(&mut self.events, &job.id, written);
                self.calls.finish_decided(
                    &mut self.events,
                    &job.id,
                    CallState::Succeeded,
                    &text,
                    decision,
                );
                results[job.index] = Some((text, false));
                if let Some(before) = before {
                    self.keep_checkpoint(&job.id, &path, before).await;
                }
            }
            Err(error) => {
                let text = error.for_model();
                self.calls.fail(&mut self.events, &job.id, &text, &error);
                results[job.index] = Some((text, true));
            }
        }
    }

    /// Runs `jobs` concurrently (a single job alone), answering ops meanwhile.
    pub(crate) async fn run_jobs(&mut self, jobs: Vec<Job>, results: &mut Results) -> CallsOutcome {
        // A step that may change the workspace runs alone, after a checkpoint; what a command
        // or an external tool changed is listed on its card (file tools show their own diff).
        let (before, listed): (Option<String>, Vec<String>) = match jobs.iter().find(|j| j.mutates)
        {
            Some(job) => {
                let id = job.id.clone();
                let listed = jobs
                    .iter()
                    .filter(|j| j.mutates && j.changes.is_none())
                    .map(|j| j.id.clone())
                    .collect();
                (self.checkpoint(Moment::Call(&id)).await, listed)
            }
            None => (None, Vec::new()),
        };
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
        let mut runs = Vec::with_capacity(jobs.len());
        let mut hook_arguments = Vec::with_capacity(jobs.len());
        let mut finished = Vec::with_capacity(jobs.len());
        for job in jobs {
            self.calls
                .transition(&mut self.events, &job.id, CallState::Executing, None);
            let Job {
                index,
                id,
                prepared,
                changes,
                mutates,
                outside,
            } = job;
            let Prepared {
                tool,
                input,
                repairs,
                arguments,
                facts,
            } = prepared;
            let timeout = self.tools.set.timeout(&tool);
            let sink = OutputSink::new(id.clone(), output_tx.clone());
            let (sandbox, denied) = match tool.sandboxable() {
                true => {
                    let mode = self.oversight.policy.mode;
                    let denied = self.oversight.policy.denied_paths(&self.workspace);
                    let (policy, note) =
                        self.oversight
                            .sandbox
                            .for_call(mode, &self.workspace, outside, &denied);
                    self.calls.set_sandbox(&mut self.events, &id, note);
                    (policy, denied)
                }
                false => (None, DeniedPaths::default()),
            };
            // For the PostToolUse hooks.
            hook_arguments.push(arguments.clone());
            // Kept to ask again outside the sandbox if it refuses something.
            let confined = sandbox
                .is_some()
                .then_some((arguments, facts.shell, denied));
            runs.push(execute(
                std::sync::Arc::clone(&tool),
                input,
                timeout,
                self.task.cancel.clone(),
                sink,
                sandbox,
            ));
            let name = tool.name().to_owned();
            finished.push((index, id, name, changes, mutates, repairs, confined));
        }
        drop(output_tx);
        self.flush_calls().await;
        // An undo checks a file, then writes it: nothing else may write meanwhile.
        self.changes.undo.changing = finished.iter().any(|f| f.4);
        let mut scrubbers: HashMap<String, StreamScrubber> = HashMap::new();
        let mut all = join_all(runs);
        let executed: Vec<Executed> = loop {
            tokio::select! {
                biased;
                Some((call_id, output)) = output_rx.recv() => {
                    self.show_output(&mut scrubbers, call_id, output);
                }
                done = &mut all => break done,
                op = self.next_op() => self.handle_side_op(op).await,
            }
        };
        self.changes.undo.changing = false;
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
        let mut escalations = Vec::new();
        for (((index, id, tool, changes, _, repairs, confined), (run, before)), arguments) in
            finished
                .into_iter()
                .zip(executed.into_iter().zip(befores))
                .zip(hook_arguments)
        {
            self.count_stats(&tool, &run);
            let text = run.model_text(&repairs);
            if self.task.cancel.is_cancelled() {
                // A change that went through before the cancel can still be undone.
                let changed = run.outcome.is_ok();
                let text = format!("Cancelled by the user while running.\n{text}");
                self.calls
                    .finish(&mut self.events, &id, CallState::Cancelled, &text, true);
                results[index] = Some((text, true));
                outcome = CallsOutcome::Cancelled;
                if changed && let (Some(path), Some(before)) = (&changes, before) {
                    self.keep_checkpoint(&id, path, before).await;
                }
                continue;
            }
            let seen = match (&confined, &run.outcome) {
                (Some((_, line, denied)), Ok(output)) => {
                    let seen = self.oversight.sandbox.after_run(
                        line.as_ref(),
                        denied,
                        &output.text,
                        output.failed,
                    );
                    self.show_after_run(&id, &seen);
                    seen
                }
                _ => AfterRun::default(),
            };
            match run.outcome {
                Ok(output) if !output.failed => {
                    self.frame.failures.remove(&tool);
                    if let Some(summary) = output.summary {
                        self.calls.set_summary(&id, summary);
                    }
                    let (state, text, is_error) = match output.control {
                        None => {
                            let said = self
                                .post_tool_hooks(&id, &tool, &arguments, &text, changes.as_deref())
                                .await;
                            let text = match said {
                                Some(note) => format!("{text}\n\n{note}"),
                                None => text,
                            };
                            (CallState::Succeeded, text, false)
                        }
                        Some(control) => {
                            let (state, text, is_error, ends) =
                                self.take_control(&id, control, text).await;
                            if let Some(ends) = ends {
                                outcome = ends;
                            }
                            (state, text, is_error)
                        }
                    };
                    self.calls
                        .finish(&mut self.events, &id, state, &text, is_error);
                    results[index] = Some((text, is_error));
                    if state == CallState::Cancelled {
                        outcome = CallsOutcome::Cancelled;
                    }
                    if let (Some(path), Some(before)) = (&changes, before) {
                        self.keep_checkpoint(&id, path, before).await;
                    }
                    self.flush_calls().await;
                }
                Ok(output) => {
                    // The tool ran and says it failed (a command's non-zero exit).
                    if let Some(summary) = output.summary {
                        self.calls.set_summary(&id, summary);
                    }
                    let escalates = (!seen.refused.is_empty() || !seen.hidden.is_empty())
                        && seen.denied.is_empty();
                    if let (Some((arguments, _, _)), true) = (confined, escalates) {
                        escalations.push(Escalation {
                            index,
                            id,
                            tool,
                            arguments,
                            text,
                            refused: seen.refused,
                            hidden: seen.hidden,
                        });
                        continue;
                    }
                    self.calls
                        .finish(&mut self.events, &id, CallState::Failed, &text, true);
                    results[index] = Some((text, true));
                    if outcome == CallsOutcome::Continue {
                        outcome = self.count_failure(&id, &tool).await;
                    }
                }
                Err(error) => {
                    self.calls.fail(&mut self.events, &id, &text, &error);
                    results[index] = Some((text, true));
                    if outcome == CallsOutcome::Continue {
                        outcome = self.count_failure(&id, &tool).await;
                    }
                }
            }
        }
        if let Some(before) = &before {
            for id in &listed {
                self.show_changes(id, before).await;
            }
            self.report_session_changes().await;
        }
        for escalation in escalations {
            if outcome != CallsOutcome::Continue {
                self.not_run(&escalation.id, &outcome, &mut results[escalation.index]);
                continue;
            }
            outcome = self.escalate(escalation, results).await;
        }
        outcome
    }

    /// Acts on what a system tool asked for; returns the call's final state, its result for the
    /// model, whether that is an error, and how the turn ends when it ends it.
    async fn take_control(
        &mut self,
        id: &str,
        control: Control,
        text: String,
    ) -> (CallState, String, bool, Option<CallsOutcome>) {
        match control {
            Control::Complete { summary } => (
                CallState::Succeeded,
                text,
                false,
                Some(CallsOutcome::Completed(summary)),
            ),
            Control::Todos(todos) => {
                self.save_todos(&todos).await;
                self.events.emit(EventMsg::TodosChanged { todos });
                (CallState::Succeeded, text, false, None)
            }
            Control::SubAgent(request) => {
                let (state, text, is_error) = self.run_sub_agent(id, request).await;
                (state, text, is_error, None)
            }
        }
    }

    fn count_stats(&mut self, tool: &str, run: &Executed) {
        let end = match &run.outcome {
            _ if run.timed_out => CallEnd::TimedOut,
            Ok(output) if !output.failed => CallEnd::Succeeded,
            _ => CallEnd::Failed,
        };
        let stats = self.tools.stats.record(tool, end, run.elapsed);
        self.events.emit(EventMsg::ToolStats { stats });
    }

    /// Shows what a running call sent for the user: live text, scrubbed of known keys (a key
    /// split between two pieces included), its result's images (kept in the call's state, so a
    /// snapshot and the stored session have them too), or its progress line.
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
            CallOutput::Status(line) => {
                let line = scrub(&line).into_owned();
                self.calls.set_status(&mut self.events, &call_id, line);
            }
        }
    }

    /// Counts a failure of `tool`; at the threshold, pauses until `continue` or `cancel`.
    async fn count_failure(&mut self, call_id: &str, tool: &str) -> CallsOutcome {
        let count = self.frame.failures.entry(tool.to_owned()).or_insert(0);
        *count += 1;
        let failures = *count;
        if failures < self.oversight.pause_after {
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
            if self.task.cancel.is_cancelled() {
                return CallsOutcome::Stopped;
            }
            match self.next_op().await {
                Op::Continue => {
                    self.frame.failures.remove(tool);
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
