//! The notes the engine adds to the history for the model as user messages: an undone change,
//! a retry after a cut-off answer, the session's context at its start, and what a `/command`
//! the user typed runs (the session-context note's start is in `providers::message`, whose
//! OpenAI wire sends it as system text). They are not the user's messages: a reopened
//! conversation does not show them, and they do not count when a message of the user is found
//! by its place (a branch). Each kind is known by how it starts, so its wording can change
//! without old notes turning into messages of the user.

use crate::providers::message::SESSION_CONTEXT_NOTE_START;

/// How each line of the model's note about an undone change starts ([`is_undo_note`]).
pub(crate) const UNDO_NOTE_START: &str = "I undid the change call ";

/// How the model's note about a rewind of the workspace starts.
pub(crate) const REWIND_NOTE_START: &str = "I rewound the workspace ";

/// The note that tells the model the user undid the last rewind.
pub fn undid_rewind_note(files: usize) -> String {
    format!(
        "{REWIND_NOTE_START}back to how it was before the last rewind (that rewind is undone): \
         {files} file(s) changed. Read files again before you change them."
    )
}

/// How every retry note starts ([`is_retry_note`]).
const RETRY_NOTE_START: &str = "[Retry] ";

/// What the model is told when the history ends with its own cut-off answer.
pub const RETRY_NOTE: &str = "[Retry] Your answer above was cut off by an error before it was \
     complete, and the user asked you to try again. Continue from where it stopped; do not \
     repeat what you already wrote.";

/// How a note with what a hook said starts (context from `UserPromptSubmit` or
/// `SessionStart`, a `Stop` hook's reason to go on).
const HOOK_NOTE_START: &str = "[Hook] ";

/// The note that gives the model what a `event` hook said.
pub fn hook_note(event: &str, text: &str) -> String {
    format!("{HOOK_NOTE_START}{event}: {text}")
}

/// How the prompt of a command the user ran starts (`[Command /review, …`), and a skill's.
const SLASH_NOTE_STARTS: [&str; 2] = ["[Command /", "[Skill /"];

/// The note after the user's `/name` message that gives the model what it runs: the command's
/// prompt, or the skill (`kind` is `Command` or `Skill`). The user's message stays as typed, so
/// a reopened conversation shows `/review 42` and not this note.
pub fn slash_note(kind: &str, name: &str, source: &str, text: &str) -> String {
    format!(
        "[{kind} /{name}, from {source}] Written by Foreman: the user's message above runs it. \
         What it asks follows.\n\n{text}"
    )
}

/// Whether `text`, a user message in the history, is one of the engine's notes to the model.
pub fn is_model_note(text: &str) -> bool {
    let noted =
        |line: &str| line.starts_with(UNDO_NOTE_START) || line.starts_with(REWIND_NOTE_START);
    (!text.is_empty() && text.lines().all(noted))
        || is_retry_note(text)
        || text.starts_with(SESSION_CONTEXT_NOTE_START)
        || text.starts_with(HOOK_NOTE_START)
        || SLASH_NOTE_STARTS
            .iter()
            .any(|start| text.starts_with(start))
}

/// The note that tells the model the workspace was rewound to before the user's message
/// `message` (0 is the first), naming how many files changed.
pub fn rewound_note(message: u32, files: usize) -> String {
    format!(
        "{REWIND_NOTE_START}to how it was before my message {}: {files} file(s) changed back, \
         including what commands did. Read files again before you change them.",
        message + 1
    )
}

/// Whether `text`, a user message in the history, is the model's note about undone changes
/// (the cards show those; a reopened conversation does not show the note as a message).
pub fn is_undo_note(text: &str) -> bool {
    !text.is_empty() && text.lines().all(|line| line.starts_with(UNDO_NOTE_START))
}

/// Whether `text`, a user message in the history, is the model's note about a retry.
pub fn is_retry_note(text: &str) -> bool {
    text.starts_with(RETRY_NOTE_START)
}

/// The note for the model about an undone change whose stored bytes are gone (a branch learns
/// of it after the fact, when it is no longer known whether the call had created the file).
pub fn undone_note(call_id: &str, path: &str) -> String {
    format!(
        "{UNDO_NOTE_START}{call_id} made to `{path}`: the file is as it was before that call \
         (gone, if that call created it). Read it before you change it."
    )
}

/// The note that tells the model part of `call_id`'s change to `path` was undone, when which
/// hunks is not known (a branch learns of it from the store).
pub fn partly_undone_note(call_id: &str, path: &str) -> String {
    format!(
        "{UNDO_NOTE_START}{call_id} made to `{path}` in part: some of its hunks are as before \
         that call again, the rest of the change stays. Read the file before you change it."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_note_is_known_by_its_start() {
        assert!(is_retry_note(RETRY_NOTE));
        assert!(is_retry_note("[Retry] Go on."));
        assert!(!is_retry_note("please try again"));
        assert!(!is_retry_note("Retry it [Retry]"));
    }

    #[test]
    fn every_note_is_a_model_note_and_a_message_is_not() {
        assert!(is_model_note(&undone_note("c1", "a.txt")));
        assert!(is_model_note(&partly_undone_note("c1", "a.txt")));
        assert!(is_model_note(RETRY_NOTE));
        assert!(is_model_note(&rewound_note(2, 3)));
        assert!(is_model_note(&format!(
            "{}\n{}",
            undone_note("c1", "a"),
            rewound_note(0, 1)
        )));
        assert!(is_model_note(
            "[Session context] Written by Foreman\n- Date: 2024-06-01"
        ));
        assert!(is_model_note(&slash_note(
            "Command",
            "review",
            ".claude/commands/review.md",
            "Review PR 42."
        )));
        assert!(is_model_note(&slash_note(
            "Skill",
            "pdf",
            "~/.claude/skills/pdf/SKILL.md",
            "x"
        )));
        assert!(!is_model_note("/review 42"));
        assert!(!is_model_note("I undid it myself"));
        assert!(!is_model_note("Session context: what is it?"));
        assert!(!is_model_note(""));
    }
}
