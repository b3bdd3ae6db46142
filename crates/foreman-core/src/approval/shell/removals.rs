//! What a command line deletes, as far as keeping the person's files is concerned: `rm` (with
//! or without `-r`) and `git clean` (which takes what git ignores with `-x`, only that with
//! `-X`), anywhere in the line, also behind wrappers and inside `sh -c`. The engine checks the
//! paths against what checkpoints keep (`checkpoints::coverage`) and asks before a command
//! that would delete what no checkpoint holds.
//!
//! Paths are as written. A glob stands for the folder it starts in; a path that starts with a
//! variable or `~` is left out (it names no folder of the workspace that can be known); a line
//! that changes directory (`cd`, `pushd`) has its relative paths read from each folder it names
//! too: it is better to look at too much than too little.

use super::ShellLine;
use super::words::{program_index, program_name};

/// One deletion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    /// What it deletes, relative to where it runs (empty: everything there, for `git clean`
    /// without a path).
    pub paths: Vec<String>,
    /// It deletes files git ignores.
    pub ignored: bool,
    /// It deletes files git sees.
    pub visible: bool,
}

/// The deletions of a line and the folders it changes to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Removals {
    pub removals: Vec<Removal>,
    /// The folders `cd` and `pushd` name (relative paths are read from each too).
    pub folders: Vec<String>,
}

impl ShellLine {
    /// What the line deletes.
    pub fn removals(&self) -> Removals {
        let mut found = Removals::default();
        for words in &self.everywhere {
            let Some(at) = program_index(words) else {
                continue;
            };
            let args = &words[at + 1..];
            match program_name(&words[at]) {
                "rm" => {
                    if let Some(removal) = rm(args) {
                        found.removals.push(removal);
                    }
                }
                "git" => {
                    if let Some(removal) = git_clean(args) {
                        found.removals.push(removal);
                    }
                }
                "cd" | "pushd" => {
                    if let Some(dir) = args.iter().find(|a| !a.starts_with('-'))
                        && let Some(dir) = literal_or_folder(dir)
                    {
                        found.folders.push(dir);
                    }
                }
                _ => {}
            }
        }
        found
    }
}

/// A word as a path: itself when literal, else the folder before its first glob (`src/*.db` is
/// `src`); `None` for a word that starts with a variable or `~`.
fn literal_or_folder(word: &str) -> Option<String> {
    if word.starts_with(['$', '~', '`']) {
        return None;
    }
    let special = |c: char| matches!(c, '*' | '?' | '[' | '{' | '$' | '`');
    Some(match word.find(special) {
        None => word.to_owned(),
        Some(cut) => match word[..cut].rfind('/') {
            Some(slash) => word[..slash].to_owned(),
            None => String::new(),
        },
    })
}

fn rm(args: &[String]) -> Option<Removal> {
    let mut paths = Vec::new();
    let mut options_done = false;
    for arg in args {
        if !options_done && arg == "--" {
            options_done = true;
            continue;
        }
        if !options_done && arg.starts_with('-') && arg.len() > 1 {
            continue;
        }
        paths.extend(literal_or_folder(arg));
    }
    (!paths.is_empty()).then_some(Removal {
        paths,
        ignored: true,
        visible: true,
    })
}

/// `git [global options] clean [options] [--] [paths]`.
fn git_clean(args: &[String]) -> Option<Removal> {
    // Global options before the subcommand; those that take a value take the next word.
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        let takes_value = matches!(
            args[i].as_str(),
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--exec-path"
        );
        i += if takes_value { 2 } else { 1 };
    }
    if args.get(i).map(String::as_str) != Some("clean") {
        return None;
    }
    let mut removal = Removal {
        paths: Vec::new(),
        ignored: false,
        visible: true,
    };
    let mut words = args[i + 1..].iter();
    let mut options_done = false;
    while let Some(arg) = words.next() {
        if options_done || !arg.starts_with('-') || arg == "-" {
            removal.paths.extend(literal_or_folder(arg));
            continue;
        }
        match arg.as_str() {
            "--" => options_done = true,
            "-n" | "--dry-run" => return None,
            "-e" | "--exclude" => {
                words.next();
            }
            long if long.starts_with("--") => {}
            short => {
                let letters = &short[1..];
                if letters.contains('n') {
                    return None;
                }
                if letters.contains('x') {
                    removal.ignored = true;
                }
                if letters.contains('X') {
                    removal.ignored = true;
                    removal.visible = false;
                }
                // `-e PATTERN` may be glued to other letters (`-fe x`): its value follows.
                if letters.ends_with('e') {
                    words.next();
                }
            }
        }
    }
    Some(removal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn removals(line: &str) -> Removals {
        ShellLine::parse_lexical(line).removals()
    }

    #[test]
    fn git_clean_and_rm_are_read_with_what_they_take() {
        let found = removals("git clean -fdx && rm -rf node_modules build/*.o");
        assert_eq!(found.removals.len(), 2, "{found:?}");
        assert!(found.removals.contains(&Removal {
            paths: vec!["node_modules".into(), "build".into()],
            ignored: true,
            visible: true,
        }));
        assert!(found.removals.contains(&Removal {
            paths: vec![],
            ignored: true,
            visible: true,
        }));
        let only_ignored = removals("git -C . clean -X -f -- src");
        assert_eq!(
            only_ignored.removals,
            vec![Removal {
                paths: vec!["src".into()],
                ignored: true,
                visible: false,
            }]
        );
        let plain = removals("git clean -fd");
        assert!(!plain.removals[0].ignored && plain.removals[0].visible);
        assert!(removals("git clean -ndx").removals.is_empty());
        assert!(removals("git status && ls").removals.is_empty());
        let nested = removals("cd web && sh -c 'rm -r dist'");
        assert_eq!(nested.folders, vec!["web".to_owned()]);
        assert_eq!(nested.removals[0].paths, vec!["dist".to_owned()]);
        assert!(removals("rm -rf $HOME/x ~/y").removals.is_empty());
    }
}
