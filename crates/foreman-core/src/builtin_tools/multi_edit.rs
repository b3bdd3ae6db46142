//! The `multi_edit` tool: several edits to one file, applied in order, all or nothing. Also hosts
//! the shared edit pipeline used by `edit`: read → stale-read guard → apply on LF text → restore
//! line endings → atomic write → refresh the guard's baseline.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::atomic_write::atomic_write;
use super::edits::{Replacement, apply_edits as apply_to_text};
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

/// One replacement inside a `multi_edit`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct EditOperation {
    /// Exact text to replace; must occur exactly once unless `replace_all` is set.
    pub old_string: String,
    /// Text to put in its place.
    pub new_string: String,
    /// Replace every occurrence instead of requiring a unique match (default false).
    #[serde(default)]
    pub replace_all: bool,
}

/// Apply several edits to one file you have read, in order, each on the result of the previous one.
/// If any edit fails, none is applied.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct MultiEditParams {
    /// Path of the file to edit, relative to the workspace root.
    pub path: String,
    /// Edits applied in order, each to the result of the previous one; if any fails, none is applied.
    pub edits: Vec<EditOperation>,
}

/// Result of `edit` and `multi_edit`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditOutput {
    /// Short title, e.g. `Edited src/lib.rs (+3 −1)`.
    pub title: String,
    /// Path relative to the workspace root.
    pub path: String,
    /// Number of edits applied.
    pub edits_applied: usize,
    /// Total occurrences replaced.
    pub replacements: usize,
    /// Lines added.
    pub lines_added: usize,
    /// Lines removed.
    pub lines_removed: usize,
    /// How the edits' strings were read other than as sent, as the model is told.
    pub tolerances: Vec<&'static str>,
    /// Whether some line ends in CRLF (every line keeps its ending).
    pub crlf: bool,
    /// 1-based line of the first change.
    pub first_line: usize,
}

impl EditOutput {
    /// Text given to the model.
    pub fn render(&self) -> String {
        let mut text = format!(
            "Edited {}: {} replacement(s), +{} −{} lines, first change at line {}.",
            self.path, self.replacements, self.lines_added, self.lines_removed, self.first_line
        );
        for tolerance in &self.tolerances {
            text.push_str(" Note: ");
            text.push_str(tolerance);
            text.push('.');
        }
        text
    }
}

/// The progress tip shown while the tool runs.
pub fn multi_edit_tip(params: &MultiEditParams) -> String {
    format!("Applying {} edits to {}…", params.edits.len(), params.path)
}

/// Runs the `multi_edit` tool, on a thread of its own ([`BuiltinSession::blocking`]).
pub async fn run_multi_edit(
    session: &BuiltinSession,
    params: MultiEditParams,
) -> Result<EditOutput, BuiltinError> {
    session
        .blocking(move |s| edit_file(s, &params.path, &params.edits))
        .await
}

/// The shared edit pipeline (it blocks: run it through [`BuiltinSession::blocking`]). The lines
/// changed are counted within the time limit of every diff.
pub(crate) fn edit_file(
    session: &BuiltinSession,
    path: &str,
    edits: &[EditOperation],
) -> Result<EditOutput, BuiltinError> {
    if edits.is_empty() {
        return Err(BuiltinError::InvalidParams(
            "edits must contain at least one edit".into(),
        ));
    }
    let boundary = &session.boundary;
    let resolved = boundary.resolve(path)?;
    let shown = boundary.display_relative(&resolved);
    let mut file = boundary
        .open_read(&resolved)
        .map_err(|e| BuiltinError::from_open(e, &shown))?;
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(BuiltinError::IsADirectory { path: shown });
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut bytes)
        .map_err(|e| BuiltinError::io(&resolved, &shown, e))?;
    session.reads.ensure_fresh(&resolved, &bytes, &shown)?;
    let original = String::from_utf8(bytes).map_err(|_| {
        BuiltinError::InvalidParams(format!(
            "{shown} is not valid UTF-8 and cannot be edited safely; use write to replace it"
        ))
    })?;
    let edited = apply_edits(&original, edits)?;
    let updated = edited.text;
    atomic_write(boundary, &resolved, updated.as_bytes())?;
    session
        .reads
        .record(&resolved, content_hash(updated.as_bytes()));
    let counts = line_counts(&original, &updated);
    let (lines_added, lines_removed) = (counts.added, counts.removed);
    Ok(EditOutput {
        title: format!("Edited {shown} (+{lines_added} −{lines_removed})"),
        path: shown,
        edits_applied: edits.len(),
        replacements: edited.replacements,
        lines_added,
        lines_removed,
        tolerances: edited.tolerances,
        crlf: edited.crlf,
        first_line: edited.first_line,
    })
}

/// What `edits` make of a file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edited {
    /// The text the tool writes.
    pub text: String,
    pub replacements: usize,
    pub tolerances: Vec<&'static str>,
    /// Some line ends in CRLF (each keeps its ending).
    pub crlf: bool,
    pub first_line: usize,
}

/// Applies `edits` to `original` in order, as the tool writes them (see [`super::edits`]). Pure,
/// so an approval's preview shows exactly what approving writes. Fails, changing nothing, when
/// any edit fails.
pub(crate) fn apply_edits(original: &str, edits: &[EditOperation]) -> Result<Edited, BuiltinError> {
    let replacements: Vec<Replacement<'_>> = edits
        .iter()
        .map(|e| Replacement {
            old: &e.old_string,
            new: &e.new_string,
            replace_all: e.replace_all,
        })
        .collect();
    let edited = apply_to_text(original, &replacements).map_err(|failed| match failed.edit {
        (_, 1) => BuiltinError::Edit(failed.failure),
        (index, count) => BuiltinError::EditOf {
            index,
            count,
            failure: failed.failure,
        },
    })?;
    Ok(Edited {
        text: edited.text,
        replacements: edited.replacements,
        tolerances: edited.tolerances.iter().map(|t| t.describe()).collect(),
        crlf: edited.crlf,
        first_line: edited.first_line,
    })
}

/// `multi_edit`, for the runtime.
#[derive(Debug, Clone)]
pub struct MultiEditTool {
    session: BuiltinSession,
}

impl MultiEditTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Builtin for MultiEditTool {
    const CLAUDE_NAME: Option<&'static str> = Some("MultiEdit");
    const CLAUDE_FIELDS: &'static [(&'static str, &'static str)] = &[("path", "file_path")];

    fn for_session(session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self::new(session.clone()))
    }
}

impl Tool for MultiEditTool {
    type Input = MultiEditParams;
    const NAME: &'static str = "multi_edit";
    const KIND: ToolKind = ToolKind::Edit;

    fn view(&self) -> ArgsView {
        ArgsView::Title
    }

    fn title(&self, args: &Value) -> String {
        arg(args, "path").unwrap_or_default().to_owned()
    }

    fn facts(&self, input: &MultiEditParams) -> Result<CallFacts, ToolError> {
        path_facts(&self.session, Self::NAME, ActionClass::Edit, &input.path)
    }

    fn change(&self, input: &MultiEditParams) -> Option<ProposedChange> {
        let (path, shown, old) = current_text(&self.session, &input.path, false)?;
        let new = apply_edits(old.as_deref()?, &input.edits).ok()?;
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
        input: MultiEditParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        ctx.sink.status(multi_edit_tip(&input));
        let output = run_multi_edit(&self.session, input).await?;
        Ok(ToolOutput::text(output.render()).summarised(output.title))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::WorkspaceBoundary;
    use crate::builtin_tools::read::{ReadParams, run_read};

    async fn session_with(name: &str, content: &str) -> (tempfile::TempDir, BuiltinSession) {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        let s = BuiltinSession::new(b, dir.path().to_path_buf());
        std::fs::write(s.boundary.root().join(name), content).unwrap();
        run_read(
            &s,
            ReadParams {
                path: name.into(),
                offset: None,
                limit: None,
            },
        )
        .await
        .unwrap();
        (dir, s)
    }

    fn op(old: &str, new: &str) -> EditOperation {
        EditOperation {
            old_string: old.into(),
            new_string: new.into(),
            replace_all: false,
        }
    }

    #[tokio::test]
    async fn applies_all_in_order() {
        let (_d, s) = session_with("f.rs", "let a = 1;\nlet b = 2;\n").await;
        let out = run_multi_edit(
            &s,
            MultiEditParams {
                path: "f.rs".into(),
                edits: vec![
                    op("a = 1", "a = 10"),
                    op("a = 10;\nlet b", "a = 11;\nlet c"),
                ],
            },
        )
        .await
        .unwrap();
        assert_eq!(out.edits_applied, 2);
        assert_eq!(
            std::fs::read_to_string(s.boundary.root().join("f.rs")).unwrap(),
            "let a = 11;\nlet c = 2;\n"
        );
    }

    #[tokio::test]
    async fn all_or_nothing() {
        let (_d, s) = session_with("f.rs", "one\ntwo\n").await;
        let err = run_multi_edit(
            &s,
            MultiEditParams {
                path: "f.rs".into(),
                edits: vec![op("one", "1"), op("missing", "x")],
            },
        )
        .await
        .unwrap_err();
        assert!(err.to_string().contains("edit 2 of 2 failed"), "{err}");
        assert_eq!(
            std::fs::read_to_string(s.boundary.root().join("f.rs")).unwrap(),
            "one\ntwo\n"
        );
    }

    #[tokio::test]
    async fn crlf_is_kept() {
        let (_d, s) = session_with("w.txt", "alpha\r\nbeta\r\ngamma\r\n").await;
        let out = run_multi_edit(
            &s,
            MultiEditParams {
                path: "w.txt".into(),
                edits: vec![op("alpha\nbeta", "ALPHA\nBETA\nextra")],
            },
        )
        .await
        .unwrap();
        assert!(out.crlf);
        assert_eq!(
            std::fs::read_to_string(s.boundary.root().join("w.txt")).unwrap(),
            "ALPHA\r\nBETA\r\nextra\r\ngamma\r\n"
        );
    }

    #[tokio::test]
    async fn empty_edit_list_is_invalid() {
        let (_d, s) = session_with("f", "x").await;
        let err = run_multi_edit(
            &s,
            MultiEditParams {
                path: "f".into(),
                edits: vec![],
            },
        )
        .await
        .unwrap_err();
        assert_eq!(err.code(), "INVALID_PARAMS");
    }
}
