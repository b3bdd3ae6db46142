//! Readable output for `exec` without `--json`: streamed text, one line per tool call,
//! coloured diffs, and y/n prompts for approvals and pauses.

use std::io::{IsTerminal, Write};

use foreman_core::diff::unified_text;
use foreman_core::protocol::{ApprovalScope, CallState, Event, EventMsg, Op};
use tokio::sync::mpsc::UnboundedReceiver;

/// Prints events for a person.
#[derive(Debug)]
pub struct Renderer {
    colour: bool,
    names: std::collections::HashMap<String, String>,
}

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
        let mut out = std::io::stdout().lock();
        let text = match &event.msg {
            EventMsg::TextDelta { text } => {
                let _ = write!(out, "{text}");
                let _ = out.flush();
                return;
            }
            EventMsg::ToolCallOutput { text, .. } => {
                let _ = write!(out, "{}", self.paint(DIM, text));
                let _ = out.flush();
                return;
            }
            EventMsg::ToolCallCreated { call_id, name, .. } => {
                self.names.insert(call_id.clone(), name.clone());
                return;
            }
            EventMsg::ToolCallUpdated {
                status: Some(status),
                state: Some(CallState::Executing),
                ..
            } => self.paint(DIM, &format!("\n  … {status}")),
            EventMsg::ToolCallFinished {
                call_id,
                state,
                result,
                is_error,
            } => {
                let name = self.names.get(call_id).cloned().unwrap_or_default();
                let first = result.lines().next().unwrap_or_default();
                let mark = if *is_error {
                    self.paint(RED, "✗")
                } else {
                    self.paint(GREEN, "✓")
                };
                format!("\n{mark} {name} ({state:?}): {first}")
            }
            EventMsg::Retrying { message, .. } => self.paint(DIM, &format!("\n{message}")),
            EventMsg::Error { message } => self.paint(RED, &format!("\nerror: {message}")),
            EventMsg::ApprovalRefused { reason, .. } => {
                self.paint(RED, &format!("\nrefused: {reason}"))
            }
            EventMsg::TaskEnded { reason } => format!("\n{}", reason.describe()),
            _ => return,
        };
        let _ = writeln!(out, "{text}");
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

    /// Asks the person about an approval request or a pause; `None` when stdin closed.
    pub async fn ask(&self, event: &Event, input: &mut UnboundedReceiver<String>) -> Option<Op> {
        match &event.msg {
            EventMsg::ApprovalRequested {
                call_id,
                tool,
                preview_hash,
                reason,
                arguments,
                preview,
                suggested_rule,
            } => {
                println!("\n{} {tool}: {reason}", self.paint(CYAN, "?"));
                match preview {
                    Some(p) => match &p.diff {
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
                let answer = self
                    .prompt(
                        &format!("Approve? [y]es / [n]o / [a]lways ({rule}) "),
                        input,
                    )
                    .await?;
                Some(match answer.as_str() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs_are_coloured_by_line_kind() {
        let r = Renderer {
            colour: true,
            names: Default::default(),
        };
        let out = r.diff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same");
        assert!(out.contains(&format!("{RED}-old{RESET}")));
        assert!(out.contains(&format!("{GREEN}+new{RESET}")));
        assert!(out.ends_with(" same"));
        let plain = Renderer {
            colour: false,
            names: Default::default(),
        };
        assert_eq!(plain.diff("+a\n-b"), "+a\n-b");
    }
}
