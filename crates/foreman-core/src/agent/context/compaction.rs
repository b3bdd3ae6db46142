//! Fitting the conversation into the model's context window before a request: first the oldest
//! tool outputs are elided ([`window`](super::window)); when that is not enough,
//! the older part of the history is summarised by the model in a request of its own (no tools,
//! not shown to the user) and replaced by one summary message, keeping the most recent
//! messages intact.
//!
//! The kept tail starts at a clean boundary: no tool result in it answers a call that was
//! summarised, so every call id keeps exactly one result. The system prompt is never touched.
//! The store gets the same replacement ([`Store::compact_messages`](crate::store::Store)), so a
//! resumed session continues from the summary; the summarised messages stay stored, marked.

use std::collections::HashSet;

use futures_util::StreamExt;
use serde_json::Value;

use crate::agent::context::window::{
    elide_old_tool_outputs, estimate_conversation, estimate_tokens,
};
use crate::agent::engine::Engine;
use crate::conversation::notes::is_retry_note;
use crate::conversation::transcript::TranscriptItem;
use crate::project_rules::NestedRules;
use crate::protocol::{EventMsg, TaskEndReason};
use crate::providers::{Collected, Message, ProviderError, ProviderEvent, ProviderRequest};
use crate::store::now_ms;

/// The system prompt of a summary request.
pub const SUMMARY_SYSTEM: &str = "You summarise the conversation between a user and an AI \
coding agent so that the agent can continue the work from your summary alone. The earlier \
messages will be removed; only your summary and the most recent messages stay.";

/// What the summary request asks for, after the conversation.
pub const SUMMARY_INSTRUCTION: &str = "Write a concise summary of the conversation above for \
the agent that will continue it. Keep everything it needs to carry on and leave out the rest. \
Use these sections:

1. Task: what the user asked for, with their constraints and any later change of mind; quote \
them where the wording matters.
2. Decisions: what was decided and why, including approaches tried and abandoned.
3. Files: every file read, created or changed, by exact path, with its current state — what was \
changed and what still needs changing.
4. Commands: builds, tests and other commands that matter, with their outcome (exact error \
messages when a problem is unresolved).
5. Open problems and next steps: what is unfinished, failing or still to check, and what the \
agent was about to do.

Be factual and specific (names, paths, identifiers, numbers). Do not invent anything. Do not \
call tools. Answer with the summary only.";

/// The start of the message that replaces the summarised history.
pub const SUMMARY_PREFIX: &str = "[The earlier part of this conversation was replaced by this \
summary to fit the model's context window.]";

/// Bytes of one tool output shown to the summariser (the head; the rest is cut).
pub const MAX_RENDERED_OUTPUT: usize = 4000;

/// True when the messages from `cut` on can be sent without the ones before: no tool result
/// among them answers a call made before `cut`.
pub fn is_clean_boundary(history: &[Message], cut: usize) -> bool {
    let tail = history.get(cut..).unwrap_or_default();
    let called: HashSet<&str> = tail
        .iter()
        .flat_map(|m| match m {
            Message::Assistant { tool_calls, .. } => {
                tool_calls.iter().map(|c| c.id.as_str()).collect()
            }
            _ => Vec::new(),
        })
        .collect();
    tail.iter().all(|m| match m {
        Message::ToolResult(r) => called.contains(r.call_id.as_str()),
        _ => true,
    })
}

/// Where the kept tail starts: the earliest clean boundary (at least 1, so something is
/// summarised) whose tail fits `keep_tokens`. `None` for an empty history or when no boundary
/// qualifies.
pub fn split_point(history: &[Message], keep_tokens: usize) -> Option<usize> {
    let mut tail_tokens: usize = history.iter().map(estimate_tokens).sum();
    for cut in 1..=history.len() {
        tail_tokens -= estimate_tokens(&history[cut - 1]);
        if tail_tokens <= keep_tokens && is_clean_boundary(history, cut) {
            return Some(cut);
        }
    }
    None
}

fn cut_to(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n[… {} more bytes cut]", &text[..end], text.len() - end)
}

/// The user message of a summary request: the conversation as text, then the instruction.
pub fn summary_prompt(older: &[Message]) -> String {
    let mut out = String::from("<conversation>\n");
    for message in older {
        match message {
            // Said to the model about an answer cut off by an error, not by the user.
            Message::User { text, .. } if is_retry_note(text) => {}
            Message::User { text, .. } => {
                out.push_str("[user]\n");
                out.push_str(text);
                out.push('\n');
            }
            Message::Assistant {
                text, tool_calls, ..
            } => {
                if !text.is_empty() {
                    out.push_str("[agent]\n");
                    out.push_str(text);
                    out.push('\n');
                }
                for call in tool_calls {
                    out.push_str(&format!(
                        "[agent calls {} ({})]\n{}\n",
                        call.name,
                        call.id,
                        cut_to(&call.arguments.to_string(), MAX_RENDERED_OUTPUT)
                    ));
                }
            }
            Message::ToolResult(result) => {
                let kind = if result.is_error { "error" } else { "result" };
                out.push_str(&format!(
                    "[tool {kind} ({})]\n{}\n",
                    result.call_id,
                    cut_to(&result.content, MAX_RENDERED_OUTPUT)
                ));
            }
        }
    }
    out.push_str("</conversation>\n\n");
    out.push_str(SUMMARY_INSTRUCTION);
    out
}

/// The message that replaces the summarised history.
pub fn summary_message(summary: &str) -> Message {
    Message::user(format!("{SUMMARY_PREFIX}\n\n{}", summary.trim()))
}

fn to_u64(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Messages at the end of history whose tool outputs are never elided.
pub const KEEP_RECENT_MESSAGES: usize = 6;

impl Engine {
    /// Makes the history fit before a request: elides old tool outputs, then summarises the
    /// older part. Normally the target is the context budget and nothing happens while the
    /// estimate fits; `forced` (after the provider reported a context-length error) aims at 90%
    /// of the current estimate too, since the provider counts better than the estimate.
    ///
    /// Returns whether the history changed; `Err` ends the task (a failed or cancelled summary
    /// request; the history is then as before, apart from elided outputs).
    pub(crate) async fn fit_context(&mut self, forced: bool) -> Result<bool, TaskEndReason> {
        let before = estimate_conversation(&self.frame.system, &self.frame.history);
        let target = if forced {
            self.llm.context_budget.min(before / 10 * 9)
        } else {
            self.llm.context_budget
        };
        if before > target {
            self.pre_compact_hooks("auto").await;
        }
        self.fit_to(before, target).await
    }

    /// Answers [`Op::Compact`](crate::protocol::Op::Compact) (`/compact`): summarises the older
    /// conversation now, down to about half of what it takes, while no task runs.
    pub(crate) async fn compact_on_request(&mut self) {
        if self.task.running {
            self.events.emit_session(EventMsg::Error {
                message: "The agent is working: compact the conversation once it has finished."
                    .into(),
            });
            return;
        }
        let before = estimate_conversation(&self.frame.system, &self.frame.history);
        self.pre_compact_hooks("manual").await;
        match self.fit_to(before, before / 2).await {
            Ok(true) => {}
            Ok(false) => self.events.emit_session(EventMsg::Error {
                message: "There is nothing to compact yet: the conversation is short.".into(),
            }),
            Err(reason) => self.events.emit_session(EventMsg::Error {
                message: format!("The conversation was not compacted: {}", reason.describe()),
            }),
        }
    }

    /// Elides old tool outputs, then summarises, until the conversation of `before` tokens fits
    /// `target`; whether anything changed.
    async fn fit_to(&mut self, before: usize, target: usize) -> Result<bool, TaskEndReason> {
        if before <= target {
            return Ok(false);
        }
        let elided = elide_old_tool_outputs(
            &self.frame.system,
            &mut self.frame.history,
            KEEP_RECENT_MESSAGES,
            target,
        );
        let mut removed = 0;
        let mut failure = None;
        if estimate_conversation(&self.frame.system, &self.frame.history) > target {
            match self.summarise(target).await {
                Ok(n) => removed = n,
                Err(reason) => failure = Some(reason),
            }
        }
        if elided > 0 || removed > 0 {
            // The results that brought nested rule files may be gone: each is given again when
            // its folder is next touched.
            self.frame.nested_rules = NestedRules::default();
            let (elided_outputs, removed_messages) = (to_u32(elided), to_u32(removed));
            let tokens_before = to_u64(before);
            let tokens_after = to_u64(estimate_conversation(
                &self.frame.system,
                &self.frame.history,
            ));
            let notice = TranscriptItem::Compacted {
                elided_outputs,
                removed_messages,
                tokens_before,
                tokens_after,
            };
            self.save_notice(&notice).await;
            self.events.emit(EventMsg::ContextCompacted {
                elided_outputs,
                removed_messages,
                tokens_before,
                tokens_after,
            });
        }
        match failure {
            Some(reason) => Err(reason),
            None => Ok(elided > 0 || removed > 0),
        }
    }

    /// Summarises the older part of the history so that the rest fits about half of what
    /// `target` leaves after the system prompt; returns how many messages were replaced.
    async fn summarise(&mut self, target: usize) -> Result<usize, TaskEndReason> {
        let keep = target.saturating_sub(estimate_conversation(&self.frame.system, &[])) / 2;
        let Some(cut) = split_point(&self.frame.history, keep) else {
            return Ok(0);
        };
        self.events.emit(EventMsg::ContextCompacting {
            messages: to_u32(cut),
            tokens_before: to_u64(estimate_conversation(
                &self.frame.system,
                &self.frame.history,
            )),
        });
        let request = ProviderRequest::new(
            &self.llm.model,
            SUMMARY_SYSTEM,
            vec![Message::user(summary_prompt(&self.frame.history[..cut]))],
        )
        .with_limits(self.llm.limits.clone());
        let text = match self.request_summary(request).await {
            Ok(text) if !text.trim().is_empty() => text,
            Ok(_) => {
                return Err(self.summary_failed("the model returned an empty summary", true));
            }
            Err(ProviderError::Cancelled) => return Err(TaskEndReason::Cancelled),
            Err(e) => return Err(self.summary_failed(&e.to_string(), e.user_may_retry())),
        };
        let summary = summary_message(&text);
        // A sub-agent's history is its own and is not stored (see `record`): compacting it must
        // leave the session's stored history alone.
        if let Some(store) = self
            .persist
            .store()
            .cloned()
            .filter(|_| self.frame.depth == 0)
        {
            let content = serde_json::to_value(&summary).unwrap_or(Value::Null);
            if let Err(e) = store
                .compact_messages(&self.id, cut, &content, now_ms())
                .await
            {
                self.store_failed(&e);
            }
        }
        self.frame.history.splice(..cut, [summary]);
        Ok(cut)
    }

    /// Sends a summary request (through the provider without the text protocol, so no tool
    /// catalogue) and collects its text, counting its usage; ops are answered meanwhile, so a
    /// cancel stops it.
    async fn request_summary(&mut self, request: ProviderRequest) -> Result<String, ProviderError> {
        let mut stream = self
            .llm
            .plain_provider
            .stream(request, self.task.cancel.child_token());
        let mut collected = Collected::default();
        loop {
            let item = tokio::select! {
                item = stream.next() => item,
                input = self.inbox.next() => {
                    if let Some(op) = self.take_op(input) {
                        self.handle_side_op(op).await;
                    }
                    continue;
                }
            };
            match item {
                None => return Ok(collected.text),
                Some(Err(e)) => return Err(e),
                Some(Ok(event)) => {
                    collected.apply(&event);
                    if let ProviderEvent::Usage(usage) = event {
                        self.report_usage(usage);
                        self.save_usage(usage).await;
                    }
                }
            }
        }
    }

    fn summary_failed(&mut self, why: &str, retryable: bool) -> TaskEndReason {
        let message = format!(
            "Could not summarise the conversation to fit the model's context window: {why}. \
             The history is unchanged."
        );
        self.events.emit(EventMsg::Error {
            message: message.clone(),
        });
        TaskEndReason::Error { message, retryable }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::providers::ToolCall;

    fn call(id: &str) -> Message {
        Message::assistant_with_calls(
            "",
            vec![ToolCall {
                id: id.into(),
                name: "read".into(),
                arguments: json!({"path": "a.txt"}),
            }],
        )
    }

    fn history() -> Vec<Message> {
        vec![
            Message::user("u".repeat(400)),
            call("a"),
            Message::tool_result("a", "r".repeat(400), false),
            Message::assistant("x".repeat(400)),
            Message::user("again"),
            call("b"),
            Message::tool_result("b", "short", false),
        ]
    }

    #[test]
    fn a_tail_never_starts_with_a_result_of_a_summarised_call() {
        let h = history();
        let clean: Vec<usize> = (0..=h.len())
            .filter(|c| is_clean_boundary(&h, *c))
            .collect();
        assert_eq!(clean, [0, 1, 3, 4, 5, 7]);
    }

    #[test]
    fn the_split_keeps_the_largest_tail_that_fits() {
        let h = history();
        let tail = |from: usize| h[from..].iter().map(estimate_tokens).sum::<usize>();
        assert_eq!(split_point(&h, tail(4)), Some(4));
        assert_eq!(split_point(&h, tail(4) - 1), Some(5));
        // Only the result of `b` fits, but it cannot start a tail without its call: all goes.
        assert_eq!(split_point(&h, tail(6)), Some(7));
        assert_eq!(split_point(&h, tail(3)), Some(3));
        assert_eq!(
            split_point(&h, usize::MAX),
            Some(1),
            "something is summarised"
        );
        assert_eq!(split_point(&[], 100), None);
    }

    #[test]
    fn the_summary_prompt_shows_calls_results_and_cuts_long_outputs() {
        let older = vec![
            Message::user("fix the parser"),
            call("a"),
            Message::tool_result("a", "é".repeat(MAX_RENDERED_OUTPUT), true),
        ];
        let prompt = summary_prompt(&older);
        assert!(prompt.starts_with("<conversation>\n[user]\nfix the parser\n"));
        assert!(prompt.contains("[agent calls read (a)]\n{\"path\":\"a.txt\"}\n"));
        assert!(prompt.contains("[tool error (a)]\n"));
        assert!(prompt.contains(&format!("[… {} more bytes cut]", MAX_RENDERED_OUTPUT)));
        assert!(prompt.ends_with(SUMMARY_INSTRUCTION));
    }

    #[test]
    fn the_summary_message_says_what_it_is() {
        assert_eq!(
            summary_message("  Task: fix it\n"),
            Message::user(format!("{SUMMARY_PREFIX}\n\nTask: fix it"))
        );
    }
}
