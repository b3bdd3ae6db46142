//! Tools from a discovery command: it prints a JSON array of function declarations; each tool
//! runs the call command with the tool name as argument and the parameters as JSON on stdin.
//!
//! Both run confined to the sandbox they are given (see `confinement`: the discovery command at
//! the sessions' `bash` level, a call in its session's sandbox). A call command that fails is a
//! failed call, as a `bash` command's non-zero exit is, so that a refusal of the sandbox can be
//! run again outside when the user agrees.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio_util::sync::CancellationToken;

use super::config::{DiscoveryConfig, ServerSandbox};
use super::stderr_tail::StderrTail;
use super::tool::RemoteTool;
use crate::process_tree::{Leftovers, Prepared, ProcessTree};
use crate::sandbox::{SandboxError, SandboxPolicy, confine};
use crate::tools::{ToolError, ToolOutput, codes};

/// The tools found, and the declarations that were not usable.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    pub tools: Vec<RemoteTool>,
    pub problems: Vec<String>,
}

fn shell(
    script: &str,
    arg: Option<&str>,
    cwd: Option<&Path>,
    sandbox: Option<&SandboxPolicy>,
) -> Result<(tokio::process::Command, Prepared), SandboxError> {
    let mut std = std::process::Command::new("sh");
    let prepared = crate::process_tree::prepare(&mut std, Leftovers::Stop)
        .map_err(|e| SandboxError::Unavailable(format!("cannot prepare the command: {e}")))?;
    // `"$@"` passes the tool name as one argument, never through the shell's parser.
    std.arg("-c").arg(format!("{script} \"$@\"")).arg("sh");
    if let Some(arg) = arg {
        std.arg(arg);
    }
    if let Some(cwd) = cwd {
        std.current_dir(cwd);
    }
    if let Some(policy) = sandbox {
        confine(&mut std, policy)?;
    }
    let mut cmd = tokio::process::Command::from(std);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Ok((cmd, prepared))
}

/// How a policy is named in messages: `workspace-write, no network`.
fn described(policy: &SandboxPolicy) -> String {
    ServerSandbox {
        level: policy.level,
        network: policy.network,
    }
    .describe()
}

fn trimmed(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim_end().to_owned()
}

/// Why the discovery command gave no tools.
#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    #[error("cannot run the discovery command: {0}")]
    Spawn(#[source] std::io::Error),
    #[error("cannot put the discovery command in the sandbox: {0}")]
    Sandbox(#[source] SandboxError),
    #[error("the discovery command took longer than {0} s")]
    Timeout(u64),
    #[error("the discovery command failed: {0}")]
    Wait(#[source] std::io::Error),
    #[error("the discovery command failed ({0})")]
    Exit(std::process::ExitStatus),
    #[error(
        "the discovery command failed ({status}) in the sandbox ({sandbox}); if the sandbox \
         refused something it needs, {remedy}"
    )]
    ExitConfined {
        status: std::process::ExitStatus,
        sandbox: String,
        remedy: &'static str,
    },
    #[error("the discovery command did not print JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    #[error("the discovery command did not print a JSON array")]
    NotArray,
}

/// Runs the discovery command, confined to `sandbox` when there is one, and reads its
/// declarations. `Err` when the command fails or does not print a JSON array; single bad
/// declarations are listed in [`Discovered::problems`].
pub async fn discover(
    config: &DiscoveryConfig,
    cwd: Option<&Path>,
    sandbox: Option<&SandboxPolicy>,
    tail: &StderrTail,
    timeout: Duration,
) -> Result<Discovered, DiscoveryError> {
    let (mut cmd, prepared) =
        shell(&config.command, None, cwd, sandbox).map_err(DiscoveryError::Sandbox)?;
    cmd.stdin(Stdio::null());
    let child = cmd.spawn().map_err(DiscoveryError::Spawn)?;
    // Dropped with this call (a timeout included): nothing the command started outlives it.
    let _tree = ProcessTree::of(&child, prepared);
    let out = tokio::time::timeout(timeout, child.wait_with_output())
        .await
        .map_err(|_| DiscoveryError::Timeout(timeout.as_secs()))?
        .map_err(DiscoveryError::Wait)?;
    tail.clear();
    tail.push(&out.stderr);
    match sandbox {
        _ if out.status.success() => {}
        None => return Err(DiscoveryError::Exit(out.status)),
        Some(policy) => {
            return Err(DiscoveryError::ExitConfined {
                status: out.status,
                sandbox: described(policy),
                remedy: super::confinement::Confined::Discovery.remedy(),
            });
        }
    }
    let list: Value = serde_json::from_slice(&out.stdout).map_err(DiscoveryError::NotJson)?;
    let entries = list.as_array().ok_or(DiscoveryError::NotArray)?;
    let mut found = Discovered::default();
    for (i, decl) in entries.iter().enumerate() {
        match RemoteTool::from_declaration(decl) {
            Ok(tool) => found.tools.push(tool),
            Err(why) => found.problems.push(format!("declaration {}: {why}", i + 1)),
        }
    }
    Ok(found)
}

/// Runs one discovered tool: the call command with `tool` as argument and `arguments` on stdin,
/// confined to `sandbox` when there is one; stdout is the result, and a non-zero exit is a
/// failed call with stderr.
pub async fn call(
    config: &DiscoveryConfig,
    cwd: Option<&Path>,
    tool: &str,
    arguments: &Value,
    sandbox: Option<&SandboxPolicy>,
    cancel: CancellationToken,
    timeout: Duration,
) -> Result<ToolOutput, ToolError> {
    let failed = |message: String| ToolError::new(codes::EXECUTION_FAILED, message);
    let (mut command, prepared) = shell(&config.call_command, Some(tool), cwd, sandbox)
        .map_err(|e| failed(format!("cannot put the call command in the sandbox: {e}")))?;
    let mut child = command
        .spawn()
        .map_err(|e| failed(format!("cannot run the call command: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        let input = arguments.to_string();
        // A command that does not read its input is not an error.
        let _ = stdin.write_all(input.as_bytes()).await;
    }
    // The command runs in a process tree of its own; stopping it stops what it started.
    let tree = ProcessTree::of(&child, prepared);
    let kill_group = || tree.kill();
    let out = tokio::select! {
        out = child.wait_with_output() => out.map_err(|e| failed(format!("the call command failed: {e}")))?,
        () = cancel.cancelled() => {
            kill_group();
            return Err(ToolError::new(codes::CANCELLED, "the call was cancelled"));
        }
        () = tokio::time::sleep(timeout) => {
            kill_group();
            return Err(ToolError::new(
                codes::TIMEOUT,
                format!("the call command took longer than {} s", timeout.as_secs()),
            ));
        }
    };
    if out.status.success() {
        return Ok(ToolOutput::text(String::from_utf8_lossy(&out.stdout)));
    }
    let place = match sandbox {
        Some(policy) => format!(" in the sandbox ({})", described(policy)),
        None => String::new(),
    };
    Ok(ToolOutput {
        failed: true,
        ..ToolOutput::text(format!(
            "the call command failed ({}){place}: {}",
            out.status,
            trimmed(&out.stderr)
        ))
    })
}
