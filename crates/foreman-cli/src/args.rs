//! Command-line parsing for `foreman-cli` (no dependencies: the grammar is small and fixed).

use std::path::PathBuf;

use foreman_core::providers::preset::MIN_CONTEXT_WINDOW;
use foreman_protocol::settings::{max_tokens_problem, thinking_budget_problem};
use foreman_protocol::{ApprovalMode, ReasoningEffort, SandboxLevel};

/// Usage text.
pub const USAGE: &str = "usage: foreman-cli exec --workspace DIR [--provider anthropic|openai] [--base-url URL] [--model NAME] [--approval read-only|ask|auto-edit|auto|yolo] [--sandbox read-only|workspace-write|off] [--allow-network] [--max-iterations N] [--context-window TOKENS] [--thinking-budget TOKENS] [--max-tokens N] [--reasoning-effort minimal|low|medium|high] [--text-protocol] [--json] [--db FILE] [--resume ID] [--mcp-config FILE] [--trust-workspace-mcp] [--record DIR] [--attach PATH]... PROMPT
       foreman-cli mcp list --workspace DIR [--mcp-config FILE] [--db FILE]
       foreman-cli mcp approve --workspace DIR [--mcp-config FILE] [--db FILE] NAME...
       foreman-cli sessions --workspace DIR [--db FILE]
       foreman-cli checkpoints list --workspace DIR [--session ID] [--json] [--db FILE]
       foreman-cli rewind --workspace DIR --session ID --before-message N [--yes] [--db FILE]
       foreman-cli rules list|add|remove --workspace DIR [--scope workspace|user] [--action allow|ask|deny] [RULE | ID] [--db FILE]
       foreman-cli recent [--db FILE]
       foreman-cli check-workspace DIR";

/// Which wire format the model speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderKind {
    Anthropic,
    OpenAi,
}

/// `foreman-cli exec` options.
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
    /// The most tokens one answer may have (thinking not counted); `None`: 2,048 for a local
    /// `--base-url`, else 8,192.
    pub max_tokens: Option<u32>,
    /// How hard a reasoning model thinks (OpenAI-compatible).
    pub reasoning_effort: Option<ReasoningEffort>,
    pub text_protocol: bool,
    pub json: bool,
    pub db: Option<PathBuf>,
    pub resume: Option<String>,
    /// The user's MCP configuration (default: the desktop app's `mcp.json` when it exists).
    pub mcp_config: Option<PathBuf>,
    /// Start the workspace's MCP servers without a recorded approval.
    pub trust_workspace_mcp: bool,
    /// Record every response of the provider raw into this directory, for a bug report.
    pub record: Option<PathBuf>,
    /// How far commands are confined.
    pub sandbox: SandboxLevel,
    /// Whether confined commands may reach the network.
    pub allow_network: bool,
    /// Files, folders (`src/`), line ranges (`src/a.rs:10-40`) and images to attach.
    pub attach: Vec<String>,
    pub prompt: String,
}

fn value<'a>(it: &mut impl Iterator<Item = &'a String>, flag: &str) -> Result<&'a String, String> {
    it.next()
        .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
}

/// Parses the arguments after `exec`.
pub fn parse_exec(args: &[String]) -> Result<ExecArgs, String> {
    let mut workspace = None;
    let mut provider = ProviderKind::Anthropic;
    let mut out = ExecArgs {
        workspace: PathBuf::new(),
        provider,
        base_url: None,
        model: None,
        approval: ApprovalMode::Ask,
        max_iterations: None,
        context_window: None,
        thinking_budget: None,
        max_tokens: None,
        reasoning_effort: None,
        text_protocol: false,
        json: false,
        db: None,
        resume: None,
        mcp_config: None,
        trust_workspace_mcp: false,
        record: None,
        sandbox: SandboxLevel::WorkspaceWrite,
        allow_network: false,
        attach: Vec::new(),
        prompt: String::new(),
    };
    let mut prompt: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--workspace" => workspace = Some(PathBuf::from(value(&mut it, arg)?)),
            "--provider" => {
                provider = match value(&mut it, arg)?.as_str() {
                    "anthropic" => ProviderKind::Anthropic,
                    "openai" => ProviderKind::OpenAi,
                    other => return Err(format!("unknown provider `{other}` (anthropic|openai)")),
                }
            }
            "--base-url" => out.base_url = Some(value(&mut it, arg)?.clone()),
            "--model" => out.model = Some(value(&mut it, arg)?.clone()),
            "--approval" => {
                let v = value(&mut it, arg)?;
                out.approval = v.parse::<ApprovalMode>()?;
            }
            "--max-iterations" => {
                let v = value(&mut it, arg)?;
                let n: u32 = v
                    .parse()
                    .map_err(|_| format!("--max-iterations needs a positive number, not `{v}`"))?;
                if n == 0 {
                    return Err("--max-iterations must be at least 1".into());
                }
                out.max_iterations = Some(n);
            }
            "--context-window" => {
                let v = value(&mut it, arg)?;
                let n: u32 = v
                    .parse()
                    .map_err(|_| format!("--context-window needs a number of tokens, not `{v}`"))?;
                if n < MIN_CONTEXT_WINDOW {
                    return Err(format!(
                        "--context-window must be at least {MIN_CONTEXT_WINDOW} tokens"
                    ));
                }
                out.context_window = Some(n);
            }
            "--thinking-budget" => {
                let v = value(&mut it, arg)?;
                let n: u32 = v.parse().map_err(|_| {
                    format!("--thinking-budget needs a number of tokens, not `{v}`")
                })?;
                if let Some(problem) = thinking_budget_problem(n) {
                    return Err(format!("--thinking-budget: {problem}"));
                }
                out.thinking_budget = Some(n);
            }
            "--max-tokens" => {
                let v = value(&mut it, arg)?;
                let n: u32 = v
                    .parse()
                    .map_err(|_| format!("--max-tokens needs a number of tokens, not `{v}`"))?;
                if let Some(problem) = max_tokens_problem(n) {
                    return Err(format!("--max-tokens: {problem}"));
                }
                out.max_tokens = Some(n);
            }
            "--reasoning-effort" => {
                let v = value(&mut it, arg)?;
                out.reasoning_effort = Some(
                    v.parse::<ReasoningEffort>()
                        .map_err(|e| format!("--reasoning-effort: {e}"))?,
                );
            }
            "--text-protocol" => out.text_protocol = true,
            "--json" => out.json = true,
            "--db" => out.db = Some(PathBuf::from(value(&mut it, arg)?)),
            "--resume" => out.resume = Some(value(&mut it, arg)?.clone()),
            "--mcp-config" => out.mcp_config = Some(PathBuf::from(value(&mut it, arg)?)),
            "--trust-workspace-mcp" => out.trust_workspace_mcp = true,
            "--record" => out.record = Some(PathBuf::from(value(&mut it, arg)?)),
            "--sandbox" => out.sandbox = value(&mut it, arg)?.parse::<SandboxLevel>()?,
            "--allow-network" => out.allow_network = true,
            "--attach" => out.attach.push(value(&mut it, arg)?.clone()),
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option {flag}\n{USAGE}"));
            }
            text => prompt.push(text.to_owned()),
        }
    }
    out.provider = provider;
    match provider {
        ProviderKind::OpenAi if out.thinking_budget.is_some() => {
            return Err(
                "--thinking-budget is for --provider anthropic; OpenAI reasoning models take \
                 --reasoning-effort"
                    .into(),
            );
        }
        ProviderKind::Anthropic if out.reasoning_effort.is_some() => {
            return Err(
                "--reasoning-effort is for --provider openai; Anthropic models take \
                 --thinking-budget"
                    .into(),
            );
        }
        _ => {}
    }
    out.workspace = workspace.ok_or_else(|| format!("--workspace is required\n{USAGE}"))?;
    out.prompt = prompt.join(" ");
    if out.prompt.is_empty() && out.resume.is_none() {
        return Err(format!("a PROMPT is required\n{USAGE}"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn exec_parses_every_option() {
        let a = parse_exec(&args(&[
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
            "do",
            "it",
        ]))
        .unwrap();
        assert_eq!(a.record, Some(PathBuf::from("/tmp/rec")));
        assert_eq!(a.mcp_config, Some(PathBuf::from("/c/mcp.json")));
        assert!(a.trust_workspace_mcp);
        assert_eq!(a.provider, ProviderKind::OpenAi);
        assert_eq!(a.approval, ApprovalMode::Yolo);
        assert_eq!(a.max_iterations, Some(3));
        assert_eq!(a.context_window, Some(32_768));
        assert!(a.text_protocol && a.json);
        assert_eq!(a.prompt, "do it");
        assert_eq!(a.base_url.as_deref(), Some("http://x"));
    }

    #[test]
    fn exec_refuses_bad_input() {
        assert!(
            parse_exec(&args(&["PROMPT"]))
                .unwrap_err()
                .contains("--workspace")
        );
        assert!(parse_exec(&args(&["--workspace", "/w"])).is_err());
        assert!(parse_exec(&args(&["--workspace", "/w", "--approval", "x", "p"])).is_err());
        assert!(parse_exec(&args(&["--workspace", "/w", "--max-iterations", "0", "p"])).is_err());
        assert!(
            parse_exec(&args(&[
                "--workspace",
                "/w",
                "--context-window",
                "512",
                "p"
            ]))
            .is_err()
        );
        assert!(
            parse_exec(&args(&[
                "--workspace",
                "/w",
                "--context-window",
                "lots",
                "p"
            ]))
            .is_err()
        );
        assert!(parse_exec(&args(&["--workspace", "/w", "--bogus", "p"])).is_err());
    }

    #[test]
    fn max_tokens_parses_and_bad_values_say_why() {
        let a = parse_exec(&args(&["--workspace", "/w", "--max-tokens", "512", "p"])).unwrap();
        assert_eq!(a.max_tokens, Some(512));
        let error = |n: &str| parse_exec(&args(&["--workspace", "/w", "--max-tokens", n, "p"]));
        assert_eq!(error("300").unwrap().max_tokens, Some(300));
        assert_eq!(
            error("0").unwrap_err(),
            "--max-tokens: The answer needs room: allow at least 1 token."
        );
        assert_eq!(
            error("lots").unwrap_err(),
            "--max-tokens needs a number of tokens, not `lots`"
        );
        assert!(error("999999").unwrap_err().contains("at most 128000"));
    }

    #[test]
    fn thinking_flags_parse_and_bad_values_say_why() {
        let a = parse_exec(&args(&[
            "--workspace",
            "/w",
            "--thinking-budget",
            "4096",
            "p",
        ]))
        .unwrap();
        assert_eq!(a.thinking_budget, Some(4_096));
        let a = parse_exec(&args(&[
            "--workspace",
            "/w",
            "--provider",
            "openai",
            "--reasoning-effort",
            "high",
            "p",
        ]))
        .unwrap();
        assert_eq!(a.reasoning_effort, Some(ReasoningEffort::High));
        let error = |list: &[&str]| parse_exec(&args(list)).unwrap_err();
        assert_eq!(
            error(&["--workspace", "/w", "--thinking-budget", "512", "p"]),
            "--thinking-budget: A thinking budget of 512 tokens is too small: Anthropic needs \
             at least 1024."
        );
        assert_eq!(
            error(&["--workspace", "/w", "--thinking-budget", "lots", "p"]),
            "--thinking-budget needs a number of tokens, not `lots`"
        );
        assert!(
            error(&[
                "--workspace",
                "/w",
                "--provider",
                "openai",
                "--reasoning-effort",
                "max",
                "p"
            ])
            .contains("use minimal, low, medium or high")
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
        assert!(USAGE.contains("[--thinking-budget TOKENS]"));
        assert!(USAGE.contains("[--max-tokens N]"));
        assert!(USAGE.contains("[--reasoning-effort minimal|low|medium|high]"));
    }
}
