//! The `edit` tool: replace one exact string in a file (or every occurrence with `replace_all`).
//! Shares its pipeline — stale-read guard, CRLF handling, atomic write — with `multi_edit`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::BuiltinError;
use super::listed::Builtin;
use super::multi_edit::{EditOperation, EditOutput, edit_file};
use super::session::BuiltinSession;
use std::sync::Arc;

use serde_json::Value;

use super::facts::{current_text, path_facts};
use super::multi_edit::apply_edits;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::{ArgsView, ToolKind};
use crate::tools::{CallContext, ProposedChange, Tool, ToolError, ToolOutput, arg};

/// Replace `old_string` with `new_string` in a file you have read. `old_string` must match exactly
/// once (include enough surrounding lines), unless `replace_all` is true. Keep indentation exactly
/// as in the file.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct EditParams {
    /// Path of the file to edit, relative to the workspace root.
    pub path: String,
    /// Exact text to replace; must occur exactly once unless `replace_all` is set.
    pub old_string: String,
    /// Text to put in its place.
    pub new_string: String,
    /// Replace every occurrence instead of requiring a unique match (default false).
    #[serde(default)]
    pub replace_all: bool,
}

/// The progress tip shown while the tool runs.
pub fn edit_tip(params: &EditParams) -> String {
    format!("Editing {}…", params.path)
}

/// Runs the `edit` tool.
pub async fn run_edit(
    session: &BuiltinSession,
    params: EditParams,
) -> Result<EditOutput, BuiltinError> {
    let operation = EditOperation {
        old_string: params.old_string,
        new_string: params.new_string,
        replace_all: params.replace_all,
    };
    let path = params.path;
    session
        .blocking(move |s| edit_file(s, &path, std::slice::from_ref(&operation)))
        .await
}

/// `edit`, for the runtime.
#[derive(Debug, Clone)]
pub struct EditTool {
    session: BuiltinSession,
}

impl EditTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Builtin for EditTool {
    const CLAUDE_NAME: Option<&'static str> = Some("Edit");
    const CLAUDE_FIELDS: &'static [(&'static str, &'static str)] = &[("path", "file_path")];

    fn for_session(session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self::new(session.clone()))
    }
}

impl Tool for EditTool {
    type Input = EditParams;
    const NAME: &'static str = "edit";
    const KIND: ToolKind = ToolKind::Edit;

    fn view(&self) -> ArgsView {
        ArgsView::Replacement {
            old: "old_string".into(),
            new: "new_string".into(),
        }
    }

    fn title(&self, args: &Value) -> String {
        arg(args, "path").unwrap_or_default().to_owned()
    }

    fn facts(&self, input: &EditParams) -> Result<CallFacts, ToolError> {
        path_facts(&self.session, Self::NAME, ActionClass::Edit, &input.path)
    }

    /// The tool's own edit pipeline, so the preview is what approving writes.
    fn change(&self, input: &EditParams) -> Option<ProposedChange> {
        let (path, shown, old) = current_text(&self.session, &input.path, false)?;
        let edit = EditOperation {
            old_string: input.old_string.clone(),
            new_string: input.new_string.clone(),
            replace_all: input.replace_all,
        };
        let new = apply_edits(old.as_deref()?, std::slice::from_ref(&edit)).ok()?;
        Some(ProposedChange {
            path,
            shown,
            old,
            new: new.text,
        })
    }

    fn changes_files(&self) -> bool {
        true
    }

    async fn run(
        self: Arc<Self>,
        input: EditParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        ctx.sink.status(edit_tip(&input));
        let output = run_edit(&self.session, input).await?;
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

    fn ep(old: &str, new: &str, all: bool) -> EditParams {
        EditParams {
            path: "f.txt".into(),
            old_string: old.into(),
            new_string: new.into(),
            replace_all: all,
        }
    }

    async fn read(s: &BuiltinSession) {
        run_read(
            s,
            ReadParams {
                path: "f.txt".into(),
                offset: None,
                limit: None,
            },
        )
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn edit_requires_read_then_applies() {
        let (_d, s) = session();
        let f = s.boundary.root().join("f.txt");
        std::fs::write(&f, "hello world\n").unwrap();
        assert_eq!(
            run_edit(&s, ep("world", "there", false))
                .await
                .unwrap_err()
                .code(),
            "STALE_READ"
        );
        read(&s).await;
        let out = run_edit(&s, ep("world", "there", false)).await.unwrap();
        assert_eq!(
            (out.lines_added, out.lines_removed, out.replacements),
            (1, 1, 1)
        );
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "hello there\n");
        // The edit refreshed the baseline; an outside change afterwards is caught.
        run_edit(&s, ep("there", "again", false)).await.unwrap();
        std::fs::write(&f, "hello again, changed outside\n").unwrap();
        let err = run_edit(&s, ep("again", "x", false)).await.unwrap_err();
        assert_eq!(err.code(), "STALE_READ");
        assert!(err.to_string().contains("Read it again"));
    }

    #[tokio::test]
    async fn ambiguous_and_replace_all() {
        let (_d, s) = session();
        let f = s.boundary.root().join("f.txt");
        std::fs::write(&f, "x\nx\n").unwrap();
        read(&s).await;
        let err = run_edit(&s, ep("x", "y", false)).await.unwrap_err();
        assert_eq!(err.code(), "EDIT_AMBIGUOUS");
        assert!(
            err.to_string()
                .contains("2 times (at line 1 column 1, line 2 column 1)"),
            "{err}"
        );
        let out = run_edit(&s, ep("x", "y", true)).await.unwrap();
        assert_eq!(out.replacements, 2);
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "y\ny\n");
    }

    #[tokio::test]
    async fn whitespace_fallback_is_reported() {
        let (_d, s) = session();
        let f = s.boundary.root().join("f.txt");
        std::fs::write(&f, "\tif x {\n\t\tgo()\n\t}\n").unwrap();
        read(&s).await;
        let out = run_edit(&s, ep("if x {\n    go()\n}", "if y {\n    go()\n}", false))
            .await
            .unwrap();
        assert_eq!(out.tolerances.len(), 1);
        assert!(out.render().contains("normalising indentation"));
        assert_eq!(
            std::fs::read_to_string(&f).unwrap(),
            "\tif y {\n\t    go()\n\t}\n"
        );
    }

    #[tokio::test]
    async fn no_match_mentions_similarity() {
        let (_d, s) = session();
        std::fs::write(s.boundary.root().join("f.txt"), "alpha beta gamma\n").unwrap();
        read(&s).await;
        let err = run_edit(&s, ep("alpha beta delta", "z", false))
            .await
            .unwrap_err();
        assert_eq!(err.code(), "EDIT_NO_MATCH");
        assert!(err.to_string().contains("% similar"), "{err}");
    }
}
