//! The innermost step of every final invocation: run the tool with its timeout, honour
//! cancellation, catch panics, and settle exactly one result and a terminal status.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use futures::FutureExt;
use serde_json::Value;

use super::context::ToolContext;
use super::contract::Tool;
use super::error::{ToolError, ToolErrorKind};
use super::result::ToolResult;
use super::status::StatusUpdate;

/// Runs `tool` with complete `params` and returns the one result the model gets.
pub(crate) async fn run_guarded(
    tool: &dyn Tool,
    params: Value,
    ctx: &ToolContext,
    timeout: Duration,
) -> ToolResult {
    let name = tool.name().to_owned();
    let work = AssertUnwindSafe(tool.execute(params, ctx, false)).catch_unwind();
    let outcome = tokio::select! {
        biased;
        () = ctx.cancellation().cancelled() => Err(ToolError::new(
            ToolErrorKind::Cancelled,
            format!("The call to `{name}` was cancelled before it finished."),
        )),
        finished = tokio::time::timeout(timeout, work) => match finished {
            Err(_) => Err(ToolError::new(
                ToolErrorKind::Timeout,
                format!("`{name}` did not finish within {}.", describe(timeout)),
            )
            .with_suggestion("Try a smaller task or a narrower input.")),
            Ok(Err(panic)) => Err(ToolError::execution_failed(format!(
                "`{name}` crashed: {}",
                panic_message(panic.as_ref())
            ))),
            Ok(Ok(returned)) => returned,
        },
    };
    let result = match outcome {
        Err(error) => ToolResult::Error(error),
        Ok(()) => ctx.slot().take_result().unwrap_or_else(|| {
            ToolResult::Error(ToolError::execution_failed(format!(
                "`{name}` finished without reporting a result."
            )))
        }),
    };
    settle_status(ctx, &result);
    result
}

/// Moves a non-terminal card to the terminal state matching `result`.
pub(crate) fn settle_status(ctx: &ToolContext, result: &ToolResult) {
    if ctx.slot().is_terminal() {
        return;
    }
    let update = match result {
        ToolResult::Error(error) => StatusUpdate::error(error.clone()),
        _ => StatusUpdate::success(Value::Null),
    };
    if let Err(e) = ctx.send_status(update) {
        tracing::warn!(call_id = ctx.call_id(), "cannot settle tool status: {e}");
    }
}

fn describe(duration: Duration) -> String {
    let secs = duration.as_secs();
    if secs >= 60 && secs.is_multiple_of(60) {
        format!("{} minute(s)", secs / 60)
    } else if secs > 0 {
        format!("{secs} second(s)")
    } else {
        format!("{} ms", duration.as_millis())
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(describe(Duration::from_secs(600)), "10 minute(s)");
        assert_eq!(describe(Duration::from_secs(5)), "5 second(s)");
        assert_eq!(describe(Duration::from_millis(20)), "20 ms");
    }

    #[test]
    fn panic_payloads_become_messages() {
        assert_eq!(panic_message(&"boom"), "boom");
        assert_eq!(panic_message(&String::from("bang")), "bang");
        assert_eq!(panic_message(&42), "a panic without a message");
    }
}
