//! [`rule_files_in_force`]: the rule files a workspace's sessions follow, for Settings.

use std::collections::BTreeSet;
use std::path::Path;

use super::rule_file::{RULE_FILE_NAMES, read_user_rules, rules_of_dir};
use crate::builtin_tools::walk::walker;
use crate::protocol::RuleFile;

/// How deep the walk for nested rule files goes below the root.
const MAX_DEPTH: usize = 16;

/// How many entries the walk looks at before it stops (a huge workspace lists what it found).
const MAX_ENTRIES: usize = 100_000;

/// The user's file (at `user`, when it exists), the workspace root's rule file, then the rule
/// files of directories below it in path order. The walk skips `.git`, `node_modules`, `target`,
/// `dist` and what `.gitignore` ignores, and is bounded in depth and entries.
pub fn rule_files_in_force(root: &Path, user: Option<&Path>) -> Vec<RuleFile> {
    let mut found: Vec<RuleFile> = Vec::new();
    if let Some(rules) = user.and_then(read_user_rules) {
        found.push(rules.info(true));
    }
    if let Some(rules) = rules_of_dir(root, "") {
        found.push(rules.info(true));
    }
    let dirs = dirs_with_rule_files(root);
    found.extend(
        dirs.iter()
            .filter_map(|dir| rules_of_dir(root, dir))
            .map(|rules| rules.info(false)),
    );
    found
}

/// The directories below `root` (workspace-relative, with `/`) holding an entry with one of the
/// rule files' names.
fn dirs_with_rule_files(root: &Path) -> BTreeSet<String> {
    let mut dirs = BTreeSet::new();
    let walk = walker(root).max_depth(Some(MAX_DEPTH)).build();
    for entry in walk.filter_map(Result::ok).take(MAX_ENTRIES) {
        let name = entry.file_name();
        if entry.depth() < 2 || !RULE_FILE_NAMES.iter().any(|(n, _)| name == *n) {
            continue;
        }
        let Some(parent) = entry.path().parent() else {
            continue;
        };
        if let Ok(rel) = parent.strip_prefix(root) {
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            dirs.insert(parts.join("/"));
        }
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::RuleFileKind;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn lists_the_users_the_roots_and_the_nested_files_with_their_kinds() {
        let config = tempfile::tempdir().unwrap();
        let user = config.path().join("AGENTS.md");
        std::fs::write(&user, "mine").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "CLAUDE.md", "root");
        write(root, "src/api/AGENTS.md", "api");
        write(root, "src/api/CLAUDE.md", "not read: AGENTS.md is there");
        write(root, "web/.clinerules/a.md", "web");
        write(root, "node_modules/pkg/AGENTS.md", "skipped");
        write(root, "target/AGENTS.md", "skipped");
        write(root, "ignored/AGENTS.md", "skipped");
        write(root, ".gitignore", "ignored/\n");
        write(
            root,
            "big/AGENTS.md",
            &"x".repeat(super::super::MAX_RULE_BYTES + 1),
        );
        let listed = rule_files_in_force(root, Some(&user));
        let shown: Vec<(&str, RuleFileKind, bool, bool)> = listed
            .iter()
            .map(|f| (f.path.as_str(), f.kind, f.truncated, f.in_system_prompt))
            .collect();
        let user_shown = user.display().to_string();
        assert_eq!(
            shown,
            [
                (user_shown.as_str(), RuleFileKind::User, false, true),
                ("CLAUDE.md", RuleFileKind::ClaudeMd, false, true),
                ("big/AGENTS.md", RuleFileKind::AgentsMd, true, false),
                ("src/api/AGENTS.md", RuleFileKind::AgentsMd, false, false),
                ("web/.clinerules/", RuleFileKind::Clinerules, false, false),
            ]
        );
        assert_eq!(listed[3].bytes, 3);
    }

    #[test]
    fn a_workspace_without_rules_lists_nothing() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "src/main.rs", "");
        let missing = dir.path().join("no-such-user-file");
        assert!(rule_files_in_force(dir.path(), Some(&missing)).is_empty());
    }
}
