//! What an external agent asks of Foreman, answered through Foreman's own tools:
//!
//! - `fs/read_text_file`: through the workspace jail (a path outside the place, or a denied
//!   one, is refused with a clear error); the file counts as read for the stale-read guard.
//! - `fs/write_text_file`: a call of the `write` tool, through the whole pipeline — its card
//!   and diff, the approval its mode asks for, pinned to what was shown, the checkpoint and the
//!   undo. A change the person approved when the agent asked for permission with exactly this
//!   content does not ask again.
//! - `terminal/create`: a call of the `bash` tool (its card, approval, sandbox, output limit,
//!   the whole process tree ended with it), answered once the command has ended; the terminal's
//!   other methods read what it left.
//! - `session/request_permission`: `permission.rs`.

use std::path::Path;

use serde_json::{Value, json};

use super::state::{SessionAgent, Terminal};
use super::updates::value_patches;
use crate::acp::RpcError;
use crate::acp::wire::{CreateTerminal, ReadTextFile, TerminalRef, WriteTextFile};
use crate::agent::engine::Engine;
use crate::agent::task::turn::StreamedCall;
use crate::approval::Decision;
use crate::builtin_tools::bash::BashTool;
use crate::builtin_tools::read::ReadTool;
use crate::builtin_tools::stale_guard::content_hash;
use crate::builtin_tools::write::WriteTool;
use crate::protocol::EventMsg;
use crate::providers::{Message, ToolCall};
use crate::tools::Tool;

/// Reads a request's params as `T`, or the error the agent is answered.
pub(crate) fn params<T: serde::de::DeserializeOwned>(
    method: &str,
    params: Value,
) -> Result<T, RpcError> {
    serde_json::from_value(params).map_err(|e| {
        RpcError::new(
            RpcError::INVALID_PARAMS,
            format!("the params of `{method}` are not what ACP says: {e}"),
        )
    })
}

/// `word` as one word of a `bash` line.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The `bash` line of a terminal the agent asked for, in `workspace`.
fn terminal_line(workspace: &Path, request: &CreateTerminal) -> String {
    let mut line = String::new();
    if let Some(cwd) = &request.cwd
        && Path::new(cwd) != workspace
    {
        line.push_str(&format!("cd {} && ", quoted(cwd)));
    }
    for var in &request.env {
        line.push_str(&format!("{}={} ", var.name, quoted(&var.value)));
    }
    line.push_str(&quoted(&request.command));
    for arg in &request.args {
        line.push(' ');
        line.push_str(&quoted(arg));
    }
    line
}

/// What the `bash` tool's result says of how the command ended, and its output.
fn terminal_of(result: &str, limit: Option<u64>) -> Terminal {
    let (status, output) = result.split_once('\n').unwrap_or((result, ""));
    let exit_code = status
        .strip_prefix("Exit code ")
        .and_then(|rest| rest.split('.').next())
        .and_then(|code| code.parse().ok());
    let signal = match exit_code {
        Some(_) => None,
        None => Some(
            status
                .strip_prefix("Killed by signal ")
                .and_then(|rest| rest.split('.').next())
                .map_or_else(|| "SIGKILL".to_owned(), |n| format!("signal {n}")),
        ),
    };
    let mut output = output.to_owned();
    let mut truncated = false;
    if let Some(limit) = limit.and_then(|l| usize::try_from(l).ok())
        && output.len() > limit
    {
        let mut cut = output.len() - limit;
        while !output.is_char_boundary(cut) {
            cut += 1;
        }
        output.drain(..cut);
        truncated = true;
    }
    Terminal {
        output,
        truncated,
        exit_code,
        signal,
    }
}

impl Engine {
    /// Answers one request of the agent.
    pub(crate) async fn agent_request(&mut self, id: Value, method: &str, request: Value) {
        let answer = match method {
            "session/request_permission" => self.agent_permission(request).await,
            "fs/read_text_file" => self.agent_read(request).await,
            "fs/write_text_file" => self.agent_write(request).await,
            "terminal/create" => self.agent_terminal(request).await,
            "terminal/output" | "terminal/wait_for_exit" | "terminal/kill" | "terminal/release" => {
                self.agent_terminal_ask(method, request)
            }
            _ => Err(RpcError::new(
                RpcError::METHOD_NOT_FOUND,
                format!("Foreman does not answer `{method}`"),
            )),
        };
        if let SessionAgent::External(external) = &self.agent
            && let Some(live) = &external.live
        {
            live.connection.respond(id, answer);
        }
    }

    async fn agent_read(&mut self, request: Value) -> Result<Value, RpcError> {
        let request: ReadTextFile = params("fs/read_text_file", request)?;
        let refused = |message: String| RpcError::new(RpcError::INVALID_PARAMS, message);
        let mut prepared = self
            .tools
            .set
            .prepare(ReadTool::NAME, json!({"path": request.path}))
            .map_err(|e| refused(e.for_user().message))?;
        self.complete_facts(&mut prepared.facts).await;
        let decision = self
            .oversight
            .policy
            .decide(&prepared.facts, self.oversight.auto_approved);
        if let Decision::Deny { reason } = decision {
            return Err(refused(format!("Refused by the approval policy: {reason}")));
        }
        let boundary = &self.tools.files.session().boundary;
        let resolved = boundary
            .resolve(&request.path)
            .map_err(|e| refused(e.to_string()))?;
        let mut file = boundary
            .open_read(&resolved)
            .map_err(|e| RpcError::new(RpcError::NOT_FOUND, e.to_string()))?;
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut bytes)
            .map_err(|e| RpcError::new(RpcError::INTERNAL, e.to_string()))?;
        self.tools
            .files
            .mark_read(&request.path, content_hash(&bytes));
        let text = String::from_utf8(bytes)
            .map_err(|_| refused(format!("{} is not UTF-8 text", request.path)))?;
        let first = request.line.map_or(0, |l| l.saturating_sub(1) as usize);
        let content = match (first, request.limit) {
            (0, None) => text,
            (first, limit) => {
                let lines = text.split_inclusive('\n').skip(first);
                match limit {
                    Some(limit) => lines.take(limit as usize).collect(),
                    None => lines.collect(),
                }
            }
        };
        Ok(json!({"content": content}))
    }

    async fn agent_write(&mut self, request: Value) -> Result<Value, RpcError> {
        let request: WriteTextFile = params("fs/write_text_file", request)?;
        let path = self.shown_path(&request.path);
        let arguments = json!({"path": path, "content": request.content});
        let (text, is_error) = self.run_for_agent(WriteTool::NAME, arguments).await;
        match is_error {
            false => Ok(Value::Null),
            true => Err(RpcError::new(RpcError::INTERNAL, text)),
        }
    }

    async fn agent_terminal(&mut self, request: Value) -> Result<Value, RpcError> {
        let request: CreateTerminal = params("terminal/create", request)?;
        let line = terminal_line(&self.workspace, &request);
        let (text, is_error) = self
            .run_for_agent(BashTool::NAME, json!({"command": line}))
            .await;
        let terminal = terminal_of(&text, request.output_byte_limit);
        if is_error && terminal.exit_code.is_none() && !text.starts_with("Killed") {
            // Refused, rejected or stopped before it ran: no terminal.
            return Err(RpcError::new(RpcError::INTERNAL, text));
        }
        let SessionAgent::External(external) = &mut self.agent else {
            return Err(RpcError::new(RpcError::INTERNAL, "no agent"));
        };
        let id = external.fresh_id("term");
        external.terminals.insert(id.clone(), terminal);
        Ok(json!({"terminalId": id}))
    }

    fn agent_terminal_ask(&mut self, method: &str, request: Value) -> Result<Value, RpcError> {
        let request: TerminalRef = params(method, request)?;
        let SessionAgent::External(external) = &mut self.agent else {
            return Err(RpcError::new(RpcError::INTERNAL, "no agent"));
        };
        let unknown = || {
            RpcError::new(
                RpcError::NOT_FOUND,
                format!("there is no terminal {}", request.terminal_id),
            )
        };
        let terminal = external
            .terminals
            .get(&request.terminal_id)
            .ok_or_else(unknown)?;
        let exit = json!({"exitCode": terminal.exit_code, "signal": terminal.signal});
        Ok(match method {
            "terminal/output" => json!({
                "output": terminal.output,
                "truncated": terminal.truncated,
                "exitStatus": exit
            }),
            "terminal/wait_for_exit" => exit,
            "terminal/release" => {
                external.terminals.remove(&request.terminal_id);
                Value::Null
            }
            // It has ended already: the command ran to its end before the terminal was made.
            _ => Value::Null,
        })
    }

    /// Runs a call of Foreman's tool `name` for the agent, through the whole pipeline and with
    /// its own card: its result text, and whether it failed.
    async fn run_for_agent(&mut self, name: &str, arguments: Value) -> (String, bool) {
        let SessionAgent::External(external) = &mut self.agent else {
            return ("no agent".into(), true);
        };
        let id = external.fresh_id("foreman");
        let (kind, view) = self
            .tools
            .set
            .get(name)
            .map(|t| (t.kind(), t.view()))
            .unwrap_or_default();
        self.calls.create(&mut self.events, &id, name, kind, view);
        self.events.emit(EventMsg::ToolCallUpdated {
            call_id: id.clone(),
            state: None,
            args: value_patches(&Value::Null, &arguments),
            preview: None,
            status: None,
            images: None,
            title: None,
        });
        self.calls.set_arguments(&id, arguments.clone());
        self.calls.set_streamed_exactly(&id, true);
        let call = ToolCall {
            id: id.clone(),
            name: name.to_owned(),
            arguments: arguments.clone(),
        };
        self.record(Message::assistant_with_calls("", vec![call]))
            .await;
        let streamed = StreamedCall {
            id: id.clone(),
            name: name.to_owned(),
            arguments: Ok(arguments),
        };
        self.run_calls(vec![streamed]).await;
        match self.frame.history.last() {
            Some(Message::ToolResult(result)) if result.call_id == id => {
                (result.content.clone(), result.is_error)
            }
            _ => ("the call left no result".into(), true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminal_line_quotes_what_needs_it() {
        let request: CreateTerminal = serde_json::from_value(json!({
            "command": "printf",
            "args": ["%s\n", "it's"],
            "env": [{"name": "A", "value": "b c"}],
            "cwd": "/w/sub"
        }))
        .unwrap();
        assert_eq!(
            terminal_line(Path::new("/w"), &request),
            r"cd /w/sub && A='b c' printf '%s
' 'it'\''s'"
        );
    }

    #[test]
    fn a_terminal_reads_the_exit_and_keeps_the_last_bytes_of_its_output() {
        let t = terminal_of("Exit code 3. Duration 0.1 s.\nabcdef\n", Some(4));
        assert_eq!(t.exit_code, Some(3));
        assert_eq!(t.signal, None);
        assert_eq!(t.output, "def\n");
        assert!(t.truncated);
        let killed = terminal_of("Killed by signal 9. Duration 1.0 s.\n(no output)\n", None);
        assert_eq!(killed.exit_code, None);
        assert_eq!(killed.signal.as_deref(), Some("signal 9"));
    }
}
