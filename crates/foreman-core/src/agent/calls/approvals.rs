//! Waiting for the user's decision on one call.
//!
//! The request carries a `preview_hash` over the tool, its arguments and the target file's
//! bytes; an answer quoting another hash is refused. While the request waits, the file is
//! re-checked whenever the workspace watcher reports a batch of changes (or every
//! `Oversight::poll`, `state.rs`, when the workspace is not watched or the watcher ignores the
//! file), and once more when the answer arrives: when it changed on disk, the preview is
//! recomputed and the request re-sent with a new hash, so the user always approves what will
//! actually happen.

use serde_json::Value;

use super::preview::file_preview;
use super::users_version::{UserVersion, UserWrite};
use crate::agent::engine::Engine;
use crate::agent::inbox::state::Input;
use crate::approval::{ActionClass, CallFacts, Rule, content_hash, preview_hash};
use crate::builtin_tools::stale_guard::content_hash as guard_hash;
use crate::diff::{HunkChoiceError, apply_hunks};
use crate::protocol::{ApprovalScope, CallState, EventMsg, FilePreview, Op, RuleScope};
use crate::store::now_ms;
use crate::store::{RuleAction, rule_key};
use crate::tools::Prepared;

/// What the user decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ApprovalOutcome {
    Run,
    /// Write the user's version instead of the model's.
    RunEdited(UserWrite),
    /// Refused: `text` is the model's result, `reason` the note the user gave (if any).
    Rejected {
        text: String,
        reason: Option<String>,
    },
    Cancelled,
}

struct Pending {
    hash: String,
    /// The file's text the preview was computed from (`None`: no file, or not a file change).
    old: Option<String>,
    file: Option<Vec<u8>>,
    preview: Option<FilePreview>,
    proposed: Option<String>,
}

/// The note the user gave with a rejection, as the card shows it (`None`: none, or blank).
pub fn rejection_reason(feedback: Option<&str>) -> Option<String> {
    feedback
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
}

/// The model's result for a rejection.
pub fn rejection_text(class: ActionClass, feedback: Option<&str>) -> String {
    let feedback = rejection_reason(feedback);
    match (class, feedback) {
        (ActionClass::Edit, Some(f)) => {
            format!("The user rejected this change: {f}. The file was not modified.")
        }
        (ActionClass::Edit, None) => {
            "The user rejected this change. The file was not modified.".into()
        }
        (_, Some(f)) => format!("The user rejected this call: {f}. Nothing was done."),
        (_, None) => "The user rejected this call. Nothing was done.".into(),
    }
}

/// The user's version `content` of the pending change to `path`.
fn user_write(
    pending: &Pending,
    path: &str,
    proposed: &str,
    content: String,
    how: UserVersion,
) -> UserWrite {
    UserWrite {
        path: path.to_owned(),
        shown: pending
            .preview
            .as_ref()
            .map_or_else(|| path.to_owned(), |p| p.path.clone()),
        old: pending.old.clone(),
        seen: pending.file.as_deref().map(guard_hash),
        content,
        proposed: proposed.to_owned(),
        how,
    }
}

/// Why some hunks of a change cannot be approved alone; the text is what the user reads.
#[derive(Debug, thiserror::Error)]
enum PartialApprovalError {
    #[error("only a file change with a diff can be approved in part")]
    NoDiff,
    #[error("no hunk was chosen; reject the change instead")]
    NoHunk,
    #[error(
        "this diff is approximate (the file is too large to diff exactly in time); approve or \
         reject it whole, or edit it"
    )]
    Approximate,
    #[error(
        "the file is not UTF-8 text, or changed while the preview was made; approve or reject \
         the change whole"
    )]
    NotAsShown,
    #[error(transparent)]
    Hunks(#[from] HunkChoiceError),
}

/// What approving the preview's hunks at `chosen` does: all of them is a plain approval, some of
/// them writes the file with only those.
fn chosen_hunks(
    pending: &Pending,
    facts: &CallFacts,
    mut chosen: Vec<u32>,
) -> Result<ApprovalOutcome, PartialApprovalError> {
    let (Some(proposed), Some(path), Some(diff)) = (
        &pending.proposed,
        &facts.path,
        pending.preview.as_ref().and_then(|p| p.diff.as_ref()),
    ) else {
        return Err(PartialApprovalError::NoDiff);
    };
    chosen.sort_unstable();
    chosen.dedup();
    if chosen.is_empty() {
        return Err(PartialApprovalError::NoHunk);
    }
    let total = diff.hunks.len();
    if let Some(&index) = chosen.iter().find(|&&i| i as usize >= total) {
        return Err(HunkChoiceError::NoSuchHunk {
            index,
            count: total,
        }
        .into());
    }
    if chosen.len() == total {
        return Ok(ApprovalOutcome::Run);
    }
    if diff.approximate {
        // Another run of the diff could cut the change into other hunks.
        return Err(PartialApprovalError::Approximate);
    }
    // The hunks are of the text the preview was made from, which must be the file's bytes as
    // they are (a file that is not UTF-8 would lose its other bytes).
    let old = pending.old.as_deref().unwrap_or("");
    let file_is_old = match &pending.file {
        Some(bytes) => std::str::from_utf8(bytes) == Ok(old),
        None => pending.old.is_none(),
    };
    if !file_is_old {
        return Err(PartialApprovalError::NotAsShown);
    }
    let content = apply_hunks(diff, old, proposed, &chosen)?;
    let how = UserVersion::Hunks {
        applied: chosen,
        total,
    };
    Ok(ApprovalOutcome::RunEdited(user_write(
        pending, path, proposed, content, how,
    )))
}

impl Engine {
    fn compute_pending(&self, call: &Prepared) -> Pending {
        let (name, arguments) = (call.tool.name(), &call.arguments);
        match call.change() {
            Some(mut change) => {
                // The preview must be of the bytes hashed: a file that changed between the two
                // reads is read again (the watcher reports later changes).
                let mut file = std::fs::read(&change.path).ok();
                for _ in 0..2 {
                    let same = match (&file, &change.old) {
                        (Some(bytes), Some(old)) => String::from_utf8_lossy(bytes) == old.as_str(),
                        (None, None) => true,
                        _ => false,
                    };
                    if same {
                        break;
                    }
                    match call.change() {
                        Some(again) => change = again,
                        None => break,
                    }
                    file = std::fs::read(&change.path).ok();
                }
                Pending {
                    hash: preview_hash(
                        name,
                        arguments,
                        file.as_deref().map(content_hash).as_deref(),
                    ),
                    preview: Some(file_preview(&change, true)),
                    proposed: Some(change.new),
                    old: change.old,
                    file,
                }
            }
            None => Pending {
                hash: preview_hash(name, arguments, None),
                old: None,
                file: None,
                preview: None,
                proposed: None,
            },
        }
    }

    fn request(
        &mut self,
        id: &str,
        name: &str,
        arguments: &Value,
        reason: &str,
        p: &Pending,
        facts: &CallFacts,
    ) {
        self.calls
            .set_preview(id, p.preview.clone(), p.hash.clone());
        self.events.emit(EventMsg::ApprovalRequested {
            call_id: id.to_owned(),
            tool: name.to_owned(),
            preview_hash: p.hash.clone(),
            reason: reason.to_owned(),
            // A client that followed the call's patches has them already, and the diff shows
            // the change; anything else carries them.
            arguments: (!(self.calls.streamed_exactly(id)
                && p.preview.as_ref().is_some_and(|p| p.diff.is_some())))
            .then(|| arguments.clone()),
            preview: p.preview.as_ref().map(FilePreview::for_event),
            suggested_rule: self.oversight.policy.suggest_rule(facts),
            private_target: facts.private_target.clone(),
        });
    }

    /// Asks the user about the call `id` and waits for the answer.
    pub(crate) async fn await_approval(
        &mut self,
        id: &str,
        call: &Prepared,
        reason: String,
    ) -> ApprovalOutcome {
        let (name, arguments, facts) = (call.tool.name(), &call.arguments, &call.facts);
        let mut pending = self.compute_pending(call);
        self.calls
            .transition(&mut self.events, id, CallState::AwaitingApproval, None);
        self.request(id, name, arguments, &reason, &pending, facts);
        let watched = call.change().map(|c| c.path);
        let mut tick = tokio::time::interval(self.oversight.poll);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let refresh = |engine: &mut Self, pending: &mut Pending| {
            if let Some(path) = &watched
                && std::fs::read(path).ok() != pending.file
            {
                *pending = engine.compute_pending(call);
                engine.request(id, name, arguments, &reason, pending, facts);
            }
        };
        loop {
            // Poll only what the watcher does not report.
            let polling = watched
                .as_deref()
                .is_some_and(|path| !self.inbox.reports(path));
            let input = tokio::select! {
                input = self.inbox.next() => input,
                _ = tick.tick(), if polling => {
                    refresh(self, &mut pending);
                    continue;
                }
            };
            let op = match input {
                Input::Op(op) => op,
                other => {
                    let _ = self.take_op(other);
                    refresh(self, &mut pending);
                    continue;
                }
            };
            // What the user answered must still be what is on disk.
            if matches!(
                op,
                Op::Approve { .. } | Op::EditAndApprove { .. } | Op::ApproveHunks { .. }
            ) {
                refresh(self, &mut pending);
            }
            match op {
                Op::Approve {
                    call_id,
                    preview_hash,
                    scope,
                } if call_id == id => {
                    if preview_hash != pending.hash {
                        self.refuse_stale(id, &pending.hash);
                        continue;
                    }
                    if let ApprovalScope::Always { rule, scope } = scope {
                        match Rule::parse(RuleAction::Allow, &rule) {
                            Ok(parsed) => {
                                self.oversight.policy.rules.push(parsed);
                                let scope = self.store_rule(&rule, scope).await;
                                self.events
                                    .emit_session(EventMsg::RuleAdded { rule, scope });
                            }
                            Err(e) => {
                                self.events.emit(EventMsg::ApprovalRefused {
                                    call_id: id.to_owned(),
                                    reason: format!("`{rule}` is not a valid rule: {e}"),
                                });
                                continue;
                            }
                        }
                    }
                    return ApprovalOutcome::Run;
                }
                Op::Reject { call_id, feedback } if call_id == id => {
                    return ApprovalOutcome::Rejected {
                        text: rejection_text(facts.class, feedback.as_deref()),
                        reason: rejection_reason(feedback.as_deref()),
                    };
                }
                Op::EditAndApprove {
                    call_id,
                    preview_hash,
                    new_content,
                } if call_id == id => {
                    let (Some(proposed), Some(path)) = (&pending.proposed, &facts.path) else {
                        self.events.emit(EventMsg::ApprovalRefused {
                            call_id: id.to_owned(),
                            reason: "only file changes can be edited before approval".into(),
                        });
                        continue;
                    };
                    if preview_hash != pending.hash {
                        self.refuse_stale(id, &pending.hash);
                        continue;
                    }
                    return ApprovalOutcome::RunEdited(user_write(
                        &pending,
                        path,
                        proposed,
                        new_content,
                        UserVersion::Edited,
                    ));
                }
                Op::ApproveHunks {
                    call_id,
                    preview_hash,
                    hunks,
                } if call_id == id => {
                    if preview_hash != pending.hash {
                        self.refuse_stale(id, &pending.hash);
                        continue;
                    }
                    match chosen_hunks(&pending, facts, hunks) {
                        Ok(outcome) => return outcome,
                        Err(reason) => self.events.emit(EventMsg::ApprovalRefused {
                            call_id: id.to_owned(),
                            reason: reason.to_string(),
                        }),
                    }
                }
                Op::Cancel => {
                    self.stop();
                    return ApprovalOutcome::Cancelled;
                }
                Op::Shutdown => {
                    self.handle_side_op(Op::Shutdown).await;
                    return ApprovalOutcome::Cancelled;
                }
                op => self.handle_side_op(op).await,
            }
        }
    }

    /// Keeps a workspace rule in the store; returns the scope actually applied (a session rule
    /// when there is no store or saving failed).
    async fn store_rule(&mut self, rule: &str, scope: RuleScope) -> RuleScope {
        let Some(store) = self.persist.store().cloned() else {
            return RuleScope::Session;
        };
        let workspace = self.workspace.display().to_string();
        let key = rule_key(scope, &workspace, Some(&self.id));
        match store
            .add_rule(&key, RuleAction::Allow, rule, now_ms())
            .await
        {
            Ok(_) => scope,
            Err(e) => {
                self.events.emit(EventMsg::Error {
                    message: format!("could not save the rule {rule}: {e}"),
                });
                RuleScope::Session
            }
        }
    }

    /// Reads the stored rules in force again (the user's, the workspace's, the session's).
    pub(crate) async fn reload_rules(&mut self) {
        let Some(store) = self.persist.store().cloned() else {
            return;
        };
        let workspace = self.workspace.display().to_string();
        let stored = match store.rules_in_force(&workspace, Some(&self.id)).await {
            Ok(stored) => stored,
            Err(e) => return self.store_failed(&e),
        };
        let mut rules = Vec::with_capacity(stored.len());
        for r in stored {
            match Rule::parse(r.action, &r.pattern) {
                Ok(rule) => rules.push(rule),
                Err(e) => self.events.emit(EventMsg::Error {
                    message: format!("the stored rule `{}` is ignored: {e}", r.pattern),
                }),
            }
        }
        self.oversight.policy.rules = rules;
    }

    fn refuse_stale(&mut self, id: &str, current: &str) {
        self.events.emit(EventMsg::ApprovalRefused {
            call_id: id.to_owned(),
            reason: format!(
                "the preview changed since this answer was given; answer the latest request \
                 (preview_hash {current})"
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejection_texts_tell_the_model_what_happened() {
        assert_eq!(
            rejection_text(ActionClass::Edit, Some("use tabs")),
            "The user rejected this change: use tabs. The file was not modified."
        );
        assert_eq!(
            rejection_text(ActionClass::Edit, Some("  ")),
            "The user rejected this change. The file was not modified."
        );
        assert!(rejection_text(ActionClass::Execute, Some("no")).contains("no"));
    }

    #[test]
    fn a_rejections_note_for_the_card_is_trimmed_and_blank_is_none() {
        assert_eq!(
            rejection_reason(Some(" use tabs \n")).as_deref(),
            Some("use tabs")
        );
        assert_eq!(rejection_reason(Some("  ")), None);
        assert_eq!(rejection_reason(None), None);
    }
}
