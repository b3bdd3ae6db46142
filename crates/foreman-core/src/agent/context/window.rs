//! Keeping the conversation inside the model's context window.
//!
//! Tokens are estimated per message (about four bytes per token, the usual rule of thumb for
//! English and code). When the estimate passes the window minus a reserve for the answer — or
//! the provider reports a context-length error — the oldest tool outputs are elided first
//! (their call and a short note stay, so every call keeps exactly one result).

use crate::providers::Attachment;
use crate::providers::Message;

/// What an elided tool output is replaced with.
pub const ELIDED: &str =
    "[This tool output was elided to fit the context window; run the tool again if you need it.]";

/// The tokens the history may take: the window minus the answer's reserve, where the reserve is
/// at most a quarter of the window (a local model's 4k window would otherwise leave nothing).
pub fn budget(window: usize, reserve: usize) -> usize {
    window.saturating_sub(reserve.min(window / 4))
}

/// Estimated tokens of one message.
pub fn estimate_tokens(message: &Message) -> usize {
    let bytes = match message {
        Message::User { text, attachments } => {
            text.len() + attachments.iter().map(Attachment::bytes).sum::<usize>()
        }
        Message::Assistant {
            text,
            thinking,
            tool_calls,
        } => {
            text.len()
                + thinking.iter().map(|t| t.bytes()).sum::<usize>()
                + tool_calls
                    .iter()
                    .map(|c| c.name.len() + c.arguments.to_string().len())
                    .sum::<usize>()
        }
        Message::ToolResult(r) => r.content.len(),
    };
    bytes.div_ceil(4) + 4
}

/// Estimated tokens of a conversation plus its system prompt.
pub fn estimate_conversation(system: &str, history: &[Message]) -> usize {
    system.len().div_ceil(4) + history.iter().map(estimate_tokens).sum::<usize>()
}

/// Elides tool outputs, oldest first, keeping the last `keep_recent` messages intact, until the
/// estimate is at most `budget` (or nothing is left to elide; `budget` 0 elides all it may).
/// Returns how many outputs were elided.
pub fn elide_old_tool_outputs(
    system: &str,
    history: &mut [Message],
    keep_recent: usize,
    budget: usize,
) -> usize {
    let mut total = estimate_conversation(system, history);
    let limit = history.len().saturating_sub(keep_recent);
    let mut elided = 0;
    for message in history.iter_mut().take(limit) {
        if budget > 0 && total <= budget {
            break;
        }
        if let Message::ToolResult(result) = message
            && result.content != ELIDED
            && result.content.len() > ELIDED.len()
        {
            let before = estimate_tokens(message);
            if let Message::ToolResult(result) = message {
                result.content = ELIDED.to_owned();
            }
            total = total.saturating_sub(before - estimate_tokens(message));
            elided += 1;
        }
    }
    elided
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_window_keeps_three_quarters_for_the_history() {
        assert_eq!(budget(200_000, 16_384), 183_616);
        assert_eq!(budget(4_096, 16_384), 3_072);
        assert_eq!(budget(0, 16_384), 0);
    }

    fn history() -> Vec<Message> {
        vec![
            Message::user("go"),
            Message::tool_result("a", "x".repeat(4000), false),
            Message::tool_result("b", "y".repeat(4000), false),
            Message::tool_result("c", "z".repeat(4000), false),
        ]
    }

    #[test]
    fn oldest_outputs_go_first_and_recent_ones_stay() {
        let mut h = history();
        let before = estimate_conversation("", &h);
        assert!(before > 3000);
        let n = elide_old_tool_outputs("", &mut h, 1, before - 500);
        assert_eq!(n, 1);
        assert_eq!(h[1], Message::tool_result("a", ELIDED, false));
        assert_eq!(h[2], Message::tool_result("b", "y".repeat(4000), false));
        let n = elide_old_tool_outputs("", &mut h, 1, 0);
        assert_eq!(n, 1, "only b is left to elide; c is recent");
        assert_eq!(h[3], Message::tool_result("c", "z".repeat(4000), false));
        assert_eq!(elide_old_tool_outputs("", &mut h, 1, 0), 0);
    }
}
