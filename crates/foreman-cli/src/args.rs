//! Command-line grammar of `foreman-cli`, declared with `clap` (derive): every subcommand has
//! `--help`, `--version` prints the version, a mistyped flag gets the nearest suggestion, and
//! `completions bash|zsh|fish` prints a completion script built from the same declaration.
//!
//! Values are checked while parsing (numbers, modes, levels), so a bad value names its flag.
//! What one flag cannot check alone (a thinking budget with an OpenAI provider) is checked in
//! [`ExecCli::into_args`], which gives `exec` its settled options, [`ExecArgs`].

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use foreman_core::providers::preset::MIN_CONTEXT_WINDOW;
use foreman_protocol::settings::{max_tokens_problem, thinking_budget_problem};
use foreman_protocol::{ApprovalMode, ReasoningEffort, SandboxLevel};

pub use crate::setup_args::{HooksCommand, HooksListArgs, SlashCommand};
pub use crate::store_args::StoreArgs;
pub use crate::store_commands::{CheckpointsCommand, RewindArgs, RulesCommand};

/// `foreman-cli`: the Foreman engine without a window.
#[derive(Debug, Parser)]
#[command(name = "foreman-cli", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one agent task in a workspace (readable output, or JSON lines with --json).
    Exec(Box<ExecCli>),
    /// Show and approve a workspace's MCP servers.
    #[command(subcommand)]
    Mcp(McpCommand),
    /// The hooks in force for a workspace, and which wait for your consent.
    #[command(subcommand)]
    Hooks(HooksCommand),
    /// List a workspace's stored sessions, one JSON line each.
    Sessions(StoreArgs),
    /// A session's whole-workspace checkpoints.
    #[command(subcommand)]
    Checkpoints(CheckpointsCommand),
    /// Put the workspace back to how it was before one of a session's messages.
    Rewind(RewindArgs),
    /// The allow, ask and deny rules of a workspace or of the user.
    #[command(subcommand)]
    Rules(RulesCommand),
    /// A workspace's `/` menu: built-ins, custom commands and skills (Claude Code's format).
    #[command(subcommand)]
    Slash(SlashCommand),
    /// A workspace's tasks: where each works, its state and its change.
    #[command(subcommand)]
    Tasks(crate::task_args::TasksCommand),
    /// Merge a task through the merge queue: commit, rebase, check, fast-forward.
    Merge(crate::task_args::MergeArgs),
    /// Discard a task (unmerged work asks first and stays restorable for 14 days).
    Discard(crate::task_args::DiscardArgs),
    /// Restore a discarded task, or a task whose worktree was deleted by hand.
    Restore(crate::task_args::TaskArg),
    /// The external agents Foreman can run over ACP (`agents list`).
    #[command(subcommand)]
    Agents(crate::agent_args::AgentsCommand),
    /// The workspaces opened most recently, one JSON line each.
    Recent {
        /// The database (default: the desktop app's).
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
    /// Resolve DIR as a workspace folder and print its path, or say why it cannot be one.
    CheckWorkspace {
        /// The folder.
        #[arg(value_name = "DIR")]
        dir: String,
    },
    /// Print a completion script for a shell (e.g. `foreman-cli completions bash`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Which wire format the model speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProviderKind {
    Anthropic,
    #[value(name = "openai")]
    OpenAi,
}

/// `mcp list|approve`.
#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Start every approved server, print one JSON line per server with its tools, and stop them.
    List(McpArgs),
    /// Approve workspace MCP servers by name, so sessions start them.
    Approve {
        #[command(flatten)]
        options: McpArgs,
        /// The servers to approve.
        #[arg(value_name = "NAME", required = true)]
        names: Vec<String>,
    },
}

/// The options of `mcp list` and `mcp approve`.
#[derive(Debug, Clone, Args)]
pub struct McpArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// The user's MCP configuration (default: the desktop app's mcp.json).
    #[arg(long = "mcp-config", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// How far the discovery command is confined (as `exec`'s commands are).
    #[arg(long, value_name = "LEVEL", default_value = "workspace-write", value_parser = PossibleValuesParser::new(["read-only", "workspace-write", "off"]).try_map(|s| s.parse::<SandboxLevel>()))]
    pub sandbox: SandboxLevel,
    /// Let a confined discovery command reach the network.
    #[arg(long = "allow-network")]
    pub allow_network: bool,
}

/// `foreman-cli exec` as typed; [`ExecCli::into_args`] checks it into [`ExecArgs`].
#[derive(Debug, Clone, Args)]
pub struct ExecCli {
    /// The workspace folder the agent works in.
    #[arg(long, value_name = "DIR")]
    workspace: PathBuf,
    /// The model's wire format.
    #[arg(long, value_enum, default_value = "anthropic")]
    provider: ProviderKind,
    /// The provider's address (an OpenAI-compatible server, a proxy).
    #[arg(long = "base-url", value_name = "URL")]
    base_url: Option<String>,
    /// The model.
    #[arg(long, value_name = "NAME")]
    model: Option<String>,
    /// How much the agent may do without asking.
    #[arg(long, value_name = "MODE", default_value = "ask", value_parser = PossibleValuesParser::new(["read-only", "ask", "auto-edit", "auto", "yolo"]).try_map(|s| s.parse::<ApprovalMode>()))]
    approval: ApprovalMode,
    /// How far commands are confined.
    #[arg(long, value_name = "LEVEL", default_value = "workspace-write", value_parser = PossibleValuesParser::new(["read-only", "workspace-write", "off"]).try_map(|s| s.parse::<SandboxLevel>()))]
    sandbox: SandboxLevel,
    /// Let confined commands reach the network.
    #[arg(long = "allow-network")]
    allow_network: bool,
    /// Hide this path from confined commands too (besides the credential locations and
    /// Settings › Sandbox's list); repeatable.
    #[arg(long = "hide", value_name = "PATH")]
    hide: Vec<PathBuf>,
    /// Stop after this many model turns.
    #[arg(long = "max-iterations", value_name = "N", value_parser = max_iterations)]
    max_iterations: Option<u32>,
    /// The model's context window, for a model Foreman does not know.
    #[arg(long = "context-window", value_name = "TOKENS", value_parser = context_window)]
    context_window: Option<u32>,
    /// Extended thinking with this many tokens (Anthropic).
    #[arg(long = "thinking-budget", value_name = "TOKENS", value_parser = thinking_budget)]
    thinking_budget: Option<u32>,
    /// The longest answer, in tokens (default: 2,048 for a local server, else the preset's).
    #[arg(long = "max-tokens", value_name = "N", value_parser = max_tokens)]
    max_tokens: Option<u32>,
    /// How hard a reasoning model thinks (OpenAI-compatible).
    #[arg(long = "reasoning-effort", value_name = "minimal|low|medium|high", value_parser = |s: &str| s.parse::<ReasoningEffort>())]
    reasoning_effort: Option<ReasoningEffort>,
    /// Describe the tools in the prompt instead of the provider's tool calls.
    #[arg(long = "text-protocol")]
    text_protocol: bool,
    /// Print events as JSON lines and read ops (approvals, messages) as JSON lines on stdin. A
    /// call's live output is cut after its first 30 KiB, as the model's result is (the result
    /// has the last lines; see --full-output).
    #[arg(long)]
    json: bool,
    /// With --json, also write each call's whole live output (a command's stdout and stderr)
    /// to DIR/<n>-<call id>.log as it comes; the note where its events stop names the file.
    #[arg(long = "full-output", value_name = "DIR", requires = "json")]
    full_output: Option<PathBuf>,
    /// The database (default: the desktop app's).
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Go on with a stored session.
    #[arg(long, value_name = "ID")]
    resume: Option<String>,
    /// The user's MCP configuration (default: the desktop app's mcp.json when it exists).
    #[arg(long = "mcp-config", value_name = "FILE")]
    mcp_config: Option<PathBuf>,
    /// Start the workspace's MCP servers without a recorded approval.
    #[arg(long = "trust-workspace-mcp")]
    trust_workspace_mcp: bool,
    /// Allow the workspace's hooks as they are now (as the app's consent does).
    #[arg(long = "approve-hooks")]
    approve_hooks: bool,
    /// Run hooks outside the sandbox (by default they are confined as `bash` is).
    #[arg(long = "hooks-outside-sandbox")]
    hooks_outside_sandbox: bool,
    /// Record every raw response of the provider into DIR, for a bug report.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Attach a file, a folder (src/), a line range (src/a.rs:10-40) or an image; repeatable.
    #[arg(long, value_name = "PATH")]
    attach: Vec<String>,
    /// Run the task in a new git worktree of the workspace's repository, on a branch
    /// `foreman/NAME` (NAME: made from the prompt when not given).
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "", conflicts_with = "resume")]
    worktree: Option<String>,
    /// The branch or commit the worktree starts from (default: the checkout's branch).
    #[arg(long, value_name = "BRANCH", requires = "worktree")]
    base: Option<String>,
    /// How many tasks run at once (on this computer, the app's included); more wait in line.
    #[arg(long = "max-tasks", value_name = "N", default_value_t = foreman_core::tasks::DEFAULT_LIMIT, value_parser = clap::value_parser!(u32).range(1..=64))]
    max_tasks: u32,
    #[command(flatten)]
    agent: crate::agent_args::AgentArgs,
    /// The task; several words are joined with spaces. Optional with --resume.
    #[arg(value_name = "PROMPT", required_unless_present = "resume")]
    prompt: Vec<String>,
}

/// `foreman-cli exec` options, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecArgs {
    pub workspace: PathBuf,
    pub provider: ProviderKind,
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub approval: ApprovalMode,
    pub max_iterations: Option<u32>,
    /// The model's context window, for a model Foreman does not know.
    pub context_window: Option<u32>,
    /// Extended thinking with this many tokens (Anthropic).
    pub thinking_budget: Option<u32>,
    /// The longest answer in tokens; `None` takes the default for the server.
    pub max_tokens: Option<u32>,
    /// How hard a reasoning model thinks (OpenAI-compatible).
    pub reasoning_effort: Option<ReasoningEffort>,
    pub text_protocol: bool,
    pub json: bool,
    /// Where each call's whole live output is written with `--json`.
    pub full_output: Option<PathBuf>,
    pub db: Option<PathBuf>,
    pub resume: Option<String>,
    /// The user's MCP configuration (default: the desktop app's `mcp.json` when it exists).
    pub mcp_config: Option<PathBuf>,
    /// Start the workspace's MCP servers without a recorded approval.
    pub trust_workspace_mcp: bool,
    /// Allow the workspace's hooks as they are now.
    pub approve_hooks: bool,
    /// Run hooks outside the sandbox.
    pub hooks_outside_sandbox: bool,
    /// Record every response of the provider raw into this directory, for a bug report.
    pub record: Option<PathBuf>,
    /// How far commands are confined.
    pub sandbox: SandboxLevel,
    /// Whether confined commands may reach the network.
    pub allow_network: bool,
    /// More paths hidden from confined commands.
    pub hide: Vec<PathBuf>,
    /// Files, folders (`src/`), line ranges (`src/a.rs:10-40`) and images to attach.
    pub attach: Vec<String>,
    /// In a new worktree, named so (empty: named from the prompt).
    pub worktree: Option<String>,
    pub base: Option<String>,
    pub max_tasks: u32,
    /// The external agent that does the work, when it is not Foreman's own.
    pub agent: crate::agent_args::AgentArgs,
    pub prompt: String,
}

impl ExecCli {
    /// Checks what the flags cannot check alone: thinking options belong to their provider.
    pub fn into_args(self) -> Result<ExecArgs, String> {
        match self.provider {
            ProviderKind::OpenAi if self.thinking_budget.is_some() => {
                return Err(
                    "--thinking-budget is for --provider anthropic; OpenAI reasoning models \
                     take --reasoning-effort"
                        .into(),
                );
            }
            ProviderKind::Anthropic if self.reasoning_effort.is_some() => {
                return Err(
                    "--reasoning-effort is for --provider openai; Anthropic models take \
                     --thinking-budget"
                        .into(),
                );
            }
            _ => {}
        }
        Ok(ExecArgs {
            workspace: self.workspace,
            provider: self.provider,
            base_url: self.base_url,
            model: self.model,
            approval: self.approval,
            max_iterations: self.max_iterations,
            context_window: self.context_window,
            thinking_budget: self.thinking_budget,
            max_tokens: self.max_tokens,
            reasoning_effort: self.reasoning_effort,
            text_protocol: self.text_protocol,
            json: self.json,
            full_output: self.full_output,
            db: self.db,
            resume: self.resume,
            mcp_config: self.mcp_config,
            trust_workspace_mcp: self.trust_workspace_mcp,
            approve_hooks: self.approve_hooks,
            hooks_outside_sandbox: self.hooks_outside_sandbox,
            record: self.record,
            sandbox: self.sandbox,
            allow_network: self.allow_network,
            hide: self.hide,
            attach: self.attach,
            worktree: self.worktree,
            base: self.base,
            max_tasks: self.max_tasks,
            agent: self.agent,
            prompt: self.prompt.join(" "),
        })
    }
}

fn max_iterations(v: &str) -> Result<u32, String> {
    let n: u32 = v
        .parse()
        .map_err(|_| format!("needs a positive number, not `{v}`"))?;
    if n == 0 {
        return Err("must be at least 1".into());
    }
    Ok(n)
}

/// A number of tokens, checked by `problem` (which says what is wrong with it, if anything).
fn tokens(v: &str, problem: impl Fn(u32) -> Option<String>) -> Result<u32, String> {
    let n: u32 = v
        .parse()
        .map_err(|_| format!("needs a number of tokens, not `{v}`"))?;
    problem(n).map_or(Ok(n), Err)
}

fn context_window(v: &str) -> Result<u32, String> {
    tokens(v, |n| {
        (n < MIN_CONTEXT_WINDOW).then(|| format!("must be at least {MIN_CONTEXT_WINDOW} tokens"))
    })
}

fn thinking_budget(v: &str) -> Result<u32, String> {
    tokens(v, thinking_budget_problem)
}

fn max_tokens(v: &str) -> Result<u32, String> {
    tokens(v, max_tokens_problem)
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreman_core::store::RuleAction;
    use foreman_protocol::RuleScope;

    fn parse_exec(list: &[&str]) -> Result<ExecArgs, String> {
        let argv = ["foreman-cli", "exec"].iter().chain(list);
        match Cli::try_parse_from(argv)
            .map_err(|e| e.to_string())?
            .command
        {
            Command::Exec(exec) => exec.into_args(),
            other => Err(format!("parsed as {other:?}")),
        }
    }

    #[test]
    fn the_declaration_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn exec_parses_every_option() {
        let a = parse_exec(&[
            "--workspace",
            "/w",
            "--provider",
            "openai",
            "--base-url",
            "http://x",
            "--model",
            "m",
            "--approval",
            "yolo",
            "--max-iterations",
            "3",
            "--context-window",
            "32768",
            "--text-protocol",
            "--json",
            "--mcp-config",
            "/c/mcp.json",
            "--trust-workspace-mcp",
            "--record",
            "/tmp/rec",
            "--sandbox",
            "off",
            "--allow-network",
            "--attach",
            "a.rs",
            "do",
            "--attach",
            "src/",
            "it",
        ])
        .unwrap();
        assert_eq!(a.record, Some(PathBuf::from("/tmp/rec")));
        assert_eq!(a.mcp_config, Some(PathBuf::from("/c/mcp.json")));
        assert!(a.trust_workspace_mcp);
        assert_eq!(a.provider, ProviderKind::OpenAi);
        assert_eq!(a.approval, ApprovalMode::Yolo);
        assert_eq!(a.max_iterations, Some(3));
        assert_eq!(a.context_window, Some(32_768));
        assert_eq!(a.sandbox, SandboxLevel::Off);
        assert!(a.allow_network);
        assert!(a.text_protocol && a.json);
        assert_eq!(a.attach, ["a.rs", "src/"]);
        assert_eq!(a.prompt, "do it");
        assert_eq!(a.base_url.as_deref(), Some("http://x"));
    }

    #[test]
    fn exec_defaults_match_the_old_parser() {
        let a = parse_exec(&["--workspace", "/w", "p"]).unwrap();
        assert_eq!(a.provider, ProviderKind::Anthropic);
        assert_eq!(a.approval, ApprovalMode::Ask);
        assert_eq!(a.sandbox, SandboxLevel::WorkspaceWrite);
        assert!(!a.allow_network && !a.json && !a.text_protocol);
        let resumed = parse_exec(&["--workspace", "/w", "--resume", "s1"]).unwrap();
        assert_eq!(resumed.resume.as_deref(), Some("s1"));
        assert_eq!(resumed.prompt, "");
    }

    #[test]
    fn a_worktree_is_named_right_after_the_flag_or_from_the_prompt() {
        let named = parse_exec(&["--workspace", "/w", "--worktree", "fix-login", "do it"]).unwrap();
        assert_eq!(named.worktree.as_deref(), Some("fix-login"));
        assert_eq!(named.prompt, "do it");
        let unnamed = parse_exec(&["--workspace", "/w", "do it", "--worktree"]).unwrap();
        assert_eq!(unnamed.worktree.as_deref(), Some(""));
        assert_eq!(unnamed.prompt, "do it");
        let based =
            parse_exec(&["--workspace", "/w", "--worktree=x", "--base", "dev", "go"]).unwrap();
        assert_eq!(based.base.as_deref(), Some("dev"));
        assert_eq!(based.max_tasks, 3);
        assert!(
            parse_exec(&["--workspace", "/w", "--base", "dev", "go"]).is_err(),
            "--base needs --worktree"
        );
        assert!(parse_exec(&["--workspace", "/w", "--worktree", "--resume", "s1"]).is_err());
        assert!(parse_exec(&["--workspace", "/w", "--max-tasks", "0", "go"]).is_err());
    }

    #[test]
    fn every_mode_and_level_the_help_lists_parses() {
        for mode in ["read-only", "ask", "auto-edit", "auto", "yolo"] {
            assert!(parse_exec(&["--workspace", "/w", "--approval", mode, "p"]).is_ok());
        }
        for level in ["read-only", "workspace-write", "off"] {
            assert!(parse_exec(&["--workspace", "/w", "--sandbox", level, "p"]).is_ok());
        }
    }

    #[test]
    fn exec_refuses_bad_input() {
        assert!(parse_exec(&["PROMPT"]).unwrap_err().contains("--workspace"));
        assert!(
            parse_exec(&["--workspace", "/w"])
                .unwrap_err()
                .contains("PROMPT")
        );
        assert!(parse_exec(&["--workspace", "/w", "--approval", "x", "p"]).is_err());
        assert!(
            parse_exec(&["--workspace", "/w", "--max-iterations", "0", "p"])
                .unwrap_err()
                .contains("--max-iterations <N>': must be at least 1")
        );
        assert!(
            parse_exec(&["--workspace", "/w", "--context-window", "512", "p"])
                .unwrap_err()
                .contains("must be at least")
        );
        assert!(
            parse_exec(&["--workspace", "/w", "--context-window", "lots", "p"])
                .unwrap_err()
                .contains("needs a number of tokens, not `lots`")
        );
        let typo = parse_exec(&["--workspace", "/w", "--bogus", "p"]).unwrap_err();
        assert!(typo.contains("unexpected argument '--bogus'"), "{typo}");
    }

    #[test]
    fn max_tokens_parses_and_bad_values_say_why() {
        let a = parse_exec(&["--workspace", "/w", "--max-tokens", "512", "p"]).unwrap();
        assert_eq!(a.max_tokens, Some(512));
        assert_eq!(
            parse_exec(&["--workspace", "/w", "p"]).unwrap().max_tokens,
            None
        );
        let error = |n: &str| parse_exec(&["--workspace", "/w", "--max-tokens", n, "p"]);
        let zero = error("0").unwrap_err();
        assert!(
            zero.contains("--max-tokens <N>': The answer needs room: allow at least 1 token."),
            "{zero}"
        );
        let lots = error("lots").unwrap_err();
        assert!(
            lots.contains("needs a number of tokens, not `lots`"),
            "{lots}"
        );
        assert!(error("999999").unwrap_err().contains("at most 128000"));
    }

    #[test]
    fn thinking_flags_parse_and_bad_values_say_why() {
        let a = parse_exec(&["--workspace", "/w", "--thinking-budget", "4096", "p"]).unwrap();
        assert_eq!(a.thinking_budget, Some(4_096));
        let a = parse_exec(&[
            "--workspace",
            "/w",
            "--provider",
            "openai",
            "--reasoning-effort",
            "high",
            "p",
        ])
        .unwrap();
        assert_eq!(a.reasoning_effort, Some(ReasoningEffort::High));
        let error = |list: &[&str]| parse_exec(list).unwrap_err();
        let small = error(&["--workspace", "/w", "--thinking-budget", "512", "p"]);
        assert!(
            small.contains(
                "--thinking-budget <TOKENS>': A thinking budget of 512 tokens is too small: \
                 Anthropic needs at least 1024."
            ),
            "{small}"
        );
        assert!(
            error(&["--workspace", "/w", "--thinking-budget", "lots", "p"])
                .contains("needs a number of tokens, not `lots`")
        );
        let effort = error(&[
            "--workspace",
            "/w",
            "--provider",
            "openai",
            "--reasoning-effort",
            "max",
            "p",
        ]);
        assert!(
            effort.contains("unknown reasoning effort `max`: use minimal, low, medium or high"),
            "{effort}"
        );
        assert!(
            error(&["--workspace", "/w", "--reasoning-effort", "low", "p"])
                .contains("is for --provider openai")
        );
        assert!(
            error(&[
                "--workspace",
                "/w",
                "--provider",
                "openai",
                "--thinking-budget",
                "2048",
                "p"
            ])
            .contains("is for --provider anthropic")
        );
    }

    #[test]
    fn store_commands_parse() {
        let parse = |list: &[&str]| {
            let argv = ["foreman-cli"].iter().chain(list);
            Cli::try_parse_from(argv).map(|c| c.command)
        };
        match parse(&[
            "rewind",
            "--workspace",
            "w",
            "--session",
            "s",
            "--before-message",
            "2",
        ]) {
            Ok(Command::Rewind(r)) => assert_eq!((r.before_message, r.yes), (1, false)),
            other => panic!("{other:?}"),
        }
        let zero = parse(&[
            "rewind",
            "--workspace",
            "w",
            "--session",
            "s",
            "--before-message",
            "0",
        ]);
        assert!(
            zero.unwrap_err()
                .to_string()
                .contains("counts from 1, not `0`")
        );
        match parse(&[
            "rules",
            "add",
            "--workspace",
            "w",
            "--action",
            "deny",
            "bash(rm *)",
        ]) {
            Ok(Command::Rules(RulesCommand::Add {
                action,
                scope,
                rule,
                ..
            })) => {
                assert_eq!((action, scope), (RuleAction::Deny, RuleScope::Workspace));
                assert_eq!(rule, ["bash(rm *)"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(parse(&["mcp", "approve", "--workspace", "w"]).is_err());
    }
}
