//! Running a batch of jobs (one job alone when it may change the workspace): a checkpoint
//! before a step that may change the workspace, each command in its sandbox
//! (`sandboxing.rs`), every tool with its timeout and the task's cancel token
//! ([`execute`]); while they run, their live output is shown, scrubbed of known keys, and ops
//! are answered. Then each is settled (`settle.rs`), what a command or an external tool changed
//! is listed on its card, and the commands the sandbox refused something ask to run outside it
//! (`escalation.rs`).

use std::collections::HashMap;
use std::future::Future;

use futures_util::future::join_all;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::job::{CallsOutcome, Confined, Job, Running};
use super::results::Results;
use super::settle::Settled;
use crate::agent::checkpoints::checkpointing::Moment;
use crate::agent::engine::Engine;
use crate::protocol::{CallState, EventMsg};
use crate::secrets::{StreamScrubber, scrub};
use crate::tools::{CallOutput, Executed, OutputSink, Prepared, execute};

/// What a running call sends for the user, by call id.
type Output = (String, CallOutput);

/// The checkpoint before a step that may change the workspace, and the calls whose cards list
/// what they changed against it (commands and external tools; file tools show their own diff).
struct Checkpointed {
    checkpoint: String,
    listed: Vec<String>,
}

impl Engine {
    /// Runs `jobs` concurrently (a single job alone), answering ops meanwhile.
    pub(crate) async fn run_jobs(&mut self, jobs: Vec<Job>, results: &mut Results) -> CallsOutcome {
        let checkpointed = self.checkpoint_before(&jobs).await;
        let (output_tx, output_rx) = tokio::sync::mpsc::unbounded_channel();
        let mut runs = Vec::with_capacity(jobs.len());
        let mut running = Vec::with_capacity(jobs.len());
        for job in jobs {
            let (run, job) = self.start(job, &output_tx);
            runs.push(run);
            running.push(job);
        }
        drop(output_tx);
        self.flush_calls().await;
        // An undo checks a file, then writes it: nothing else may write meanwhile.
        self.changes.undo.changing = running.iter().any(|job| job.mutates);
        let executed = self.wait_for(runs, output_rx).await;
        self.changes.undo.changing = false;
        let mut outcome = CallsOutcome::Continue;
        let mut escalations = Vec::new();
        for (job, run) in running.into_iter().zip(executed) {
            match self.settle(job, run, results).await {
                Settled::Done => {}
                Settled::Ends(ends) => outcome = ends,
                Settled::Failed { id, tool } if outcome == CallsOutcome::Continue => {
                    outcome = self.count_failure(&id, &tool).await;
                }
                Settled::Failed { .. } => {}
                Settled::Escalates(escalation) => escalations.push(escalation),
            }
        }
        if let Some(Checkpointed { checkpoint, listed }) = checkpointed {
            for id in &listed {
                self.show_changes(id, &checkpoint).await;
            }
            self.report_session_changes().await;
        }
        for escalation in escalations {
            if outcome != CallsOutcome::Continue {
                self.not_run(escalation.index, &escalation.id, &outcome, results);
                continue;
            }
            outcome = self.escalate(escalation, results).await;
        }
        outcome
    }

    /// A checkpoint before `jobs` when one may change the workspace (it then runs alone).
    async fn checkpoint_before(&mut self, jobs: &[Job]) -> Option<Checkpointed> {
        let first = jobs.iter().find(|job| job.mutates)?.id.clone();
        let listed = jobs
            .iter()
            .filter(|job| job.mutates && job.edited_path.is_none())
            .map(|job| job.id.clone())
            .collect();
        let checkpoint = self.checkpoint(Moment::Call(&first)).await?;
        Some(Checkpointed { checkpoint, listed })
    }

    /// Starts `job`: its run, to be awaited, and what settling it takes.
    fn start(
        &mut self,
        job: Job,
        output: &UnboundedSender<Output>,
    ) -> (impl Future<Output = Executed> + use<>, Running) {
        self.calls
            .transition(&mut self.events, &job.id, CallState::Executing, None);
        // What a file-changing call is about to replace (`None`: nothing can be kept).
        let before = job
            .edited_path
            .as_deref()
            .and_then(|path| self.bytes_before(path));
        let Prepared {
            tool,
            input,
            repairs,
            arguments,
            facts,
        } = job.prepared;
        let timeout = self.tools.set.timeout(&tool);
        let sink = OutputSink::new(job.id.clone(), output.clone());
        let (sandbox, confined) = match tool.sandboxable() {
            true => {
                let mode = self.oversight.policy.mode;
                let denied = self.oversight.policy.denied_paths(&self.workspace);
                let (policy, note) = self.oversight.sandbox.for_call(
                    mode,
                    &self.workspace,
                    job.unsandboxed,
                    &denied,
                );
                self.calls.set_sandbox(&mut self.events, &job.id, note);
                // Kept to ask again outside the sandbox if it refuses something.
                let confined = policy.is_some().then_some(Confined {
                    line: facts.shell,
                    denied,
                });
                (policy, confined)
            }
            false => (None, None),
        };
        let run = execute(
            std::sync::Arc::clone(&tool),
            input,
            timeout,
            self.task.cancel.clone(),
            sink,
            sandbox,
        );
        let running = Running {
            index: job.index,
            id: job.id,
            tool: tool.name().to_owned(),
            edited_path: job.edited_path,
            mutates: job.mutates,
            repairs,
            arguments,
            confined,
            before,
        };
        (run, running)
    }

    /// Waits for `runs` to end, showing what they send for the user and answering ops meanwhile.
    async fn wait_for<F: Future<Output = Executed>>(
        &mut self,
        runs: Vec<F>,
        mut output: UnboundedReceiver<Output>,
    ) -> Vec<Executed> {
        let mut scrubbers: HashMap<String, StreamScrubber> = HashMap::new();
        let mut all = join_all(runs);
        let executed: Vec<Executed> = loop {
            tokio::select! {
                biased;
                Some((call_id, sent)) = output.recv() => {
                    self.show_output(&mut scrubbers, call_id, sent);
                }
                done = &mut all => break done,
                op = self.next_op() => self.handle_side_op(op).await,
            }
        };
        // Output sent just before a call ended comes before its result.
        while let Ok((call_id, sent)) = output.try_recv() {
            self.show_output(&mut scrubbers, call_id, sent);
        }
        for (call_id, mut scrubber) in scrubbers {
            let text = scrubber.finish_str();
            if !text.is_empty() {
                self.events.emit(EventMsg::ToolCallOutput { call_id, text });
            }
        }
        executed
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
}
