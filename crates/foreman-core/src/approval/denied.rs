//! Deny rules on paths, for commands. A rule that denies `read(…)`, `edit(…)` or `write(…)` is
//! about the file, not the tool: [`DeniedPaths::find`] expands each against the workspace when
//! a command is decided on and again when it starts (a literal path as it is, a pattern by a
//! bounded walk), the sandbox hides the paths denied for reading like the credential paths and
//! keeps the ones denied for writing read-only (`agent/calls/sandboxing.rs`), and
//! [`DeniedPaths::named_by`] says which of them a command line names: a command that runs
//! outside the sandbox and names one asks, since nothing else keeps it from the file. That is
//! the weaker half: a command can reach a file without naming it, so only the sandbox makes a
//! deny rule hold for commands. Not covered even there: files created while the command runs,
//! a path denied for writing that is not there yet (a command naming it asks), files a pattern
//! matches beyond [`MAX_MATCHED`] or past [`MAX_VISITED`] entries of the workspace (a command
//! naming one asks), and anything inside `.git/`, which a pattern is never matched in.

use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

use super::facts::{Access, NamedDenied};
use super::rule::Rule;
use super::shell::ShellLine;

/// The most entries of the workspace one pattern's walk looks at.
pub const MAX_VISITED: usize = 50_000;
/// The most paths one pattern covers in the sandbox.
pub const MAX_MATCHED: usize = 1_000;
/// The most denied paths a card lists.
const SHOWN: usize = 20;

/// A path a deny rule keeps from commands, found in the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeniedPath {
    /// Relative to the workspace, `/`-separated (`keys/server.pem`).
    pub path: String,
    pub access: Access,
    /// The rule's text.
    pub rule: String,
    /// It is there (the sandbox can cover only what is there).
    pub exists: bool,
}

/// A pattern whose files were not all found within the bounds.
#[derive(Debug, Clone)]
struct Partial {
    glob: GlobMatcher,
    access: Access,
    rule: String,
}

/// The paths the deny rules keep from commands in one workspace, at one moment.
#[derive(Debug, Clone, Default)]
pub struct DeniedPaths {
    workspace: PathBuf,
    pub paths: Vec<DeniedPath>,
    partial: Vec<Partial>,
}

impl DeniedPaths {
    /// The paths `rules` deny in `workspace` now.
    pub fn find(rules: &[Rule], workspace: &Path) -> Self {
        let mut found = Self {
            workspace: workspace.to_path_buf(),
            ..Self::default()
        };
        for rule in rules {
            let Some((access, glob)) = rule.denied_path() else {
                continue;
            };
            let mut add = |path: String, exists: bool| {
                let entry = DeniedPath {
                    path,
                    access,
                    rule: rule.text.clone(),
                    exists,
                };
                if !found.paths.contains(&entry) {
                    found.paths.push(entry);
                }
            };
            let pattern = glob.glob().glob();
            // A whole folder (`secrets/**`) is covered as one, with what is added to it later.
            let folder = pattern.strip_suffix("/**").filter(|p| is_literal(p));
            if let Some(literal) = folder.or(is_literal(pattern).then_some(pattern)) {
                if let Some(path) = relative(literal, workspace) {
                    let exists = std::fs::symlink_metadata(workspace.join(&path)).is_ok();
                    add(path, exists);
                }
                continue;
            }
            if !walk(workspace, pattern, glob, |path| add(path, true)) {
                found.partial.push(Partial {
                    glob: glob.clone(),
                    access,
                    rule: rule.text.clone(),
                });
            }
        }
        found
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty() && self.partial.is_empty()
    }

    /// The absolute paths the sandbox covers: those denied for reading, and for writing.
    pub fn covered(&self) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let mut read = Vec::new();
        let mut write = Vec::new();
        for denied in self.paths.iter().filter(|d| d.exists) {
            let path = self.workspace.join(&denied.path);
            match denied.access {
                Access::Read => read.push(path),
                Access::Write => write.push(path),
            }
        }
        (read, write)
    }

    /// The denied paths `line` names: as an argument (also `--opt=PATH`, a folder holding one,
    /// a shell pattern matching one) or anywhere in its text; and whether the sandbox covers
    /// each.
    pub fn named_by(&self, line: &ShellLine) -> Vec<NamedDenied> {
        let forms: Vec<String> = line
            .everywhere
            .iter()
            .flatten()
            .flat_map(|word| {
                let value = word
                    .strip_prefix('-')
                    .and_then(|w| w.split_once('='))
                    .map(|(_, v)| v.to_owned());
                [Some(word.clone()), value]
            })
            .flatten()
            .filter_map(|word| relative(&word, &self.workspace))
            .collect();
        let mut named: Vec<NamedDenied> = Vec::new();
        for denied in &self.paths {
            let exactly = forms.iter().any(|f| names(f, &denied.path))
                || mentions(&line.text, &denied.path, &self.workspace);
            // Nothing holds a path that is not there.
            let held = denied.exists && forms.iter().any(|f| holds(f, &denied.path));
            if !(exactly || held) || named.iter().any(|n| n.path == denied.path) {
                continue;
            }
            let uncovered = (!denied.exists && denied.access == Access::Write)
                .then(|| "it is not there yet, so the sandbox cannot keep it read-only".to_owned());
            named.push(NamedDenied {
                path: denied.path.clone(),
                access: denied.access,
                rule: denied.rule.clone(),
                uncovered,
            });
        }
        for partial in &self.partial {
            for form in forms.iter().filter(|f| partial.glob.is_match(f.as_str())) {
                if named.iter().any(|n| &n.path == form) {
                    continue;
                }
                named.push(NamedDenied {
                    path: form.clone(),
                    access: partial.access,
                    rule: partial.rule.clone(),
                    uncovered: Some(format!(
                        "the rule matches more files than the sandbox covers ({MAX_MATCHED})"
                    )),
                });
            }
        }
        named
    }

    /// The denied paths a command's line names or its output mentions, for its card.
    /// At most [`SHOWN`] of them.
    pub fn touched(&self, line: Option<&ShellLine>, output: &str) -> Vec<String> {
        let mut touched: Vec<String> = line
            .map(|l| self.named_by(l).into_iter().map(|n| n.path).collect())
            .unwrap_or_default();
        for denied in &self.paths {
            if !touched.contains(&denied.path) && mentions(output, &denied.path, &self.workspace) {
                touched.push(denied.path.clone());
            }
        }
        touched.truncate(SHOWN);
        touched
    }
}

/// A pattern without wildcards, braces or escapes.
fn is_literal(pattern: &str) -> bool {
    !pattern.contains(['*', '?', '[', ']', '{', '}', '\\'])
}

/// `path` (as written in a rule or a command, relative to the workspace root or absolute
/// inside it) relative to `workspace`, `/`-separated, with `.` and `..` taken out; `.` for the
/// root; `None` outside it.
fn relative(path: &str, workspace: &Path) -> Option<String> {
    let path = Path::new(path);
    let path = match path.strip_prefix(workspace) {
        Ok(rest) => rest,
        Err(_) if path.is_absolute() => return None,
        Err(_) => path,
    };
    let mut parts: Vec<String> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    if parts
        .first()
        .is_some_and(|p| p.starts_with('~') || p.starts_with('-'))
    {
        return None;
    }
    Some(match parts.is_empty() {
        true => ".".to_owned(),
        false => parts.join("/"),
    })
}

/// Whether the command's word `form` names `denied` itself, something inside it, or is a
/// shell pattern matching it or a folder holding it.
fn names(form: &str, denied: &str) -> bool {
    if form == denied || form.starts_with(&format!("{denied}/")) {
        return true;
    }
    if is_literal(form) {
        return false;
    }
    let Ok(glob) = GlobBuilder::new(form).literal_separator(true).build() else {
        return false;
    };
    let glob = glob.compile_matcher();
    let mut at = Some(Path::new(denied));
    while let Some(path) = at.filter(|p| !p.as_os_str().is_empty()) {
        if glob.is_match(path) {
            return true;
        }
        at = path.parent();
    }
    false
}

/// Whether the folder `form` holds `denied` (the workspace root holds everything).
fn holds(form: &str, denied: &str) -> bool {
    form == "." || denied.starts_with(&format!("{form}/"))
}

/// Whether `text` names `path` (relative to `workspace`), or the same under the workspace's
/// absolute path, as a path of its own: not as the end of a longer name (`mysecret.txt`,
/// `docs/secret.txt`) nor the start of one (`secret.txt.bak`).
fn mentions(text: &str, path: &str, workspace: &Path) -> bool {
    let absolute = workspace.join(path).display().to_string();
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
    [path, absolute.as_str()].iter().any(|form| {
        text.match_indices(form).any(|(at, _)| {
            let before = &text[..at];
            let starts = before.ends_with("./")
                || before
                    .chars()
                    .next_back()
                    .is_none_or(|c| !part(c) && c != '/');
            let after = text[at + form.len()..].chars().next();
            starts && !after.is_some_and(part)
        })
    })
}

/// Walks `workspace` for the entries `glob` (the rule's `pattern`) matches, from the folder its
/// literal leading part names, never into `.git` nor through a symbolic link, giving each to
/// `found` (a matching folder whole). `false` when the bounds stopped it.
fn walk(
    workspace: &Path,
    pattern: &str,
    glob: &GlobMatcher,
    mut found: impl FnMut(String),
) -> bool {
    let start: Vec<&str> = pattern
        .split('/')
        .take_while(|part| is_literal(part))
        .collect();
    // The last part of a pattern is a name to match, not a folder to start from.
    let start = match start.len() == pattern.split('/').count() {
        true => &start[..start.len().saturating_sub(1)],
        false => &start[..],
    };
    let mut stack: Vec<(PathBuf, String)> = match start.is_empty() {
        true => vec![(workspace.to_path_buf(), String::new())],
        false => vec![(workspace.join(start.join("/")), start.join("/"))],
    };
    let (mut visited, mut matched) = (0usize, 0usize);
    while let Some((dir, rel)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            visited += 1;
            if visited > MAX_VISITED {
                return false;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == ".git" {
                continue;
            }
            let path = match rel.is_empty() {
                true => name,
                false => format!("{rel}/{name}"),
            };
            if glob.is_match(&path) {
                matched += 1;
                if matched > MAX_MATCHED {
                    return false;
                }
                found(path);
            } else if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push((entry.path(), path));
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::RuleAction;

    fn rules(texts: &[&str]) -> Vec<Rule> {
        texts
            .iter()
            .map(|t| Rule::parse(RuleAction::Deny, t).unwrap())
            .collect()
    }

    fn workspace() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for file in [
            "secret.txt",
            "keys/a.pem",
            "keys/deep/b.pem",
            "src/main.rs",
            ".git/x.pem",
        ] {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        dir
    }

    fn named(denied: &DeniedPaths, line: &str) -> Vec<String> {
        denied
            .named_by(&ShellLine::parse_lexical(line))
            .into_iter()
            .map(|n| n.path)
            .collect()
    }

    #[test]
    fn rules_expand_to_the_files_they_deny_and_only_path_rules_count() {
        let dir = workspace();
        let denied = DeniedPaths::find(
            &rules(&[
                "read(secret.txt)",
                "read(**/*.pem)",
                "edit(out.txt)",
                "bash(rm *)",
            ]),
            dir.path(),
        );
        let mut paths: Vec<(&str, bool)> = denied
            .paths
            .iter()
            .map(|d| (d.path.as_str(), d.exists))
            .collect();
        paths.sort();
        assert_eq!(
            paths,
            [
                ("keys/a.pem", true),
                ("keys/deep/b.pem", true),
                ("out.txt", false),
                ("secret.txt", true)
            ]
        );
        let (read, write) = denied.covered();
        assert_eq!(read.len(), 3);
        assert!(write.is_empty(), "out.txt is not there to cover");
        // An allow rule on a path keeps nothing from commands.
        let allowed = Rule::parse(RuleAction::Allow, "read(secret.txt)").unwrap();
        assert!(DeniedPaths::find(&[allowed], dir.path()).is_empty());
    }

    #[test]
    fn a_command_names_a_denied_path_however_it_writes_it() {
        let dir = workspace();
        let ws = dir.path();
        let denied = DeniedPaths::find(&rules(&["read(secret.txt)", "read(keys/**)"]), ws);
        let abs = format!("cat {}/secret.txt", ws.display());
        for line in [
            "cat secret.txt",
            "cat ./secret.txt",
            "cat src/../secret.txt",
            "python3 -c \"print(open('secret.txt').read())\"",
            "{ cat secret.txt; }",
            "cat < secret.txt",
            "head secr*",
            "grep -r x .",
            "tool --input=secret.txt",
            abs.as_str(),
        ] {
            assert!(
                named(&denied, line).contains(&"secret.txt".to_owned()),
                "{line}"
            );
        }
        assert_eq!(named(&denied, "cat keys/a.pem"), ["keys"]);
        assert_eq!(named(&denied, "ls keys"), ["keys"]);
        for line in [
            "cat mysecret.txt",
            "cat docs/secret.txt",
            "cat secret.txt.bak",
            "ls src",
        ] {
            assert!(named(&denied, line).is_empty(), "{line}");
        }
    }

    #[test]
    fn a_write_denied_path_that_is_not_there_is_not_covered() {
        let dir = workspace();
        let denied = DeniedPaths::find(&rules(&["edit(out.txt)", "edit(src/main.rs)"]), dir.path());
        let line = ShellLine::parse_lexical("echo x > out.txt && touch src/main.rs");
        let named = denied.named_by(&line);
        assert_eq!(named.len(), 2);
        assert!(named[0].uncovered.is_some(), "{named:?}");
        assert_eq!(named[1].uncovered, None);
        // A folder cannot hold what is not there.
        assert!(
            denied
                .named_by(&ShellLine::parse_lexical("git add ."))
                .iter()
                .all(|n| n.path != "out.txt")
        );
    }

    #[test]
    fn a_pattern_past_the_bounds_leaves_what_a_command_names_uncovered() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..=MAX_MATCHED {
            std::fs::write(dir.path().join(format!("{n}.key")), "x").unwrap();
        }
        let denied = DeniedPaths::find(&rules(&["read(*.key)"]), dir.path());
        assert_eq!(denied.covered().0.len(), MAX_MATCHED);
        let left = (0..=MAX_MATCHED)
            .map(|n| format!("{n}.key"))
            .find(|name| !denied.paths.iter().any(|d| &d.path == name))
            .unwrap();
        let named = denied.named_by(&ShellLine::parse_lexical(&format!("cat {left}")));
        assert_eq!(named.len(), 1, "{named:?}");
        assert!(named[0].uncovered.is_some());
    }

    #[test]
    fn what_a_command_printed_counts_for_its_card() {
        let dir = workspace();
        let denied = DeniedPaths::find(&rules(&["read(secret.txt)"]), dir.path());
        let printed = "grep: ./secret.txt: Permission denied";
        assert_eq!(denied.touched(None, printed), ["secret.txt"]);
        assert!(denied.touched(None, "nothing here").is_empty());
    }
}
