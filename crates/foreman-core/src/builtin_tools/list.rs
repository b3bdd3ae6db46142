//! The tools Foreman brings: adding one is its file plus one line here. Every name of a tool is
//! the tool's own ([`Tool::NAME`](crate::tools::Tool::NAME), [`Builtin`]): the names the model
//! may call, the names external tools may not take, and Claude Code's names for hooks and
//! `allowed-tools` all come from [`BUILTINS`], and a name listed twice does not compile.

use std::sync::Arc;

use super::attempt_completion::AttemptCompletionTool;
use super::bash::BashTool;
use super::edit::EditTool;
use super::glob::GlobTool;
use super::grep::GrepTool;
use super::http_fetch::HttpFetchTool;
use super::listed::names_are_distinct;
pub use super::listed::{Builtin, Listed};
use super::ls::LsTool;
use super::multi_edit::MultiEditTool;
use super::new_task::NewTaskTool;
use super::read::ReadTool;
use super::session::BuiltinSession;
use super::skill::SkillTool;
use super::todo::TodoWriteTool;
use super::write::WriteTool;
use crate::tools::AnyTool;

/// The built-in tools in the order the model is given them, then the system tools: `skill` only
/// when the session has skills, `new_task` only when sub-agents may be started (each tool's
/// [`Builtin::for_session`] says).
pub const BUILTINS: [Listed; 13] = [
    Listed::of::<ReadTool>(),
    Listed::of::<WriteTool>(),
    Listed::of::<EditTool>(),
    Listed::of::<MultiEditTool>(),
    Listed::of::<LsTool>(),
    Listed::of::<GlobTool>(),
    Listed::of::<GrepTool>(),
    Listed::of::<BashTool>(),
    Listed::of::<HttpFetchTool>(),
    Listed::of::<TodoWriteTool>(),
    Listed::of::<SkillTool>(),
    Listed::of::<AttemptCompletionTool>(),
    Listed::of::<NewTaskTool>(),
];

const _: () = assert!(
    names_are_distinct(&BUILTINS),
    "two built-in tools share a name or a Claude Code name"
);

/// The built-in tools over `session`, in the list's order.
pub fn builtin_tools(session: &BuiltinSession, sub_agents: bool) -> Vec<Arc<dyn AnyTool>> {
    BUILTINS
        .iter()
        .filter_map(|listed| listed.build(session, sub_agents))
        .collect()
}

/// The names of the built-in and system tools, without a workspace (what external tools may not
/// be named).
pub fn builtin_names() -> Vec<String> {
    BUILTINS
        .iter()
        .map(|listed| listed.name.to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::approval::ActionClass;
    use crate::boundary::WorkspaceBoundary;
    use crate::tools::{
        CallOutput, DEFAULT_TIMEOUT, OutputSink, ToolError, ToolOutput, ToolSet, codes, execute,
    };

    fn tools() -> (tempfile::TempDir, ToolSet) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
        let boundary = WorkspaceBoundary::new(dir.path()).unwrap();
        let session = BuiltinSession::new(boundary, dir.path().join(".foreman-data"));
        (
            dir,
            ToolSet::new(builtin_tools(&session, false), Vec::new()),
        )
    }

    async fn run(set: &ToolSet, name: &str, args: Value) -> Result<ToolOutput, ToolError> {
        run_with(set, name, args, OutputSink::discard()).await
    }

    async fn run_with(
        set: &ToolSet,
        name: &str,
        args: Value,
        sink: OutputSink,
    ) -> Result<ToolOutput, ToolError> {
        let call = set.prepare(name, args)?;
        execute(
            call.tool,
            call.input,
            DEFAULT_TIMEOUT,
            CancellationToken::new(),
            sink,
            None,
        )
        .await
        .outcome
    }

    #[test]
    fn the_list_is_what_the_names_say() {
        let (_dir, set) = tools();
        let names = set.names();
        assert_eq!(names.len(), 11, "{names:?}");
        assert!(
            builtin_names()
                .iter()
                .all(|n| n == "new_task" || n == "skill" || names.contains(n))
        );
    }

    #[test]
    fn a_session_with_everything_gets_every_listed_tool_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let boundary = WorkspaceBoundary::new(dir.path()).unwrap();
        let skill = crate::builtin_tools::skill::Skill {
            name: "pdf".into(),
            description: "PDFs".into(),
            allowed_tools: Vec::new(),
            dir: dir.path().to_path_buf(),
            source: ".claude/skills/pdf/SKILL.md".into(),
            body: String::new(),
        };
        let session =
            BuiltinSession::new(boundary, dir.path().join(".data")).with_skills(vec![skill], None);
        let built: Vec<String> = builtin_tools(&session, true)
            .iter()
            .map(|tool| tool.name().to_owned())
            .collect();
        assert_eq!(built, builtin_names());
    }

    #[test]
    fn facts_classify_and_validate() {
        let (_dir, set) = tools();
        let f = set.prepare("read", json!({"path": "a.txt"})).unwrap().facts;
        assert_eq!(f.class, ActionClass::Read);
        assert_eq!(f.path.as_deref(), Some("a.txt"));
        let f = set.prepare("bash", json!({"command": "ls"})).unwrap().facts;
        assert_eq!(
            (f.class, f.command_text()),
            (ActionClass::Execute, Some("ls"))
        );
        assert_eq!(
            set.prepare("read", json!({})).unwrap_err().code,
            codes::INVALID_PARAMS
        );
        let unknown = set.prepare("nope", json!({})).unwrap_err();
        assert_eq!(unknown.code, codes::UNKNOWN_TOOL);
        assert!(unknown.message.contains("read, write, edit"), "{unknown}");
        assert!(
            set.prepare("write", json!({"path": "../x", "content": ""}))
                .is_err()
        );
    }

    #[test]
    fn edits_propose_the_new_content() {
        let (_dir, set) = tools();
        let edit = json!({"path": "a.txt", "old_string": "two", "new_string": "2"});
        let change = set.prepare("edit", edit).unwrap().change().unwrap();
        assert_eq!(change.old.as_deref(), Some("one\ntwo\n"));
        assert_eq!(change.new, "one\n2\n");
        let write = json!({"path": "b.txt", "content": "new"});
        let change = set.prepare("write", write).unwrap().change().unwrap();
        assert_eq!((change.old, change.new.as_str()), (None, "new"));
    }

    #[tokio::test]
    async fn an_edits_preview_is_what_the_tool_writes() {
        let (dir, set) = tools();
        // CRLF lines, an LF replacement, and indentation the model got wrong: the tool keeps
        // CRLF and matches the indentation loosely; the preview must show the same.
        std::fs::write(
            dir.path().join("c.rs"),
            "fn f() {\r\n    let a = 1;\r\n}\r\n",
        )
        .unwrap();
        let args = json!({"path": "c.rs", "old_string": "  let a = 1;", "new_string": "  let a = 1;\n  let b = 2;"});
        let change = set.prepare("edit", args.clone()).unwrap().change().unwrap();
        run(&set, "read", json!({"path": "c.rs"})).await.unwrap();
        run(&set, "edit", args).await.unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("c.rs")).unwrap(),
            change.new
        );
        assert!(change.new.contains("let b = 2;\r\n"), "{:?}", change.new);

        // A file that is not UTF-8 cannot be edited, so an edit proposes nothing.
        std::fs::write(dir.path().join("bin.txt"), b"one\xff\ntwo\n").unwrap();
        let bin = json!({"path": "bin.txt", "old_string": "two", "new_string": "2"});
        assert!(set.prepare("edit", bin).unwrap().change().is_none());
    }

    #[tokio::test]
    async fn execute_runs_the_builtins() {
        let (dir, set) = tools();
        let out = run(&set, "read", json!({"path": "a.txt"})).await.unwrap();
        assert!(out.text.contains("two"));
        assert!(out.summary.unwrap().starts_with("a.txt · lines"));
        run(
            &set,
            "edit",
            json!({"path": "a.txt", "old_string": "two", "new_string": "2"}),
        )
        .await
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "one\n2\n"
        );
        let failed = run(&set, "bash", json!({"command": "exit 3"}))
            .await
            .unwrap();
        assert!(failed.failed);
        assert!(failed.text.contains('3'), "{}", failed.text);
    }

    #[tokio::test]
    async fn an_error_names_its_code_once() {
        let (_dir, set) = tools();
        let missing = run(&set, "read", json!({"path": "missing.txt"}))
            .await
            .unwrap_err();
        assert_eq!(missing.code, "FILE_NOT_FOUND");
        assert_eq!(missing.to_string().matches("FILE_NOT_FOUND").count(), 1);
        assert_eq!(missing.for_model().matches("FILE_NOT_FOUND").count(), 1);
        let refused = set
            .prepare("http_fetch", json!({"url": "file:///etc/passwd"}))
            .unwrap_err();
        assert_eq!(refused.to_string().matches(&refused.code).count(), 1);
    }

    #[tokio::test]
    async fn bash_output_streams_to_the_sink() {
        let (_dir, set) = tools();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let out = run_with(
            &set,
            "bash",
            json!({"command": "echo first; echo second >&2"}),
            OutputSink::new("call-1", tx),
        )
        .await
        .unwrap();
        assert!(out.text.contains("second"), "{}", out.text);
        let mut live = String::new();
        while let Ok((call, output)) = rx.try_recv() {
            assert_eq!(call, "call-1");
            if let CallOutput::Text(text) = output {
                live.push_str(&text);
            }
        }
        assert!(
            live.contains("first") && live.contains("second"),
            "{live:?}"
        );
    }

    #[tokio::test]
    async fn the_system_tools_steer_the_loop() {
        let (_dir, set) = tools();
        let done = run(&set, "attempt_completion", json!({"result": "all done"}))
            .await
            .unwrap();
        assert_eq!(
            done.control,
            Some(crate::tools::Control::Complete {
                summary: "all done".into()
            })
        );
        let todos = json!({"todos": [{"id": "1", "content": "read", "status": "in_progress"}]});
        let listed = run(&set, "todo_write", todos).await.unwrap();
        let Some(crate::tools::Control::Todos(list)) = listed.control else {
            panic!("{listed:?}")
        };
        assert_eq!(list[0]["content"], "read");
    }
}
