//! Readable output for `exec` without `--json`: streamed text, one line per tool call,
//! coloured diffs, and y/n prompts for approvals and pauses.

use std::io::{IsTerminal, Write};

use foreman_core::diff::{FileDiff, unified_text};
use foreman_protocol::{
    ApprovalScope, CallState, ChangeKind, Event, EventMsg, Op, TaskEndReason, UndoState,
    UsageSummary,
};
use tokio::sync::mpsc::UnboundedReceiver;

/// Prints events for a user.
#[derive(Debug)]
pub struct Renderer {
    colour: bool,
    names: std::collections::HashMap<String, String>,
    /// An approval request whose diff was cut and whose whole diff the user asked for: it is
    /// asked again when the whole diff arrives.
    awaiting_whole: Option<Event>,
    /// The sub-agent call (`new_task`) whose events were printed last; `None` for the task's own.
    shown_parent: Option<String>,
    /// Whether the next character printed starts a line (where a sub-agent's lines are indented).
    at_line_start: bool,
    /// The session's usage as last reported, summed up when the task ends.
    usage: Option<UsageSummary>,
}

/// What starts each line of a sub-agent's output.
const CHILD_INDENT: &str = "  │ ";

impl Default for Renderer {
    fn default() -> Self {
        Self::new()
    }
}

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

impl Renderer {
    pub fn new() -> Self {
        Self {
            colour: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
            names: Default::default(),
            awaiting_whole: None,
            shown_parent: None,
            at_line_start: true,
            usage: None,
        }
    }

    fn paint(&self, colour: &str, text: &str) -> String {
        if self.colour {
            format!("{colour}{text}{RESET}")
        } else {
            text.to_owned()
        }
    }

    /// A unified diff with `+` lines green and `-` lines red.
    pub fn diff(&self, diff: &str) -> String {
        diff.lines()
            .map(|line| {
                if line.starts_with("+++") || line.starts_with("---") {
                    self.paint(DIM, line)
                } else if line.starts_with('+') {
                    self.paint(GREEN, line)
                } else if line.starts_with('-') {
                    self.paint(RED, line)
                } else if line.starts_with("@@") {
                    self.paint(CYAN, line)
                } else {
                    line.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Prints `event`.
    pub fn show(&mut self, event: &Event) {
        if let Some(text) = self.render(event) {
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "{text}");
            let _ = out.flush();
        }
    }

    /// What [`show`](Self::show) prints for `event`: a sub-agent's output (events with a
    /// `parent_call_id`) is indented under the call that started it.
    pub fn render(&mut self, event: &Event) -> Option<String> {
        let (text, ends_line) = match &event.msg {
            EventMsg::TextDelta { text } => (text.clone(), false),
            EventMsg::ToolCallOutput { text, .. } => (self.paint(DIM, text), false),
            EventMsg::ToolCallCreated { call_id, name, .. } => {
                self.names.insert(call_id.clone(), name.clone());
                return None;
            }
            EventMsg::ToolCallUpdated {
                status: Some(status),
                state: Some(CallState::Executing),
                ..
            } => (self.paint(DIM, &format!("\n  … {status}")), true),
            EventMsg::ToolCallFinished {
                call_id,
                state,
                result,
                is_error,
                error,
                ..
            } => {
                let name = self.names.get(call_id).cloned().unwrap_or_default();
                // A failure reads as its message; the model got it as JSON.
                let said = error.as_ref().map(|e| format!("{}: {}", e.code, e.message));
                let first = said
                    .as_deref()
                    .unwrap_or(result)
                    .lines()
                    .next()
                    .unwrap_or_default();
                let mark = if *is_error {
                    self.paint(RED, "✗")
                } else {
                    self.paint(GREEN, "✓")
                };
                (format!("\n{mark} {name} ({state:?}): {first}"), true)
            }
            EventMsg::Retrying { message, .. } => (self.paint(DIM, &format!("\n{message}")), true),
            EventMsg::Waiting { message } => (self.paint(DIM, &format!("\n{message}")), true),
            EventMsg::HookRan { run, .. } => (
                self.paint(DIM, &format!("\n  {}", crate::hooks::run_line(run))),
                true,
            ),
            EventMsg::HooksAwaitConsent { view } => {
                let line = format!("\n! {}", crate::hooks::consent_request(view));
                (self.paint(RED, &line), true)
            }
            EventMsg::Error { message } => (self.paint(RED, &format!("\nerror: {message}")), true),
            EventMsg::ApprovalRefused { reason, .. } => {
                (self.paint(RED, &format!("\nrefused: {reason}")), true)
            }
            EventMsg::UndoChanged {
                call_id,
                undo: undo @ (UndoState::Done | UndoState::Partly),
            } => {
                let name = self.names.get(call_id).cloned().unwrap_or_default();
                let what = match undo {
                    UndoState::Partly => "part of the change undone",
                    _ => "change undone",
                };
                (
                    self.paint(DIM, &format!("\n↶ {name} ({call_id}): {what}")),
                    true,
                )
            }
            EventMsg::CallChanges { changes, .. } if !changes.is_empty() => {
                let lines: Vec<String> = changes
                    .iter()
                    .map(|c| {
                        let mark = match c.kind {
                            ChangeKind::Added => "A",
                            ChangeKind::Modified => "M",
                            ChangeKind::Deleted => "D",
                        };
                        let counts = c
                            .diff
                            .as_ref()
                            .map(|d| format!(" (+{} −{})", d.added, d.removed))
                            .unwrap_or_default();
                        format!("    {mark} {}{counts}", c.path)
                    })
                    .collect();
                let text = format!("\n  changed in the workspace:\n{}", lines.join("\n"));
                (self.paint(DIM, &text), true)
            }
            EventMsg::SandboxChanged { sandbox, .. } => match (&sandbox.level, &sandbox.unconfined)
            {
                (_, Some(why)) => (self.paint(RED, &format!("\n! not sandboxed: {why}")), true),
                (Some(level), None) if sandbox.refused.is_empty() => {
                    let net = if sandbox.network {
                        "network on"
                    } else {
                        "no network"
                    };
                    let line = format!("\n[sandbox: {}, {net}]", level.as_str());
                    (self.paint(DIM, &line), true)
                }
                (Some(_), None) => {
                    let refused = sandbox.refused.join("\n    ");
                    let line = format!("\n! the sandbox refused:\n    {refused}");
                    (self.paint(RED, &line), true)
                }
                (None, None) => (self.paint(DIM, "\n[outside the sandbox]"), true),
            },
            EventMsg::UndoRefused { reason, .. } => {
                (self.paint(RED, &format!("\nundo refused: {reason}")), true)
            }
            EventMsg::Usage { session, .. } => {
                self.usage = Some(*session);
                return None;
            }
            EventMsg::TaskEnded { reason } => {
                let spent = self
                    .usage
                    .filter(|_| event.parent_call_id.is_none())
                    .map(|u| format!("\n{}", self.paint(DIM, &spent(&u))))
                    .unwrap_or_default();
                (format!("\n{}{spent}", reason.describe()), true)
            }
            _ => return None,
        };
        let mut out = String::new();
        if event.parent_call_id != self.shown_parent {
            // The output switches between the task and a sub-agent: on a line of its own.
            if !self.at_line_start {
                out.push('\n');
                self.at_line_start = true;
            }
            self.shown_parent = event.parent_call_id.clone();
        }
        let indent = match event.parent_call_id {
            Some(_) => self.paint(DIM, CHILD_INDENT),
            None => String::new(),
        };
        let ending = if ends_line { "\n" } else { "" };
        for piece in text.split_inclusive('\n').chain([ending]) {
            if piece.is_empty() {
                continue;
            }
            if self.at_line_start {
                out.push_str(&indent);
            }
            out.push_str(piece);
            self.at_line_start = piece.ends_with('\n');
        }
        Some(out)
    }

    async fn prompt(
        &self,
        question: &str,
        input: &mut UnboundedReceiver<String>,
    ) -> Option<String> {
        print!("{question}");
        let _ = std::io::stdout().flush();
        input.recv().await.map(|l| l.trim().to_owned())
    }

    /// The approval request to ask again now that `event` brought the whole diff the user
    /// asked for, if it did.
    pub fn whole_diff_arrived(&mut self, event: &Event) -> Option<Event> {
        let EventMsg::ToolCallUpdated {
            call_id,
            preview: Some(whole),
            ..
        } = &event.msg
        else {
            return None;
        };
        let mut request = self.awaiting_whole.take_if(|request| {
            matches!(&request.msg, EventMsg::ApprovalRequested { call_id: waiting, .. } if waiting == call_id)
        })?;
        if let EventMsg::ApprovalRequested { preview, .. } = &mut request.msg {
            *preview = Some(whole.clone());
        }
        Some(request)
    }

    /// The approval request to ask again, as it was, when `message` (an `error` event) says its
    /// whole diff could not be loaded (the engine names the call first).
    pub fn whole_diff_failed(&mut self, message: &str) -> Option<Event> {
        self.awaiting_whole.take_if(|request| {
            matches!(&request.msg, EventMsg::ApprovalRequested { call_id, .. }
                if message.strip_prefix(call_id.as_str()).is_some_and(|rest| rest.starts_with(':')))
        })
    }

    /// Asks the user whether to run the model again after a task that ended for `reason`, an
    /// error a new attempt may get past or the iteration cap; false when stdin closed.
    pub async fn ask_retry(
        &mut self,
        reason: &TaskEndReason,
        input: &mut UnboundedReceiver<String>,
    ) -> bool {
        self.at_line_start = true;
        let question = match reason {
            TaskEndReason::IterationCap { .. } => "\nContinue? [y/n] ",
            _ => "\nRetry? [y/n] ",
        };
        let answer = self.prompt(question, input).await;
        matches!(answer.as_deref(), Some("y" | "yes"))
    }

    /// Asks the user about an approval request or a pause; `None` when stdin closed.
    pub async fn ask(
        &mut self,
        event: &Event,
        input: &mut UnboundedReceiver<String>,
    ) -> Option<Op> {
        // The question and the user's answer end on a line of their own.
        self.at_line_start = true;
        match &event.msg {
            EventMsg::ApprovalRequested {
                call_id,
                tool,
                preview_hash,
                reason,
                arguments,
                preview,
                suggested_rule,
                private_target,
            } => {
                // A newer request for the call replaces one that waited for its whole diff.
                self.awaiting_whole = None;
                println!("\n{} {tool}: {reason}", self.paint(CYAN, "?"));
                if let Some(target) = private_target {
                    let warning = format!("! Private address: {}", target.describe());
                    println!("{}", self.paint(RED, &warning));
                }
                let left_out = preview
                    .as_ref()
                    .and_then(|p| p.diff.as_ref())
                    .map_or(0, |diff| diff.lines_left_out);
                let hunks = preview
                    .as_ref()
                    .and_then(|p| p.diff.as_ref())
                    .map_or(0, FileDiff::choosable_hunks);
                match preview {
                    Some(p) => match &p.diff {
                        Some(diff) if hunks > 0 => {
                            println!("{}", self.diff(&numbered_hunks(&unified_text(diff))))
                        }
                        Some(diff) => println!("{}", self.diff(&unified_text(diff))),
                        None => println!("{} (+{} -{})", p.path, p.lines_added, p.lines_removed),
                    },
                    None => {
                        if let Some(arguments) = arguments {
                            println!("{arguments}");
                        }
                    }
                }
                let rule = suggested_rule.as_deref().unwrap_or("");
                let always = if rule.is_empty() {
                    String::new()
                } else {
                    format!(" / [a]lways ({rule})")
                };
                let whole = if left_out > 0 {
                    format!(" / [d]iff in full ({left_out} more lines)")
                } else {
                    String::new()
                };
                let some = if hunks > 0 {
                    format!(" / [h]unks, e.g. h 1,3 (of {hunks})")
                } else {
                    String::new()
                };
                let answer = self
                    .prompt(
                        &format!("Approve? [y]es / [n]o{always}{some}{whole} "),
                        input,
                    )
                    .await?;
                if let Some(chosen) = chosen_hunks(&answer, hunks) {
                    return Some(Op::ApproveHunks {
                        call_id: call_id.clone(),
                        preview_hash: preview_hash.clone(),
                        hunks: chosen,
                    });
                }
                Some(match answer.as_str() {
                    "d" | "diff" if left_out > 0 => {
                        self.awaiting_whole = Some(event.clone());
                        Op::LoadPreview {
                            call_id: call_id.clone(),
                        }
                    }
                    "y" | "yes" => Op::Approve {
                        call_id: call_id.clone(),
                        preview_hash: preview_hash.clone(),
                        scope: ApprovalScope::Once,
                    },
                    "a" | "always" if !rule.is_empty() => Op::Approve {
                        call_id: call_id.clone(),
                        preview_hash: preview_hash.clone(),
                        scope: ApprovalScope::Always {
                            rule: rule.to_owned(),
                            scope: Default::default(),
                        },
                    },
                    _ => {
                        let feedback = self
                            .prompt("Feedback for the agent (optional): ", input)
                            .await;
                        Op::Reject {
                            call_id: call_id.clone(),
                            feedback: feedback.filter(|f| !f.is_empty()),
                        }
                    }
                })
            }
            EventMsg::Paused { message, .. } => {
                println!("\n{}", self.paint(RED, message));
                let answer = self.prompt("Continue? [y/n] ", input).await?;
                Some(if matches!(answer.as_str(), "y" | "yes") {
                    Op::Continue
                } else {
                    Op::Cancel
                })
            }
            _ => None,
        }
    }
}

/// `text`, a unified diff, with each hunk header followed by its number, from 1.
/// Whole dollars and cents from a dollar, tenths of a cent below.
fn dollars(usd: f64) -> String {
    if usd.abs() >= 1.0 {
        format!("${usd:.2}")
    } else {
        format!("${usd:.4}")
    }
}

/// The task's tokens, cache reads (with what they saved) and cost, in one line.
fn spent(u: &UsageSummary) -> String {
    let mut line = format!("tokens: {} in, {} out", u.total_input, u.total_output);
    if u.total_cache_read > 0 || u.total_cache_write > 0 {
        line.push_str(&format!(
            ", {} read from the cache, {} written to it",
            u.total_cache_read, u.total_cache_write
        ));
        if let Some(saved) = u.cache_saved_usd {
            line.push_str(&format!(" (saved {})", dollars(saved)));
        }
    }
    match u.cost_usd {
        Some(cost) => line.push_str(&format!(" · cost {} at list prices", dollars(cost))),
        None => line.push_str(" · cost unknown (no price for this model)"),
    }
    line
}

fn numbered_hunks(text: &str) -> String {
    let mut n = 0;
    text.lines()
        .map(|line| {
            if line.starts_with("@@ ") {
                n += 1;
                format!("{line}  (hunk {n})")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The 0-based hunks an answer such as `h 1,3` or `h 2 3` chooses among `total`; `None` when it
/// is not such an answer, or names no hunk there is.
fn chosen_hunks(answer: &str, total: usize) -> Option<Vec<u32>> {
    let rest = answer
        .strip_prefix("hunks")
        .or_else(|| answer.strip_prefix('h'))?;
    let mut chosen = Vec::new();
    for part in rest.split(|c: char| c == ',' || c.is_whitespace()) {
        if part.is_empty() {
            continue;
        }
        let n: usize = part.parse().ok()?;
        if n == 0 || n > total {
            return None;
        }
        chosen.push(u32::try_from(n - 1).ok()?);
    }
    (!chosen.is_empty()).then_some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunk_answers_name_hunks_from_one() {
        assert_eq!(chosen_hunks("h 1,3", 3), Some(vec![0, 2]));
        assert_eq!(chosen_hunks("hunks 2 3", 3), Some(vec![1, 2]));
        assert_eq!(chosen_hunks("h2", 3), Some(vec![1]));
        assert_eq!(chosen_hunks("h 4", 3), None);
        assert_eq!(chosen_hunks("h", 3), None);
        assert_eq!(chosen_hunks("h 1", 0), None);
        assert_eq!(chosen_hunks("y", 3), None);
        assert_eq!(
            numbered_hunks("--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n@@ -9 +9 @@\n z"),
            "--- a\n+++ b\n@@ -1 +1 @@  (hunk 1)\n-x\n+y\n@@ -9 +9 @@  (hunk 2)\n z"
        );
    }

    #[test]
    fn diffs_are_coloured_by_line_kind() {
        let r = Renderer {
            colour: true,
            ..Renderer::plain()
        };
        let out = r.diff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same");
        assert!(out.contains(&format!("{RED}-old{RESET}")));
        assert!(out.contains(&format!("{GREEN}+new{RESET}")));
        assert!(out.ends_with(" same"));
        assert_eq!(Renderer::plain().diff("+a\n-b"), "+a\n-b");
    }

    #[test]
    fn undoing_a_change_in_part_or_whole_is_said() {
        let mut r = Renderer::plain();
        let undo = |undo| {
            event(
                None,
                EventMsg::UndoChanged {
                    call_id: "w1".into(),
                    undo,
                },
            )
        };
        let said = r.render(&undo(UndoState::Partly)).unwrap_or_default();
        assert!(said.contains("(w1): part of the change undone"), "{said}");
        let said = r.render(&undo(UndoState::Done)).unwrap_or_default();
        assert!(
            said.contains("(w1): change undone") && !said.contains("part"),
            "{said}"
        );
        assert_eq!(r.render(&undo(UndoState::Available)), None);
    }

    impl Renderer {
        fn plain() -> Self {
            Self {
                colour: false,
                ..Self::new()
            }
        }
    }

    fn event(parent: Option<&str>, msg: EventMsg) -> Event {
        Event {
            seq: 0,
            parent_call_id: parent.map(str::to_owned),
            msg,
        }
    }

    fn text(parent: Option<&str>, text: &str) -> Event {
        event(parent, EventMsg::TextDelta { text: text.into() })
    }

    fn finished(parent: Option<&str>, call_id: &str, result: &str) -> Event {
        event(
            parent,
            EventMsg::ToolCallFinished {
                call_id: call_id.into(),
                state: CallState::Succeeded,
                result: result.into(),
                is_error: false,
                error: None,
                summary: None,
                decision: None,
            },
        )
    }

    #[test]
    fn the_end_of_a_task_sums_up_tokens_cache_and_cost() {
        let mut r = Renderer::plain();
        let session = UsageSummary {
            total_input: 1_200,
            total_output: 50,
            total_cache_read: 30_000,
            total_cache_write: 2_000,
            cache_saved_usd: Some(0.0795),
            cost_usd: Some(0.0219),
            context_used: 33_200,
            context_window: 200_000,
        };
        let usage = EventMsg::Usage {
            input: 1_200,
            output: 50,
            cache_read: 30_000,
            cache_write: 2_000,
            session,
        };
        assert_eq!(r.render(&event(None, usage)), None);
        let ended = r
            .render(&event(
                None,
                EventMsg::TaskEnded {
                    reason: TaskEndReason::Completed {
                        summary: "ok".into(),
                    },
                },
            ))
            .unwrap();
        assert!(
            ended.ends_with(
                "tokens: 1200 in, 50 out, 30000 read from the cache, 2000 written to it \
                 (saved $0.0795) · cost $0.0219 at list prices\n"
            ),
            "{ended}"
        );
    }

    #[test]
    fn a_sub_agents_output_is_indented_under_its_call() {
        let mut r = Renderer::plain();
        let created = |parent: Option<&str>, id: &str, name: &str| {
            event(
                parent,
                EventMsg::ToolCallCreated {
                    call_id: id.into(),
                    name: name.into(),
                    state: CallState::Streaming,
                    kind: Default::default(),
                    view: Default::default(),
                },
            )
        };
        let events = [
            text(None, "I will delegate."),
            created(None, "t1", "new_task"),
            text(Some("t1"), "Looking"),
            text(Some("t1"), " around.\nFound it."),
            created(Some("t1"), "r1", "read"),
            finished(Some("t1"), "r1", "fn main() {}\nmore"),
            text(Some("t1"), "Done."),
            finished(None, "t1", "The child's summary"),
            text(None, "All good."),
        ];
        let out: String = events.iter().filter_map(|e| r.render(e)).collect();
        assert_eq!(
            out,
            "I will delegate.\n\
             \x20 │ Looking around.\n\
             \x20 │ Found it.\n\
             \x20 │ ✓ read (Succeeded): fn main() {}\n\
             \x20 │ Done.\n\
             \n\
             ✓ new_task (Succeeded): The child's summary\n\
             All good."
        );
    }

    #[test]
    fn only_the_error_about_the_awaited_call_asks_again() {
        let mut r = Renderer::plain();
        let request = event(
            None,
            EventMsg::ApprovalRequested {
                call_id: "w".into(),
                tool: "write".into(),
                preview_hash: "h".into(),
                reason: "writes long.txt".into(),
                arguments: None,
                preview: None,
                suggested_rule: None,
                private_target: None,
            },
        );
        r.awaiting_whole = Some(request.clone());
        assert_eq!(r.whole_diff_failed("provider: overloaded"), None);
        assert_eq!(
            r.whole_diff_failed("wx: this call has no preview to load"),
            None
        );
        assert_eq!(
            r.whole_diff_failed("w: this call has no preview to load"),
            Some(request)
        );
        assert_eq!(r.whole_diff_failed("w: again"), None, "asked once");
    }
}
