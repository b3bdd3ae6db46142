//! [`BuiltinBackend`]: the built-in tools behind the session's [`ToolBackend`] boundary.

use std::path::PathBuf;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::tools::{ActionClass, CallFacts, OutputSink, ProposedChange, ToolBackend, ToolOutcome};
use crate::approval::ShellLine;
use crate::boundary::WorkspaceBoundary;
use crate::builtin_tools::bash::{BashParams, bash_tip, run_bash};
use crate::builtin_tools::edit::{EditParams, edit_tip, run_edit};
use crate::builtin_tools::glob::{GlobParams, run_glob};
use crate::builtin_tools::grep::{GrepParams, run_grep};
use crate::builtin_tools::http_fetch::{HttpFetchParams, parse_fetch_url, run_http_fetch};
use crate::builtin_tools::ls::{LsParams, ls_tip, run_ls};
use crate::builtin_tools::multi_edit::{
    EditOperation, MultiEditParams, apply_edits, run_multi_edit,
};
use crate::builtin_tools::read::{ReadParams, read_tip, run_read};
use crate::builtin_tools::restore;
use crate::builtin_tools::stale_guard::{ContentHash, content_hash};
use crate::builtin_tools::todo::{TodoWriteParams, run_todo_write};
use crate::builtin_tools::write::{WriteParams, run_write, write_tip};
use crate::builtin_tools::{BuiltinError, BuiltinSession};
use crate::providers::ToolDefinition;

/// The built-in tools over one workspace.
#[derive(Debug, Clone)]
pub struct BuiltinBackend {
    session: BuiltinSession,
}

const TOOLS: [(&str, &str); 10] = [
    (
        "read",
        "Read a text file from the workspace, with line numbers. Read a file before changing it.",
    ),
    (
        "write",
        "Create a file or replace its whole content. Prefer edit for small changes.",
    ),
    (
        "edit",
        "Replace an exact string in a file (old_string must match once unless replace_all).",
    ),
    (
        "multi_edit",
        "Several exact-string replacements in one file, applied in order, all or nothing.",
    ),
    ("ls", "List a directory of the workspace."),
    ("glob", "Find files by glob pattern, e.g. src/**/*.rs."),
    ("grep", "Search file contents with a regular expression."),
    (
        "bash",
        "Run a shell command in the workspace root and return its output and exit code.",
    ),
    (
        "http_fetch",
        "Fetch a URL over HTTP(S) and return the response as text.",
    ),
    ("todo_write", "Replace the session's task list."),
];

fn schema<T: JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap_or(Value::Null)
}

fn parse<T: DeserializeOwned>(arguments: &Value) -> Result<T, String> {
    serde_json::from_value(arguments.clone()).map_err(|e| format!("InvalidParams: {e}"))
}

/// The error for the model: its text starts with its code.
fn error_text(error: BuiltinError) -> String {
    error.to_string()
}

impl BuiltinBackend {
    /// The names of the built-in tools (what `definitions` offers), without a workspace.
    pub fn tool_names() -> impl Iterator<Item = &'static str> {
        TOOLS.iter().map(|(name, _)| *name)
    }

    /// The built-ins over `root`, keeping artefacts (full command output) under `data_dir`.
    pub fn new(root: &std::path::Path, data_dir: PathBuf) -> std::io::Result<Self> {
        let boundary = WorkspaceBoundary::new(root)?;
        Ok(Self {
            session: BuiltinSession::new(boundary, data_dir),
        })
    }

    fn path_facts(&self, tool: &str, class: ActionClass, raw: &str) -> Result<CallFacts, String> {
        let boundary = &self.session.boundary;
        let resolved = boundary.resolve(raw).map_err(|e| e.to_string())?;
        Ok(CallFacts {
            path: Some(boundary.display_relative(&resolved)),
            protected: class != ActionClass::Read && boundary.is_protected(&resolved),
            ..CallFacts::new(tool, class)
        })
    }

    /// The file `raw` names, as shown, and its text (`None`: no such file). A file that is not
    /// UTF-8 is read lossily for a write's preview; an edit refuses it (`None` here), as the
    /// tool does.
    fn current(&self, raw: &str, lossy: bool) -> Option<(PathBuf, String, Option<String>)> {
        let boundary = &self.session.boundary;
        let resolved = boundary.resolve(raw).ok()?;
        let shown = boundary.display_relative(&resolved);
        let old = match std::fs::read(&resolved) {
            Ok(bytes) if lossy => Some(String::from_utf8_lossy(&bytes).into_owned()),
            Ok(bytes) => Some(String::from_utf8(bytes).ok()?),
            Err(_) => None,
        };
        Some((resolved, shown, old))
    }
}

impl ToolBackend for BuiltinBackend {
    fn definitions(&self) -> Vec<ToolDefinition> {
        TOOLS
            .iter()
            .map(|(name, description)| ToolDefinition {
                name: (*name).to_owned(),
                description: (*description).to_owned(),
                input_schema: match *name {
                    "read" => schema::<ReadParams>(),
                    "write" => schema::<WriteParams>(),
                    "edit" => schema::<EditParams>(),
                    "multi_edit" => schema::<MultiEditParams>(),
                    "ls" => schema::<LsParams>(),
                    "glob" => schema::<GlobParams>(),
                    "grep" => schema::<GrepParams>(),
                    "bash" => schema::<BashParams>(),
                    "http_fetch" => schema::<HttpFetchParams>(),
                    _ => schema::<TodoWriteParams>(),
                },
            })
            .collect()
    }

    fn facts(&self, name: &str, arguments: &Value) -> Result<CallFacts, String> {
        let read =
            |path: Option<&str>| self.path_facts(name, ActionClass::Read, path.unwrap_or("."));
        match name {
            "read" => read(Some(&parse::<ReadParams>(arguments)?.path)),
            "ls" => read(parse::<LsParams>(arguments)?.path.as_deref()),
            "glob" => read(parse::<GlobParams>(arguments)?.path.as_deref()),
            "grep" => read(parse::<GrepParams>(arguments)?.path.as_deref()),
            "write" => self.path_facts(
                name,
                ActionClass::Edit,
                &parse::<WriteParams>(arguments)?.path,
            ),
            "edit" => self.path_facts(
                name,
                ActionClass::Edit,
                &parse::<EditParams>(arguments)?.path,
            ),
            "multi_edit" => self.path_facts(
                name,
                ActionClass::Edit,
                &parse::<MultiEditParams>(arguments)?.path,
            ),
            "todo_write" => {
                parse::<TodoWriteParams>(arguments)?;
                Ok(CallFacts::new(name, ActionClass::Read))
            }
            "bash" => {
                let command = parse::<BashParams>(arguments)?.command;
                // The command runs in the root: a redirection's target is relative to it.
                let boundary = &self.session.boundary;
                let inside = |target: &str| boundary.resolve(target).is_ok();
                Ok(CallFacts::command(
                    name,
                    ShellLine::parse(&command, &inside),
                ))
            }
            "http_fetch" => {
                let params = parse::<HttpFetchParams>(arguments)?;
                let url = parse_fetch_url(&params.url).map_err(error_text)?;
                Ok(CallFacts {
                    host: url.host_str().map(str::to_owned),
                    ..CallFacts::new(name, ActionClass::Fetch)
                })
            }
            other => Err(format!(
                "Unknown tool `{other}`. Available tools: {}, attempt_completion.",
                TOOLS.map(|(n, _)| n).join(", ")
            )),
        }
    }

    fn proposed_change(&self, name: &str, arguments: &Value) -> Option<ProposedChange> {
        let (path, shown, old, new) = match name {
            "write" => {
                let p: WriteParams = parse(arguments).ok()?;
                let (path, shown, old) = self.current(&p.path, true)?;
                (path, shown, old, p.content)
            }
            // The tool's own edit pipeline, so the preview is what approving writes.
            "edit" => {
                let p: EditParams = parse(arguments).ok()?;
                let (path, shown, old) = self.current(&p.path, false)?;
                let edit = EditOperation {
                    old_string: p.old_string,
                    new_string: p.new_string,
                    replace_all: p.replace_all,
                };
                let new = apply_edits(old.as_deref()?, std::slice::from_ref(&edit)).ok()?;
                (path, shown, old, new.text)
            }
            "multi_edit" => {
                let p: MultiEditParams = parse(arguments).ok()?;
                let (path, shown, old) = self.current(&p.path, false)?;
                let new = apply_edits(old.as_deref()?, &p.edits).ok()?;
                (path, shown, old, new.text)
            }
            _ => return None,
        };
        Some(ProposedChange {
            path,
            shown,
            old,
            new,
        })
    }

    fn status(&self, name: &str, arguments: &Value) -> Option<String> {
        match name {
            "read" => parse(arguments).ok().map(|p| read_tip(&p)),
            "write" => parse(arguments).ok().map(|p| write_tip(&p)),
            "edit" => parse(arguments).ok().map(|p| edit_tip(&p)),
            "ls" => parse(arguments).ok().map(|p| ls_tip(&p)),
            "bash" => parse(arguments).ok().map(|p| bash_tip(&p)),
            _ => None,
        }
    }

    fn execute(
        &self,
        name: &str,
        arguments: Value,
        cancel: CancellationToken,
        output: OutputSink,
    ) -> BoxFuture<'static, ToolOutcome> {
        let session = self.session.clone();
        let name = name.to_owned();
        async move {
            let s = &session;
            match name.as_str() {
                "read" => run_read(s, parse(&arguments)?).await.map(|o| o.render()),
                "write" => run_write(s, parse(&arguments)?).await.map(|o| o.render()),
                "edit" => run_edit(s, parse(&arguments)?).await.map(|o| o.render()),
                "multi_edit" => run_multi_edit(s, parse(&arguments)?)
                    .await
                    .map(|o| o.render()),
                "ls" => run_ls(s, parse(&arguments)?).await.map(|o| o.render()),
                "glob" => run_glob(s, parse(&arguments)?).await.map(|o| o.render()),
                "grep" => run_grep(s, parse(&arguments)?).await.map(|o| o.render()),
                "todo_write" => run_todo_write(s, parse(&arguments)?)
                    .await
                    .map(|o| o.render()),
                "http_fetch" => run_http_fetch(parse(&arguments)?, cancel)
                    .await
                    .map(|o| o.render()),
                "bash" => {
                    let output =
                        run_bash(s, parse(&arguments)?, cancel, |text| output.send(text)).await;
                    match output {
                        Ok(o) if o.exit_code == Some(0) => Ok(o.render()),
                        Ok(o) => return Err(o.render()),
                        Err(e) => Err(e),
                    }
                }
                other => return Err(format!("Unknown tool `{other}`.")),
            }
            .map_err(error_text)
        }
        .boxed()
    }

    fn write_as_person(
        &self,
        path: &str,
        content: String,
        seen: Option<ContentHash>,
    ) -> BoxFuture<'static, ToolOutcome> {
        let session = self.session.clone();
        let path = path.to_owned();
        async move {
            let boundary = &session.boundary;
            let resolved = boundary.resolve(&path).map_err(|e| e.to_string())?;
            let now = std::fs::read(&resolved).ok().map(|b| content_hash(&b));
            if now != seen {
                return Err(format!(
                    "{} changed after the preview the user answered was made, so nothing was \
                     written; the file keeps what it has now. Read it again before changing it.",
                    boundary.display_relative(&resolved)
                ));
            }
            if let Some(hash) = now {
                // The person saw the file and chose this content: the stale-read guard is theirs.
                session.reads.record(&resolved, hash);
            }
            run_write(&session, WriteParams { path, content })
                .await
                .map(|o| o.render())
                .map_err(error_text)
        }
        .boxed()
    }

    fn file_bytes(&self, path: &str) -> Result<Option<Vec<u8>>, String> {
        restore::file_bytes(&self.session.boundary, path).map_err(|e| e.to_string())
    }

    fn restore_file(
        &self,
        path: &str,
        before: Option<&[u8]>,
        left: &[u8; 32],
    ) -> Result<(), String> {
        // The agent's read baselines stay as they were: the file no longer has what the agent
        // last saw, so it must read the file again before it changes it.
        restore::restore_file(&self.session.boundary, path, before, left).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::tools::CallOutput;
    use serde_json::json;

    fn backend() -> (tempfile::TempDir, BuiltinBackend) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
        let data = dir.path().join(".foreman-data");
        let backend = BuiltinBackend::new(dir.path(), data).unwrap();
        (dir, backend)
    }

    #[test]
    fn facts_classify_and_validate() {
        let (_dir, b) = backend();
        let f = b.facts("read", &json!({"path": "a.txt"})).unwrap();
        assert_eq!(f.class, ActionClass::Read);
        assert_eq!(f.path.as_deref(), Some("a.txt"));
        let f = b.facts("bash", &json!({"command": "ls"})).unwrap();
        assert_eq!(
            (f.class, f.command_text()),
            (ActionClass::Execute, Some("ls"))
        );
        assert!(
            b.facts("read", &json!({}))
                .unwrap_err()
                .starts_with("InvalidParams")
        );
        assert!(
            b.facts("nope", &json!({}))
                .unwrap_err()
                .contains("Unknown tool")
        );
        assert!(
            b.facts("write", &json!({"path": "../x", "content": ""}))
                .is_err()
        );
        assert_eq!(b.definitions().len(), 10);
    }

    #[test]
    fn edits_propose_the_new_content() {
        let (_dir, b) = backend();
        let change = b
            .proposed_change(
                "edit",
                &json!({"path": "a.txt", "old_string": "two", "new_string": "2"}),
            )
            .unwrap();
        assert_eq!(change.old.as_deref(), Some("one\ntwo\n"));
        assert_eq!(change.new, "one\n2\n");
        let change = b
            .proposed_change("write", &json!({"path": "b.txt", "content": "new"}))
            .unwrap();
        assert_eq!((change.old, change.new.as_str()), (None, "new"));
    }

    #[tokio::test]
    async fn an_edits_preview_is_what_the_tool_writes() {
        let (dir, b) = backend();
        // CRLF lines, an LF replacement, and indentation the model got wrong: the tool keeps
        // CRLF and matches the indentation loosely; the preview must show the same.
        std::fs::write(
            dir.path().join("c.rs"),
            "fn f() {\r\n    let a = 1;\r\n}\r\n",
        )
        .unwrap();
        let args = json!({"path": "c.rs", "old_string": "  let a = 1;", "new_string": "  let a = 1;\n  let b = 2;"});
        let change = b.proposed_change("edit", &args).unwrap();
        let cancel = CancellationToken::new();
        let read = json!({"path": "c.rs"});
        b.execute("read", read, cancel.clone(), OutputSink::discard())
            .await
            .unwrap();
        b.execute("edit", args, cancel, OutputSink::discard())
            .await
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("c.rs")).unwrap(),
            change.new
        );
        assert!(change.new.contains("let b = 2;\r\n"), "{:?}", change.new);

        // A file that is not UTF-8 cannot be edited, so an edit proposes nothing.
        std::fs::write(dir.path().join("bin.txt"), b"one\xff\ntwo\n").unwrap();
        let bin = json!({"path": "bin.txt", "old_string": "two", "new_string": "2"});
        assert!(b.proposed_change("edit", &bin).is_none());
    }

    #[tokio::test]
    async fn the_persons_version_is_written_only_over_what_they_saw() {
        let (dir, b) = backend();
        let seen = Some(content_hash(b"one\ntwo\n"));
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
        let refused = b.write_as_person("a.txt", "mine\n".into(), seen).await;
        assert!(
            refused
                .unwrap_err()
                .contains("changed after the preview the user answered")
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "one\ntwo\nthree\n"
        );
        // A file the person saw absent must still be absent.
        std::fs::write(dir.path().join("new.txt"), "someone else's\n").unwrap();
        assert!(
            b.write_as_person("new.txt", "mine\n".into(), None)
                .await
                .is_err()
        );

        let now = Some(content_hash(b"one\ntwo\nthree\n"));
        b.write_as_person("a.txt", "mine\n".into(), now)
            .await
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "mine\n"
        );
        b.write_as_person("other.txt", "created\n".into(), None)
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn execute_runs_the_builtins() {
        let (dir, b) = backend();
        let cancel = CancellationToken::new();
        let out = b
            .execute(
                "read",
                json!({"path": "a.txt"}),
                cancel.clone(),
                OutputSink::discard(),
            )
            .await
            .unwrap();
        assert!(out.contains("two"));
        b.execute(
            "edit",
            json!({"path": "a.txt", "old_string": "two", "new_string": "2"}),
            cancel.clone(),
            OutputSink::discard(),
        )
        .await
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "one\n2\n"
        );
        let err = b
            .execute(
                "bash",
                json!({"command": "exit 3"}),
                cancel,
                OutputSink::discard(),
            )
            .await
            .unwrap_err();
        assert!(err.contains('3'), "{err}");
    }

    #[tokio::test]
    async fn an_error_names_its_code_once() {
        let (_dir, b) = backend();
        let missing = b
            .execute(
                "read",
                json!({"path": "missing.txt"}),
                CancellationToken::new(),
                OutputSink::discard(),
            )
            .await
            .unwrap_err();
        assert!(missing.starts_with("FILE_NOT_FOUND: "), "{missing}");
        assert_eq!(missing.matches("FILE_NOT_FOUND").count(), 1, "{missing}");
        let refused = b
            .facts("http_fetch", &json!({"url": "file:///etc/passwd"}))
            .unwrap_err();
        let code = refused.split(':').next().unwrap_or_default().to_owned();
        assert_eq!(refused.matches(&code).count(), 1, "{refused}");
    }

    #[tokio::test]
    async fn bash_output_streams_to_the_sink() {
        let (_dir, b) = backend();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let out = b
            .execute(
                "bash",
                json!({"command": "echo first; echo second >&2"}),
                CancellationToken::new(),
                OutputSink::new("call-1", tx),
            )
            .await
            .unwrap();
        assert!(out.contains("second"), "{out}");
        let mut live = String::new();
        while let Ok((call, output)) = rx.try_recv() {
            assert_eq!(call, "call-1");
            let CallOutput::Text(text) = output else {
                panic!("{output:?}")
            };
            live.push_str(&text);
        }
        assert!(
            live.contains("first") && live.contains("second"),
            "{live:?}"
        );
    }
}
