//! The session-context note: what the model should know of the workspace when a session starts
//! but that changes while it lives (the date, the git branch and a short status). It goes into
//! the history as an engine note just before the first message of a new session, not into the
//! system prompt, which stays byte-stable; a resumed session already has it. It is known by
//! how it starts ([`crate::conversation::notes::is_model_note`]), so a reopened conversation does
//! not show it as the user's and a branch does not count it. What hooks give as context
//! (`SessionStart`, `UserPromptSubmit`) follows the message it came with.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::agent::engine::Engine;
use crate::providers::Message;
use crate::providers::message::SESSION_CONTEXT_NOTE_START;

/// How long `git status` may take before the note says git did not answer.
const GIT_TIMEOUT: Duration = Duration::from_secs(3);

/// The most lines of `git status` the note lists.
const MAX_STATUS_LINES: usize = 20;

/// What git says of the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Git {
    /// A repository: its branch as `git status --branch` names it, and the status lines.
    Repo {
        branch: String,
        status: Vec<String>,
    },
    NotARepo,
    /// Git could not be asked (not installed, too slow, failed): why.
    Unavailable(String),
}

/// The note for a session of the workspace at `root`, now.
pub(crate) async fn session_context_note(root: PathBuf) -> String {
    let git = ask_git(&root).await;
    render(&today_utc(SystemTime::now()), &git)
}

fn render(date: &str, git: &Git) -> String {
    let mut note = format!(
        "{SESSION_CONTEXT_NOTE_START}Written by Foreman when this session started (it is not a \
         message of the user, and may be out of date later):\n- Date: {date} (UTC)\n"
    );
    match git {
        Git::NotARepo => note.push_str("- Git: the workspace is not in a git repository.\n"),
        Git::Unavailable(why) => note.push_str(&format!("- Git: unknown ({why}).\n")),
        Git::Repo { branch, status } if status.is_empty() => {
            note.push_str(&format!("- Git: {branch}; the working tree is clean.\n"));
        }
        Git::Repo { branch, status } => {
            note.push_str(&format!(
                "- Git: {branch}; {} changed or untracked (`git status --porcelain`):\n",
                match status.len() {
                    1 => "1 path".to_owned(),
                    n => format!("{n} paths"),
                }
            ));
            for line in status.iter().take(MAX_STATUS_LINES) {
                note.push_str(&format!("  {line}\n"));
            }
            if status.len() > MAX_STATUS_LINES {
                note.push_str(&format!(
                    "  …and {} more\n",
                    status.len() - MAX_STATUS_LINES
                ));
            }
        }
    }
    note
}

/// Runs `git status --porcelain=v1 --branch` in `root`, within [`GIT_TIMEOUT`]. It takes no
/// optional locks, so it never blocks the user's own git commands.
async fn ask_git(root: &Path) -> Git {
    let mut command = tokio::process::Command::new("git");
    command
        .arg("--no-optional-locks")
        .arg("-C")
        .arg(root)
        .args(["status", "--porcelain=v1", "--branch"])
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .kill_on_drop(true);
    match tokio::time::timeout(GIT_TIMEOUT, command.output()).await {
        Err(_) => Git::Unavailable(format!(
            "git did not answer within {} s",
            GIT_TIMEOUT.as_secs()
        )),
        Ok(Err(error)) if error.kind() == std::io::ErrorKind::NotFound => {
            Git::Unavailable("git is not installed".to_owned())
        }
        Ok(Err(error)) => Git::Unavailable(format!("git could not be run: {error}")),
        Ok(Ok(output)) if output.status.success() => {
            parse_status(&String::from_utf8_lossy(&output.stdout))
        }
        Ok(Ok(output)) => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            if stderr.contains("not a git repository") {
                Git::NotARepo
            } else {
                let first = stderr.lines().next().unwrap_or("").trim();
                Git::Unavailable(format!("git status failed: {first}"))
            }
        }
    }
}

/// The branch and status lines of `git status --porcelain=v1 --branch`.
fn parse_status(out: &str) -> Git {
    let mut lines = out.lines();
    let branch = match lines.next().and_then(|l| l.strip_prefix("## ")) {
        Some(header) => describe_branch(header),
        None => "an unknown branch".to_owned(),
    };
    let status = lines.filter(|l| !l.is_empty()).map(str::to_owned).collect();
    Git::Repo { branch, status }
}

/// `main...origin/main [ahead 1]` as `branch main (upstream origin/main, ahead 1)`.
fn describe_branch(header: &str) -> String {
    if let Some(name) = header
        .strip_prefix("No commits yet on ")
        .or_else(|| header.strip_prefix("Initial commit on "))
    {
        return format!("branch {name}, with no commits yet");
    }
    if header.starts_with("HEAD (no branch)") {
        return "a detached HEAD (no branch)".to_owned();
    }
    let (name, tracking) = match header.split_once("...") {
        Some((name, rest)) => (name, Some(rest)),
        None => (header, None),
    };
    match tracking {
        None => format!("branch {name}"),
        Some(rest) => match rest.split_once(" [") {
            Some((upstream, state)) => format!(
                "branch {name} (upstream {upstream}, {})",
                state.trim_end_matches(']')
            ),
            None => format!("branch {name} (upstream {rest})"),
        },
    }
}

/// The date of `now` in UTC, `YYYY-MM-DD`.
fn today_utc(now: SystemTime) -> String {
    let secs = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of the day `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

impl Engine {
    /// Asks for a new session's note as it starts, so git answers while the person writes.
    pub(crate) fn ask_session_note(&mut self) {
        if self.context.note_due {
            let workspace = self.workspace.clone();
            self.context.note = Some(tokio::spawn(session_context_note(workspace)));
        }
    }

    /// Before a new session's first message: the session-context note, asked for when the
    /// session started (or now, when that failed).
    pub(crate) async fn record_session_note(&mut self) {
        if !std::mem::take(&mut self.context.note_due) {
            return;
        }
        let asked = match self.context.note.take() {
            Some(job) => job.await.ok(),
            None => None,
        };
        let note = match asked {
            Some(note) => note,
            None => session_context_note(self.workspace.clone()).await,
        };
        self.record(Message::user(note)).await;
    }

    /// After the message: what the hooks gave as context for it.
    pub(crate) async fn record_hook_notes(&mut self) {
        for note in std::mem::take(&mut self.context.from_hooks) {
            self.record(Message::user(note)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversation::notes::is_model_note;

    #[test]
    fn dates_are_civil_dates_in_utc() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        let at = UNIX_EPOCH + Duration::from_secs(1_717_243_199); // 2024-06-01 11:59:59 UTC
        assert_eq!(today_utc(at), "2024-06-01");
    }

    #[test]
    fn the_branch_line_reads_well() {
        assert_eq!(describe_branch("main"), "branch main");
        assert_eq!(
            describe_branch("main...origin/main [ahead 1, behind 2]"),
            "branch main (upstream origin/main, ahead 1, behind 2)"
        );
        assert_eq!(
            describe_branch("dev...origin/dev"),
            "branch dev (upstream origin/dev)"
        );
        assert_eq!(
            describe_branch("No commits yet on trunk"),
            "branch trunk, with no commits yet"
        );
        assert_eq!(
            describe_branch("HEAD (no branch)"),
            "a detached HEAD (no branch)"
        );
    }

    #[test]
    fn a_long_status_is_cut_with_how_many_more() {
        let mut out = String::from("## main\n");
        for n in 0..23 {
            out.push_str(&format!("?? file{n}.txt\n"));
        }
        let note = render("2024-06-01", &parse_status(&out));
        assert!(note.starts_with(
            "[Session context] Written by Foreman when this session started (it is not a message \
             of the user, and may be out of date later):\n- Date: 2024-06-01 (UTC)\n- Git: \
             branch main; 23 paths changed or untracked (`git status --porcelain`):\n  ?? \
             file0.txt\n"
        ));
        assert!(note.contains("  ?? file19.txt\n  …and 3 more\n"), "{note}");
        assert!(!note.contains("file20"));
        assert!(is_model_note(&note));
    }

    #[test]
    fn a_clean_tree_and_no_repository_are_said_plainly() {
        assert!(
            render("d", &parse_status("## main\n"))
                .ends_with("- Git: branch main; the working tree is clean.\n")
        );
        assert!(render("d", &Git::NotARepo).ends_with("not in a git repository.\n"));
        assert!(
            render("d", &Git::Unavailable("git is not installed".into()))
                .ends_with("- Git: unknown (git is not installed).\n")
        );
    }

    #[tokio::test]
    async fn git_is_asked_about_the_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let git = ask_git(dir.path()).await;
        // Without git installed the note says so; with it, a temporary folder is no repository.
        assert!(
            matches!(git, Git::NotARepo | Git::Unavailable(_)),
            "{git:?}"
        );
        let init = std::process::Command::new("git")
            .args(["init", "-q", "-b", "work"])
            .current_dir(dir.path())
            .status();
        if init.is_ok_and(|s| s.success()) {
            std::fs::write(dir.path().join("new.txt"), "x").unwrap();
            assert_eq!(
                ask_git(dir.path()).await,
                Git::Repo {
                    branch: "branch work, with no commits yet".into(),
                    status: vec!["?? new.txt".into()],
                }
            );
        }
    }
}
