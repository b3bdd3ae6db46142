//! The rule file of one directory ([`rules_of_dir`]) and the user's own file
//! ([`read_user_rules`]), read and cut for the model ([`RuleText`]).
//!
//! A workspace's rule file must stay inside the workspace: a link named `AGENTS.md` that points
//! elsewhere (`~/.ssh/id_rsa`, say) is not read, so a cloned repository cannot make the agent send
//! the user's files to the model.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::protocol::{RuleFile, RuleFileKind};

/// The most of one rule file the model is given.
pub const MAX_RULE_BYTES: usize = 64 * 1024;

/// The names a directory's rule file may have, in the order they are looked for: the first one
/// present is the directory's only rule file.
pub const RULE_FILE_NAMES: [(&str, RuleFileKind); 4] = [
    ("AGENTS.md", RuleFileKind::AgentsMd),
    ("CLAUDE.md", RuleFileKind::ClaudeMd),
    ("GEMINI.md", RuleFileKind::GeminiMd),
    (".clinerules", RuleFileKind::Clinerules),
];

/// A rule file as the model is given it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleText {
    /// Workspace-relative with `/` (a `.clinerules` folder ends with `/`); the full path for the
    /// user's file.
    pub shown: String,
    pub kind: RuleFileKind,
    /// Its text, cut at [`MAX_RULE_BYTES`] with a note saying so.
    pub text: String,
    /// Its size on disk.
    pub bytes: u64,
    /// Whether it was cut.
    pub truncated: bool,
}

impl RuleText {
    /// What Settings lists of it.
    pub fn info(&self, in_system_prompt: bool) -> RuleFile {
        RuleFile {
            path: self.shown.clone(),
            kind: self.kind,
            bytes: self.bytes,
            truncated: self.truncated,
            in_system_prompt,
        }
    }

    /// The name of the file read when it is a fallback (`CLAUDE.md`, …): `None` for `AGENTS.md`
    /// and the user's file.
    fn fallback_note(&self) -> Option<&'static str> {
        match self.kind {
            RuleFileKind::AgentsMd | RuleFileKind::User => None,
            _ => Some(" (there is no AGENTS.md there, so this file is read instead)"),
        }
    }

    /// The line that introduces it to the model, saying which file it is, then its text.
    /// `scope` says what it applies to (`the whole workspace`, `files under src/api/`).
    pub fn introduced(&self, scope: &str) -> String {
        let mut out = format!(
            "Instructions from {}{} (they apply to {scope}):\n\n",
            self.shown,
            self.fallback_note().unwrap_or("")
        );
        out.push_str(&self.text);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out
    }
}

/// The rule file of the directory `rel` of the workspace `root` (`""` is the root), when it has
/// one: the first of [`RULE_FILE_NAMES`] present there and inside the workspace. A file that
/// cannot be read is passed over for the next name.
pub fn rules_of_dir(root: &Path, rel: &str) -> Option<RuleText> {
    let real_root = root.canonicalize().ok()?;
    let rel = rel.trim_end_matches('/');
    let dir = root.join(rel);
    RULE_FILE_NAMES.iter().find_map(|&(name, kind)| {
        let path = dir.join(name);
        let real = inside(&real_root, &path)?;
        let mut shown = match rel {
            "" | "." => name.to_owned(),
            _ => format!("{rel}/{name}"),
        };
        let read = if real.is_file() {
            read_cut(&real).map(Some)
        } else if kind == RuleFileKind::Clinerules && real.is_dir() {
            shown.push('/');
            read_rules_folder(&real_root, &real, &shown)
        } else {
            return None;
        };
        match read {
            Ok(Some((text, bytes))) => Some(cut_text(shown, kind, text, bytes)),
            Ok(None) => None,
            Err(error) => {
                tracing::warn!(%error, path = %path.display(), "a rule file cannot be read");
                None
            }
        }
    })
}

/// The user's own rule file at `path`, when it exists and can be read.
pub fn read_user_rules(path: &Path) -> Option<RuleText> {
    if !path.is_file() {
        return None;
    }
    match read_cut(path) {
        Ok((text, bytes)) => Some(cut_text(
            path.display().to_string(),
            RuleFileKind::User,
            text,
            bytes,
        )),
        Err(error) => {
            tracing::warn!(%error, path = %path.display(), "the user's rule file cannot be read");
            None
        }
    }
}

/// `path`'s real location when it exists inside `real_root`.
fn inside(real_root: &Path, path: &Path) -> Option<PathBuf> {
    let real = path.canonicalize().ok()?;
    real.starts_with(real_root).then_some(real)
}

/// The start of the file at `path` (one byte past the limit, to tell a cut), and its size.
fn read_cut(path: &Path) -> std::io::Result<(Vec<u8>, u64)> {
    let file = std::fs::File::open(path)?;
    let bytes = file.metadata()?.len();
    let mut start = Vec::new();
    file.take(MAX_RULE_BYTES as u64 + 1)
        .read_to_end(&mut start)?;
    Ok((start, bytes))
}

/// The `*.md` files of a `.clinerules` folder in name order, each introduced by its path, and
/// their size together; `None` when it has none. Reading stops past the limit.
fn read_rules_folder(
    real_root: &Path,
    folder: &Path,
    shown: &str,
) -> std::io::Result<Option<(Vec<u8>, u64)>> {
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(folder)?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let real = inside(real_root, &entry.path())?;
            (name.ends_with(".md") && real.is_file()).then_some((name, real))
        })
        .collect();
    if files.is_empty() {
        return Ok(None);
    }
    files.sort();
    let mut text = Vec::new();
    let mut bytes = 0;
    for (name, path) in files {
        if text.len() > MAX_RULE_BYTES {
            bytes += std::fs::metadata(&path)?.len();
            continue;
        }
        let (start, size) = read_cut(&path)?;
        bytes += size;
        if !text.is_empty() {
            if !text.ends_with(b"\n") {
                text.push(b'\n');
            }
            text.push(b'\n');
        }
        text.extend_from_slice(format!("# {shown}{name}\n\n").as_bytes());
        text.extend_from_slice(&start);
    }
    Ok(Some((text, bytes)))
}

/// `start` as text, cut at [`MAX_RULE_BYTES`] on a character boundary, with a note when cut.
fn cut_text(shown: String, kind: RuleFileKind, start: Vec<u8>, bytes: u64) -> RuleText {
    let truncated = start.len() > MAX_RULE_BYTES;
    let kept = if truncated {
        complete_prefix(&start[..MAX_RULE_BYTES])
    } else {
        &start[..]
    };
    let mut text = String::from_utf8_lossy(kept).into_owned();
    if truncated {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!(
            "[Cut here: {shown} is {bytes} bytes; only its first {} KiB are given. Read the \
             file itself for the rest.]\n",
            MAX_RULE_BYTES / 1024
        ));
    }
    RuleText {
        shown,
        kind,
        text,
        bytes,
        truncated,
    }
}

/// `bytes` without a UTF-8 sequence cut off at its end.
fn complete_prefix(bytes: &[u8]) -> &[u8] {
    let mut start = bytes.len();
    // Back over continuation bytes (at most three) to the last sequence's first byte.
    while start > 0 && bytes.len() - start < 3 && bytes[start - 1] & 0xC0 == 0x80 {
        start -= 1;
    }
    let Some(lead) = start.checked_sub(1).map(|i| bytes[i]) else {
        return bytes;
    };
    let needs = match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    };
    if bytes.len() - (start - 1) < needs {
        &bytes[..start - 1]
    } else {
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn agents_md_comes_first_then_each_fallback_in_turn() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert_eq!(rules_of_dir(root, ""), None);
        write(root, ".clinerules", "cline");
        assert_eq!(
            rules_of_dir(root, "").unwrap().kind,
            RuleFileKind::Clinerules
        );
        write(root, "GEMINI.md", "gemini");
        assert_eq!(rules_of_dir(root, "").unwrap().kind, RuleFileKind::GeminiMd);
        write(root, "CLAUDE.md", "claude");
        let claude = rules_of_dir(root, "").unwrap();
        assert_eq!(
            (claude.kind, claude.shown.as_str(), claude.text.as_str()),
            (RuleFileKind::ClaudeMd, "CLAUDE.md", "claude")
        );
        write(root, "AGENTS.md", "agents");
        let agents = rules_of_dir(root, "").unwrap();
        assert_eq!(
            (
                agents.kind,
                agents.text.as_str(),
                agents.bytes,
                agents.truncated
            ),
            (RuleFileKind::AgentsMd, "agents", 6, false)
        );
    }

    #[test]
    fn a_nested_file_is_shown_by_its_workspace_path() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "src/api/CLAUDE.md", "Use snake_case.");
        let rules = rules_of_dir(dir.path(), "src/api").unwrap();
        assert_eq!(rules.shown, "src/api/CLAUDE.md");
        assert_eq!(
            rules.introduced("files under src/api/"),
            "Instructions from src/api/CLAUDE.md (there is no AGENTS.md there, so this file is \
             read instead) (they apply to files under src/api/):\n\nUse snake_case.\n"
        );
        assert_eq!(rules_of_dir(dir.path(), "src"), None);
    }

    #[test]
    fn a_clinerules_folder_gives_its_markdown_files_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), ".clinerules/02-tests.md", "Run the tests.");
        write(dir.path(), ".clinerules/01-style.md", "Tabs.\n");
        write(dir.path(), ".clinerules/notes.txt", "not rules");
        let rules = rules_of_dir(dir.path(), "").unwrap();
        assert_eq!(rules.shown, ".clinerules/");
        assert_eq!(
            rules.text,
            "# .clinerules/01-style.md\n\nTabs.\n\n# .clinerules/02-tests.md\n\nRun the tests."
        );
        assert_eq!(rules.bytes, 20);
        std::fs::remove_file(dir.path().join(".clinerules/01-style.md")).unwrap();
        std::fs::remove_file(dir.path().join(".clinerules/02-tests.md")).unwrap();
        assert_eq!(
            rules_of_dir(dir.path(), ""),
            None,
            "a folder without rules is none"
        );
    }

    #[test]
    fn a_large_file_is_cut_on_a_character_boundary_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        // `é` is two bytes: the limit falls inside one after the leading `a`.
        let text = format!("a{}", "é".repeat(MAX_RULE_BYTES));
        write(dir.path(), "AGENTS.md", &text);
        let rules = rules_of_dir(dir.path(), "").unwrap();
        assert!(rules.truncated);
        assert_eq!(rules.bytes, text.len() as u64);
        let (kept, note) = rules.text.split_once('\n').unwrap();
        assert_eq!(kept, &text[..MAX_RULE_BYTES - 1]);
        assert_eq!(
            note,
            format!(
                "[Cut here: AGENTS.md is {} bytes; only its first 64 KiB are given. Read the \
                 file itself for the rest.]\n",
                text.len()
            )
        );
    }

    #[test]
    fn a_file_exactly_at_the_limit_is_whole() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "AGENTS.md", &"x".repeat(MAX_RULE_BYTES));
        let rules = rules_of_dir(dir.path(), "").unwrap();
        assert!(!rules.truncated);
        assert_eq!(rules.text.len(), MAX_RULE_BYTES);
    }

    #[test]
    fn complete_prefix_drops_only_a_cut_sequence() {
        assert_eq!(complete_prefix(b"ab"), b"ab");
        assert_eq!(complete_prefix("a€".as_bytes()), "a€".as_bytes());
        assert_eq!(complete_prefix(&"a€".as_bytes()[..3]), b"a");
        assert_eq!(complete_prefix(&"a😀".as_bytes()[..4]), b"a");
        assert_eq!(complete_prefix(&"a😀".as_bytes()[..2]), b"a");
        assert_eq!(complete_prefix(b""), b"");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_workspace_is_not_read() {
        let outside = tempfile::tempdir().unwrap();
        write(outside.path(), "secret", "the user's key");
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("AGENTS.md"))
            .unwrap();
        write(dir.path(), "CLAUDE.md", "fallback");
        assert_eq!(
            rules_of_dir(dir.path(), "").unwrap().kind,
            RuleFileKind::ClaudeMd
        );
        // A link inside the workspace is followed.
        std::fs::remove_file(dir.path().join("AGENTS.md")).unwrap();
        write(dir.path(), "docs/rules.md", "linked");
        std::os::unix::fs::symlink("docs/rules.md", dir.path().join("AGENTS.md")).unwrap();
        assert_eq!(rules_of_dir(dir.path(), "").unwrap().text, "linked");
    }

    #[test]
    fn the_users_file_is_read_by_its_full_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("AGENTS.md");
        assert_eq!(read_user_rules(&path), None);
        std::fs::write(&path, "Answer in French.").unwrap();
        let rules = read_user_rules(&path).unwrap();
        assert_eq!(rules.kind, RuleFileKind::User);
        assert_eq!(rules.shown, path.display().to_string());
        assert!(rules.info(true).in_system_prompt);
    }
}
