//! The `read` tool: a text file with line numbers (like `cat -n`), paged by line offset and limit.
//! Refuses directories, very large files and binary files with a clear message; shows invalid
//! UTF-8 lossily and says so. Records the content hash of the file for the stale-read guard.
//! Besides the workspace it reaches the skills' folders, read-only ([`super::read_roots`]).

use std::io::Read;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::BuiltinError;
use super::file_kind::detect_binary;
use super::listed::Builtin;
use super::session::BuiltinSession;
use super::stale_guard::content_hash;
use std::sync::Arc;

use serde_json::Value;

use super::facts::path_facts;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::ToolKind;
use crate::tools::{CallContext, Tool, ToolError, ToolOutput, arg};

/// Largest file `read` accepts.
pub const MAX_READ_FILE_BYTES: u64 = 10 * 1024 * 1024;
/// Default number of lines returned per call.
pub const DEFAULT_READ_LINES: usize = 2000;
/// Most output bytes returned per call.
pub const MAX_READ_OUTPUT_BYTES: usize = 256 * 1024;

/// Read a text file in the workspace. Returns numbered lines (like `cat -n`), at most 2000 lines or
/// 256 KiB per call; use `offset` (1-based line) and `limit` to page through long files. Binary
/// files and files over 10 MiB are refused. You must read a file before changing it with write,
/// edit or multi_edit.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct ReadParams {
    /// Path of the file, relative to the workspace root (or absolute inside it).
    pub path: String,
    /// 1-based line number to start reading from (default 1).
    #[serde(default)]
    pub offset: Option<usize>,
    /// Maximum number of lines to return (default 2000).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// Result of the `read` tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadOutput {
    /// What the card's header says after the tool's name, e.g. `src/main.rs · lines 1–120 of
    /// 120` (the name says it was read).
    pub title: String,
    /// Path relative to the workspace root.
    pub path: String,
    /// Line-numbered content.
    pub content: String,
    /// First line returned (1-based).
    pub start_line: usize,
    /// Number of lines returned.
    pub lines_returned: usize,
    /// Lines in the whole file.
    pub total_lines: usize,
    /// Whether there are lines after the ones returned.
    pub has_more: bool,
    /// Size of the file in bytes.
    pub size_bytes: u64,
    /// Whether the file is not valid UTF-8 (shown with replacement characters).
    pub invalid_utf8: bool,
    /// How to get the rest, when `has_more`.
    pub note: Option<String>,
}

impl ReadOutput {
    /// Text given to the model.
    pub fn render(&self) -> String {
        let mut out = self.content.clone();
        if self.invalid_utf8 {
            out.push_str(
                "\n[note: the file is not valid UTF-8; invalid bytes are shown as U+FFFD]",
            );
        }
        if let Some(note) = &self.note {
            out.push_str("\n[");
            out.push_str(note);
            out.push(']');
        }
        out
    }
}

/// The progress tip shown while the tool runs.
pub fn read_tip(params: &ReadParams) -> String {
    format!("Reading {}…", params.path)
}

/// Runs the `read` tool.
pub async fn run_read(
    session: &BuiltinSession,
    params: ReadParams,
) -> Result<ReadOutput, BuiltinError> {
    // The workspace, or a skill's folder (read-only, see `read_roots`).
    let readable = session
        .read_roots
        .resolve(&session.boundary, &params.path)?;
    let (boundary, resolved, shown) = (readable.boundary, readable.path, readable.shown);
    if params.limit == Some(0) {
        return Err(BuiltinError::InvalidParams(
            "limit must be at least 1".into(),
        ));
    }
    let mut file = boundary
        .open_read(&resolved)
        .map_err(|e| BuiltinError::from_open(e, &shown))?;
    let meta = file
        .metadata()
        .map_err(|e| BuiltinError::io(&resolved, &shown, e))?;
    if meta.is_dir() {
        return Err(BuiltinError::IsADirectory { path: shown });
    }
    let size = meta.len();
    if size > MAX_READ_FILE_BYTES {
        return Err(BuiltinError::TooLarge {
            path: shown,
            size,
            limit: MAX_READ_FILE_BYTES,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.by_ref()
        .take(MAX_READ_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| BuiltinError::io(&resolved, &shown, e))?;
    let size = bytes.len() as u64;
    if size > MAX_READ_FILE_BYTES {
        return Err(BuiltinError::TooLarge {
            path: shown,
            size,
            limit: MAX_READ_FILE_BYTES,
        });
    }
    if let Some(kind) = detect_binary(&bytes) {
        return Err(BuiltinError::Binary {
            path: shown,
            kind: kind.to_string(),
            size,
        });
    }
    session.reads.record(&resolved, content_hash(&bytes));

    let text = String::from_utf8_lossy(&bytes);
    let invalid_utf8 = matches!(text, std::borrow::Cow::Owned(_));
    let page = number_lines(
        &text,
        params.offset.unwrap_or(1).max(1),
        params.limit.unwrap_or(DEFAULT_READ_LINES),
    );
    let end_line = page.start_line + page.lines_returned.saturating_sub(1);
    let note = page.has_more.then(|| {
        format!(
            "Showing lines {}–{} of {}. Call read with offset={} to continue.",
            page.start_line,
            end_line,
            page.total_lines,
            end_line + 1
        )
    });
    let title = if page.lines_returned == 0 {
        format!(
            "{shown} · no lines at offset {} ({} lines)",
            page.start_line, page.total_lines
        )
    } else {
        format!(
            "{shown} · lines {}–{} of {}",
            page.start_line, end_line, page.total_lines
        )
    };
    Ok(ReadOutput {
        title,
        path: shown,
        content: page.content,
        start_line: page.start_line,
        lines_returned: page.lines_returned,
        total_lines: page.total_lines,
        has_more: page.has_more,
        size_bytes: size,
        invalid_utf8,
        note,
    })
}

/// One page of numbered lines.
#[derive(Debug, PartialEq, Eq)]
struct Page {
    content: String,
    start_line: usize,
    lines_returned: usize,
    total_lines: usize,
    has_more: bool,
}

/// Formats lines `start..start+limit` (1-based) of `text` as `cat -n` does, stopping early at
/// [`MAX_READ_OUTPUT_BYTES`]. Cost is linear in the position of the last line shown plus a scan
/// for the total line count.
fn number_lines(text: &str, start: usize, limit: usize) -> Page {
    let total_lines = if text.is_empty() {
        0
    } else {
        text.bytes().filter(|&b| b == b'\n').count() + usize::from(!text.ends_with('\n'))
    };
    let mut content = String::new();
    let mut lines_returned = 0;
    for (index, line) in text.lines().enumerate().skip(start - 1).take(limit) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let entry = format!("{:>6}\t{}\n", index + 1, line);
        if !content.is_empty() && content.len() + entry.len() > MAX_READ_OUTPUT_BYTES {
            break;
        }
        content.push_str(&entry);
        lines_returned += 1;
    }
    let has_more = start - 1 + lines_returned < total_lines;
    Page {
        content,
        start_line: start,
        lines_returned,
        total_lines,
        has_more,
    }
}

/// `read`, for the runtime.
#[derive(Debug, Clone)]
pub struct ReadTool {
    session: BuiltinSession,
}

impl ReadTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Builtin for ReadTool {
    const CLAUDE_NAME: Option<&'static str> = Some("Read");
    const CLAUDE_FIELDS: &'static [(&'static str, &'static str)] = &[("path", "file_path")];

    fn for_session(session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self::new(session.clone()))
    }
}

impl Tool for ReadTool {
    type Input = ReadParams;
    const NAME: &'static str = "read";
    const KIND: ToolKind = ToolKind::Read;

    fn title(&self, args: &Value) -> String {
        arg(args, "path").unwrap_or_default().to_owned()
    }

    fn facts(&self, input: &ReadParams) -> Result<CallFacts, ToolError> {
        let session = &self.session;
        let readable = session
            .read_roots
            .resolve(&session.boundary, &input.path)
            .map_err(BuiltinError::from)?;
        if std::ptr::eq(readable.boundary, session.boundary.as_ref()) {
            return path_facts(session, Self::NAME, ActionClass::Read, &input.path);
        }
        Ok(CallFacts {
            path: Some(readable.shown),
            ..CallFacts::new(Self::NAME, ActionClass::Read)
        })
    }

    async fn run(
        self: Arc<Self>,
        input: ReadParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        ctx.sink.status(read_tip(&input));
        let output = run_read(&self.session, input).await?;
        Ok(ToolOutput::text(output.render()).summarised(output.title))
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::boundary::WorkspaceBoundary;

    fn session() -> (tempfile::TempDir, BuiltinSession) {
        let dir = tempfile::tempdir().unwrap();
        let b = WorkspaceBoundary::new(dir.path()).unwrap();
        let s = BuiltinSession::new(b, PathBuf::from(dir.path()));
        (dir, s)
    }

    fn params(path: &str, offset: Option<usize>, limit: Option<usize>) -> ReadParams {
        ReadParams {
            path: path.into(),
            offset,
            limit,
        }
    }

    #[tokio::test]
    async fn numbers_lines_and_records_hash() {
        let (_d, s) = session();
        std::fs::write(s.boundary.root().join("a.txt"), "one\ntwo\r\nthree").unwrap();
        let out = run_read(&s, params("a.txt", None, None)).await.unwrap();
        assert_eq!(out.content, "     1\tone\n     2\ttwo\n     3\tthree\n");
        assert_eq!(out.total_lines, 3);
        assert!(!out.has_more);
        assert_eq!(out.title, "a.txt · lines 1–3 of 3");
        let resolved = s.boundary.resolve("a.txt").unwrap();
        assert_eq!(
            s.reads.baseline(&resolved),
            Some(content_hash(b"one\ntwo\r\nthree"))
        );
    }

    #[tokio::test]
    async fn pages_with_offset_and_limit() {
        let (_d, s) = session();
        let text: String = (1..=10).map(|i| format!("line {i}\n")).collect();
        std::fs::write(s.boundary.root().join("p.txt"), text).unwrap();
        let out = run_read(&s, params("p.txt", Some(4), Some(3)))
            .await
            .unwrap();
        assert_eq!(
            out.content,
            "     4\tline 4\n     5\tline 5\n     6\tline 6\n"
        );
        assert!(out.has_more);
        assert_eq!(out.total_lines, 10);
        assert!(out.note.as_deref().unwrap().contains("offset=7"));
        assert!(out.render().contains("offset=7"));
        let past = run_read(&s, params("p.txt", Some(50), None)).await.unwrap();
        assert_eq!(past.lines_returned, 0);
        assert!(!past.has_more);
    }

    #[tokio::test]
    async fn default_cap_is_2000_lines() {
        let (_d, s) = session();
        let text: String = (1..=2500).map(|i| format!("{i}\n")).collect();
        std::fs::write(s.boundary.root().join("big.txt"), text).unwrap();
        let out = run_read(&s, params("big.txt", None, None)).await.unwrap();
        assert_eq!(out.lines_returned, 2000);
        assert!(out.has_more);
        assert_eq!(out.total_lines, 2500);
    }

    #[tokio::test]
    async fn byte_cap_is_256_kib() {
        let (_d, s) = session();
        let line = "x".repeat(1000);
        let text: String = (0..600).map(|_| format!("{line}\n")).collect();
        std::fs::write(s.boundary.root().join("wide.txt"), text).unwrap();
        let out = run_read(&s, params("wide.txt", None, None)).await.unwrap();
        assert!(out.content.len() <= MAX_READ_OUTPUT_BYTES);
        assert!(out.lines_returned < 600 && out.lines_returned > 200);
        assert!(out.has_more);
    }

    #[tokio::test]
    async fn refuses_binary_large_and_directories() {
        let (_d, s) = session();
        let root = s.boundary.root().to_path_buf();
        std::fs::write(root.join("img.png"), b"\x89PNG\r\n\x1a\n\0\0\0data").unwrap();
        let err = run_read(&s, params("img.png", None, None))
            .await
            .unwrap_err();
        assert_eq!(err.code(), "BINARY_FILE");
        assert!(err.to_string().contains("PNG image"), "{err}");
        assert!(err.to_string().contains("15 bytes"), "{err}");
        let f = std::fs::File::create(root.join("huge.log")).unwrap();
        f.set_len(MAX_READ_FILE_BYTES + 1).unwrap();
        let err = run_read(&s, params("huge.log", None, None))
            .await
            .unwrap_err();
        assert_eq!(err.code(), "FILE_TOO_LARGE");
        std::fs::create_dir(root.join("dir")).unwrap();
        assert_eq!(
            run_read(&s, params("dir", None, None))
                .await
                .unwrap_err()
                .code(),
            "IS_A_DIRECTORY"
        );
        assert_eq!(
            run_read(&s, params("nope", None, None))
                .await
                .unwrap_err()
                .code(),
            "FILE_NOT_FOUND"
        );
        assert_eq!(
            run_read(&s, params("../x", None, None))
                .await
                .unwrap_err()
                .code(),
            "PATH_NOT_IN_WORKSPACE"
        );
    }

    #[tokio::test]
    async fn invalid_utf8_is_lossy_and_flagged() {
        let (_d, s) = session();
        std::fs::write(s.boundary.root().join("l1.txt"), b"caf\xe9\n").unwrap();
        let out = run_read(&s, params("l1.txt", None, None)).await.unwrap();
        assert!(out.invalid_utf8);
        assert!(out.content.contains("caf\u{fffd}"));
        assert!(out.render().contains("not valid UTF-8"));
    }

    #[tokio::test]
    async fn empty_file() {
        let (_d, s) = session();
        std::fs::write(s.boundary.root().join("e"), b"").unwrap();
        let out = run_read(&s, params("e", None, None)).await.unwrap();
        assert_eq!(out.total_lines, 0);
        assert_eq!(out.content, "");
    }
}
