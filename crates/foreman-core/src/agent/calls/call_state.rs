//! [`CallRegistry`]: every tool call of the session with its accumulated state; each transition
//! goes through [`CallState::transition`] and becomes an event.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::agent::events::EventSink;
use crate::protocol::{
    ArgsView, CallDecision, CallError, CallImages, CallSnapshot, CallState, EventMsg, FilePreview,
    HookRun, SandboxNote, ToolKind, UndoState, WorkspaceChange,
};
use crate::tools::ToolError;

/// How a call ends: its final state, what the model is told, and for the person what failed or
/// what they decided.
struct Ending<'a> {
    to: CallState,
    result: &'a str,
    is_error: bool,
    error: Option<CallError>,
    decision: Option<CallDecision>,
}

impl<'a> Ending<'a> {
    fn new(to: CallState, result: &'a str, is_error: bool) -> Self {
        Self {
            to,
            result,
            is_error,
            error: None,
            decision: None,
        }
    }
}

/// The calls of a session, in the order they were created.
#[derive(Debug, Default)]
pub struct CallRegistry {
    calls: Vec<CallSnapshot>,
    index: HashMap<String, usize>,
    dirty: Vec<String>,
    /// Calls whose final arguments are exactly what their streamed patches built.
    streamed_exactly: HashSet<String>,
}

impl CallRegistry {
    /// Registers a call that started streaming and announces it, with how its card draws it; a
    /// call made while a sub-agent runs records the sink's parent call.
    pub fn create(
        &mut self,
        events: &mut EventSink,
        call_id: &str,
        name: &str,
        kind: ToolKind,
        view: ArgsView,
    ) {
        self.index.insert(call_id.to_owned(), self.calls.len());
        self.dirty.push(call_id.to_owned());
        self.calls.push(CallSnapshot {
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            state: CallState::Streaming,
            arguments: Value::Null,
            preview: None,
            preview_hash: None,
            status: None,
            result: None,
            is_error: false,
            decision: None,
            images: None,
            parent_call_id: events.parent().map(str::to_owned),
            undo: None,
            kind,
            view: view.clone(),
            title: None,
            summary: None,
            error: None,
            sandbox: None,
            changes: None,
            hooks: Vec::new(),
        });
        events.emit(EventMsg::ToolCallCreated {
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            state: CallState::Streaming,
            kind,
            view,
        });
    }

    /// Gives the call's card a new title.
    pub fn set_title(&mut self, events: &mut EventSink, call_id: &str, title: String) {
        let Some(call) = self.get_mut(call_id) else {
            return;
        };
        if call.title.as_deref() == Some(title.as_str()) {
            return;
        }
        call.title = Some(title.clone());
        self.dirty.push(call_id.to_owned());
        events.emit(EventMsg::ToolCallUpdated {
            call_id: call_id.to_owned(),
            state: None,
            args: Vec::new(),
            preview: None,
            status: None,
            images: None,
            title: Some(title),
        });
    }

    /// Records what the call did; it goes out with the call's final state.
    pub fn set_summary(&mut self, call_id: &str, summary: String) {
        if let Some(call) = self.get_mut(call_id) {
            call.summary = Some(summary);
        }
    }

    /// Replaces the progress line of a running call.
    pub fn set_status(&mut self, events: &mut EventSink, call_id: &str, status: String) {
        let Some(call) = self.get_mut(call_id) else {
            return;
        };
        call.status = Some(status.clone());
        self.dirty.push(call_id.to_owned());
        events.emit(EventMsg::ToolCallUpdated {
            call_id: call_id.to_owned(),
            state: None,
            args: Vec::new(),
            preview: None,
            status: Some(status),
            images: None,
            title: None,
        });
    }

    pub fn get(&self, call_id: &str) -> Option<&CallSnapshot> {
        self.index.get(call_id).and_then(|i| self.calls.get(*i))
    }

    fn get_mut(&mut self, call_id: &str) -> Option<&mut CallSnapshot> {
        self.index.get(call_id).and_then(|i| self.calls.get_mut(*i))
    }

    /// The state of `call_id`.
    pub fn state(&self, call_id: &str) -> Option<CallState> {
        self.get(call_id).map(|c| c.state)
    }

    /// Records the complete arguments (no event: the patches already carried them).
    pub fn set_arguments(&mut self, call_id: &str, arguments: Value) {
        if let Some(call) = self.get_mut(call_id) {
            call.arguments = arguments;
        }
    }

    /// Records whether the call's final arguments equal what its patches built, so that a client
    /// following the patches already has them.
    pub fn set_streamed_exactly(&mut self, call_id: &str, exactly: bool) {
        if exactly {
            self.streamed_exactly.insert(call_id.to_owned());
        } else {
            self.streamed_exactly.remove(call_id);
        }
    }

    /// Whether the call's patches built exactly its final arguments.
    pub fn streamed_exactly(&self, call_id: &str) -> bool {
        self.streamed_exactly.contains(call_id)
    }

    /// Records a preview and its hash (the approval request carries them).
    pub fn set_preview(&mut self, call_id: &str, preview: Option<FilePreview>, hash: String) {
        if let Some(call) = self.get_mut(call_id) {
            call.preview = preview;
            call.preview_hash = Some(hash);
        }
    }

    /// Replaces the preview of a call whose change was written otherwise than proposed (the
    /// user's version, a partial undo) and sends it to the card, so the card shows what the
    /// file got.
    /// A call of an earlier run of the session (not registered here) is only announced.
    pub fn show_preview(&mut self, events: &mut EventSink, call_id: &str, preview: FilePreview) {
        let sent = preview.for_event();
        if let Some(call) = self.get_mut(call_id) {
            call.preview = Some(preview);
            self.dirty.push(call_id.to_owned());
        }
        events.emit(EventMsg::ToolCallUpdated {
            call_id: call_id.to_owned(),
            state: None,
            args: Vec::new(),
            preview: Some(sent),
            status: None,
            images: None,
            title: None,
        });
    }

    /// Records the images a running call returned and sends them to the user's card.
    pub fn set_images(&mut self, events: &mut EventSink, call_id: &str, images: CallImages) {
        let Some(call) = self.get_mut(call_id) else {
            return;
        };
        call.images = Some(images.clone());
        self.dirty.push(call_id.to_owned());
        events.emit(EventMsg::ToolCallUpdated {
            call_id: call_id.to_owned(),
            state: None,
            args: Vec::new(),
            preview: None,
            status: None,
            images: Some(images),
            title: None,
        });
    }

    /// Records whether the change `call_id` made can be undone, or was, and announces it. A
    /// call of an earlier run of the session (not registered here) is only announced.
    pub fn set_undo(&mut self, events: &mut EventSink, call_id: &str, undo: UndoState) {
        if let Some(call) = self.get_mut(call_id) {
            call.undo = Some(undo);
            self.dirty.push(call_id.to_owned());
        }
        events.emit(EventMsg::UndoChanged {
            call_id: call_id.to_owned(),
            undo,
        });
    }

    /// Records and announces the files the call `call_id` changed.
    pub fn set_changes(
        &mut self,
        events: &mut EventSink,
        call_id: &str,
        changes: Vec<WorkspaceChange>,
    ) {
        if let Some(call) = self.get_mut(call_id) {
            call.changes = Some(changes.clone());
            self.dirty.push(call_id.to_owned());
        }
        events.emit(EventMsg::CallChanges {
            call_id: call_id.to_owned(),
            changes,
        });
    }

    /// Records and announces how the command `call_id` runs.
    pub fn set_sandbox(&mut self, events: &mut EventSink, call_id: &str, sandbox: SandboxNote) {
        if let Some(call) = self.get_mut(call_id) {
            call.sandbox = Some(sandbox.clone());
            self.dirty.push(call_id.to_owned());
        }
        events.emit(EventMsg::SandboxChanged {
            call_id: call_id.to_owned(),
            sandbox,
        });
    }

    /// Adds a hook's run to the call (its event is sent by the caller).
    pub fn add_hook_run(&mut self, call_id: &str, run: HookRun) {
        if let Some(call) = self.get_mut(call_id) {
            call.hooks.push(run);
            self.dirty.push(call_id.to_owned());
        }
    }

    /// Moves `call_id` to `to` and announces it with `status`. Refused moves change nothing and
    /// are reported as an error event (they are engine bugs, never silent).
    pub fn transition(
        &mut self,
        events: &mut EventSink,
        call_id: &str,
        to: CallState,
        status: Option<String>,
    ) -> bool {
        let Some(index) = self.index.get(call_id).copied() else {
            return false;
        };
        self.dirty.push(call_id.to_owned());
        let Some(call) = self.calls.get_mut(index) else {
            return false;
        };
        match call.state.transition(to) {
            Ok(next) => {
                call.state = next;
                if status.is_some() {
                    call.status.clone_from(&status);
                }
                events.emit(EventMsg::ToolCallUpdated {
                    call_id: call_id.to_owned(),
                    state: Some(next),
                    args: Vec::new(),
                    preview: None,
                    status,
                    images: None,
                    title: None,
                });
                true
            }
            Err(e) => {
                events.emit(EventMsg::Error {
                    message: format!("{call_id}: {e}"),
                });
                false
            }
        }
    }

    /// Moves `call_id` to a final state with the result the model gets.
    pub fn finish(
        &mut self,
        events: &mut EventSink,
        call_id: &str,
        to: CallState,
        result: &str,
        is_error: bool,
    ) {
        self.end(events, call_id, Ending::new(to, result, is_error));
    }

    /// Moves `call_id` to a final state the person's `decision` brought about; the model gets
    /// `result`, the card says the decision in the person's words.
    pub fn finish_decided(
        &mut self,
        events: &mut EventSink,
        call_id: &str,
        to: CallState,
        result: &str,
        decision: CallDecision,
    ) {
        let is_error = to != CallState::Succeeded;
        let ending = Ending {
            decision: Some(decision),
            ..Ending::new(to, result, is_error)
        };
        self.end(events, call_id, ending);
    }

    /// Moves `call_id` to `failed`: `result` for the model, `error` for the user.
    pub fn fail(&mut self, events: &mut EventSink, call_id: &str, result: &str, error: &ToolError) {
        let ending = Ending {
            error: Some(error.for_user()),
            ..Ending::new(CallState::Failed, result, true)
        };
        self.end(events, call_id, ending);
    }

    fn end(&mut self, events: &mut EventSink, call_id: &str, ending: Ending<'_>) {
        let Ending {
            to,
            result,
            is_error,
            error,
            decision,
        } = ending;
        let Some(index) = self.index.get(call_id).copied() else {
            return;
        };
        self.dirty.push(call_id.to_owned());
        let Some(call) = self.calls.get_mut(index) else {
            return;
        };
        match call.state.transition(to) {
            Ok(next) => {
                call.state = next;
                call.result = Some(result.to_owned());
                call.is_error = is_error;
                call.error.clone_from(&error);
                call.decision.clone_from(&decision);
                events.emit(EventMsg::ToolCallFinished {
                    call_id: call_id.to_owned(),
                    state: next,
                    result: result.to_owned(),
                    is_error,
                    error,
                    summary: call.summary.clone(),
                    decision,
                });
            }
            Err(e) => events.emit(EventMsg::Error {
                message: format!("{call_id}: {e}"),
            }),
        }
    }

    /// The calls changed since the last call of this function (to persist), each once.
    pub fn take_dirty(&mut self) -> Vec<String> {
        let mut ids = std::mem::take(&mut self.dirty);
        let mut seen = std::collections::HashSet::new();
        ids.retain(|id| seen.insert(id.clone()));
        ids
    }

    /// Every call, in creation order.
    pub fn iter(&self) -> impl Iterator<Item = &CallSnapshot> {
        self.calls.iter()
    }

    /// Where `call_id` is in creation order.
    pub fn position(&self, call_id: &str) -> Option<usize> {
        self.calls.iter().position(|c| c.call_id == call_id)
    }

    /// Every call, as a snapshot event carries them: long diffs cut
    /// ([`FilePreview::for_event`]).
    pub fn snapshot_for_event(&self) -> Vec<CallSnapshot> {
        self.calls
            .iter()
            .map(|call| CallSnapshot {
                call_id: call.call_id.clone(),
                name: call.name.clone(),
                state: call.state,
                arguments: call.arguments.clone(),
                preview: call.preview.as_ref().map(FilePreview::for_event),
                preview_hash: call.preview_hash.clone(),
                status: call.status.clone(),
                result: call.result.clone(),
                is_error: call.is_error,
                decision: call.decision.clone(),
                images: call.images.clone(),
                parent_call_id: call.parent_call_id.clone(),
                undo: call.undo,
                kind: call.kind,
                view: call.view.clone(),
                title: call.title.clone(),
                summary: call.summary.clone(),
                error: call.error.clone(),
                sandbox: call.sandbox.clone(),
                changes: call.changes.clone(),
                hooks: call.hooks.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_emit_and_invalid_ones_are_refused() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut events = EventSink::new(tx);
        let mut calls = CallRegistry::default();
        calls.create(&mut events, "c1", "read", ToolKind::Read, ArgsView::Json);
        assert!(calls.transition(&mut events, "c1", CallState::Validating, None));
        assert!(!calls.transition(&mut events, "c1", CallState::Executing, None));
        calls.finish(&mut events, "c1", CallState::Failed, "bad", true);
        assert_eq!(calls.state("c1"), Some(CallState::Failed));
        let kinds: Vec<String> = std::iter::from_fn(|| rx.try_recv().ok())
            .map(|e| {
                serde_json::to_value(e).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "tool_call_created",
                "tool_call_updated",
                "error",
                "tool_call_finished"
            ]
        );
        assert_eq!(calls.snapshot_for_event()[0].result.as_deref(), Some("bad"));
    }
}
