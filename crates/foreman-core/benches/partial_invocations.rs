//! Cost of streaming a 1 MiB `content` parameter through partial invocations, relative to one
//! final invocation.
//!
//! The arguments of a write-like typed tool arrive in 16-byte pieces through a
//! `StreamingCall` (`ToolManager::stream_call`; the manager's throttle decides which pieces trigger a partial invocation;
//! the tool's preview shows the path and the first lines). The baseline is one final
//! `ToolManager::execute` with the same arguments. Each side is the median of several
//! repetitions, timed with `std::time::Instant`. Run with
//! `cargo bench -p foreman-core --bench partial_invocations`.

use std::error::Error;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use foreman_core::tools::{
    StatusUpdate, Tool, ToolCall, ToolContext, ToolEnv, ToolError, ToolKind, ToolManager,
    ToolRegistry, TypedTool,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

const CONTENT_BYTES: usize = 1024 * 1024;
const PIECE_BYTES: usize = 16;
const REPETITIONS: usize = 15;
const TARGET_RATIO: f64 = 3.0;
const PREVIEW_LINES: usize = 5;

/// Params of the write-like tool.
#[derive(Deserialize, JsonSchema)]
struct WriteParams {
    /// The file to write.
    path: String,
    /// The whole new content of the file.
    content: String,
}

/// Writes into memory; previews the path and the first lines while streaming.
struct MemoryWrite;

fn status_error(e: impl std::fmt::Display) -> ToolError {
    ToolError::execution_failed(e.to_string())
}

#[async_trait]
impl TypedTool for MemoryWrite {
    type Params = WriteParams;

    fn name(&self) -> &str {
        "write"
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Edit
    }

    async fn description(&self) -> String {
        "Writes a file.".to_owned()
    }

    async fn preview(&self, partial: &Value, ctx: &ToolContext) -> Result<(), ToolError> {
        let path = partial.get("path").and_then(Value::as_str).unwrap_or("");
        let content = partial.get("content").and_then(Value::as_str).unwrap_or("");
        let first_lines: Vec<&str> = content.lines().take(PREVIEW_LINES).collect();
        ctx.send_status(
            StatusUpdate::wait()
                .params(json!({"path": path, "first_lines": first_lines}))
                .tip(format!("Writing {path}…")),
        )
        .map_err(status_error)
    }

    async fn run(&self, params: WriteParams, ctx: &ToolContext) -> Result<(), ToolError> {
        ctx.send_status(StatusUpdate::doing())
            .map_err(status_error)?;
        let mut file = Vec::with_capacity(params.content.len());
        file.extend_from_slice(params.content.as_bytes());
        let lines = file.iter().filter(|b| **b == b'\n').count();
        ctx.set_result(format!(
            "Wrote {} bytes ({lines} lines) to {}.",
            file.len(),
            params.path
        ));
        ctx.send_status(StatusUpdate::success(
            json!({"bytes": file.len(), "lines": lines}),
        ))
        .map_err(status_error)
    }
}

fn new_manager() -> Result<ToolManager, Box<dyn Error>> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    drop(rx);
    let registry = ToolRegistry::new();
    registry.register_shared(Arc::new(MemoryWrite) as Arc<dyn Tool>)?;
    Ok(ToolManager::new(
        ToolEnv::new("/bench", "bench", tx),
        registry,
    ))
}

fn arguments() -> Result<(String, Value), Box<dyn Error>> {
    let line = "let value = compute(input, 42); // a line of source code\n";
    let content: String = line.repeat(CONTENT_BYTES / line.len() + 1)[..CONTENT_BYTES].to_owned();
    let text = format!(
        r#"{{"path": "src/generated.rs", "content": {}}}"#,
        serde_json::to_string(&content)?
    );
    let value = serde_json::from_str(&text)?;
    Ok((text, value))
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() -> Result<(), Box<dyn Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (text, value) = arguments()?;
    let pieces: Vec<&str> = text
        .as_bytes()
        .chunks(PIECE_BYTES)
        .map(std::str::from_utf8)
        .collect::<Result<_, _>>()?;

    let mut streaming = Vec::with_capacity(REPETITIONS);
    let mut final_only = Vec::with_capacity(REPETITIONS);
    let mut partial_invocations = 0;
    for rep in 0..REPETITIONS {
        let manager = new_manager()?;
        let call_id = format!("stream-{rep}");
        let started = Instant::now();
        partial_invocations = runtime.block_on(async {
            let mut streaming = manager.stream_call("m", &call_id, "write");
            let mut invoked = 0;
            for piece in &pieces {
                if streaming.push(piece).await {
                    invoked += 1;
                }
            }
            invoked
        });
        streaming.push(started.elapsed());

        let manager = new_manager()?;
        let call = ToolCall {
            message_id: "m".into(),
            call_id: format!("final-{rep}"),
            name: "write".into(),
            arguments: value.clone(),
        };
        let started = Instant::now();
        let outcome = runtime.block_on(manager.execute(call));
        final_only.push(started.elapsed());
        if outcome.result.is_error() {
            return Err(format!("final invocation failed: {:?}", outcome.result).into());
        }
    }

    let measured = median(streaming);
    let baseline = median(final_only);
    let ratio = measured.as_secs_f64() / baseline.as_secs_f64();
    let verdict = if ratio <= TARGET_RATIO {
        "pass"
    } else {
        "FAIL"
    };
    println!("| bench | measured | baseline | ratio | target | result |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| partial_invocations: 1 MiB content, {PIECE_BYTES}-byte pieces, {} pieces, {partial_invocations} partial invocations | {:.2} ms | {:.2} ms (one final invocation) | {ratio:.2}× | ≤ {TARGET_RATIO}× | {verdict} |",
        pieces.len(),
        measured.as_secs_f64() * 1e3,
        baseline.as_secs_f64() * 1e3,
    );
    Ok(())
}
