//! A skill as the session holds it (`crate::slash` finds them), and the text loading it gives the
//! model: the `skill` tool's result and the start of a `/skill` message.

use std::path::{Path, PathBuf};

/// Most files listed beside a `SKILL.md`.
const MAX_LISTED_FILES: usize = 200;

/// One skill, as `crate::slash` finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    pub name: String,
    pub description: String,
    /// Its `allowed-tools`, as written (Claude Code's names).
    pub allowed_tools: Vec<String>,
    /// Its folder, absolute.
    pub dir: PathBuf,
    /// Its `SKILL.md` as the user would write it (`.claude/skills/pdf/SKILL.md`).
    pub source: String,
    /// The instructions after the front matter.
    pub body: String,
}

impl Skill {
    /// What loading the skill gives the model: where it is, the files beside it and its
    /// instructions (the `skill` tool's result, and the start of a `/skill` message).
    pub fn load_text(&self) -> String {
        let files = files_beside(&self.dir);
        let listed = if files.is_empty() {
            "(none)".to_owned()
        } else {
            files.join("\n")
        };
        format!(
            "Skill `{}` ({}).\nIts folder: {}\nFiles in it besides SKILL.md (read them with \
             `read` at their absolute path, run its scripts with `bash`):\n{listed}\n\n{}",
            self.name,
            self.source,
            self.dir.display(),
            self.body.trim()
        )
    }
}

/// The files in `dir` and below, relative to it, sorted, without `SKILL.md` and hidden entries.
fn files_beside(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                pending.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                let relative = relative.to_string_lossy().replace('\\', "/");
                if relative != "SKILL.md" {
                    files.push(relative);
                }
            }
        }
        if files.len() > MAX_LISTED_FILES {
            break;
        }
    }
    files.sort();
    if files.len() > MAX_LISTED_FILES {
        let more = files.len() - MAX_LISTED_FILES;
        files.truncate(MAX_LISTED_FILES);
        files.push(format!("… and {more} more"));
    }
    files
}
