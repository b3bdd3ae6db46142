//! The built-in tools as real [`Tool`](crate::tools::Tool)s: each wraps its plain async function,
//! sends a `DOING` tip, sets the model's result text and ends with a `SUCCESS` card carrying the
//! output's title and metadata (or fails with a [`ToolError`] whose kind and details carry the
//! built-in error code). Per-session state (read tracker, task list, data directory) lives in
//! [`BuiltinSessions`], keyed by session id.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use serde::Serialize;
use serde_json::{Value, json};

use super::bash::{BashParams, bash_tip, run_bash};
use super::edit::{EditParams, edit_tip, run_edit};
use super::error::BuiltinError;
use super::glob::{GlobParams, glob_tip, run_glob};
use super::grep::{GrepParams, grep_progress_tip, grep_tip, run_grep_reporting};
use super::http_fetch::{HttpFetchParams, http_fetch_tip, run_http_fetch};
use super::ls::{LsParams, ls_tip, run_ls};
use super::multi_edit::{MultiEditParams, multi_edit_tip, run_multi_edit};
use super::output::BuiltinOutput;
use super::read::{ReadParams, read_tip, run_read};
use super::session::BuiltinSession;
use super::todo::{TodoWriteParams, run_todo_write, todo_tip};
use super::write::{WriteParams, run_write, write_tip};
use crate::boundary::WorkspaceBoundary;
use crate::tools::{
    Progress, StatusUpdate, ToolContext, ToolEnv, ToolError, ToolErrorKind, ToolFactory, ToolKind,
    ToolRegistry, TypedTool,
};

/// Names of the built-in tools, in catalogue order.
pub const BUILTIN_TOOL_NAMES: [&str; 10] = [
    "read",
    "write",
    "edit",
    "multi_edit",
    "ls",
    "glob",
    "grep",
    "bash",
    "http_fetch",
    "todo_write",
];

/// Per-session state of the built-in tools, created on a session's first call and shared by all
/// its calls. Cheap to clone; clones share the sessions.
#[derive(Debug, Clone)]
pub struct BuiltinSessions {
    data_root: PathBuf,
    sessions: Arc<Mutex<HashMap<String, BuiltinSession>>>,
}

impl BuiltinSessions {
    /// Sessions whose data directories (full bash output, …) live under `data_root/<session id>`.
    pub fn new(data_root: impl Into<PathBuf>) -> Self {
        Self {
            data_root: data_root.into(),
            sessions: Arc::default(),
        }
    }

    /// The state of the session `env` belongs to (a new one if the workspace root changed).
    pub fn session_for(&self, env: &ToolEnv) -> Result<BuiltinSession, ToolError> {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        let root = env.workspace_root();
        if let Some(existing) = sessions.get(env.session_id())
            && root
                .canonicalize()
                .is_ok_and(|r| r == existing.boundary.root())
        {
            return Ok(existing.clone());
        }
        let boundary = WorkspaceBoundary::new(root).map_err(|e| {
            ToolError::execution_failed(format!(
                "the workspace {} cannot be used: {e}",
                root.display()
            ))
        })?;
        let dir_name: String = env
            .session_id()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let session = BuiltinSession::new(boundary, self.data_root.join(dir_name));
        sessions.insert(env.session_id().to_owned(), session.clone());
        Ok(session)
    }

    /// Drops a finished session's state.
    pub fn forget(&self, session_id: &str) {
        self.sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(session_id);
    }
}

/// Converts a built-in failure into the contract's error, keeping the code in the details.
pub fn to_tool_error(err: BuiltinError) -> ToolError {
    let kind = match &err {
        BuiltinError::PathNotInWorkspace(_) => ToolErrorKind::PathNotInWorkspace,
        BuiltinError::NotFound { .. } => ToolErrorKind::FileNotFound,
        BuiltinError::InvalidParams(_) | BuiltinError::InvalidPattern(_) => {
            ToolErrorKind::InvalidParams
        }
        BuiltinError::Cancelled => ToolErrorKind::Cancelled,
        BuiltinError::RedirectRefused { .. } => ToolErrorKind::PermissionDenied,
        BuiltinError::Io { source, .. }
            if source.kind() == std::io::ErrorKind::PermissionDenied =>
        {
            ToolErrorKind::PermissionDenied
        }
        _ => ToolErrorKind::ExecutionFailed,
    };
    let suggestion = match &err {
        BuiltinError::PathNotInWorkspace(r) => Some(format!(
            "Use a path inside the workspace root {}.",
            r.root.display()
        )),
        BuiltinError::StaleRead(_) => {
            Some("Read the file with the read tool, then retry the change.".to_owned())
        }
        BuiltinError::NotFound { .. } => Some("Check the path with ls or glob.".to_owned()),
        _ => None,
    };
    let mut tool_error =
        ToolError::new(kind, err.to_string()).with_details(json!({ "code": err.code() }));
    if let Some(suggestion) = suggestion {
        tool_error = tool_error.with_suggestion(suggestion);
    }
    tool_error
}

fn status_error(err: impl std::fmt::Display) -> ToolError {
    ToolError::execution_failed(err.to_string())
}

/// Sends the `DOING` card with the tip and the params.
fn start<P: Serialize>(ctx: &ToolContext, tip: String, params: &P) -> Result<(), ToolError> {
    let shown = serde_json::to_value(params).unwrap_or(Value::Null);
    let mut update = StatusUpdate::doing().tip(tip);
    if shown.is_object() {
        update = update.params(shown);
    }
    ctx.send_status(update).map_err(status_error)
}

/// Reports an outcome on both channels.
fn finish<O: BuiltinOutput>(
    ctx: &ToolContext,
    outcome: Result<O, BuiltinError>,
) -> Result<(), ToolError> {
    let output = outcome.map_err(to_tool_error)?;
    ctx.set_result(output.render());
    let card = serde_json::to_value(&output).unwrap_or_else(|_| json!({ "title": output.title() }));
    ctx.send_status(StatusUpdate::success(card))
        .map_err(status_error)
}

macro_rules! builtin_tool {
    (
        $(#[$doc:meta])*
        $ty:ident, $name:literal, $display:literal, $kind:expr, $params:ty, $tip:path,
        $description:literal,
        |$session:ident, $p:ident, $ctx:ident| $body:expr
    ) => {
        $(#[$doc])*
        pub struct $ty {
            session: BuiltinSession,
        }

        impl $ty {
            /// The tool over a session's state.
            pub fn new(session: BuiltinSession) -> Self {
                Self { session }
            }
        }

        #[async_trait]
        impl TypedTool for $ty {
            type Params = $params;

            fn name(&self) -> &str {
                $name
            }

            fn display_name(&self) -> Option<&str> {
                Some($display)
            }

            fn kind(&self) -> ToolKind {
                $kind
            }

            async fn description(&self) -> String {
                $description.to_owned()
            }

            fn timeout(&self) -> Option<Duration> {
                // Longer than bash's own 10-minute maximum so the tool can report the timeout.
                ($name == "bash").then(|| Duration::from_secs(11 * 60))
            }

            async fn run(&self, $p: $params, $ctx: &ToolContext) -> Result<(), ToolError> {
                start($ctx, $tip(&$p), &$p)?;
                let $session = &self.session;
                let outcome = $body.await;
                finish($ctx, outcome)
            }
        }
    };
}

builtin_tool!(
    /// `read`: a text file with line numbers, paged.
    ReadTool, "read", "Read file", ToolKind::Read, ReadParams, read_tip,
    "Read a text file in the workspace. Returns numbered lines (like `cat -n`), at most 2000 lines or 256 KiB per call; use `offset` (1-based line) and `limit` to page through long files. Binary files and files over 10 MiB are refused. You must read a file before changing it with write, edit or multi_edit.",
    |session, params, _ctx| run_read(session, params)
);

builtin_tool!(
    /// `write`: create or replace a whole file, atomically.
    WriteTool, "write", "Write file", ToolKind::Edit, WriteParams, write_tip,
    "Create a file or replace its whole content (parent folders are created). Replacing an existing file requires having read its current content in this session. Prefer edit for changes to part of a file.",
    |session, params, _ctx| run_write(session, params)
);

builtin_tool!(
    /// `edit`: replace one exact string in a file.
    EditTool, "edit", "Edit file", ToolKind::Edit, EditParams, edit_tip,
    "Replace `old_string` with `new_string` in a file you have read. `old_string` must match exactly once (include enough surrounding lines), unless `replace_all` is true. Keep indentation exactly as in the file.",
    |session, params, _ctx| run_edit(session, params)
);

builtin_tool!(
    /// `multi_edit`: several edits to one file, all or nothing.
    MultiEditTool, "multi_edit", "Edit file (several changes)", ToolKind::Edit, MultiEditParams, multi_edit_tip,
    "Apply several edits to one file you have read, in order, each on the result of the previous one. If any edit fails, none is applied.",
    |session, params, _ctx| run_multi_edit(session, params)
);

builtin_tool!(
    /// `ls`: one directory's entries.
    LsTool, "ls", "List folder", ToolKind::Read, LsParams, ls_tip,
    "List a folder of the workspace (default: the root): names, types, sizes and modification times, folders first.",
    |session, params, _ctx| run_ls(session, params)
);

builtin_tool!(
    /// `glob`: files matching a glob pattern, newest first.
    GlobTool, "glob", "Find files", ToolKind::Read, GlobParams, glob_tip,
    "Find files by glob pattern (e.g. `**/*.rs`, `src/**/*.ts`), newest first. Honours .gitignore and skips .git, node_modules, target and dist.",
    |session, params, _ctx| run_glob(session, params)
);

builtin_tool!(
    /// `grep`: regex search with ripgrep's engine.
    GrepTool, "grep", "Search files", ToolKind::Read, GrepParams, grep_tip,
    "Search file contents with a regular expression (ripgrep syntax). Output `content` (matching lines with line numbers, optional context), `files` (paths only) or `count`. Filter files with `glob` (e.g. `*.rs`). Honours .gitignore; binary files are skipped.",
    |session, params, ctx| {
        let shown = params.clone();
        run_grep_reporting(session, params, search_progress(ctx, shown))
    }
);

builtin_tool!(
    /// `bash`: a shell command in the workspace root.
    BashTool, "bash", "Run command", ToolKind::Execute, BashParams, bash_tip,
    "Run a shell command with bash in the workspace root (stdin is closed). Default timeout 2 minutes, at most 10. Long output is shortened to its first and last lines and saved in full to a file whose path is given. Background processes are stopped when the command ends.",
    |session, params, ctx| run_bash(session, params, ctx.cancellation().clone(), live_output(ctx))
);

builtin_tool!(
    /// `http_fetch`: one HTTP(S) request.
    HttpFetchTool, "http_fetch", "Fetch URL", ToolKind::Fetch, HttpFetchParams, http_fetch_tip,
    "Make an HTTP or HTTPS request (GET by default) and return the response; HTML is converted to readable text, binary bodies are only summarised, large bodies are cut.",
    |_session, params, ctx| run_http_fetch(params, ctx.cancellation().clone())
);

builtin_tool!(
    /// `todo_write`: replace the session's task list.
    TodoWriteTool, "todo_write", "Update tasks", ToolKind::Think, TodoWriteParams, todo_tip,
    "Replace your task list for this session with `todos` (each with id, content and status pending, in_progress or completed). Keep exactly one task in_progress while working.",
    |session, params, _ctx| run_todo_write(session, params)
);

/// A callback that shows how many files a running grep has searched, as the card's tip and its
/// progress.
fn search_progress(ctx: &ToolContext, params: GrepParams) -> impl FnMut(usize) + Send + '_ {
    move |searched: usize| {
        let update = StatusUpdate::doing()
            .tip(grep_progress_tip(&params, searched))
            .progress(Progress {
                current: searched as u64,
                total: None,
            });
        if let Err(err) = ctx.send_status(update) {
            tracing::debug!("grep progress not shown: {err}");
        }
    }
}

/// How often live bash output updates the card.
const LIVE_OUTPUT_INTERVAL: Duration = Duration::from_millis(250);

/// A callback that shows the latest output line as the card's tip, throttled, with the number of
/// output bytes so far as progress.
fn live_output(ctx: &ToolContext) -> impl FnMut(&str) + Send + '_ {
    let mut last_sent: Option<Instant> = None;
    let mut bytes: u64 = 0;
    move |chunk: &str| {
        bytes += chunk.len() as u64;
        if last_sent.is_some_and(|t| t.elapsed() < LIVE_OUTPUT_INTERVAL) {
            return;
        }
        let Some(line) = chunk.lines().rev().find(|l| !l.trim().is_empty()) else {
            return;
        };
        last_sent = Some(Instant::now());
        let tip: String = line.chars().take(200).collect();
        let update = StatusUpdate::doing().tip(tip).progress(Progress {
            current: bytes,
            total: None,
        });
        if let Err(err) = ctx.send_status(update) {
            tracing::debug!("live bash output not shown: {err}");
        }
    }
}

fn factory<T, F>(name: &str, sessions: &BuiltinSessions, make: F) -> Option<ToolFactory>
where
    T: TypedTool,
    F: Fn(BuiltinSession) -> T + Send + Sync + Copy + 'static,
{
    let sessions = sessions.clone();
    let made = ToolFactory::new(name, move |env: ToolEnv| {
        let sessions = sessions.clone();
        async move {
            let session = sessions.session_for(&env)?;
            Ok(Arc::new(make(session)) as Arc<dyn crate::tools::Tool>)
        }
    });
    match made {
        Ok(f) => Some(f),
        Err(e) => {
            tracing::error!("built-in tool with an invalid name: {e}");
            None
        }
    }
}

/// Factories of every built-in tool, sharing `sessions`.
pub fn builtin_factories(sessions: &BuiltinSessions) -> Vec<ToolFactory> {
    [
        factory("read", sessions, ReadTool::new),
        factory("write", sessions, WriteTool::new),
        factory("edit", sessions, EditTool::new),
        factory("multi_edit", sessions, MultiEditTool::new),
        factory("ls", sessions, LsTool::new),
        factory("glob", sessions, GlobTool::new),
        factory("grep", sessions, GrepTool::new),
        factory("bash", sessions, BashTool::new),
        factory("http_fetch", sessions, HttpFetchTool::new),
        factory("todo_write", sessions, TodoWriteTool::new),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Registers every built-in tool in `registry`.
pub fn register_builtin_tools(registry: &ToolRegistry, sessions: &BuiltinSessions) {
    for factory in builtin_factories(sessions) {
        registry.register(factory);
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::mpsc::unbounded_channel;

    use super::*;
    use crate::tools::{ToolResult, ToolStatus};

    struct Harness {
        _ws: tempfile::TempDir,
        _data: tempfile::TempDir,
        registry: ToolRegistry,
        env: ToolEnv,
    }

    fn harness() -> Harness {
        let ws = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        let registry = ToolRegistry::new();
        register_builtin_tools(&registry, &BuiltinSessions::new(data.path()));
        let (tx, _rx) = unbounded_channel();
        let env = ToolEnv::new(ws.path(), "session-1", tx);
        Harness {
            _ws: ws,
            _data: data,
            registry,
            env,
        }
    }

    async fn call(h: &Harness, name: &str, params: Value) -> (Result<(), ToolError>, ToolContext) {
        let tool = h
            .registry
            .get(name)
            .unwrap()
            .make(h.env.clone())
            .await
            .unwrap();
        let ctx = ToolContext::standalone(h.env.clone(), name, "call");
        let outcome = tool.execute(params, &ctx, false).await;
        (outcome, ctx)
    }

    fn result_text(ctx: &ToolContext) -> String {
        match ctx.slot().take_result() {
            Some(ToolResult::Text(text)) => text,
            other => panic!("unexpected result {other:?}"),
        }
    }

    #[tokio::test]
    async fn all_builtins_are_registered_with_documented_schemas() {
        let h = harness();
        let mut names = h.registry.names();
        names.sort();
        let mut expected: Vec<String> = BUILTIN_TOOL_NAMES.iter().map(|s| s.to_string()).collect();
        expected.sort();
        assert_eq!(names, expected);
        for name in BUILTIN_TOOL_NAMES {
            let tool = h
                .registry
                .get(name)
                .unwrap()
                .make(h.env.clone())
                .await
                .unwrap();
            let schema = tool.parameters_schema().await;
            let properties = schema["properties"].as_object().unwrap();
            assert!(!properties.is_empty(), "{name}");
            for (field, spec) in properties {
                assert!(
                    spec.get("description").is_some(),
                    "{name}.{field} has no description"
                );
            }
            // Nested parameters too (multi_edit's edits, todo_write's todos).
            let undocumented = crate::tools::parameters_without_description(&schema);
            assert!(
                undocumented.is_empty(),
                "{name}: undocumented {undocumented:?}"
            );
            assert!(!tool.description().await.is_empty());
        }
    }

    #[tokio::test]
    async fn read_then_edit_share_the_session_tracker() {
        let h = harness();
        std::fs::write(h.env.workspace_root().join("a.txt"), "hello\n").unwrap();
        let (outcome, ctx) = call(
            &h,
            "edit",
            json!({"path": "a.txt", "old_string": "hello", "new_string": "bye"}),
        )
        .await;
        let err = outcome.unwrap_err();
        assert_eq!(err.details, Some(json!({"code": "STALE_READ"})));
        assert!(!err.suggestions.is_empty());
        drop(ctx);

        let (outcome, ctx) = call(&h, "read", json!({"path": "a.txt"})).await;
        outcome.unwrap();
        assert_eq!(result_text(&ctx), "     1\thello\n");
        let card = ctx.snapshot();
        assert_eq!(card.status, ToolStatus::Success);
        assert_eq!(card.tip.as_deref(), Some("Reading a.txt…"));
        assert_eq!(
            card.result.as_ref().unwrap()["title"],
            "Read a.txt (lines 1–1 of 1)"
        );
        assert_eq!(card.params["path"], "a.txt");

        let (outcome, ctx) = call(
            &h,
            "edit",
            json!({"path": "a.txt", "old_string": "hello", "new_string": "bye"}),
        )
        .await;
        outcome.unwrap();
        assert!(result_text(&ctx).starts_with("Edited a.txt"));
        assert_eq!(
            std::fs::read_to_string(h.env.workspace_root().join("a.txt")).unwrap(),
            "bye\n"
        );
    }

    #[tokio::test]
    async fn boundary_refusals_become_path_not_in_workspace() {
        let h = harness();
        let (outcome, _ctx) = call(&h, "read", json!({"path": "../../etc/passwd"})).await;
        let err = outcome.unwrap_err();
        assert_eq!(err.kind, ToolErrorKind::PathNotInWorkspace);
        assert!(err.message.contains("PATH_NOT_IN_WORKSPACE"));
    }

    #[tokio::test]
    async fn bash_streams_live_output_to_the_card() {
        let h = harness();
        let (outcome, ctx) = call(&h, "bash", json!({"command": "echo first; sleep 0.4; echo second", "description": "Say two things"})).await;
        outcome.unwrap();
        let card = ctx.snapshot();
        assert_eq!(card.status, ToolStatus::Success);
        assert_eq!(card.result.as_ref().unwrap()["exit_code"], 0);
        assert!(card.progress.is_some());
        let text = result_text(&ctx);
        assert!(text.starts_with("Exit code 0."), "{text}");
        assert!(text.contains("first\nsecond\n"));
    }

    #[tokio::test]
    async fn sessions_are_separate() {
        let h = harness();
        let (tx, _rx) = unbounded_channel();
        let other = ToolEnv::new(h.env.workspace_root(), "session-2", tx);
        let (outcome, _) = call(
            &h,
            "todo_write",
            json!({"todos": [{"id": "1", "content": "x", "status": "pending"}]}),
        )
        .await;
        outcome.unwrap();
        let sessions = BuiltinSessions::new(h._data.path());
        let s1 = sessions.session_for(&h.env).unwrap();
        let s1_again = sessions.session_for(&h.env).unwrap();
        s1.todos.replace(vec![]).unwrap();
        assert!(Arc::ptr_eq(&s1.boundary, &s1_again.boundary));
        let s2 = sessions.session_for(&other).unwrap();
        assert!(!Arc::ptr_eq(&s1.boundary, &s2.boundary));
    }
}
