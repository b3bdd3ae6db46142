//! `foreman-cli exec`: one task, headless.
//!
//! With `--json`, every event is one JSON line on stdout and ops are read as JSON lines from
//! stdin. Without it, output is readable text and approvals are y/n prompts on the terminal.

use std::io::Write;
use std::sync::Arc;

use foreman_core::protocol::{Event, EventMsg, Op};
use foreman_core::providers::keys::{ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY};
use foreman_core::providers::{
    AnthropicConfig, AnthropicProvider, EnvKey, OpenAiConfig, OpenAiProvider, Provider,
};
use foreman_core::session::{Session, SessionConfig};
use foreman_core::workspace::WorkspaceDir;
use tokio::io::AsyncBufReadExt;
use tokio::sync::mpsc;

use crate::args::{ExecArgs, ProviderKind};
use crate::render::Renderer;

fn provider(args: &ExecArgs) -> Result<(Arc<dyn Provider>, String), String> {
    match args.provider {
        ProviderKind::Anthropic => {
            let mut config = AnthropicConfig::new(Arc::new(EnvKey::new(ANTHROPIC_API_KEY)));
            if let Some(url) = &args.base_url {
                config = config.with_base_url(url.clone());
            }
            let p = AnthropicProvider::new(config).map_err(|e| e.to_string())?;
            let model = args.model.clone().unwrap_or_else(|| "claude-sonnet-4-5".into());
            Ok((Arc::new(p), model))
        }
        ProviderKind::OpenAi => {
            let url = args
                .base_url
                .clone()
                .unwrap_or_else(|| OpenAiConfig::DEFAULT_BASE_URL.to_owned());
            let var = if std::env::var_os(OPENAI_API_KEY).is_none()
                && std::env::var_os(OPENROUTER_API_KEY).is_some()
            {
                OPENROUTER_API_KEY
            } else {
                OPENAI_API_KEY
            };
            let p = OpenAiProvider::new(OpenAiConfig::new(url, Arc::new(EnvKey::new(var))))
                .map_err(|e| e.to_string())?;
            let model = args.model.clone().unwrap_or_else(|| "gpt-4o".into());
            Ok((Arc::new(p), model))
        }
    }
}

/// Reads stdin lines into a channel (ends when stdin closes).
fn stdin_lines() -> mpsc::UnboundedReceiver<String> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

fn print_json(event: &Event) -> Result<(), String> {
    let line = serde_json::to_string(event).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

/// Runs the task; `Ok` when it completed, `Err(reason)` otherwise.
pub async fn run(args: ExecArgs) -> Result<(), String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let workspace = WorkspaceDir::resolve(&args.workspace.to_string_lossy(), &cwd)
        .map_err(|e| e.to_string())?;
    let (provider, model) = provider(&args)?;
    let mut config = SessionConfig::new(provider, model, workspace.path.clone());
    config.data_dir = crate::default_database()?
        .parent()
        .map(|p| p.join("data"))
        .unwrap_or_else(std::env::temp_dir);
    config.approval_mode = args.approval;
    config.text_protocol = args.text_protocol;
    if let Some(n) = args.max_iterations {
        config.max_iterations = n;
    }
    let (ops, mut events) = Session::spawn(config).map_err(|e| e.to_string())?;
    ops.send(Op::UserMessage {
        text: args.prompt.clone(),
    })
    .map_err(|_| "the session ended at once".to_owned())?;
    let mut input = stdin_lines();
    let mut input_open = true;
    let mut renderer = Renderer::new();
    let mut outcome: Option<Result<(), String>> = None;
    loop {
        tokio::select! {
            event = events.recv() => {
                let Some(event) = event else { break };
                if args.json {
                    print_json(&event)?;
                } else {
                    renderer.show(&event);
                }
                match &event.msg {
                    EventMsg::TaskEnded { reason } => {
                        outcome = Some(if reason.is_success() { Ok(()) } else { Err(reason.describe()) });
                        let _ = ops.send(Op::Shutdown);
                    }
                    EventMsg::ShutdownComplete => break,
                    EventMsg::ApprovalRequested { .. } | EventMsg::Paused { .. } if !args.json => {
                        if let Some(op) = renderer.ask(&event, &mut input).await {
                            let _ = ops.send(op);
                        }
                    }
                    _ => {}
                }
            }
            line = input.recv(), if input_open && args.json => {
                match line {
                    None => input_open = false,
                    Some(line) if line.trim().is_empty() => {}
                    Some(line) => match serde_json::from_str::<Op>(&line) {
                        Ok(op) => { let _ = ops.send(op); }
                        Err(e) => eprintln!("foreman-cli: ignored an invalid op line: {e}"),
                    },
                }
            }
        }
    }
    outcome.unwrap_or_else(|| Err("the session ended before the task did".into()))
}
