//! The `ls` tool: one directory's entries with type, size and modification time, directories
//! first, capped.

use std::time::UNIX_EPOCH;

use globset::{Glob, GlobSetBuilder};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::BuiltinError;
use super::listed::Builtin;
use super::session::BuiltinSession;
use std::sync::Arc;

use serde_json::Value;

use super::facts::path_facts;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::ToolKind;
use crate::tools::{CallContext, Tool, ToolError, ToolOutput, arg};

/// Most entries returned by one `ls`.
pub const MAX_LS_ENTRIES: usize = 500;

/// List a folder of the workspace (default: the root): names, types, sizes and modification times,
/// folders first.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
pub struct LsParams {
    /// Directory to list, relative to the workspace root (default: the root).
    #[serde(default)]
    pub path: Option<String>,
    /// Glob patterns of entry names to leave out (e.g. `["*.log", "tmp"]`).
    #[serde(default)]
    pub ignore: Option<Vec<String>>,
}

/// Kind of a directory entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A directory.
    Directory,
    /// A regular file.
    File,
    /// A symbolic link (not followed).
    Symlink,
    /// Anything else (FIFO, socket, device).
    Other,
}

/// One entry of an `ls`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LsEntry {
    /// File name.
    pub name: String,
    /// Kind of entry.
    pub kind: EntryKind,
    /// Size in bytes (0 for directories).
    pub size: u64,
    /// Modification time, milliseconds since the Unix epoch.
    pub modified_ms: Option<u64>,
}

/// Result of the `ls` tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LsOutput {
    /// Short title, e.g. `Listed src (14 entries)`.
    pub title: String,
    /// Directory listed, relative to the workspace root.
    pub path: String,
    /// Entries, directories first, then by name.
    pub entries: Vec<LsEntry>,
    /// Entries left out because of the cap.
    pub omitted: usize,
}

impl LsOutput {
    /// Text given to the model.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for e in &self.entries {
            match e.kind {
                EntryKind::Directory => out.push_str(&format!("{}/\n", e.name)),
                EntryKind::Symlink => out.push_str(&format!("{}@\n", e.name)),
                _ => out.push_str(&format!("{}  ({} bytes)\n", e.name, e.size)),
            }
        }
        if self.entries.is_empty() {
            out.push_str("(empty directory)\n");
        }
        if self.omitted > 0 {
            out.push_str(&format!("… and {} more entries not shown.\n", self.omitted));
        }
        out
    }
}

/// The progress tip shown while the tool runs.
pub fn ls_tip(params: &LsParams) -> String {
    format!("Listing {}…", params.path.as_deref().unwrap_or("."))
}

/// Runs the `ls` tool.
pub async fn run_ls(session: &BuiltinSession, params: LsParams) -> Result<LsOutput, BuiltinError> {
    let boundary = &session.boundary;
    let resolved = boundary.resolve(params.path.as_deref().unwrap_or("."))?;
    let shown = boundary.display_relative(&resolved);
    let mut ignore = GlobSetBuilder::new();
    for pattern in params.ignore.iter().flatten() {
        let glob = Glob::new(pattern).map_err(|e| {
            BuiltinError::InvalidPattern(format!("ignore pattern `{pattern}`: {e}"))
        })?;
        ignore.add(glob);
    }
    let ignore = ignore
        .build()
        .map_err(|e| BuiltinError::InvalidPattern(e.to_string()))?;
    let handle = boundary
        .open_read(&resolved)
        .map_err(|e| BuiltinError::from_open(e, &shown))?;
    if !handle.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(BuiltinError::NotADirectory { path: shown });
    }
    let reader =
        std::fs::read_dir(&resolved).map_err(|e| BuiltinError::io(&resolved, &shown, e))?;
    let mut entries = Vec::new();
    for entry in reader {
        let entry = entry.map_err(|e| BuiltinError::io(&resolved, &shown, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if ignore.is_match(&name) {
            continue;
        }
        let meta = entry.metadata().ok();
        let kind = match entry.file_type() {
            Ok(t) if t.is_dir() => EntryKind::Directory,
            Ok(t) if t.is_file() => EntryKind::File,
            Ok(t) if t.is_symlink() => EntryKind::Symlink,
            _ => EntryKind::Other,
        };
        let size = if kind == EntryKind::Directory {
            0
        } else {
            meta.as_ref().map_or(0, |m| m.len())
        };
        let modified_ms = meta
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .and_then(|d| u64::try_from(d.as_millis()).ok());
        entries.push(LsEntry {
            name,
            kind,
            size,
            modified_ms,
        });
    }
    entries.sort_by(|a, b| {
        (a.kind != EntryKind::Directory)
            .cmp(&(b.kind != EntryKind::Directory))
            .then_with(|| a.name.cmp(&b.name))
    });
    let omitted = entries.len().saturating_sub(MAX_LS_ENTRIES);
    entries.truncate(MAX_LS_ENTRIES);
    let title = if omitted > 0 {
        format!(
            "Listed {shown} ({} of {} entries)",
            entries.len(),
            entries.len() + omitted
        )
    } else {
        format!("Listed {shown} ({} entries)", entries.len())
    };
    Ok(LsOutput {
        title,
        path: shown,
        entries,
        omitted,
    })
}

/// `ls`, for the runtime.
#[derive(Debug, Clone)]
pub struct LsTool {
    session: BuiltinSession,
}

impl LsTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Builtin for LsTool {
    const CLAUDE_NAME: Option<&'static str> = Some("LS");

    fn for_session(session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self::new(session.clone()))
    }
}

impl Tool for LsTool {
    type Input = LsParams;
    const NAME: &'static str = "ls";
    const KIND: ToolKind = ToolKind::Read;

    fn title(&self, args: &Value) -> String {
        arg(args, "path").unwrap_or(".").to_owned()
    }

    fn facts(&self, input: &LsParams) -> Result<CallFacts, ToolError> {
        path_facts(
            &self.session,
            Self::NAME,
            ActionClass::Read,
            input.path.as_deref().unwrap_or("."),
        )
    }

    async fn run(
        self: Arc<Self>,
        input: LsParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        ctx.sink.status(ls_tip(&input));
        let output = run_ls(&self.session, input).await?;
        Ok(ToolOutput::text(output.render()).summarised(output.title))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::WorkspaceBoundary;

    fn session() -> (tempfile::TempDir, BuiltinSession) {
        let dir = tempfile::tempdir().unwrap();
        let s = BuiltinSession::new(
            WorkspaceBoundary::new(dir.path()).unwrap(),
            dir.path().into(),
        );
        (dir, s)
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn lists_directories_first_with_metadata() {
        let (_d, s) = session();
        let root = s.boundary.root();
        std::fs::write(root.join("b.txt"), "12345").unwrap();
        std::fs::write(root.join("a.log"), "x").unwrap();
        std::fs::create_dir(root.join("zdir")).unwrap();
        std::os::unix::fs::symlink("b.txt", root.join("link")).unwrap();
        let out = run_ls(&s, LsParams::default()).await.unwrap();
        let names: Vec<_> = out.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["zdir", "a.log", "b.txt", "link"]);
        assert_eq!(out.entries[2].size, 5);
        assert_eq!(out.entries[3].kind, EntryKind::Symlink);
        assert!(out.entries[2].modified_ms.is_some());
        assert_eq!(out.title, "Listed . (4 entries)");
        let filtered = run_ls(
            &s,
            LsParams {
                path: None,
                ignore: Some(vec!["*.log".into()]),
            },
        )
        .await
        .unwrap();
        assert!(filtered.entries.iter().all(|e| e.name != "a.log"));
    }

    #[tokio::test]
    async fn caps_entries() {
        let (_d, s) = session();
        for i in 0..(MAX_LS_ENTRIES + 7) {
            std::fs::write(s.boundary.root().join(format!("f{i:04}")), "").unwrap();
        }
        let out = run_ls(&s, LsParams::default()).await.unwrap();
        assert_eq!(out.entries.len(), MAX_LS_ENTRIES);
        assert_eq!(out.omitted, 7);
        assert!(out.render().contains("7 more entries"));
    }

    #[tokio::test]
    async fn refuses_files_and_outside() {
        let (_d, s) = session();
        std::fs::write(s.boundary.root().join("f"), "").unwrap();
        let p = |p: &str| LsParams {
            path: Some(p.into()),
            ignore: None,
        };
        assert_eq!(
            run_ls(&s, p("f")).await.unwrap_err().code(),
            "NOT_A_DIRECTORY"
        );
        assert_eq!(
            run_ls(&s, p("..")).await.unwrap_err().code(),
            "PATH_NOT_IN_WORKSPACE"
        );
        assert_eq!(
            run_ls(&s, p("missing")).await.unwrap_err().code(),
            "FILE_NOT_FOUND"
        );
    }
}
