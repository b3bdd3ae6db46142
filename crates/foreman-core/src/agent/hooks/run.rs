//! Running the hooks of one event: planned from the settings files (with what is wrong in
//! them told once, and consent asked for hooks not allowed yet), run in the sandbox a command
//! gets, each run shown on its call's card or in the conversation. The user may stop the agent
//! while a hook runs; `"continue": false` from any hook stops it as the user's Stop would.

use serde_json::{Map, Value};

use crate::agent::engine::Engine;
use crate::conversation::transcript::TranscriptItem;
use crate::hooks::{Dispatch, Reply, combined};
use crate::protocol::{ConfigArea, EventMsg, HookEvent};

impl Engine {
    /// Runs the hooks of `event` for `call_id` (or the conversation), shows each run, stops the
    /// agent when one says so, and gives the replies combined.
    pub(crate) async fn run_hooks(
        &mut self,
        event: HookEvent,
        call_id: Option<&str>,
        subject: Option<(String, String)>,
        fields: Map<String, Value>,
    ) -> Reply {
        if self.tools.hooks.is_none() {
            return Reply::default();
        }
        let sandbox = self
            .oversight
            .sandbox
            .for_command(self.oversight.policy.mode, &self.workspace, false)
            .0;
        let dispatch = Dispatch {
            event,
            subject,
            fields,
            sandbox,
        };
        let Some(hooks) = self.tools.hooks.as_mut() else {
            return Reply::default();
        };
        let planned = hooks.plan(dispatch).await;
        let broken = planned.warnings.into_iter().map(|w| (ConfigArea::Hooks, w));
        self.tell_config_warnings(broken.collect());
        if let Some(view) = planned.awaiting {
            self.events
                .emit_session(EventMsg::HooksAwaitConsent { view });
        }
        if planned.runs.is_empty() {
            return Reply::default();
        }
        if let Some(hooks) = self.tools.hooks.as_mut() {
            hooks.write_transcript(&self.frame.history);
        }
        let mut running = Box::pin(planned.runs.run(self.task.cancel.clone()));
        // The user may stop the agent while a hook runs (a hook that hangs, say); at the
        // session's end nothing is answered any more.
        let runs = loop {
            if self.task.shutdown {
                break running.await;
            }
            tokio::select! {
                runs = &mut running => break runs,
                op = self.next_op() => Box::pin(self.handle_side_op(op)).await,
            }
        };
        for (run, _) in &runs {
            match call_id {
                Some(id) => self.calls.add_hook_run(id, run.clone()),
                // A message's hooks are kept after the message, the others where they ran, so
                // a reopened conversation shows each where the live one did.
                None if event == HookEvent::UserPromptSubmit => {
                    self.incoming.hook_runs.push(run.clone());
                }
                None => {
                    let notice = TranscriptItem::Hook { run: run.clone() };
                    self.save_notice(&notice).await;
                }
            }
            self.events.emit(EventMsg::HookRan {
                call_id: call_id.map(str::to_owned),
                run: run.clone(),
            });
        }
        let combined = combined(&runs);
        if let Some(reason) = &combined.stop {
            self.events.emit_session(EventMsg::Error {
                message: format!("A {} hook stopped the agent: {reason}", event.name()),
            });
            self.stop();
        }
        combined
    }
}
