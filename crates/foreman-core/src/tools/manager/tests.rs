//! Tests of the manager: resolution, streaming, validation, guards, streaks, notes, wrappers.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use crate::tools::*;

fn manager_with(
    registry: ToolRegistry,
    settings: ToolSettings,
) -> (ToolManager, UnboundedReceiver<ToolEvent>) {
    let (tx, rx) = unbounded_channel();
    let env = ToolEnv::new("/ws", "session-1", tx).with_settings(settings);
    (ToolManager::new(env, registry), rx)
}

fn manager(registry: ToolRegistry) -> (ToolManager, UnboundedReceiver<ToolEvent>) {
    manager_with(registry, ToolSettings::default())
}

fn call(call_id: &str, name: &str, arguments: Value) -> ToolCall {
    ToolCall {
        message_id: "m1".into(),
        call_id: call_id.into(),
        name: name.into(),
        arguments,
    }
}

/// Params of the write-like test tool.
#[derive(Debug, Deserialize, JsonSchema)]
struct WriteParams {
    /// Where to write.
    path: String,
    /// What to write.
    content: String,
    /// Overwrite an existing file.
    #[serde(default)]
    overwrite: bool,
}

/// A write-like tool that remembers which instance served which invocation.
struct Writer {
    instance: usize,
    partial_calls: AtomicUsize,
}

#[async_trait]
impl TypedTool for Writer {
    type Params = WriteParams;
    fn name(&self) -> &str {
        "write"
    }
    fn kind(&self) -> ToolKind {
        ToolKind::Edit
    }
    async fn description(&self) -> String {
        "Writes a file.".into()
    }
    fn usage_notes(&self) -> Option<UsageNotes> {
        Some(UsageNotes::on_first_use("Always write whole files."))
    }
    async fn preview(&self, partial: &Value, ctx: &ToolContext) -> Result<(), ToolError> {
        self.partial_calls.fetch_add(1, Ordering::SeqCst);
        let mut shown = json!({"instance": self.instance});
        if let Some(path) = partial.get("path") {
            shown["path"] = path.clone();
        }
        ctx.send_status(StatusUpdate::wait().params(shown))
            .map_err(|e| ToolError::execution_failed(e.to_string()))
    }
    async fn run(&self, params: WriteParams, ctx: &ToolContext) -> Result<(), ToolError> {
        ctx.send_status(StatusUpdate::doing().tip(format!("Writing {}…", params.path)))
            .map_err(|e| ToolError::execution_failed(e.to_string()))?;
        ctx.set_result(format!(
            "instance {} wrote {} bytes (overwrite: {})",
            self.instance,
            params.content.len(),
            params.overwrite
        ));
        ctx.send_status(StatusUpdate::success(
            json!({"bytes": params.content.len()}),
        ))
        .map_err(|e| ToolError::execution_failed(e.to_string()))
    }
}

fn writer_registry() -> (ToolRegistry, Arc<AtomicUsize>) {
    let made = Arc::new(AtomicUsize::new(0));
    let registry = ToolRegistry::new();
    let counter = Arc::clone(&made);
    registry
        .register_factory("write", move |_env| {
            let instance = counter.fetch_add(1, Ordering::SeqCst);
            async move {
                Ok(Arc::new(Writer {
                    instance,
                    partial_calls: AtomicUsize::new(0),
                }) as Arc<dyn Tool>)
            }
        })
        .unwrap();
    (registry, made)
}

/// Params of the behaviour tool.
#[derive(Debug, Deserialize, JsonSchema)]
struct BehaveParams {
    /// What to do: "ok", "fail", "panic", "sleep", "silent", "twice".
    mode: String,
}

fn behave_tool() -> SimpleTool<BehaveParams> {
    simple_tool(
        "behave",
        ToolKind::Execute,
        "Behaves as told.",
        |p: BehaveParams, ctx: ToolContext| async move {
            match p.mode.as_str() {
                "ok" => ctx.set_result("fine"),
                "fail" => {
                    return Err(ToolError::new(ToolErrorKind::ShellExecuteError, "exit 1"));
                }
                "panic" => panic!("tool blew up"),
                "sleep" => tokio::time::sleep(Duration::from_secs(3600)).await,
                "twice" => {
                    ctx.set_result("first");
                    ctx.set_result("second");
                }
                _ => {}
            }
            Ok(())
        },
    )
    .with_usage_notes(UsageNotes::on_first_failure("Check the mode."))
}

fn behave_registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    registry.register_shared(Arc::new(behave_tool())).unwrap();
    registry
}

#[tokio::test]
async fn partial_and_final_invocations_share_one_instance_and_card() {
    let (registry, made) = writer_registry();
    let (manager, _rx) = manager(registry);
    let text = r#"{"path": "src/main.rs", "content": "fn main() {}\n", "overwrite": true}"#;
    let mut invoked = 0;
    for piece in text.as_bytes().chunks(4) {
        let piece = std::str::from_utf8(piece).unwrap();
        if manager.push_partial("m1", "c1", "write", piece).await {
            invoked += 1;
        }
    }
    assert!(invoked >= 3, "first content, each new key: {invoked}");
    let card = manager.snapshot("c1").unwrap();
    assert_eq!(card.status, ToolStatus::Wait);
    assert_eq!(card.params, json!({"instance": 0, "path": "src/main.rs"}));

    let outcome = manager
        .execute(call("c1", "write", serde_json::from_str(text).unwrap()))
        .await;
    assert_eq!(
        made.load(Ordering::SeqCst),
        1,
        "one instance for the whole call"
    );
    assert_eq!(
        outcome.result,
        ToolResult::text("instance 0 wrote 13 bytes (overwrite: true)")
    );
    assert_eq!(outcome.info.status, ToolStatus::Success);
    assert_eq!(
        outcome.info.params,
        json!({"instance": 0, "path": "src/main.rs"})
    );
    assert_eq!(outcome.info.tip.as_deref(), Some("Writing src/main.rs…"));
    assert_eq!(manager.snapshot("c1"), Some(outcome.info.clone()));

    // The final invocation happened once: later partials and re-executions do nothing.
    assert!(!manager.push_partial("m1", "c1", "write", " ").await);
    let again = manager
        .execute(call("c1", "write", serde_json::from_str(text).unwrap()))
        .await;
    assert_eq!(
        again.result.error().map(|e| e.kind),
        Some(ToolErrorKind::ExecutionFailed)
    );
    assert_eq!(made.load(Ordering::SeqCst), 1);

    // A new call id gets a new instance.
    let other = manager
        .execute(call("c2", "write", json!({"path": "a", "content": ""})))
        .await;
    assert_eq!(
        other.result,
        ToolResult::text("instance 1 wrote 0 bytes (overwrite: false)")
    );
}

#[tokio::test]
async fn events_rebuild_the_card() {
    let (registry, _) = writer_registry();
    let (manager, mut rx) = manager(registry);
    manager
        .push_partial("m1", "c1", "write", r#"{"path": "a.rs"#)
        .await;
    manager
        .execute(call("c1", "write", json!({"path": "a.rs", "content": "x"})))
        .await;
    let mut card = None;
    while let Ok(event) = rx.try_recv() {
        match event {
            ToolEvent::Started { info, .. } => card = Some(info),
            ToolEvent::Patch { patch, .. } => patch.apply_to(card.as_mut().unwrap()),
            ToolEvent::Stats { .. } => {}
        }
    }
    assert_eq!(card, manager.snapshot("c1"));
}

#[tokio::test]
async fn user_tools_override_system_tools_in_listing_and_execution() {
    let registry = ToolRegistry::new();
    let (manager, _rx) = manager(registry.clone());
    let names = manager.tool_names();
    assert!(names.contains(&"attempt_completion".to_owned()));
    assert!(names.contains(&"new_task".to_owned()));
    let done = manager
        .execute(call(
            "c0",
            "attempt_completion",
            json!({"result": "All done."}),
        ))
        .await;
    assert_eq!(done.completion(), Some("All done."));

    /// Params of the override.
    #[derive(Deserialize, JsonSchema)]
    struct Custom {
        /// The summary.
        summary: String,
    }
    registry
        .register_shared(Arc::new(simple_tool(
            "attempt_completion",
            ToolKind::Think,
            "Custom completion.",
            |p: Custom, ctx: ToolContext| async move {
                ctx.set_result(format!("custom: {}", p.summary));
                Ok(())
            },
        )))
        .unwrap();
    let definitions = manager.tool_definitions().await;
    let completion: Vec<_> = definitions
        .iter()
        .filter(|d| d.name == "attempt_completion")
        .collect();
    assert_eq!(completion.len(), 1);
    assert_eq!(completion[0].description, "Custom completion.");
    let outcome = manager
        .execute(call("c1", "attempt_completion", json!({"summary": "ok"})))
        .await;
    assert_eq!(outcome.result, ToolResult::text("custom: ok"));

    assert!(registry.unregister("attempt_completion"));
    let restored = manager
        .execute(call("c2", "attempt_completion", json!({"result": "back"})))
        .await;
    assert_eq!(restored.completion(), Some("back"));
}

#[tokio::test]
async fn unknown_tools_get_not_registered_with_the_available_names() {
    let (manager, _rx) = manager(behave_registry());
    let outcome = manager.execute(call("c1", "bash", json!({}))).await;
    let error = outcome.result.error().unwrap();
    assert_eq!(error.kind, ToolErrorKind::NotRegistered);
    assert_eq!(
        error.details,
        Some(json!({"available_tools": ["attempt_completion", "behave", "new_task"]}))
    );
    assert_eq!(
        outcome.result.to_model_value()["code"],
        "TOOL_NOT_REGISTERED"
    );
    assert_eq!(outcome.info.status, ToolStatus::Error);
    assert!(!manager.push_partial("m1", "c9", "bash", "{").await);
}

#[tokio::test]
async fn invalid_params_stop_the_call_with_paths_and_repairs_are_recorded() {
    let (registry, _) = writer_registry();
    let (manager, _rx) = manager(registry);
    let bad = manager
        .execute(call(
            "c1",
            "write",
            json!({"path": 3, "overwrite": "maybe"}),
        ))
        .await;
    let error = bad.result.error().unwrap();
    assert_eq!(error.kind, ToolErrorKind::InvalidParams);
    let model = bad.result.to_model_value();
    assert_eq!(model["code"], "INVALID_TOOL_PARAMS");
    let paths: Vec<&str> = model["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&"/path") && paths.contains(&"/overwrite") && paths.contains(&""));
    assert_eq!(bad.info.status, ToolStatus::Error);
    assert!(manager.stats("write").is_none(), "the tool did not run");

    let repaired = manager
        .execute(call(
            "c2",
            "write",
            json!("{\"path\": \"a\", \"content\": \"x\", \"overwrite\": \"true\"}"),
        ))
        .await;
    assert_eq!(
        repaired.result,
        ToolResult::text("instance 1 wrote 1 bytes (overwrite: true)")
    );
    let kinds: Vec<RepairKind> = repaired.repairs.iter().map(|r| r.kind).collect();
    assert_eq!(
        kinds,
        [RepairKind::ParsedJsonString, RepairKind::BoolFromString]
    );
}

#[tokio::test]
async fn a_tool_without_a_result_gives_the_model_an_error_and_the_last_result_wins() {
    let (manager, _rx) = manager(behave_registry());
    let silent = manager
        .execute(call("c1", "behave", json!({"mode": "silent"})))
        .await;
    let error = silent.result.error().unwrap();
    assert_eq!(error.kind, ToolErrorKind::ExecutionFailed);
    assert!(error.message.contains("without reporting a result"));
    assert_eq!(silent.info.status, ToolStatus::Error);
    let twice = manager
        .execute(call("c2", "behave", json!({"mode": "twice"})))
        .await;
    assert_eq!(twice.result, ToolResult::text("second"));
    assert_eq!(twice.info.status, ToolStatus::Success);
}

#[tokio::test]
async fn panics_are_caught_and_the_engine_keeps_running() {
    let (manager, _rx) = manager(behave_registry());
    let crashed = manager
        .execute(call("c1", "behave", json!({"mode": "panic"})))
        .await;
    let error = crashed.result.error().unwrap();
    assert_eq!(error.kind, ToolErrorKind::ExecutionFailed);
    assert!(error.message.contains("tool blew up"));
    assert_eq!(crashed.info.status, ToolStatus::Error);
    let fine = manager
        .execute(call("c2", "behave", json!({"mode": "ok"})))
        .await;
    assert_eq!(fine.result, ToolResult::text("fine"));
}

#[tokio::test]
async fn timeouts_end_in_error_with_a_clear_message() {
    let mut settings = ToolSettings::default();
    settings
        .timeouts
        .insert("behave".into(), Duration::from_millis(30));
    let (manager, _rx) = manager_with(behave_registry(), settings);
    let outcome = manager
        .execute(call("c1", "behave", json!({"mode": "sleep"})))
        .await;
    let error = outcome.result.error().unwrap();
    assert_eq!(error.kind, ToolErrorKind::Timeout);
    assert!(error.message.contains("did not finish within 30 ms"));
    assert_eq!(outcome.info.status, ToolStatus::Error);
    assert_eq!(
        outcome.info.error.as_ref().map(|e| e.kind),
        Some(ToolErrorKind::Timeout)
    );
}

#[tokio::test]
async fn cancellation_ends_running_and_streaming_calls() {
    let (manager, _rx) = manager(behave_registry());
    let manager = Arc::new(manager);
    let running = {
        let manager = Arc::clone(&manager);
        tokio::spawn(async move {
            manager
                .execute(call("c1", "behave", json!({"mode": "sleep"})))
                .await
        })
    };
    while manager.snapshot("c1").is_none() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(manager.cancel("c1"));
    let outcome = running.await.unwrap();
    assert_eq!(
        outcome.result.error().map(|e| e.kind),
        Some(ToolErrorKind::Cancelled)
    );
    assert_eq!(outcome.info.status, ToolStatus::Error);

    manager
        .push_partial("m1", "c2", "behave", r#"{"mode": "o"#)
        .await;
    assert!(manager.cancel("c2"));
    let card = manager.snapshot("c2").unwrap();
    assert_eq!(card.status, ToolStatus::Error);
    assert_eq!(card.error.map(|e| e.kind), Some(ToolErrorKind::Cancelled));
    assert!(!manager.cancel("c2"), "already finished");
}

#[tokio::test]
async fn a_third_consecutive_failure_raises_a_pause() {
    let (manager, _rx) = manager(behave_registry());
    let mut pauses = Vec::new();
    let modes = ["fail", "fail", "ok", "fail", "panic", "fail", "fail"];
    for (i, mode) in modes.iter().enumerate() {
        let outcome = manager
            .execute(call(&format!("c{i}"), "behave", json!({"mode": mode})))
            .await;
        pauses.push(outcome.pause.map(|p| p.consecutive_failures));
    }
    assert_eq!(
        pauses,
        [None, None, None, None, None, Some(3), None],
        "a success resets the streak; a pause starts a new one"
    );
}

#[tokio::test]
async fn stats_are_kept_and_emitted() {
    let (manager, mut rx) = manager(behave_registry());
    for (i, mode) in ["ok", "fail", "ok"].iter().enumerate() {
        manager
            .execute(call(&format!("c{i}"), "behave", json!({"mode": mode})))
            .await;
    }
    let stats = manager.stats("behave").unwrap();
    assert_eq!(
        (stats.executions, stats.successes, stats.failures),
        (3, 2, 1)
    );
    assert_eq!(manager.all_stats(), vec![stats.clone()]);
    let mut last = None;
    while let Ok(event) = rx.try_recv() {
        if let ToolEvent::Stats { stats, .. } = event {
            last = Some(stats);
        }
    }
    assert_eq!(last, Some(stats));
}

#[tokio::test]
async fn usage_notes_come_once_on_their_trigger() {
    let (registry, _) = writer_registry();
    registry.register_shared(Arc::new(behave_tool())).unwrap();
    let (manager, _rx) = manager(registry);
    let args = json!({"path": "a", "content": ""});
    let first = manager.execute(call("w1", "write", args.clone())).await;
    assert_eq!(
        first.usage_notes.as_deref(),
        Some("Always write whole files.")
    );
    let second = manager.execute(call("w2", "write", args)).await;
    assert_eq!(second.usage_notes, None);

    let ok = manager
        .execute(call("b1", "behave", json!({"mode": "ok"})))
        .await;
    assert_eq!(
        ok.usage_notes, None,
        "notes for failures wait for a failure"
    );
    let failed = manager
        .execute(call("b2", "behave", json!({"mode": "fail"})))
        .await;
    assert_eq!(failed.usage_notes.as_deref(), Some("Check the mode."));
    let again = manager
        .execute(call("b3", "behave", json!({"mode": "fail"})))
        .await;
    assert_eq!(again.usage_notes, None);
    assert!(
        !manager.catalogue().await.contains("Always write"),
        "never in the prompt"
    );
}

/// Refuses edits, as an approval gate the loop inserts would when the person says no.
struct RefuseEdits;

#[async_trait]
impl ToolWrapper for RefuseEdits {
    fn name(&self) -> &str {
        "approval"
    }
    async fn around(&self, call: CallView<'_>, ctx: &ToolContext, next: Next<'_>) -> ToolResult {
        if call.kind == ToolKind::Edit {
            return ToolResult::Error(ToolError::new(
                ToolErrorKind::PermissionDenied,
                format!("The person declined `{}`.", call.tool_name),
            ));
        }
        next.run(ctx).await
    }
}

#[tokio::test]
async fn an_inserted_approval_wrapper_can_refuse_calls() {
    let (registry, _) = writer_registry();
    registry.register_shared(Arc::new(behave_tool())).unwrap();
    let (manager, _rx) = manager(registry);
    assert!(manager.edit_wrappers(|chain| chain.insert_after("stats", Arc::new(RefuseEdits))));
    let refused = manager
        .execute(call("c1", "write", json!({"path": "a", "content": "x"})))
        .await;
    assert_eq!(
        refused.result.error().map(|e| e.kind),
        Some(ToolErrorKind::PermissionDenied)
    );
    assert_eq!(refused.info.status, ToolStatus::Error);
    assert_eq!(refused.info.tip, None, "the tool never ran");
    assert_eq!(manager.stats("write").map(|s| s.failures), Some(1));
    let allowed = manager
        .execute(call("c2", "behave", json!({"mode": "ok"})))
        .await;
    assert_eq!(allowed.result, ToolResult::text("fine"));
}

#[tokio::test]
async fn definitions_and_catalogue_describe_every_parameter() {
    let (registry, _) = writer_registry();
    let (manager, _rx) = manager(registry);
    let definitions = manager.tool_definitions().await;
    let names: Vec<&str> = definitions.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["attempt_completion", "new_task", "write"]);
    for definition in &definitions {
        assert_eq!(definition.input_schema["type"], "object");
        assert!(definition.input_schema.get("$schema").is_none());
        assert_eq!(
            parameters_without_description(&definition.input_schema),
            Vec::<String>::new(),
            "{}",
            definition.name
        );
    }
    let catalogue = manager.catalogue().await;
    assert!(catalogue.starts_with("# Available Tools\n"));
    assert!(catalogue.contains("## write\nDescription: Writes a file.\nParameters:\n"));
    assert!(catalogue.contains("- path: string (required) - Where to write."));
    assert!(catalogue.contains("- overwrite: boolean - Overwrite an existing file."));
    assert!(catalogue.contains("## new_task\nDisplay Name: Delegate task\n"));
    assert_eq!(catalogue, manager.catalogue().await, "byte-stable");
}
