//! The user's version of a change, written instead of the model's: the content they edited
//! before approving, or only the hunks of the preview they chose ([`UserWrite`], made in
//! `approvals.rs`). The write is refused when the file no longer has the bytes the user saw;
//! the card shows what was written, and the model is told what differs from its proposal.

use super::job::Job;
use super::preview::{diff_preview, lines_differing, unified};
use super::results::Results;
use crate::agent::engine::Engine;
use crate::builtin_tools::stale_guard::ContentHash;
use crate::protocol::{CallDecision, CallState};

/// The user's version of a file change, to be written instead of the model's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UserWrite {
    pub path: String,
    /// The path as the preview shows it (workspace-relative).
    pub shown: String,
    /// The file's text the preview showed (`None`: no file).
    pub old: Option<String>,
    /// The hash of the file's bytes the user saw (`None`: no file); the write is refused when
    /// the file no longer has them.
    pub seen: Option<ContentHash>,
    pub content: String,
    /// What the model wanted.
    pub proposed: String,
    pub how: UserVersion,
}

/// How the user's version of a file change came about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum UserVersion {
    /// They edited the proposed content.
    Edited,
    /// They chose some of the preview's hunks: `applied` (0-based, ascending) of `total`.
    Hunks { applied: Vec<u32>, total: usize },
}

/// What the user decided in writing their version of a change, for the card: how many lines
/// of `written` differ from the model's `proposed` text, or how many of its parts went in.
pub(crate) fn user_version_decision(
    proposed: &str,
    written: &str,
    how: &UserVersion,
) -> CallDecision {
    match how {
        UserVersion::Edited => CallDecision::Edited {
            lines: lines_differing(proposed, written),
        },
        UserVersion::Hunks { applied, total } => CallDecision::Parts {
            written: u32::try_from(applied.len()).unwrap_or(u32::MAX),
            total: u32::try_from(*total).unwrap_or(u32::MAX),
        },
    }
}

/// What the model is told when the user's version of its change to `path` was written.
pub(crate) fn user_version_text(
    path: &str,
    proposed: &str,
    written: &str,
    how: &UserVersion,
) -> String {
    let diff = unified(path, proposed, written);
    match how {
        UserVersion::Edited => format!(
            "The user edited your change before applying it; {path} now has the user's version. \
             What the user changed relative to your proposal:\n{diff}"
        ),
        UserVersion::Hunks { applied, total } => {
            let numbers: Vec<String> = applied.iter().map(|i| (i + 1).to_string()).collect();
            let (chosen, verb) = match applied.len() {
                1 => ("hunk", "was"),
                _ => ("hunks", "were"),
            };
            let left_out = total - applied.len();
            format!(
                "The user applied only part of your change to {path}: {chosen} {} of {total} \
                 {verb} written and the other {left_out} left out, so {path} keeps its earlier \
                 content there. What differs from your proposal:\n{diff}",
                numbers.join(", "),
            )
        }
    }
}

impl Engine {
    /// Writes the user's version of a change (edited, or some of its hunks) instead of the
    /// model's.
    pub(crate) async fn write_users_version(
        &mut self,
        job: &Job,
        write: UserWrite,
        results: &mut Results,
    ) {
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
                results.set(job.index, text, false);
                if let Some(before) = before {
                    self.keep_checkpoint(&job.id, &path, before).await;
                }
            }
            Err(error) => {
                let text = error.for_model();
                self.calls.fail(&mut self.events, &job.id, &text, &error);
                results.error(job.index, text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_users_version_is_a_fact_for_the_card() {
        let edited = user_version_decision("a\nb\nc\n", "a\nB\nc\nd\n", &UserVersion::Edited);
        // One line replaced and one added: two lines of the written text differ.
        assert_eq!(edited, CallDecision::Edited { lines: 2 });
        let same = user_version_decision("a\n", "a\n", &UserVersion::Edited);
        assert_eq!(same, CallDecision::Edited { lines: 0 });
        let parts = UserVersion::Hunks {
            applied: vec![0, 2],
            total: 3,
        };
        assert_eq!(
            user_version_decision("", "", &parts),
            CallDecision::Parts {
                written: 2,
                total: 3
            }
        );
    }
}
