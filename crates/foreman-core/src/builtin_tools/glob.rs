//! The `glob` tool: files whose path (relative to the search directory) matches a glob pattern,
//! newest first, capped. Honours `.gitignore`/`.ignore` and the default excludes.

use std::path::{MAIN_SEPARATOR_STR, Path};
use std::sync::Mutex;
use std::time::UNIX_EPOCH;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkState};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::BuiltinError;
use super::listed::Builtin;
use super::newest_first::{Found, keep_newest};
use super::session::BuiltinSession;
use super::walk::walker;
use super::walk_progress::{PROGRESS_INTERVAL, await_with_progress, thousands};
use crate::os_path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use super::facts::path_facts;
use crate::approval::{ActionClass, CallFacts};
use crate::protocol::ToolKind;
use crate::tools::{CallContext, Tool, ToolError, ToolOutput, arg};

/// Most paths returned by one `glob`.
pub const MAX_GLOB_RESULTS: usize = 500;

/// Find files by glob pattern (e.g. `**/*.rs`, `src/**/*.ts`), newest first. Honours .gitignore and
/// skips .git, node_modules, target and dist.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct GlobParams {
    /// Glob pattern matched against paths relative to `path`, e.g. `**/*.rs` or `src/*.ts`.
    pub pattern: String,
    /// Directory to search in, relative to the workspace root (default: the root).
    #[serde(default)]
    pub path: Option<String>,
}

/// Result of the `glob` tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GlobOutput {
    /// Short title, e.g. `Found 42 files matching **/*.rs`.
    pub title: String,
    /// Matching paths relative to the workspace root, newest first.
    pub files: Vec<String>,
    /// Total number of matches (including those left out).
    pub total: usize,
    /// Matches left out because of the cap.
    pub omitted: usize,
}

impl GlobOutput {
    /// Text given to the model.
    pub fn render(&self) -> String {
        if self.files.is_empty() {
            return "No files matched.".to_string();
        }
        let mut out = self.files.join("\n");
        out.push('\n');
        if self.omitted > 0 {
            out.push_str(&format!(
                "… {} more files not shown; narrow the pattern or path.\n",
                self.omitted
            ));
        }
        out
    }
}

/// The progress tip shown while the tool runs.
pub fn glob_tip(params: &GlobParams) -> String {
    format!(
        "Finding files matching `{}` in {}…",
        params.pattern,
        params.path.as_deref().unwrap_or(".")
    )
}

/// Builds one [`MatchVisitor`] per walker thread.
struct MatchCollector<'a> {
    dir: &'a Path,
    matcher: &'a GlobSet,
    found: &'a Mutex<Vec<Found>>,
    walked: &'a AtomicUsize,
}

impl<'s> ParallelVisitorBuilder<'s> for MatchCollector<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(MatchVisitor {
            dir: self.dir,
            matcher: self.matcher,
            found: self.found,
            walked: self.walked,
            local: Vec::new(),
        })
    }
}

/// One walker thread's matches, kept locally and handed over once, when the thread is done.
struct MatchVisitor<'a> {
    dir: &'a Path,
    matcher: &'a GlobSet,
    found: &'a Mutex<Vec<Found>>,
    walked: &'a AtomicUsize,
    local: Vec<Found>,
}

impl ParallelVisitor for MatchVisitor<'_> {
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        let Ok(entry) = entry else {
            return WalkState::Continue;
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            return WalkState::Continue;
        }
        self.walked.fetch_add(1, Ordering::Relaxed);
        // Every walked path is `dir` joined with more components, so stripping it is a byte
        // operation (no component parsing per file).
        let Some(rel) = entry
            .path()
            .as_os_str()
            .as_encoded_bytes()
            .strip_prefix(self.dir.as_os_str().as_encoded_bytes())
        else {
            return WalkState::Continue;
        };
        let rel = rel
            .strip_prefix(MAIN_SEPARATOR_STR.as_bytes())
            .unwrap_or(rel);
        let rel = os_path::from_bytes(rel);
        let rel = Path::new(&rel);
        if self.matcher.is_match(rel) {
            let modified = entry
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .unwrap_or(UNIX_EPOCH);
            self.local.push((modified, entry.into_path()));
        }
        WalkState::Continue
    }
}

impl Drop for MatchVisitor<'_> {
    fn drop(&mut self) {
        self.found
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .append(&mut self.local);
    }
}

/// Runs the `glob` tool.
pub async fn run_glob(
    session: &BuiltinSession,
    params: GlobParams,
) -> Result<GlobOutput, BuiltinError> {
    run_glob_reporting(session, params, |_| {}).await
}

/// Runs the `glob` tool, calling `report` with the number of files looked at so far every
/// [`PROGRESS_INTERVAL`] while the walk runs (when it changed).
pub async fn run_glob_reporting(
    session: &BuiltinSession,
    params: GlobParams,
    report: impl FnMut(usize) + Send,
) -> Result<GlobOutput, BuiltinError> {
    let boundary = session.boundary.clone();
    let dir = boundary.resolve(params.path.as_deref().unwrap_or("."))?;
    let shown = boundary.display_relative(&dir);
    if !dir.is_dir() {
        return Err(if dir.exists() {
            BuiltinError::NotADirectory { path: shown }
        } else {
            BuiltinError::NotFound { path: shown }
        });
    }
    let invalid =
        |e: globset::Error| BuiltinError::InvalidPattern(format!("glob `{}`: {e}", params.pattern));
    let glob = GlobBuilder::new(&params.pattern)
        .literal_separator(true)
        .build()
        .map_err(invalid)?;
    // A set (rather than a single matcher) gets globset's fast strategies, e.g. extension
    // matching for `**/*.rs`, instead of a regex per path.
    let matcher = GlobSetBuilder::new().add(glob).build().map_err(invalid)?;
    let pattern = params.pattern.clone();
    let walked = Arc::new(AtomicUsize::new(0));
    let counting = walked.clone();
    let task = tokio::task::spawn_blocking(move || {
        let found = Mutex::new(Vec::new());
        let mut builder = MatchCollector {
            dir: &dir,
            matcher: &matcher,
            found: &found,
            walked: &counting,
        };
        walker(&dir).build_parallel().visit(&mut builder);
        found.into_inner().unwrap_or_else(|p| p.into_inner())
    });
    let found = await_with_progress(task, &walked, PROGRESS_INTERVAL, report)
        .await
        .map_err(|e| BuiltinError::Io {
            path: boundary.root().to_path_buf(),
            source: std::io::Error::other(e),
        })?;
    let mut found = found;
    let total = found.len();
    keep_newest(&mut found, MAX_GLOB_RESULTS);
    let files: Vec<String> = found
        .into_iter()
        .map(|(_, p)| boundary.display_relative(&p))
        .collect();
    let omitted = total - files.len();
    let title = if omitted > 0 {
        format!(
            "Found {total} files matching {pattern} (showing {})",
            files.len()
        )
    } else {
        format!("Found {total} files matching {pattern}")
    };
    Ok(GlobOutput {
        title,
        files,
        total,
        omitted,
    })
}

/// `glob`, for the runtime.
#[derive(Debug, Clone)]
pub struct GlobTool {
    session: BuiltinSession,
}

impl GlobTool {
    pub fn new(session: BuiltinSession) -> Self {
        Self { session }
    }
}

impl Builtin for GlobTool {
    const CLAUDE_NAME: Option<&'static str> = Some("Glob");

    fn for_session(session: &BuiltinSession, _sub_agents: bool) -> Option<Self> {
        Some(Self::new(session.clone()))
    }
}

impl Tool for GlobTool {
    type Input = GlobParams;
    const NAME: &'static str = "glob";
    const KIND: ToolKind = ToolKind::Search;

    fn title(&self, args: &Value) -> String {
        match (arg(args, "pattern"), arg(args, "path")) {
            (Some(p), Some(dir)) => format!("{p} in {dir}"),
            (Some(p), None) => p.to_owned(),
            _ => String::new(),
        }
    }

    fn facts(&self, input: &GlobParams) -> Result<CallFacts, ToolError> {
        path_facts(
            &self.session,
            Self::NAME,
            ActionClass::Read,
            input.path.as_deref().unwrap_or("."),
        )
    }

    async fn run(
        self: Arc<Self>,
        input: GlobParams,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        ctx.sink.status(glob_tip(&input));
        let output = run_glob_reporting(&self.session, input, |found| {
            ctx.sink
                .status(format!("{} files looked at…", thousands(found)))
        })
        .await?;
        Ok(ToolOutput::text(output.render()).summarised(output.title))
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

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

    fn touch(s: &BuiltinSession, rel: &str, age_secs: u64) {
        let p = s.boundary.root().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let f = std::fs::File::create(&p).unwrap();
        f.set_modified(SystemTime::now() - Duration::from_secs(age_secs))
            .unwrap();
    }

    fn gp(pattern: &str, path: Option<&str>) -> GlobParams {
        GlobParams {
            pattern: pattern.into(),
            path: path.map(Into::into),
        }
    }

    #[tokio::test]
    async fn newest_first_and_respects_ignores() {
        let (_d, s) = session();
        touch(&s, "src/old.rs", 300);
        touch(&s, "src/new.rs", 10);
        touch(&s, "src/deep/mid.rs", 100);
        touch(&s, "target/gen.rs", 1);
        touch(&s, "node_modules/m.rs", 1);
        touch(&s, "ignored/i.rs", 1);
        touch(&s, "top.rs", 200);
        touch(&s, "readme.md", 1);
        std::fs::write(s.boundary.root().join(".gitignore"), "ignored/\n").unwrap();
        let out = run_glob(&s, gp("**/*.rs", None)).await.unwrap();
        assert_eq!(
            out.files,
            ["src/new.rs", "src/deep/mid.rs", "top.rs", "src/old.rs"]
        );
        let top = run_glob(&s, gp("*.rs", None)).await.unwrap();
        assert_eq!(top.files, ["top.rs"]);
        let sub = run_glob(&s, gp("*.rs", Some("src"))).await.unwrap();
        assert_eq!(sub.files, ["src/new.rs", "src/old.rs"]);
        assert_eq!(sub.title, "Found 2 files matching *.rs");
    }

    #[tokio::test]
    async fn caps_results_and_counts_omitted() {
        let (_d, s) = session();
        for i in 0..(MAX_GLOB_RESULTS + 3) {
            touch(&s, &format!("f/{i}.txt"), 5);
        }
        let out = run_glob(&s, gp("**/*.txt", None)).await.unwrap();
        assert_eq!(out.files.len(), MAX_GLOB_RESULTS);
        assert_eq!((out.total, out.omitted), (MAX_GLOB_RESULTS + 3, 3));
        assert!(out.render().contains("3 more files"));
    }

    #[tokio::test]
    async fn invalid_pattern_and_outside_path() {
        let (_d, s) = session();
        assert_eq!(
            run_glob(&s, gp("a[", None)).await.unwrap_err().code(),
            "INVALID_PATTERN"
        );
        assert_eq!(
            run_glob(&s, gp("*", Some("/"))).await.unwrap_err().code(),
            "PATH_NOT_IN_WORKSPACE"
        );
    }
}
