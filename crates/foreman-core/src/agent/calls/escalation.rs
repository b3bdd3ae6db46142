//! A confined command that failed because the sandbox refused something it tried (a write
//! outside the workspace, a connection, a credential it hides) asks the user, as an ordinary
//! approval, whether to run it again outside the sandbox. The card shows what was refused; the
//! model is told which run its result comes from. A command that touched a path a deny rule
//! keeps from commands is never offered a run outside: the rule would not hold there.

use super::approvals::ApprovalOutcome;
use super::job::{CallsOutcome, Escalation, Job};
use super::results::Results;
use super::sandboxing::AfterRun;
use crate::agent::engine::Engine;
use crate::protocol::{CallDecision, CallState, SandboxNote};

/// What the model is told before the result of a run the user let out of the sandbox.
const RAN_OUTSIDE: &str = "The sandbox refused something this command tried, and the user \
    approved running it again outside the sandbox. This is the result of that run:";

/// What the model is told when the user kept it in.
const KEPT_INSIDE: &str = "The sandbox refused something this command tried (see above), and the \
    user chose not to run it outside the sandbox.";

impl Engine {
    /// Tells a confined command's card what its run showed: hidden paths it named or needs,
    /// paths a deny rule kept from it, a signal the sandbox refused.
    pub(crate) fn show_after_run(&mut self, id: &str, seen: &AfterRun) {
        if seen.hidden.is_empty() && seen.denied.is_empty() && !seen.signalled_outside {
            return;
        }
        let note = SandboxNote {
            hidden: seen.hidden.clone(),
            denied: seen.denied.clone(),
            signalled_outside: seen.signalled_outside,
            ..self.oversight.sandbox.note()
        };
        self.calls.set_sandbox(&mut self.events, id, note);
    }

    /// Asks to run `esc`'s command outside the sandbox; runs it there when the user agrees.
    pub(crate) async fn escalate(
        &mut self,
        esc: Escalation,
        results: &mut Results,
    ) -> CallsOutcome {
        let Escalation {
            index,
            id,
            tool,
            arguments,
            text,
            refused,
            hidden,
        } = esc;
        let note = SandboxNote {
            refused: refused.clone(),
            hidden: hidden.clone(),
            ..self.oversight.sandbox.note()
        };
        self.calls.set_sandbox(&mut self.events, &id, note);
        let prepared = match self.tools.set.prepare(&tool, arguments) {
            Ok(prepared) => prepared,
            Err(_) => {
                self.calls
                    .finish(&mut self.events, &id, CallState::Failed, &text, true);
                results.error(index, text);
                return CallsOutcome::Continue;
            }
        };
        let reason = match refused.first() {
            Some(line) => format!(
                "the sandbox refused something it tried ({line}); run it again outside the \
                 sandbox, with your full rights?"
            ),
            None => format!(
                "it may need {}, which the sandbox hides from commands; run it again outside \
                 the sandbox, with your full rights?",
                hidden.join(", ")
            ),
        };
        match self.await_approval(&id, &prepared, reason).await {
            ApprovalOutcome::Run => {
                self.calls
                    .transition(&mut self.events, &id, CallState::Scheduled, None);
                let job = Job {
                    index,
                    id,
                    prepared,
                    edited_path: None,
                    mutates: true,
                    unsandboxed: true,
                };
                let outcome = Box::pin(self.run_jobs(vec![job], results)).await;
                if let Some(result) = results.result_mut(index) {
                    result.text = format!("{RAN_OUTSIDE}\n{}", result.text);
                }
                outcome
            }
            ApprovalOutcome::Rejected { text: why, reason } => {
                let result = format!("{text}\n\n{KEPT_INSIDE} {why}");
                self.calls.finish_decided(
                    &mut self.events,
                    &id,
                    CallState::Rejected,
                    &result,
                    CallDecision::Rejected { reason },
                );
                results.error(index, result);
                CallsOutcome::Continue
            }
            ApprovalOutcome::RunEdited(_) => {
                // A command has no version of the user's to write: kept in the sandbox.
                let result = format!("{text}\n\n{KEPT_INSIDE}");
                self.calls
                    .finish(&mut self.events, &id, CallState::Rejected, &result, true);
                results.error(index, result);
                CallsOutcome::Continue
            }
            ApprovalOutcome::Cancelled => self.cancel_unrun(index, &id, results),
        }
    }
}
