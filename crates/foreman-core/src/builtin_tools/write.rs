//! The `write` tool: create or replace a whole file, atomically. Overwriting an existing file is
//! subject to the stale-read guard.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::atomic_write::atomic_write;
use super::error::BuiltinError;
use super::listed::Builtin;
use super::session::BuiltinSession;
use super::stale_guard::content_hash;
use std::sync::Arc;

use serde_json::Value;

use super::facts::{current_text, path_facts};
use crate::approval::{ActionClass, CallFacts};
use crate::diff::line_counts;
use crate::protocol::{ArgsView, ToolKind};
use crate::tools::{CallContext, ProposedChange, Tool, ToolError, ToolOutput, arg};

/// Create a file or replace its whole content (parent folders are created). Replacing an existing
/// file requires having read its current content in this session. Prefer edit for changes to part
/// of a file.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct WriteParams {
    /// Path of the file to create or replace, relative to the workspace root.
    pub path: String,
    /// The complete new content of the file.
    pub content: String,
}

/// Result of the `write` tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WriteOutput {
    /// Short title, e.g. `Created src/lib.rs (+12 lines)`.
    pub title: String,
    /// Path relative to the workspace root.
    pub path: String,
    /// Whether the file was created (rather than replaced).
    pub created: bool,
    /// Bytes written.
    pub bytes: usize,
    /// Lines added compared with the previous content.
    pub lines_added: usize,
    /// Lines removed compared with the previous content.
    pub lines_removed: usize,
}

impl WriteOutput {
    /// Text given to the model.
    pub fn render(&self) -> String {
        format!(
            "{} {} ({} bytes; +{} −{} lines).",
            if self.created { "Created" } else { "Replaced" },
            self.path,
            self.bytes,
            self.lines_added,
            self.lines_removed
        )
    }
}

/// The progress tip shown while the tool runs.
pub fn write_tip(params: &WriteParams) -> String {
    format!("Writing {} ({} bytes)…", params.path, params.content.len())
}

/// Runs the `write` tool, on a thread of its own ([`BuiltinSession::blocking`]).
pub async fn run_write(
    session: &BuiltinSession,
    params: WriteParams,
) -> Result<WriteOutput, BuiltinError> {
    session.blocking(move |s| write_file(s, params)).await
}

/// The `write` tool's work: read what is there (the stale-read guard), write atomically, count
/// the lines changed within the time limit of every diff.
fn write_file(session: &BuiltinSession, params: WriteParams) -> Result<WriteOutput, BuiltinError> {
    let boundary = &session.boundary;
    let resolved = boundary.resolve(&params.path)?;
    let shown = boundary.display_relative(&resolved);
    let old = match std::fs::symlink_metadata(&resolved) {
        Ok(meta) if meta.is_dir() => return Err(BuiltinError::IsADirectory { path: shown }),
        Ok(_) => {
            let mut file = boundary
                .open_read(&resolved)
                .map_err(|e| BuiltinError::from_open(e, &shown))?;
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut file, &mut bytes)
                .map_err(|e| BuiltinError::io(&resolved, &shown, e))?;
            session.reads.ensure_fresh(&resolved, &bytes, &shown)?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(BuiltinError::io(&resolved, &shown, err)),
    };
    let outcome = atomic_write(boundary, &resolved, params.content.as_bytes())?;
    session
        .reads
        .record(&resolved, content_hash(params.content.as_bytes()));
    let counts = line_counts(old.as_deref().unwrap_or(""), &params.content);
    let (lines_added, lines_removed) = (counts.added, counts.removed);
    let title = format!(
        "{} {shown} (+{lines_added} −{lines_removed})",
        if outcome.created { "Created" } else { "Wrote" }
    );
    Ok(WriteOutput {
        title,
        path: shown,
        created: outcome.created,
        bytes: params.content.len(),
        lines_added,
        lines_removed,
    })
}

/// `write`, for the runtime.
#[derive(Debug, Clone)]
pub struct WriteTool {
    session: BuiltinSession,
}

impl WriteTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Builtin for WriteTool {
    const CLAUDE_NAME: Option<&'static str> = Some("Write");
    const CLAUDE_FIELDS: &'static [(&'static str, &'static str)] = &[("path", "file_path")];

    fn for_session(session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self::new(session.clone()))
    }
}

impl Tool for WriteTool {
    type Input = WriteParams;
    const NAME: &'static str = "write";
    const KIND: ToolKind = ToolKind::Edit;

    fn view(&self) -> ArgsView {
        ArgsView::FileContent {
            path: "path".into(),
            content: "content".into(),
        }
    }

    fn title(&self, args: &Value) -> String {
        arg(args, "path").unwrap_or_default().to_owned()
    }

    fn facts(&self, input: &WriteParams) -> Result<CallFacts, ToolError> {
        path_facts(&self.session, Self::NAME, ActionClass::Edit, &input.path)
    }

    fn change(&self, input: &WriteParams) -> Option<ProposedChange> {
        let (path, shown, old) = current_text(&self.session, &input.path, true)?;
        Some(ProposedChange {
            path,
            shown,
            old,
            new: input.content.clone(),
        })
    }

    fn changes_files(&self) -> bool {
        true
    }

    async fn run(
        self: Arc<Self>,
        input: WriteParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        ctx.sink.status(write_tip(&input));
        let output = run_write(&self.session, input).await?;
        Ok(ToolOutput::text(output.render()).summarised(output.title))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::WorkspaceBoundary;
    use crate::builtin_tools::read::{ReadParams, run_read};

    fn session() -> (tempfile::TempDir, BuiltinSession) {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        let s = BuiltinSession::new(b, dir.path().to_path_buf());
        (dir, s)
    }

    fn wp(path: &str, content: &str) -> WriteParams {
        WriteParams {
            path: path.into(),
            content: content.into(),
        }
    }

    #[tokio::test]
    async fn creates_new_file_with_parents_without_prior_read() {
        let (_d, s) = session();
        let out = run_write(&s, wp("new/dir/f.txt", "a\nb\n")).await.unwrap();
        assert!(out.created);
        assert_eq!((out.lines_added, out.lines_removed), (2, 0));
        assert_eq!(
            std::fs::read_to_string(s.boundary.root().join("new/dir/f.txt")).unwrap(),
            "a\nb\n"
        );
    }

    #[tokio::test]
    async fn overwrite_requires_read_and_fresh_content() {
        let (_d, s) = session();
        let root = s.boundary.root().to_path_buf();
        std::fs::write(root.join("f.txt"), "one\n").unwrap();
        let err = run_write(&s, wp("f.txt", "two\n")).await.unwrap_err();
        assert_eq!(err.code(), "STALE_READ");
        assert!(err.to_string().contains("has not been read"));
        run_read(
            &s,
            ReadParams {
                path: "f.txt".into(),
                offset: None,
                limit: None,
            },
        )
        .await
        .unwrap();
        // Someone else changes the file after our read.
        std::fs::write(root.join("f.txt"), "outside change\n").unwrap();
        let err = run_write(&s, wp("f.txt", "two\n")).await.unwrap_err();
        assert_eq!(err.code(), "STALE_READ");
        assert!(
            err.to_string()
                .contains("has changed since you last read it")
        );
        assert_eq!(
            std::fs::read_to_string(root.join("f.txt")).unwrap(),
            "outside change\n"
        );
        run_read(
            &s,
            ReadParams {
                path: "f.txt".into(),
                offset: None,
                limit: None,
            },
        )
        .await
        .unwrap();
        let out = run_write(&s, wp("f.txt", "two\nthree\n")).await.unwrap();
        assert!(!out.created);
        assert_eq!((out.lines_added, out.lines_removed), (2, 1));
        // Our own write refreshed the baseline: a second write needs no re-read.
        run_write(&s, wp("f.txt", "four\n")).await.unwrap();
        assert_eq!(
            std::fs::read_to_string(root.join("f.txt")).unwrap(),
            "four\n"
        );
    }

    #[tokio::test]
    async fn refuses_outside_and_directories() {
        let (_d, s) = session();
        assert_eq!(
            run_write(&s, wp("/etc/x", "")).await.unwrap_err().code(),
            "PATH_NOT_IN_WORKSPACE"
        );
        std::fs::create_dir(s.boundary.root().join("d")).unwrap();
        assert_eq!(
            run_write(&s, wp("d", "")).await.unwrap_err().code(),
            "IS_A_DIRECTORY"
        );
    }
}
