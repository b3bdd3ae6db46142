//! A call the policy asks about: a `PermissionRequest` hook may answer for the user; otherwise
//! the `Notification` hooks run and the user is asked (`approvals.rs`), and the call runs,
//! runs with the user's own version of its change (`users_version.rs`), is rejected, or is
//! cancelled with the task.

use super::approvals::ApprovalOutcome;
use super::job::{CallsOutcome, Job};
use super::results::Results;
use crate::agent::engine::Engine;
use crate::hooks::Permission;
use crate::protocol::{CallDecision, CallState};

impl Engine {
    /// Asks about `job` (the policy's `reason`), then runs it when it may.
    pub(crate) async fn ask(
        &mut self,
        job: Job,
        reason: String,
        results: &mut Results,
    ) -> CallsOutcome {
        let tool = job.prepared.tool.name().to_owned();
        let answer = self
            .permission_hooks(&job.id, &tool, &job.prepared.arguments)
            .await;
        if self.task.cancel.is_cancelled() {
            return self.cancel_unrun(job.index, &job.id, results);
        }
        match answer {
            Some((Permission::Allow, _)) => {
                self.calls
                    .transition(&mut self.events, &job.id, CallState::Scheduled, None);
                self.run_jobs(vec![job], results).await
            }
            Some((_, why)) => {
                let text = format!(
                    "Refused by a PermissionRequest hook: {}. Nothing was done.",
                    why.as_deref().unwrap_or("it gave no reason")
                );
                self.calls
                    .finish(&mut self.events, &job.id, CallState::Rejected, &text, true);
                results.error(job.index, text);
                CallsOutcome::Continue
            }
            None => {
                let (claude, _) = self.hook_subject(&tool);
                let message = format!("Foreman needs your permission to use {claude}");
                self.notification_hooks(Some(&job.id), message).await;
                self.approve_and_run(job, reason, results).await
            }
        }
    }

    /// Asks the user about `job` and acts on the answer.
    async fn approve_and_run(
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
                results.error(job.index, text);
                CallsOutcome::Continue
            }
            ApprovalOutcome::Cancelled => self.cancel_unrun(job.index, &job.id, results),
        }
    }
}
