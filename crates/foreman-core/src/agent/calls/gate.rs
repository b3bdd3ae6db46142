//! The gate: one call of the model's response, as streamed, made into a [`Gated`] — run it
//! beside the reads next to it, run it alone, ask, or done with it. On the way: its arguments
//! must have parsed, its tool must be offered, the tool runtime prepares it
//! ([`ToolSet::prepare`](crate::tools::ToolSet::prepare): find, repair, validate, parse, facts),
//! the `PreToolUse` hooks may block it or change the policy's answer (`hook_points.rs`), and the
//! approval policy decides. A call done here has its result in [`Results`] already.

use super::job::{CallsOutcome, Job};
use super::results::Results;
use crate::agent::engine::Engine;
use crate::agent::task::turn::StreamedCall;
use crate::approval::network::private_target;
use crate::approval::{ActionClass, CallFacts, Decision};
use crate::protocol::CallState;
use crate::secrets::scrub;

/// What the gate made of one call.
pub(crate) enum Gated {
    /// Allowed, and a read: it runs beside the reads next to it.
    Batch(Job),
    /// Allowed, and it may change the workspace: it runs alone, after the calls before it.
    Alone(Job),
    /// The policy asks (for `reason`): a `PermissionRequest` hook or the user decides.
    Ask { job: Job, reason: String },
    /// It does not run (refused, blocked, unusable): its result is in, and the turn goes on as
    /// this says.
    Done(CallsOutcome),
}

impl Gated {
    /// It runs only after the batch before it has run.
    pub(crate) fn waits_for_batch(&self) -> bool {
        matches!(self, Self::Alone(_) | Self::Ask { .. })
    }
}

impl Engine {
    /// Takes `call`, the `index`-th of its response, through the gate.
    pub(crate) async fn gate(
        &mut self,
        index: usize,
        call: &StreamedCall,
        results: &mut Results,
    ) -> Gated {
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
                results.error(index, message);
                return Gated::Done(CallsOutcome::Continue);
            }
        };
        self.calls
            .transition(&mut self.events, &call.id, CallState::Validating, None);
        if !self.offers(&call.name) {
            let text = self.not_offered_text(&call.name);
            return self.refuse_call(index, &call.id, text, results);
        }
        let mut prepared = match self.tools.set.prepare(&call.name, arguments) {
            Ok(prepared) => prepared,
            Err(error) => {
                let text = scrub(&error.for_model()).into_owned();
                self.calls.fail(&mut self.events, &call.id, &text, &error);
                results.error(index, text);
                return Gated::Done(self.count_failure(&call.id, &call.name).await);
            }
        };
        if let Some(slot) = results.slot_mut(index) {
            slot.path.clone_from(&prepared.facts.path);
        }
        self.complete_facts(&mut prepared.facts).await;
        let job = Job::new(index, call.id.clone(), prepared);
        let hooked = self
            .pre_tool_hooks(&call.id, &call.name, &job.prepared.arguments)
            .await;
        if let Some(slot) = results.slot_mut(index) {
            slot.hook_note.clone_from(&hooked.context);
        }
        if let Some(reason) = hooked.blocked {
            let text = format!("Blocked by a PreToolUse hook: {reason}. Nothing was done.");
            return self.refuse_call(index, &call.id, text, results);
        }
        if self.task.cancel.is_cancelled() {
            // A hook stopped the agent.
            return Gated::Done(self.cancel_unrun(index, &call.id, results));
        }
        let facts = &job.prepared.facts;
        let decision = hooked.decide(
            self.oversight
                .policy
                .decide(facts, self.oversight.auto_approved),
        );
        // A change the person approved when an external agent asked for it, written now.
        let decision = match decision {
            Decision::Ask { .. } if self.oversight.was_approved(&job.prepared) => Decision::Allow {
                reason: "approved when the agent asked".into(),
            },
            decision => decision,
        };
        if matches!(decision, Decision::Allow { .. }) && job.mutates {
            self.oversight.auto_approved += 1;
        }
        match decision {
            Decision::Deny { reason } => {
                let text = format!("Refused by the approval policy: {reason}. Nothing was done.");
                self.refuse_call(index, &call.id, text, results)
            }
            Decision::Allow { .. } if facts.class == ActionClass::Read => {
                self.calls
                    .transition(&mut self.events, &call.id, CallState::Scheduled, None);
                Gated::Batch(job)
            }
            Decision::Allow { .. } => Gated::Alone(job),
            Decision::Ask { reason } => Gated::Ask { job, reason },
        }
    }

    /// The facts the policy needs that the tool cannot know: whether a fetch's host is on a
    /// private network, and which paths a deny rule keeps from a command names.
    pub(crate) async fn complete_facts(&self, facts: &mut CallFacts) {
        if facts.class == ActionClass::Fetch
            && let Some(host) = &facts.host
        {
            facts.private_target = private_target(host).await;
        }
        self.oversight.policy.name_denied(facts, &self.workspace);
    }

    /// Ends the call `id` refused, `text` telling the model why.
    fn refuse_call(
        &mut self,
        index: usize,
        id: &str,
        text: String,
        results: &mut Results,
    ) -> Gated {
        self.calls
            .finish(&mut self.events, id, CallState::Rejected, &text, true);
        results.error(index, text);
        Gated::Done(CallsOutcome::Continue)
    }
}
