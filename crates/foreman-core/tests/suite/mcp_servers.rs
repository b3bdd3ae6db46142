//! The MCP hub against real servers (`make mcp-servers` installs them under target/mcp-servers):
//! server-everything over stdio and streamable HTTP, server-filesystem, a discovery command,
//! workspace approvals, crash and restart.

use std::path::{Path, PathBuf};
use std::time::Duration;

use foreman_core::approval::{ActionClass, CallFacts};
use foreman_core::approval::{Decision, Policy};
use foreman_core::mcp::{
    Backoff, HubOptions, McpConfig, McpHub, ServerSource, ServerState, ServerStatus,
    WORKSPACE_CONFIG,
};
use foreman_core::providers::ToolDefinition;
use foreman_core::sandbox::SandboxPolicy;
use foreman_core::store::Store;
use foreman_core::tools::{CallOutput, OutputSink, ToolError, ToolOutput, ToolSet, codes};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::common::serve;

pub(super) fn servers_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/mcp-servers/node_modules/@modelcontextprotocol");
    assert!(
        dir.join("server-everything/dist/index.js").is_file()
            && dir.join("server-filesystem/dist/index.js").is_file(),
        "the MCP test servers are missing under {}: run `make mcp-servers`",
        dir.display()
    );
    dir
}

pub(super) fn everything_js() -> String {
    servers_dir()
        .join("server-everything/dist/index.js")
        .display()
        .to_string()
}

/// The PNG (base64) that server-everything's `get-tiny-image` returns, read from its source.
fn tiny_image() -> String {
    let js = servers_dir().join("server-everything/dist/tools/get-tiny-image.js");
    let source = std::fs::read_to_string(js).unwrap();
    let start = source.find("MCP_TINY_IMAGE = \"").unwrap() + "MCP_TINY_IMAGE = \"".len();
    let len = source[start..].find('"').unwrap();
    source[start..start + len].to_owned()
}

pub(super) fn config(json: Value, source: ServerSource) -> McpConfig {
    McpConfig::parse(&json.to_string(), source, Path::new("test.json")).unwrap()
}

fn everything_stdio() -> McpConfig {
    config(
        json!({"mcpServers": {"everything": {"command": "node", "args": [everything_js(), "stdio"]}}}),
        ServerSource::User,
    )
}

pub(super) const NO_RESERVED: &[String] = &[];

fn server(hub: &McpHub, name: &str) -> ServerStatus {
    hub.status(NO_RESERVED)
        .servers
        .into_iter()
        .find(|s| s.name == name)
        .unwrap()
}

/// Polls until `pred` holds for the server's status (30 s at most).
pub(super) async fn wait_for(
    hub: &McpHub,
    name: &str,
    pred: impl Fn(&ServerStatus) -> bool,
) -> ServerStatus {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let s = server(hub, name);
        if pred(&s) {
            return s;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting on `{name}`: {s:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(super) async fn connected(hub: &McpHub, name: &str) -> ServerStatus {
    wait_for(hub, name, |s| {
        matches!(s.state, ServerState::Connected { .. })
    })
    .await
}

fn sink() -> (
    OutputSink,
    tokio::sync::mpsc::UnboundedReceiver<(String, CallOutput)>,
) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    (OutputSink::new("call", tx), rx)
}

/// The text of a live-output item.
fn text(output: CallOutput) -> String {
    match output {
        CallOutput::Text(text) => text,
        other => panic!("not text: {other:?}"),
    }
}

/// What the model is given of the hub's tools now.
fn definitions(hub: &McpHub, reserved: &[String]) -> Vec<ToolDefinition> {
    hub.tools(reserved).iter().map(|t| t.definition()).collect()
}

/// The facts the tool runtime takes for a call of an external tool (`None`: no such tool).
fn facts_of(
    hub: &McpHub,
    reserved: &[String],
    name: &str,
    args: &Value,
) -> Option<Result<CallFacts, ToolError>> {
    let set = ToolSet::new(Vec::new(), hub.tools(reserved));
    set.get(name)?;
    Some(set.prepare(name, args.clone()).map(|p| p.facts))
}

/// Calls `name` unconfined; its result's text (an MCP tool's, or a call command's output).
pub(super) async fn call(hub: &McpHub, name: &str, args: Value) -> Result<String, ToolError> {
    run(hub, name, args, None).await.map(|output| output.text)
}

/// Calls `name`, a discovered tool's call command confined to `sandbox` when there is one.
pub(super) async fn run(
    hub: &McpHub,
    name: &str,
    args: Value,
    sandbox: Option<SandboxPolicy>,
) -> Result<ToolOutput, ToolError> {
    hub.call(
        NO_RESERVED,
        name,
        args,
        sandbox,
        CancellationToken::new(),
        OutputSink::discard(),
    )
    .await
}

/// Echo, sum, progress, cancellation and an error result on one connected hub.
async fn exercise_everything(hub: &McpHub) {
    let status = connected(hub, "everything").await;
    let names: Vec<&str> = status.tools.iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&"everything__echo"), "{names:?}");
    assert!(names.contains(&"everything__get-sum"), "{names:?}");
    let defs = definitions(hub, NO_RESERVED);
    let echo = defs.iter().find(|d| d.name == "everything__echo").unwrap();
    assert_eq!(echo.description, "Echoes back the input string");
    assert_eq!(echo.input_schema["properties"]["message"]["type"], "string");

    assert_eq!(
        call(hub, "everything__echo", json!({"message": "hello"})).await,
        Ok("Echo: hello".to_owned())
    );
    let sum = call(hub, "everything__get-sum", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert!(sum.contains("is 5"), "{sum}");

    let (output, mut shown) = sink();
    let image = hub
        .call(
            NO_RESERVED,
            "everything__get-tiny-image",
            json!({}),
            None,
            CancellationToken::new(),
            output,
        )
        .await
        .unwrap()
        .text;
    assert!(image.contains("[image image/png, "), "{image}");
    let Ok((_, CallOutput::Images(images))) = shown.try_recv() else {
        panic!("no images for the user")
    };
    assert_eq!(images.shown.len(), 1);
    assert_eq!(images.shown[0].data, tiny_image());
    let weather = call(
        hub,
        "everything__get-structured-content",
        json!({"location": "Chicago"}),
    )
    .await
    .unwrap();
    let parsed: Value = serde_json::from_str(weather.trim()).unwrap();
    assert!(parsed["temperature"].is_number(), "{weather}");
    let links = call(hub, "everything__get-resource-links", json!({"count": 2}))
        .await
        .unwrap();
    assert!(links.contains("[resource "), "{links}");

    let bad = call(hub, "everything__get-sum", json!({"a": "two", "b": 3})).await;
    assert!(bad.is_err(), "{bad:?}");

    let (output, mut live) = sink();
    let done = hub
        .call(
            NO_RESERVED,
            "everything__trigger-long-running-operation",
            json!({"duration": 1, "steps": 4}),
            None,
            CancellationToken::new(),
            output,
        )
        .await
        .unwrap()
        .text;
    assert!(done.contains("Long running operation completed"), "{done}");
    let mut lines = Vec::new();
    while let Ok((_, output)) = live.try_recv() {
        lines.push(text(output));
    }
    assert_eq!(
        lines,
        vec![
            "progress 1/4\n",
            "progress 2/4\n",
            "progress 3/4\n",
            "progress 4/4\n"
        ]
    );

    let cancel = CancellationToken::new();
    let (output, mut live) = sink();
    let long = hub.call(
        NO_RESERVED,
        "everything__trigger-long-running-operation",
        json!({"duration": 30, "steps": 30}),
        None,
        cancel.clone(),
        output,
    );
    let started = std::time::Instant::now();
    let canceller = async {
        // Cancel once the server has started working (first progress line).
        let first = live.recv().await;
        cancel.cancel();
        first
    };
    let (outcome, first) = tokio::join!(long, canceller);
    assert_eq!(text(first.unwrap().1), "progress 1/30\n");
    assert_eq!(outcome.unwrap_err().code, codes::CANCELLED);
    assert!(started.elapsed() < Duration::from_secs(10));
    // The connection is still usable after the cancellation.
    assert_eq!(
        call(hub, "everything__echo", json!({"message": "after"})).await,
        Ok("Echo: after".to_owned())
    );
}

#[tokio::test]
async fn everything_over_stdio() {
    let hub = McpHub::start(everything_stdio(), HubOptions::default())
        .await
        .unwrap();
    exercise_everything(&hub).await;
    let facts = facts_of(
        &hub,
        NO_RESERVED,
        "everything__echo",
        &json!({"message": "m"}),
    )
    .unwrap()
    .unwrap();
    assert_eq!(facts.class, ActionClass::Read);
    assert!(!facts.destructive);
    let invalid = facts_of(
        &hub,
        NO_RESERVED,
        "everything__get-sum",
        &json!({"a": "two"}),
    )
    .unwrap()
    .unwrap_err();
    assert_eq!(invalid.code, codes::INVALID_PARAMS, "{invalid}");
    assert!(facts_of(&hub, NO_RESERVED, "read", &json!({})).is_none());
    assert_eq!(server(&hub, "everything").call_timeout_secs, 60);
    let pid = server(&hub, "everything").pid.unwrap();
    hub.shutdown().await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let gone =
        rustix::process::test_kill_process(rustix::process::Pid::from_raw(pid as i32).unwrap());
    assert!(
        gone.is_err(),
        "the server process {pid} still runs after shutdown"
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[tokio::test]
async fn everything_over_streamable_http() {
    let port = free_port();
    let mut child = tokio::process::Command::new("node")
        .arg(everything_js())
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the HTTP server did not start"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let cfg = config(
        json!({"mcpServers": {"everything": {"url": format!("http://127.0.0.1:{port}/mcp"), "headers": {"X-Test": "1"}}}}),
        ServerSource::User,
    );
    let hub = McpHub::start(cfg, HubOptions::default()).await.unwrap();
    exercise_everything(&hub).await;
    hub.shutdown().await;
    child.kill().await.unwrap();
}

#[tokio::test]
async fn a_killed_server_makes_its_tools_unavailable_and_is_restarted() {
    let options = HubOptions {
        backoff: Backoff {
            initial: Duration::from_secs(2),
            max: Duration::from_secs(4),
        },
        ..HubOptions::default()
    };
    let hub = McpHub::start(everything_stdio(), options).await.unwrap();
    let pid = connected(&hub, "everything").await.pid.unwrap();
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(pid as i32).unwrap(),
        rustix::process::Signal::KILL,
    )
    .unwrap();
    let failed = wait_for(&hub, "everything", |s| {
        matches!(s.state, ServerState::Failed { .. })
    })
    .await;
    assert!(!failed.tools.is_empty(), "the last known tools are kept");
    let err = call(&hub, "everything__echo", json!({"message": "x"}))
        .await
        .unwrap_err();
    assert!(err.message.contains("is not running"), "{err}");
    assert!(definitions(&hub, NO_RESERVED).is_empty());
    let back = connected(&hub, "everything").await;
    assert_ne!(back.pid, Some(pid));
    assert_eq!(
        call(&hub, "everything__echo", json!({"message": "back"})).await,
        Ok("Echo: back".to_owned())
    );
    hub.shutdown().await;
}

#[tokio::test]
async fn filesystem_writes_ask_and_reads_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let js = servers_dir().join("server-filesystem/dist/index.js");
    let cfg = config(
        json!({"mcpServers": {"fs": {"command": "node", "args": [js, root]}}}),
        ServerSource::User,
    );
    let hub = McpHub::start(cfg, HubOptions::default()).await.unwrap();
    connected(&hub, "fs").await;
    let policy = Policy::default();
    let write = facts_of(
        &hub,
        NO_RESERVED,
        "fs__write_file",
        &json!({"path": "a", "content": "b"}),
    )
    .unwrap()
    .unwrap();
    assert!(write.destructive);
    assert!(matches!(policy.decide(&write, 0), Decision::Ask { .. }));
    let yolo = Policy {
        mode: foreman_core::protocol::ApprovalMode::Yolo,
        ..Policy::default()
    };
    assert!(
        matches!(yolo.decide(&write, 0), Decision::Ask { .. }),
        "destructive always asks"
    );
    let read = facts_of(
        &hub,
        NO_RESERVED,
        "fs__read_text_file",
        &json!({"path": "a"}),
    )
    .unwrap()
    .unwrap();
    assert_eq!(read.class, ActionClass::Read);
    assert!(matches!(policy.decide(&read, 0), Decision::Allow { .. }));
    let mkdir = facts_of(
        &hub,
        NO_RESERVED,
        "fs__create_directory",
        &json!({"path": "d"}),
    )
    .unwrap()
    .unwrap();
    assert_eq!(mkdir.class, ActionClass::External);
    assert!(!mkdir.destructive);

    let path = root.join("a.txt").display().to_string();
    call(
        &hub,
        "fs__write_file",
        json!({"path": path, "content": "hi there"}),
    )
    .await
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("a.txt")).unwrap(),
        "hi there"
    );
    let text = call(&hub, "fs__read_text_file", json!({"path": path}))
        .await
        .unwrap();
    assert!(text.contains("hi there"), "{text}");
    hub.shutdown().await;
}

#[tokio::test]
async fn discovery_command_loads_good_declarations_and_reports_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("list.sh"),
        r#"cat <<'JSON'
[
  {"name": "greet", "description": "Greets", "parameters": {"type": "object", "properties": {"who": {"type": "string"}}}},
  {"name": "fail", "description": "Fails"},
  {"description": "no name"},
  {"name": "bad_schema", "parameters": {"type": 7}}
]
JSON
"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("call.sh"),
        r#"input=$(cat)
case "$1" in
  greet) echo "hello $input" ;;
  fail) echo "it broke" >&2; exit 3 ;;
esac
"#,
    )
    .unwrap();
    let cfg = config(
        json!({"discovery": {"command": "sh list.sh", "callCommand": "sh call.sh"}}),
        ServerSource::User,
    );
    let options = HubOptions {
        workspace: Some(dir.path().to_path_buf()),
        ..HubOptions::default()
    };
    let hub = McpHub::start(cfg, options).await.unwrap();
    let status = connected(&hub, "discovery").await;
    let names: Vec<&str> = status.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, vec!["greet", "fail"]);
    assert_eq!(status.problems.len(), 2, "{:?}", status.problems);
    assert!(
        status.problems[0].starts_with("declaration 3"),
        "{:?}",
        status.problems
    );
    assert!(
        status.problems[1].contains("bad_schema"),
        "{:?}",
        status.problems
    );
    let facts = facts_of(&hub, NO_RESERVED, "greet", &json!({"who": "x"}))
        .unwrap()
        .unwrap();
    assert_eq!(facts.class, ActionClass::External);
    assert_eq!(
        call(&hub, "greet", json!({"who": "you"})).await,
        Ok("hello {\"who\":\"you\"}\n".to_owned())
    );
    // A non-zero exit is a failed call, as a `bash` command's is.
    let failed = run(&hub, "fail", json!({}), None).await.unwrap();
    assert!(failed.failed, "{failed:?}");
    assert!(
        failed.text.contains("it broke") && failed.text.contains('3'),
        "{failed:?}"
    );
    // A built-in of the same name keeps its name; the discovered tool gets a suffix.
    let reserved = vec!["greet".to_owned()];
    let defs = definitions(&hub, &reserved);
    assert!(defs.iter().any(|d| d.name == "greet_2"), "{defs:?}");
    hub.shutdown().await;
}

#[tokio::test]
async fn workspace_servers_wait_for_approval_of_their_exact_definition() {
    let dir = tempfile::tempdir().unwrap();
    let write_config = |arg: &str| {
        std::fs::create_dir_all(dir.path().join(".foreman")).unwrap();
        let cfg = json!({"mcpServers": {"everything": {"command": "node", "args": [everything_js(), arg]}}});
        std::fs::write(dir.path().join(WORKSPACE_CONFIG), cfg.to_string()).unwrap();
    };
    write_config("stdio");
    let store = Store::open_in_memory().await.unwrap();
    let options = HubOptions {
        workspace: Some(dir.path().to_path_buf()),
        store: Some(store.clone()),
        ..HubOptions::default()
    };
    let load = || McpConfig::load(None, Some(dir.path())).unwrap();
    let hub = McpHub::start(load(), options.clone()).await.unwrap();
    let waiting = wait_for(&hub, "everything", |s| {
        s.state == ServerState::AwaitingApproval
    })
    .await;
    assert_eq!(waiting.source, ServerSource::Workspace);
    assert!(waiting.pid.is_none());
    assert_eq!(hub.pending().len(), 1);
    assert!(
        call(&hub, "everything__echo", json!({"message": "x"}))
            .await
            .is_err()
    );
    hub.approve("everything").await.unwrap();
    connected(&hub, "everything").await;
    assert!(hub.pending().is_empty());
    hub.shutdown().await;

    // Approved once: a new hub over the same store starts it.
    let again = McpHub::start(load(), options.clone()).await.unwrap();
    connected(&again, "everything").await;
    again.shutdown().await;

    // A changed definition asks again.
    write_config("stdio ");
    let changed = McpHub::start(load(), options).await.unwrap();
    wait_for(&changed, "everything", |s| {
        s.state == ServerState::AwaitingApproval
    })
    .await;
    changed.shutdown().await;
}

#[tokio::test]
async fn turning_tools_off_and_the_tool_count_guard() {
    let options = HubOptions {
        tool_limit: 12,
        builtin_tools: 10,
        ..HubOptions::default()
    };
    let hub = McpHub::start(everything_stdio(), options).await.unwrap();
    let status = connected(&hub, "everything").await;
    let n = status.tools.len();
    assert!(n > 2, "{n}");
    let all = hub.status(NO_RESERVED);
    assert_eq!(all.enabled_tools as usize, 10 + n);
    assert!(
        all.warnings.iter().any(|w| w.contains("tools are enabled")),
        "{:?}",
        all.warnings
    );

    hub.set_tool_enabled("everything", "echo", false).unwrap();
    assert!(
        !definitions(&hub, NO_RESERVED)
            .iter()
            .any(|d| d.name == "everything__echo")
    );
    let off = call(&hub, "everything__echo", json!({"message": "m"}))
        .await
        .unwrap_err();
    assert_eq!(off.code, codes::TOOL_UNAVAILABLE);
    assert!(off.message.contains("turned off"), "{off}");
    assert!(hub.set_tool_enabled("everything", "nope", false).is_err());

    hub.set_server_enabled("everything", false).unwrap();
    wait_for(&hub, "everything", |s| s.state == ServerState::Disabled).await;
    let status = hub.status(NO_RESERVED);
    assert_eq!(status.enabled_tools, 10);
    assert!(status.warnings.is_empty(), "{:?}", status.warnings);
    hub.set_server_enabled("everything", true).unwrap();
    connected(&hub, "everything").await;
    hub.restart("everything").unwrap();
    assert!(hub.restart("nope").is_err());
    hub.shutdown().await;
}

/// The real session loop with the hub's tools: the filesystem server's read runs without a
/// question in `ask` mode, its write asks, and the approved write lands.
#[tokio::test]
async fn session_loop_asks_for_the_mcp_write_and_not_the_read() {
    use std::sync::Arc;

    use foreman_core::agent::{Session, SessionConfig};
    use foreman_core::protocol::{ApprovalScope, EventMsg, Op};
    use foreman_core::providers::keys::static_key;
    use foreman_core::providers::{AnthropicConfig, AnthropicProvider};
    use foreman_core::testing::scripts::{self, call};
    use foreman_core::testing::sse_server::ScriptedResponse;

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("in.txt"), "original\n").unwrap();
    let js = servers_dir().join("server-filesystem/dist/index.js");
    let cfg = config(
        json!({"mcpServers": {"fs": {"command": "node", "args": [js, root]}}}),
        ServerSource::User,
    );
    let hub = McpHub::start(cfg, HubOptions::default()).await.unwrap();
    connected(&hub, "fs").await;
    let read_path = root.join("in.txt").display().to_string();
    let write_path = root.join("out.txt").display().to_string();
    let step = |steps: &[scripts::Step]| ScriptedResponse::sse(scripts::anthropic(steps, 5));
    let server = serve(vec![
        step(&[call("r", "fs__read_text_file", json!({"path": read_path}))]),
        step(&[call(
            "w",
            "fs__write_file",
            json!({"path": write_path, "content": "written"}),
        )]),
        step(&[call("done", "attempt_completion", json!({"result": "ok"}))]),
    ])
    .await;
    let provider = Arc::new(
        AnthropicProvider::new(AnthropicConfig::new(static_key("k")).with_base_url(server.url()))
            .unwrap(),
    );
    let mut session = SessionConfig::new(provider, "m", root.clone());
    session.data_dir = root.join(".data");
    session.mcp = Some(hub.clone());
    let (ops, mut events) = Session::spawn(session).unwrap();
    ops.send(Op::user_message("copy")).unwrap();
    let mut asked = Vec::new();
    let mut results = Vec::new();
    let run = async {
        while let Some(event) = events.recv().await {
            match event.msg {
                EventMsg::ApprovalRequested {
                    call_id,
                    preview_hash,
                    ..
                } => {
                    asked.push(call_id.clone());
                    ops.send(Op::Approve {
                        call_id,
                        preview_hash,
                        scope: ApprovalScope::Once,
                    })
                    .unwrap();
                }
                EventMsg::ToolCallFinished {
                    call_id, result, ..
                } => results.push((call_id, result)),
                EventMsg::TaskEnded { .. } => break,
                _ => {}
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .unwrap();
    assert_eq!(asked, vec!["w".to_owned()]);
    assert!(
        results
            .iter()
            .any(|(id, r)| id == "r" && r.contains("original")),
        "{results:?}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("out.txt")).unwrap(),
        "written"
    );
    hub.shutdown().await;
}

#[tokio::test]
async fn a_call_past_its_timeout_is_cancelled_and_the_server_stays_usable() {
    let options = HubOptions {
        call_timeout: Duration::from_secs(1),
        ..HubOptions::default()
    };
    let hub = McpHub::start(everything_stdio(), options).await.unwrap();
    connected(&hub, "everything").await;
    let started = std::time::Instant::now();
    let err = call(
        &hub,
        "everything__trigger-long-running-operation",
        json!({"duration": 20, "steps": 20}),
    )
    .await
    .unwrap_err();
    assert_eq!(err.code, codes::TIMEOUT, "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        call(&hub, "everything__echo", json!({"message": "still here"})).await,
        Ok("Echo: still here".to_owned())
    );
    hub.shutdown().await;
}

#[tokio::test]
async fn a_server_that_cannot_start_reports_its_stderr_and_is_retried() {
    let dir = tempfile::tempdir().unwrap();
    let count = dir.path().join("starts");
    let script = format!(
        "echo started >> {}; echo 'boom: no config' >&2; exit 1",
        count.display()
    );
    let cfg = config(
        json!({"mcpServers": {"broken": {"command": "sh", "args": ["-c", script]}}}),
        ServerSource::User,
    );
    let options = HubOptions {
        backoff: Backoff {
            initial: Duration::from_millis(100),
            max: Duration::from_millis(400),
        },
        ..HubOptions::default()
    };
    let hub = McpHub::start(cfg, options).await.unwrap();
    let failed = wait_for(&hub, "broken", |s| match &s.state {
        ServerState::Failed { stderr_tail, .. } => stderr_tail.contains("boom: no config"),
        _ => false,
    })
    .await;
    assert!(failed.tools.is_empty());
    // Restarted with backoff: it keeps being tried.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while std::fs::read_to_string(&count)
        .unwrap_or_default()
        .lines()
        .count()
        < 3
    {
        assert!(std::time::Instant::now() < deadline, "not retried");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    hub.shutdown().await;
}

/// `get-tiny-image` in the real session loop: the PNG reaches the user's channel (the call's
/// update event, and the stored session the app reopens) and the model gets only the note.
#[tokio::test]
async fn an_image_reaches_the_card_and_the_model_gets_only_a_note() {
    use std::sync::Arc;

    use foreman_core::agent::{Session, SessionConfig};
    use foreman_core::conversation::open_session;
    use foreman_core::conversation::{TranscriptItem, load_transcript};
    use foreman_core::protocol::{EventMsg, Op};
    use foreman_core::providers::keys::static_key;
    use foreman_core::providers::{AnthropicConfig, AnthropicProvider};
    use foreman_core::testing::scripts::{self, call};
    use foreman_core::testing::sse_server::ScriptedResponse;

    let png = tiny_image();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let hub = McpHub::start(everything_stdio(), HubOptions::default())
        .await
        .unwrap();
    connected(&hub, "everything").await;
    let step = |steps: &[scripts::Step]| ScriptedResponse::sse(scripts::anthropic(steps, 5));
    let server = serve(vec![
        step(&[call("img", "everything__get-tiny-image", json!({}))]),
        step(&[call("done", "attempt_completion", json!({"result": "ok"}))]),
    ])
    .await;
    let provider = Arc::new(
        AnthropicProvider::new(AnthropicConfig::new(static_key("k")).with_base_url(server.url()))
            .unwrap(),
    );
    let store = Store::open_in_memory().await.unwrap();
    let (session_id, _) = open_session(&store, &root.display().to_string(), None)
        .await
        .unwrap()
        .unwrap();
    let mut session = SessionConfig::new(provider, "m", root.clone());
    session.data_dir = root.join(".data");
    session.store = Some(store.clone());
    session.session_id = Some(session_id.clone());
    session.mcp = Some(hub.clone());
    let (ops, mut events) = Session::spawn(session).unwrap();
    ops.send(Op::user_message("show me")).unwrap();
    let mut shown = Vec::new();
    let mut result = None;
    let run = async {
        while let Some(event) = events.recv().await {
            match event.msg {
                EventMsg::ToolCallUpdated {
                    call_id,
                    images: Some(images),
                    ..
                } => shown.push((call_id, images)),
                EventMsg::ToolCallFinished {
                    call_id, result: r, ..
                } if call_id == "img" => result = Some(r),
                EventMsg::TaskEnded { .. } => break,
                _ => {}
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .unwrap();

    // The user's channel: one PNG, exactly as the server sent it.
    assert_eq!(shown.len(), 1, "{shown:?}");
    let (call_id, images) = &shown[0];
    assert_eq!(call_id, "img");
    assert_eq!(images.shown.len(), 1);
    assert_eq!(images.shown[0].mime_type, "image/png");
    assert_eq!(images.shown[0].data, png);
    assert!(images.left_out.is_empty());

    // The model's channel: the note, never the data.
    let result = result.unwrap();
    assert!(result.contains("[image image/png, "), "{result}");
    assert!(!result.contains(&png[..32]), "{result}");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let second = requests[1].json().to_string();
    assert!(second.contains("[image image/png, "), "{second}");
    assert!(
        !second.contains(&png[..32]),
        "the model was sent the image data"
    );

    // The stored session keeps the image for the card when it is reopened.
    let transcript = load_transcript(&store, &session_id).await.unwrap();
    let stored = transcript
        .items
        .iter()
        .find_map(|item| match item {
            TranscriptItem::Tool { call } if call.call_id == "img" => Some(call.images.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(stored.as_ref(), Some(images));
    hub.shutdown().await;
}

#[tokio::test]
async fn a_servers_own_timeout_applies_to_its_calls() {
    let cfg = config(
        json!({"mcpServers": {"everything": {"command": "node", "args": [everything_js(), "stdio"], "timeout": 1}}}),
        ServerSource::User,
    );
    // The hub's default is far longer: only the server's own timeout can end the call.
    let hub = McpHub::start(cfg, HubOptions::default()).await.unwrap();
    let status = connected(&hub, "everything").await;
    assert_eq!(status.call_timeout_secs, 1);
    let started = std::time::Instant::now();
    let err = call(
        &hub,
        "everything__trigger-long-running-operation",
        json!({"duration": 20, "steps": 20}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err,
        ToolError::new(codes::TIMEOUT, "the MCP call took longer than 1 s")
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    hub.shutdown().await;
}
