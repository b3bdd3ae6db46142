//! The facts about one tool call that the approval policy decides on.

use super::shell::ShellLine;
use crate::protocol::PrivateTarget;

/// What a call does, as far as approvals care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionClass {
    /// Reads, searches, thinking: changes nothing.
    Read,
    /// Changes files inside the workspace.
    Edit,
    /// Runs a command.
    Execute,
    /// Talks to the network.
    Fetch,
    /// A tool from outside Foreman (MCP, discovery) that does not declare itself read-only.
    External,
    /// Steers the loop (ends the task, starts a sub-agent): changes nothing by itself, runs
    /// alone, in every mode.
    Control,
}

/// The facts about a call the policy decides on.
#[derive(Debug, Clone)]
pub struct CallFacts {
    pub tool: String,
    pub class: ActionClass,
    /// The shell command line, read, for command tools.
    pub shell: Option<ShellLine>,
    /// The workspace-relative path, for file tools.
    pub path: Option<String>,
    /// The host, for fetches.
    pub host: Option<String>,
    /// The fetch reaches this computer or a private network: asks in every mode unless a rule
    /// names the host.
    pub private_target: Option<PrivateTarget>,
    /// A protected path (`.git/`, `.foreman/`): always asks.
    pub protected: bool,
    /// A tool that declares itself destructive: always asks.
    pub destructive: bool,
    /// What it would delete that no checkpoint keeps (`node_modules/ (1,204 files)`): asks in
    /// every mode but "Run everything", whatever the rules say.
    pub unkept: Option<String>,
    /// For a command: the paths deny rules keep from it that its line names (filled in by
    /// the engine, which knows the workspace; see [`super::Policy::name_denied`]).
    pub denied: Vec<NamedDenied>,
}

/// What a deny rule on a path keeps from a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// `read(…)`: reading it (hidden in the sandbox).
    Read,
    /// `edit(…)`, `write(…)`: changing it (read-only in the sandbox).
    Write,
}

/// A path a deny rule keeps from commands, named by a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedDenied {
    /// As the command named it, relative to the workspace (`secret.txt`).
    pub path: String,
    pub access: Access,
    /// The rule's text, `read(secret.txt)`.
    pub rule: String,
    /// Why the sandbox cannot keep it from the command, when it cannot: it is not there yet
    /// (a path denied for writing), or the rule's pattern matches more files than it covers.
    pub uncovered: Option<String>,
}

impl CallFacts {
    pub fn new(tool: impl Into<String>, class: ActionClass) -> Self {
        Self {
            tool: tool.into(),
            class,
            shell: None,
            path: None,
            host: None,
            private_target: None,
            protected: false,
            destructive: false,
            unkept: None,
            denied: Vec::new(),
        }
    }

    /// A command tool's call running `line`.
    pub fn command(tool: impl Into<String>, line: ShellLine) -> Self {
        Self {
            shell: Some(line),
            ..Self::new(tool, ActionClass::Execute)
        }
    }

    /// The command line as given, for command tools.
    pub fn command_text(&self) -> Option<&str> {
        self.shell.as_ref().map(|line| line.text.as_str())
    }
}
