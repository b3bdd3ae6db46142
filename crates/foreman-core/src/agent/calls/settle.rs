//! Settling a job once its run is over: its stats, what the sandbox refused or hid, then its
//! end — a success (a system tool's [`Control`] acted on: end the task, a new task list, a
//! sub-agent; otherwise the `PostToolUse` hooks), a failure (counted: a tool failing
//! [`Oversight::pause_after`](super::state::Oversight::pause_after) times in a row pauses the
//! task until the user continues or stops it), or a confined command to run again outside the
//! sandbox. A file change that went through keeps what it replaced, for its undo.

use super::job::{CallsOutcome, Escalation, Running};
use super::results::{CallResult, Results};
use crate::agent::calls::sandboxing::AfterRun;
use crate::agent::engine::Engine;
use crate::protocol::{CallState, EventMsg, Op};
use crate::tools::{CallEnd, Control, Executed, ToolOutput};

/// How one settled job leaves the turn.
pub(crate) enum Settled {
    /// Its result is in; the turn goes on as it was.
    Done,
    /// Its result is in, and the turn ends (or was cancelled) this way.
    Ends(CallsOutcome),
    /// It failed: one more failure of `tool`, unless the turn ends anyway.
    Failed { id: String, tool: String },
    /// The sandbox refused something its command tried: the user is asked to run it outside.
    Escalates(Escalation),
}

impl Engine {
    /// Settles `job`, whose run ended as `run`.
    pub(crate) async fn settle(
        &mut self,
        job: Running,
        run: Executed,
        results: &mut Results,
    ) -> Settled {
        self.count_stats(&job.tool, &run);
        let text = run.model_text(&job.repairs);
        if self.task.cancel.is_cancelled() {
            // A change that went through before the cancel can still be undone.
            let changed = run.outcome.is_ok();
            let text = format!("Cancelled by the user while running.\n{text}");
            self.calls
                .finish(&mut self.events, &job.id, CallState::Cancelled, &text, true);
            results.error(job.index, text);
            if changed && let (Some(path), Some(before)) = (&job.edited_path, job.before) {
                self.keep_checkpoint(&job.id, path, before).await;
            }
            return Settled::Ends(CallsOutcome::Cancelled);
        }
        let seen = match (&job.confined, &run.outcome) {
            (Some(confined), Ok(output)) => {
                let seen = self.oversight.sandbox.after_run(
                    confined.line.as_ref(),
                    &confined.denied,
                    &output.text,
                    output.failed,
                );
                self.show_after_run(&job.id, &seen);
                seen
            }
            _ => AfterRun::default(),
        };
        match run.outcome {
            Ok(output) if !output.failed => self.succeeded(job, output, text, results).await,
            Ok(output) => {
                // The tool ran and says it failed (a command's non-zero exit).
                if let Some(summary) = output.summary {
                    self.calls.set_summary(&job.id, summary);
                }
                if job.confined.is_some() && seen.may_run_outside() {
                    return Settled::Escalates(Escalation {
                        index: job.index,
                        id: job.id,
                        tool: job.tool,
                        arguments: job.arguments,
                        text,
                        refused: seen.refused,
                        hidden: seen.hidden,
                    });
                }
                self.calls
                    .finish(&mut self.events, &job.id, CallState::Failed, &text, true);
                results.error(job.index, text);
                Settled::Failed {
                    id: job.id,
                    tool: job.tool,
                }
            }
            Err(error) => {
                self.calls.fail(&mut self.events, &job.id, &text, &error);
                results.error(job.index, text);
                Settled::Failed {
                    id: job.id,
                    tool: job.tool,
                }
            }
        }
    }

    /// Settles `job`, whose tool succeeded with `output` (`text` for the model).
    async fn succeeded(
        &mut self,
        job: Running,
        output: ToolOutput,
        text: String,
        results: &mut Results,
    ) -> Settled {
        self.frame.failures.remove(&job.tool);
        if let Some(summary) = output.summary {
            self.calls.set_summary(&job.id, summary);
        }
        let mut settled = Settled::Done;
        let (state, result) = match output.control {
            None => {
                let said = self
                    .post_tool_hooks(
                        &job.id,
                        &job.tool,
                        &job.arguments,
                        &text,
                        job.edited_path.as_deref(),
                    )
                    .await;
                let text = match said {
                    Some(note) => format!("{text}\n\n{note}"),
                    None => text,
                };
                let result = CallResult {
                    text,
                    is_error: false,
                };
                (CallState::Succeeded, result)
            }
            Some(control) => {
                let (state, result, ends) = self.take_control(&job.id, control, text).await;
                if let Some(ends) = ends {
                    settled = Settled::Ends(ends);
                }
                (state, result)
            }
        };
        self.calls.finish(
            &mut self.events,
            &job.id,
            state,
            &result.text,
            result.is_error,
        );
        results.set(job.index, result.text, result.is_error);
        if state == CallState::Cancelled {
            settled = Settled::Ends(CallsOutcome::Cancelled);
        }
        if let (Some(path), Some(before)) = (&job.edited_path, job.before) {
            self.keep_checkpoint(&job.id, path, before).await;
        }
        self.flush_calls().await;
        settled
    }

    /// Acts on what a system tool asked for; returns the call's final state, its result for the
    /// model, and how the turn ends when it ends it.
    async fn take_control(
        &mut self,
        id: &str,
        control: Control,
        text: String,
    ) -> (CallState, CallResult, Option<CallsOutcome>) {
        let done = |text| CallResult {
            text,
            is_error: false,
        };
        match control {
            Control::Complete { summary } => (
                CallState::Succeeded,
                done(text),
                Some(CallsOutcome::Completed(summary)),
            ),
            Control::Todos(todos) => {
                self.save_todos(&todos).await;
                self.events.emit(EventMsg::TodosChanged { todos });
                (CallState::Succeeded, done(text), None)
            }
            Control::SubAgent(request) => {
                let (state, text, is_error) = self.run_sub_agent(id, request).await;
                (state, CallResult { text, is_error }, None)
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

    /// Counts a failure of `tool`; at the threshold, pauses until `continue` or `cancel`.
    pub(crate) async fn count_failure(&mut self, call_id: &str, tool: &str) -> CallsOutcome {
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
