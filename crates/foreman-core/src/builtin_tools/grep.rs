//! The `grep` tool: regex search over the workspace with ripgrep's own crates — a parallel
//! `ignore` walk, `grep-regex` matching and `grep-searcher` line handling (binary files skipped).
//! Output is matching lines with line numbers (and optional context), the files that match, or
//! per-file counts; capped, with the count left out.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use ignore::WalkState;
use ignore::overrides::OverrideBuilder;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::BuiltinError;
use super::listed::Builtin;
use super::session::BuiltinSession;
use super::walk::walker;
use super::walk_progress::{PROGRESS_INTERVAL, await_with_progress, thousands};

use serde_json::Value;

use super::facts::path_facts;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::ToolKind;
use crate::tools::{CallContext, Tool, ToolError, ToolOutput, arg};

/// Most output lines (content mode) or files (files/count modes) returned.
pub const MAX_GREP_RESULTS: usize = 500;
/// Longest line shown in content mode; longer lines are cut.
pub const MAX_GREP_LINE_CHARS: usize = 500;
/// Most lines kept in memory while searching; beyond this matches are only counted.
const MAX_STORED_LINES: usize = 20_000;
/// Most context lines around each match.
pub const MAX_CONTEXT: usize = 10;

/// What `grep` returns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GrepOutputMode {
    /// Matching lines as `path:line:text`.
    #[default]
    Content,
    /// Only the paths of files that contain a match.
    Files,
    /// The number of matching lines per file.
    Count,
}

/// Search file contents with a regular expression (ripgrep syntax). Output `content` (matching
/// lines with line numbers, optional context), `files` (paths only) or `count`. Filter files with
/// `glob` (e.g. `*.rs`). Honours .gitignore; binary files are skipped.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct GrepParams {
    /// Regular expression (Rust regex syntax, like ripgrep) to search for.
    pub pattern: String,
    /// File or directory to search, relative to the workspace root (default: the root).
    #[serde(default)]
    pub path: Option<String>,
    /// Only search files matching this glob (like `rg -g`), e.g. `*.rs` or `!*.min.js`.
    #[serde(default)]
    pub glob: Option<String>,
    /// Match case-insensitively (default false).
    #[serde(default)]
    pub case_insensitive: bool,
    /// Lines of context to show before and after each match in content mode (0–10).
    #[serde(default)]
    pub context: Option<usize>,
    /// `content` (matching lines, default), `files` (paths only) or `count` (matches per file).
    #[serde(default)]
    pub output: GrepOutputMode,
}

/// One file's results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepFileResult {
    /// Path relative to the workspace root.
    pub path: String,
    /// Number of matching lines.
    pub matches: usize,
    /// Lines shown (content mode): line number, whether it matched (vs context), text.
    pub lines: Vec<GrepLine>,
}

/// A line in content mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepLine {
    /// 1-based line number.
    pub line: u64,
    /// Whether this line matched (false for context lines).
    pub is_match: bool,
    /// The line's text (lossy UTF-8, cut to a maximum length).
    pub text: String,
}

/// Result of the `grep` tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepOutput {
    /// Short title, e.g. `Found 12 matches in 3 files for fn main`.
    pub title: String,
    /// The mode used.
    pub mode: GrepOutputMode,
    /// Files with matches, by path.
    pub files: Vec<GrepFileResult>,
    /// Number of files searched.
    pub files_searched: usize,
    /// Files with at least one match.
    pub files_matched: usize,
    /// Matching lines in all files.
    pub total_matches: usize,
    /// Output lines (content) or files (files/count) left out because of the cap.
    pub omitted: usize,
}

impl GrepOutput {
    /// Text given to the model.
    pub fn render(&self) -> String {
        if self.files.is_empty() {
            return format!("No matches ({} files searched).", self.files_searched);
        }
        let mut out = String::new();
        let mut shown = 0usize;
        'outer: for file in &self.files {
            match self.mode {
                GrepOutputMode::Files => {
                    if shown == MAX_GREP_RESULTS {
                        break;
                    }
                    out.push_str(&file.path);
                    out.push('\n');
                    shown += 1;
                }
                GrepOutputMode::Count => {
                    if shown == MAX_GREP_RESULTS {
                        break;
                    }
                    out.push_str(&format!("{}:{}\n", file.path, file.matches));
                    shown += 1;
                }
                GrepOutputMode::Content => {
                    let mut previous: Option<u64> = None;
                    for line in &file.lines {
                        if shown == MAX_GREP_RESULTS {
                            break 'outer;
                        }
                        if previous.is_some_and(|p| line.line > p + 1) {
                            out.push_str("--\n");
                        }
                        let sep = if line.is_match { ':' } else { '-' };
                        out.push_str(&format!(
                            "{}{sep}{}{sep}{}\n",
                            file.path, line.line, line.text
                        ));
                        previous = Some(line.line);
                        shown += 1;
                    }
                }
            }
        }
        if self.omitted > 0 {
            let unit = if self.mode == GrepOutputMode::Content {
                "lines"
            } else {
                "files"
            };
            out.push_str(&format!(
                "… {} more {unit} not shown; narrow the pattern, path or glob.\n",
                self.omitted
            ));
        }
        out
    }
}

/// The progress tip shown while the tool runs.
pub fn grep_tip(params: &GrepParams) -> String {
    format!(
        "Searching {} for `{}`…",
        params.path.as_deref().unwrap_or("the workspace"),
        params.pattern
    )
}

/// The tip while a search runs: how many files it has searched so far (counted as the walk goes,
/// so there is no total to show).
pub fn grep_progress_tip(params: &GrepParams, searched: usize) -> String {
    format!(
        "Searched {} {} in {} for `{}`…",
        thousands(searched),
        if searched == 1 { "file" } else { "files" },
        params.path.as_deref().unwrap_or("the workspace"),
        params.pattern
    )
}

/// Collects one file's matches and context lines.
struct Collector<'a> {
    mode: GrepOutputMode,
    matches: usize,
    lines: Vec<GrepLine>,
    stored: &'a AtomicUsize,
}

impl Collector<'_> {
    fn keep(&mut self, line: u64, is_match: bool, bytes: &[u8]) {
        if self.stored.fetch_add(1, Ordering::Relaxed) >= MAX_STORED_LINES {
            return;
        }
        let text = String::from_utf8_lossy(bytes);
        let text = text.trim_end_matches(['\n', '\r']);
        let text = match text.char_indices().nth(MAX_GREP_LINE_CHARS) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text.to_string(),
        };
        self.lines.push(GrepLine {
            line,
            is_match,
            text,
        });
    }
}

impl Sink for Collector<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        let first = mat.line_number().unwrap_or(0);
        let mut count = 0u64;
        for line in mat.lines() {
            if self.mode == GrepOutputMode::Content {
                self.keep(first + count, true, line);
            }
            count += 1;
        }
        self.matches += usize::try_from(count).unwrap_or(1);
        // In files mode one match is enough to know the file matches.
        Ok(self.mode != GrepOutputMode::Files)
    }

    fn context(&mut self, _: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, Self::Error> {
        if self.mode == GrepOutputMode::Content {
            self.keep(ctx.line_number().unwrap_or(0), false, ctx.bytes());
        }
        Ok(true)
    }
}

/// Runs the `grep` tool.
pub async fn run_grep(
    session: &BuiltinSession,
    params: GrepParams,
) -> Result<GrepOutput, BuiltinError> {
    run_grep_reporting(session, params, |_| {}).await
}

/// Runs the `grep` tool, calling `report` with the number of files searched so far every
/// [`PROGRESS_INTERVAL`] while the search runs (when it changed).
pub async fn run_grep_reporting(
    session: &BuiltinSession,
    params: GrepParams,
    report: impl FnMut(usize) + Send,
) -> Result<GrepOutput, BuiltinError> {
    let boundary = session.boundary.clone();
    let target = boundary.resolve(params.path.as_deref().unwrap_or("."))?;
    let shown = boundary.display_relative(&target);
    if !target.exists() {
        return Err(BuiltinError::NotFound { path: shown });
    }
    let matcher = RegexMatcherBuilder::new()
        .case_insensitive(params.case_insensitive)
        .line_terminator(Some(b'\n'))
        .build(&params.pattern)
        .map_err(|e| BuiltinError::InvalidPattern(format!("regex `{}`: {e}", params.pattern)))?;
    let context = params.context.unwrap_or(0).min(MAX_CONTEXT);
    let mode = params.output;
    let glob = params.glob.clone();
    let search_root = target.clone();
    let searched = Arc::new(AtomicUsize::new(0));
    let counting = searched.clone();
    let task = tokio::task::spawn_blocking(move || {
        search(
            &search_root,
            &matcher,
            glob.as_deref(),
            mode,
            context,
            &counting,
        )
    });
    let (mut results, files_searched) =
        await_with_progress(task, &searched, PROGRESS_INTERVAL, report)
            .await
            .map_err(|e| BuiltinError::Io {
                path: target.clone(),
                source: std::io::Error::other(e),
            })??;
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let files_matched = results.len();
    let total_matches: usize = results.iter().map(|r| r.1.matches).sum();
    let files: Vec<GrepFileResult> = results
        .into_iter()
        .map(|(path, c)| GrepFileResult {
            path: boundary.display_relative(&path),
            matches: c.matches,
            lines: c.lines,
        })
        .collect();
    let omitted = match mode {
        GrepOutputMode::Content => {
            let lines: usize = files.iter().map(|f| f.lines.len()).sum();
            // Lines beyond the in-memory store were counted as matches only.
            let stored_all = lines.max(total_matches);
            stored_all.saturating_sub(MAX_GREP_RESULTS)
        }
        _ => files_matched.saturating_sub(MAX_GREP_RESULTS),
    };
    let title = format!(
        "Found {total_matches} matching lines in {files_matched} files for `{}` ({files_searched} files searched)",
        params.pattern
    );
    Ok(GrepOutput {
        title,
        mode,
        files,
        files_searched,
        files_matched,
        total_matches,
        omitted,
    })
}

/// What one search produced: per-file collections and the number of files searched.
type SearchResults = (Vec<(PathBuf, FileHits)>, usize);

/// A file's matches without the borrowed counter.
struct FileHits {
    matches: usize,
    lines: Vec<GrepLine>,
}

fn search(
    target: &Path,
    matcher: &RegexMatcher,
    glob: Option<&str>,
    mode: GrepOutputMode,
    context: usize,
    searched: &AtomicUsize,
) -> Result<SearchResults, BuiltinError> {
    let mut builder = walker(target);
    if let Some(glob) = glob {
        let mut overrides = OverrideBuilder::new(target);
        overrides
            .add(glob)
            .map_err(|e| BuiltinError::InvalidPattern(format!("glob `{glob}`: {e}")))?;
        let overrides = overrides
            .build()
            .map_err(|e| BuiltinError::InvalidPattern(format!("glob `{glob}`: {e}")))?;
        builder.overrides(overrides);
    }
    let mut searcher_builder = SearcherBuilder::new();
    searcher_builder
        .line_number(true)
        .binary_detection(BinaryDetection::quit(0))
        .before_context(if mode == GrepOutputMode::Content {
            context
        } else {
            0
        })
        .after_context(if mode == GrepOutputMode::Content {
            context
        } else {
            0
        });
    let results: Mutex<Vec<(PathBuf, FileHits)>> = Mutex::new(Vec::new());
    let stored = AtomicUsize::new(0);
    builder.build_parallel().run(|| {
        let mut searcher = searcher_builder.build();
        let matcher = matcher.clone();
        let results = &results;
        let stored = &stored;
        Box::new(move |entry| {
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return WalkState::Continue;
            }
            searched.fetch_add(1, Ordering::Relaxed);
            let mut sink = Collector {
                mode,
                matches: 0,
                lines: Vec::new(),
                stored,
            };
            if searcher
                .search_path(&matcher, entry.path(), &mut sink)
                .is_ok()
                && sink.matches > 0
            {
                let hits = FileHits {
                    matches: sink.matches,
                    lines: sink.lines,
                };
                results
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((entry.into_path(), hits));
            }
            WalkState::Continue
        })
    });
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok((results, searched.load(Ordering::Relaxed)))
}

/// `grep`, for the runtime.
#[derive(Debug, Clone)]
pub struct GrepTool {
    session: BuiltinSession,
}

impl GrepTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Builtin for GrepTool {
    const CLAUDE_NAME: Option<&'static str> = Some("Grep");

    fn for_session(session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self::new(session.clone()))
    }
}

impl Tool for GrepTool {
    type Input = GrepParams;
    const NAME: &'static str = "grep";
    const KIND: ToolKind = ToolKind::Search;

    fn title(&self, args: &Value) -> String {
        match (arg(args, "pattern"), arg(args, "path")) {
            (Some(p), Some(dir)) => format!("`{p}` in {dir}"),
            (Some(p), None) => format!("`{p}`"),
            _ => String::new(),
        }
    }

    fn facts(&self, input: &GrepParams) -> Result<CallFacts, ToolError> {
        path_facts(
            &self.session,
            Self::NAME,
            ActionClass::Read,
            input.path.as_deref().unwrap_or("."),
        )
    }

    async fn run(
        self: Arc<Self>,
        input: GrepParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        ctx.sink.status(grep_tip(&input));
        let output = {
            let shown = input.clone();
            let sink = ctx.sink.clone();
            run_grep_reporting(&self.session, input, move |searched| {
                sink.status(grep_progress_tip(&shown, searched));
            })
            .await?
        };
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
        let root = s.boundary.root();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join("target")).unwrap();
        std::fs::write(
            root.join("src/main.rs"),
            "use x;\n\nfn main() {\n    run();\n}\n",
        )
        .unwrap();
        std::fs::write(root.join("src/lib.rs"), "pub fn run() {}\nfn Main() {}\n").unwrap();
        std::fs::write(root.join("target/gen.rs"), "fn main() {}\n").unwrap();
        std::fs::write(root.join("notes.md"), "fn main is the entry\n").unwrap();
        std::fs::write(root.join("bin.dat"), b"fn main\0\x01\x02").unwrap();
        (dir, s)
    }

    fn gp(pattern: &str) -> GrepParams {
        GrepParams {
            pattern: pattern.into(),
            path: None,
            glob: None,
            case_insensitive: false,
            context: None,
            output: GrepOutputMode::Content,
        }
    }

    #[tokio::test]
    async fn content_with_line_numbers_skips_binary_and_excludes() {
        let (_d, s) = session();
        let out = run_grep(&s, gp(r"fn main")).await.unwrap();
        assert_eq!(
            out.render(),
            "notes.md:1:fn main is the entry\nsrc/main.rs:3:fn main() {\n"
        );
        assert_eq!(out.total_matches, 2);
        assert_eq!(out.files_matched, 2);
    }

    #[tokio::test]
    async fn case_insensitive_glob_and_modes() {
        let (_d, s) = session();
        let mut p = gp("fn main");
        p.case_insensitive = true;
        p.glob = Some("*.rs".into());
        p.output = GrepOutputMode::Files;
        assert_eq!(
            run_grep(&s, p.clone()).await.unwrap().render(),
            "src/lib.rs\nsrc/main.rs\n"
        );
        p.output = GrepOutputMode::Count;
        p.pattern = "fn".into();
        assert_eq!(
            run_grep(&s, p).await.unwrap().render(),
            "src/lib.rs:2\nsrc/main.rs:1\n"
        );
    }

    #[tokio::test]
    async fn context_lines() {
        let (_d, s) = session();
        let mut p = gp("run");
        p.path = Some("src/main.rs".into());
        p.context = Some(1);
        let out = run_grep(&s, p).await.unwrap();
        assert_eq!(
            out.render(),
            "src/main.rs-3-fn main() {\nsrc/main.rs:4:    run();\nsrc/main.rs-5-}\n"
        );
    }

    #[tokio::test]
    async fn caps_and_counts_omitted() {
        let (_d, s) = session();
        let many: String = (0..(MAX_GREP_RESULTS + 20))
            .map(|i| format!("hit {i}\n"))
            .collect();
        std::fs::write(s.boundary.root().join("many.txt"), many).unwrap();
        let out = run_grep(&s, gp("^hit")).await.unwrap();
        assert_eq!(out.total_matches, MAX_GREP_RESULTS + 20);
        assert_eq!(out.omitted, 20);
        let text = out.render();
        assert_eq!(text.lines().count(), MAX_GREP_RESULTS + 1);
        assert!(text.contains("20 more lines"));
    }

    #[tokio::test]
    async fn invalid_regex_and_outside() {
        let (_d, s) = session();
        let err = run_grep(&s, gp("fn (main")).await.unwrap_err();
        assert_eq!(err.code(), "INVALID_PATTERN");
        assert!(err.to_string().contains("fn (main"));
        let mut p = gp("x");
        p.path = Some("/etc".into());
        assert_eq!(
            run_grep(&s, p).await.unwrap_err().code(),
            "PATH_NOT_IN_WORKSPACE"
        );
    }

    #[test]
    fn progress_tip_counts_the_files_searched_so_far() {
        let mut p = gp("fn main");
        assert_eq!(
            grep_progress_tip(&p, 1_204),
            "Searched 1,204 files in the workspace for `fn main`…"
        );
        p.path = Some("src".into());
        assert_eq!(
            grep_progress_tip(&p, 1),
            "Searched 1 file in src for `fn main`…"
        );
    }

    #[tokio::test]
    async fn no_matches() {
        let (_d, s) = session();
        let out = run_grep(&s, gp("zzz_not_there")).await.unwrap();
        assert!(out.render().starts_with("No matches"));
    }
}
