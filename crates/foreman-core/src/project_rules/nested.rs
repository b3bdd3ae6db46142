//! [`NestedRules`]: the rule files below the workspace root, given to the model the first time
//! a tool call touches their directory.
//!
//! A call's facts name its path (the file it reads or changes, the directory it lists or
//! searches); the directories from the root down to it are checked, and each rule file there not
//! given yet is appended to the call's result for the model. The root's own file is in the system
//! prompt and is never given here.

use std::collections::HashSet;
use std::path::{Component, Path};

use super::rule_file::{RuleText, rules_of_dir};

/// Which directories' rule files an agent was given. Each agent (the session's, a sub-agent)
/// has its own, since each has its own conversation. It is not stored: a resumed session may
/// give a file again, which costs a few tokens and harms nothing.
#[derive(Debug, Default, Clone)]
pub struct NestedRules {
    given: HashSet<String>,
}

impl NestedRules {
    /// The rule files not given yet of the directories between `root` and `path` (workspace-
    /// relative, as a call's facts give it; `path` itself when it is a directory), introduced for
    /// the model, nearest the root first; they count as given from now on.
    pub fn take_for(&mut self, root: &Path, path: &str) -> Option<String> {
        let mut found: Vec<(String, RuleText)> = Vec::new();
        for dir in dirs_to(root, path) {
            if self.given.contains(&dir) {
                continue;
            }
            if let Some(rules) = rules_of_dir(root, &dir) {
                self.given.insert(dir.clone());
                found.push((dir, rules));
            }
        }
        if found.is_empty() {
            return None;
        }
        let parts: Vec<String> = found
            .iter()
            .map(|(dir, rules)| rules.introduced(&format!("files under {dir}/")))
            .collect();
        Some(parts.join("\n"))
    }
}

/// The directories below `root` on the way to `path`, with `/`, nearest the root first: `src`
/// and `src/api` for `src/api/x.rs`, and `src/api` too when it is a directory.
pub fn dirs_to(root: &Path, path: &str) -> Vec<String> {
    let rel = Path::new(path);
    if rel.is_absolute() {
        return Vec::new();
    }
    let mut names: Vec<String> = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(name) => names.push(name.to_string_lossy().into_owned()),
            Component::CurDir => {}
            // Not a plain path inside the workspace (the facts never give one).
            _ => return Vec::new(),
        }
    }
    if !root.join(rel).is_dir() {
        names.pop();
    }
    (1..=names.len()).map(|n| names[..n].join("/")).collect()
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
    fn the_directories_on_the_way_to_a_path() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "src/api/x.rs", "");
        assert_eq!(dirs_to(dir.path(), "src/api/x.rs"), ["src", "src/api"]);
        assert_eq!(dirs_to(dir.path(), "src/api"), ["src", "src/api"]);
        assert_eq!(dirs_to(dir.path(), "./src"), ["src"]);
        assert_eq!(dirs_to(dir.path(), "src/new/file.rs"), ["src", "src/new"]);
        assert!(dirs_to(dir.path(), ".").is_empty());
        assert!(dirs_to(dir.path(), "top.rs").is_empty());
        assert!(dirs_to(dir.path(), "../up/x.rs").is_empty());
        assert!(dirs_to(dir.path(), "/etc/passwd").is_empty());
    }

    #[test]
    fn each_directory_is_given_once_and_the_root_never() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "AGENTS.md", "root rules");
        write(root, "src/AGENTS.md", "src rules");
        write(root, "src/api/GEMINI.md", "api rules");
        write(root, "src/api/x.rs", "");
        let mut nested = NestedRules::default();
        assert_eq!(
            nested.take_for(root, "src/api/x.rs").unwrap(),
            "Instructions from src/AGENTS.md (they apply to files under src/):\n\nsrc rules\n\n\
             Instructions from src/api/GEMINI.md (there is no AGENTS.md there, so this file is \
             read instead) (they apply to files under src/api/):\n\napi rules\n"
        );
        assert_eq!(nested.take_for(root, "src/api/x.rs"), None);
        assert_eq!(nested.take_for(root, "src/api"), None);
        assert_eq!(nested.take_for(root, "x.rs"), None);
        // Another agent has its own record.
        assert!(NestedRules::default().take_for(root, "src").is_some());
    }

    #[test]
    fn a_clinerules_folder_applies_to_its_parent() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "web/.clinerules/a.md", "Use hooks.");
        let given = NestedRules::default().take_for(dir.path(), "web").unwrap();
        assert!(
            given.starts_with(
                "Instructions from web/.clinerules/ (there is no AGENTS.md there, so this file \
                 is read instead) (they apply to files under web/):"
            ),
            "{given}"
        );
    }

    #[test]
    fn a_file_added_later_is_given_when_next_touched() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "lib/a.rs", "");
        let mut nested = NestedRules::default();
        assert_eq!(nested.take_for(dir.path(), "lib/a.rs"), None);
        write(dir.path(), "lib/AGENTS.md", "later");
        assert!(
            nested
                .take_for(dir.path(), "lib/a.rs")
                .unwrap()
                .ends_with("later\n")
        );
    }
}
