//! [`rule_warnings`]: what keeps the rule files of the system prompt (the user's own and the
//! workspace root's) from reaching the model as they are written, for the user to hear of. It
//! looks at the files the way [`rules_of_dir`](super::rules_of_dir) and
//! [`read_user_rules`](super::read_user_rules) read them, which pass such a file over quietly.

use std::path::Path;

use super::rule_file::{MAX_RULE_BYTES, RULE_FILE_NAMES};
use crate::protocol::RuleFileKind;

/// Each problem of the user's file (at `user`) and of the rule file of `root`, in words that
/// name the file and say what the model does not get.
pub fn rule_warnings(root: &Path, user: Option<&Path>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(path) = user.filter(|p| p.is_file()) {
        let shown = path.display().to_string();
        if let Err(problem) | Ok(Some(problem)) = file_problem(path, &shown) {
            out.push(problem);
        }
    }
    let Ok(real_root) = root.canonicalize() else {
        return out;
    };
    for (name, kind) in RULE_FILE_NAMES {
        let path = root.join(name);
        if std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        let real = match path.canonicalize() {
            Ok(real) => real,
            Err(e) => {
                out.push(format!(
                    "{name} is a link that leads nowhere ({e}), so it is not read."
                ));
                continue;
            }
        };
        if !real.starts_with(&real_root) {
            out.push(format!(
                "{name} points outside the workspace (to {}), so it is not read: a \
                 workspace's rule file may not send the model your other files.",
                real.display()
            ));
            continue;
        }
        if real.is_file() {
            match file_problem(&real, name) {
                // Passed over for the next name.
                Err(problem) => out.push(problem),
                // The first file that can be read is the one the model gets.
                Ok(cut) => {
                    out.extend(cut);
                    break;
                }
            }
        } else if kind == RuleFileKind::Clinerules && real.is_dir() {
            match std::fs::read_dir(&real) {
                Ok(_) => break,
                Err(e) => out.push(format!(
                    "{name}/ cannot be read ({e}), so its rules are not given to the model."
                )),
            }
        }
    }
    out
}

/// Why the rule file at `path` does not reach the model: `Err` when it cannot be read at all,
/// `Ok(Some)` when it is cut.
fn file_problem(path: &Path, shown: &str) -> Result<Option<String>, String> {
    let size = match std::fs::File::open(path).and_then(|f| f.metadata()) {
        Ok(meta) => meta.len(),
        Err(e) => {
            return Err(format!(
                "{shown} cannot be read ({e}), so its rules are not given to the model."
            ));
        }
    };
    Ok((size > MAX_RULE_BYTES as u64).then(|| {
        format!(
            "{shown} is {} KiB; the model is given only its first {} KiB.",
            size.div_ceil(1024),
            MAX_RULE_BYTES / 1024
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_healthy_file_says_nothing_and_problems_name_their_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(&root).unwrap();
        assert!(rule_warnings(&root, None).is_empty());
        std::fs::write(root.join("AGENTS.md"), "Be brief.\n").unwrap();
        assert!(rule_warnings(&root, None).is_empty());

        let user = dir.path().join("mine.md");
        std::fs::write(&user, "x".repeat(MAX_RULE_BYTES + 10)).unwrap();
        let warned = rule_warnings(&root, Some(&user));
        assert_eq!(
            warned,
            [format!(
                "{} is 65 KiB; the model is given only its first 64 KiB.",
                user.display()
            )]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_workspace_is_named_and_the_fallback_still_counts() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(&root).unwrap();
        let secret = dir.path().join("secret.txt");
        std::fs::write(&secret, "key").unwrap();
        std::os::unix::fs::symlink(&secret, root.join("AGENTS.md")).unwrap();
        std::os::unix::fs::symlink(root.join("gone.md"), root.join("CLAUDE.md")).unwrap();
        std::fs::write(root.join("GEMINI.md"), "Rules.\n").unwrap();
        let warned = rule_warnings(&root, None);
        assert_eq!(warned.len(), 2, "{warned:?}");
        assert!(
            warned[0].starts_with("AGENTS.md points outside the workspace"),
            "{warned:?}"
        );
        assert!(
            warned[1].starts_with("CLAUDE.md is a link that leads nowhere"),
            "{warned:?}"
        );
    }
}
