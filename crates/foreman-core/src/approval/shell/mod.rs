//! What a shell command line runs, read with a real shell grammar (tree-sitter-bash) before any
//! rule is matched against it.
//!
//! A line is *plain* when it is nothing but simple commands (words, quoted strings, plain
//! variable expansions, redirections to files inside the workspace) joined by `;`, `&&`, `||`,
//! `|` and newlines. Only a plain line can be allowed by rules, and only when every one of its
//! commands is. Anything else — a command or process substitution, a subshell or group, a
//! background `&`, a loop, a function, a program that runs a further command (`eval`, `sh -c`,
//! `xargs`, `find -exec`, `sudo`…), an option, argument or variable that runs a program or code
//! or deletes files (`git -c`, `rg --pre`, `sed 's/x/y/e'`, `find -delete`, `python -c`,
//! `PATH=…`, `LD_PRELOAD=…`: the tables of [`options`]), a write outside the workspace or into
//! its protected folders (`.git/`, `.foreman/`), by a redirection or by the command itself
//! (`git diff --output=F`, `sed -i … F`, `cp A F`, `tee F`, `curl -o F`) — is [`NotPlain`], and
//! the approval mode decides as if no rule existed.
//!
//! Deny and ask rules see [`ShellLine::everywhere`]: every command anywhere in the line, also
//! inside substitutions, subshells, `sh -c` scripts and behind wrappers.

mod options;
pub mod removals;
mod syntax;
mod words;
mod wrappers;

use std::fmt;
use std::path::{Component, Path};

use crate::boundary::PROTECTED_DIRS;

pub use words::{dequote, is_assignment, program_index, program_name};

/// Why rules cannot allow a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotPlain {
    Substitution,
    ProcessSubstitution,
    Background,
    /// A shell variable set on its own (`X=1`), which later words may expand.
    Assignment,
    ProgramNotLiteral,
    Unparsable,
    /// An expansion that evaluates something (arithmetic, subscripts, offsets).
    Expansion(String),
    /// A shell construct other than a simple command.
    Construct(String),
    /// A program that runs a further command; the text says which.
    RunsCommand(String),
    WritesOutside(String),
    /// A redirection whose target is an expansion, or relative after a change of directory.
    WritesUnknown(String),
    /// A write into a folder of the workspace whose files always need approval (`.git/`).
    WritesProtected(String),
    /// An option or argument of `program` that runs another program or code, or deletes
    /// files (`option` as shown; empty for the program itself, e.g. an editor).
    DangerousOption {
        program: String,
        option: String,
        why: String,
    },
    /// A variable set for a command that changes what runs (`PATH`, `LD_PRELOAD`, `PAGER`…).
    DangerousVariable {
        name: String,
        why: String,
    },
}

impl fmt::Display for NotPlain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Substitution => f.write_str("it runs a command substitution `$(…)`"),
            Self::ProcessSubstitution => f.write_str("it runs a process substitution `<(…)`"),
            Self::Background => f.write_str("it starts a background job with `&`"),
            Self::Assignment => f.write_str("it sets a shell variable"),
            Self::ProgramNotLiteral => f.write_str("the program it runs is not named literally"),
            Self::Unparsable => f.write_str("it does not parse as a shell command"),
            Self::Expansion(text) => write!(f, "it evaluates the expansion `{text}`"),
            Self::Construct(what) => write!(f, "it contains {what}"),
            Self::RunsCommand(why) => f.write_str(why),
            Self::WritesOutside(path) => write!(f, "it writes to {path}, outside the workspace"),
            Self::WritesUnknown(what) => write!(f, "it writes to {what}"),
            Self::WritesProtected(path) => write!(f, "it writes to {path}, a protected path"),
            Self::DangerousOption {
                program,
                option,
                why,
            } => match option.as_str() {
                "" => write!(f, "`{program}` {why}"),
                option => write!(f, "`{program} {option}` {why}"),
            },
            Self::DangerousVariable { name, why } => write!(f, "`{name}=` {why}"),
        }
    }
}

/// A shell command line as the approval policy sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellLine {
    /// The line as given.
    pub text: String,
    /// The commands joined at the top level, each as its words with quotes removed
    /// (assignments of an environment prefix first).
    pub commands: Vec<Vec<String>>,
    /// Every command anywhere in the line, as words: the top-level ones, those inside
    /// substitutions, subshells and `sh -c`/`eval` scripts, and what wrappers run.
    pub everywhere: Vec<Vec<String>>,
    /// `None` when rules may allow the line.
    pub not_plain: Option<NotPlain>,
}

/// How deep `sh -c "sh -c '…'"` is read.
const MAX_DEPTH: usize = 4;
/// How many commands one line may list for the rules (a bound on pathological input).
const MAX_COMMANDS: usize = 512;

/// Files that writing to is harmless wherever the workspace is.
const HARMLESS_TARGETS: [&str; 4] = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"];

impl ShellLine {
    /// Reads `text`; `inside(path)` says whether a file written (a redirection's target, or a
    /// file a command's own arguments name; as written, relative to the workspace root where
    /// the command runs) is inside the workspace.
    pub fn parse(text: &str, inside: &dyn Fn(&str) -> bool) -> Self {
        let (mut line, writes) = Self::read(text, 0);
        if line.not_plain.is_none() {
            line.not_plain = check_writes(&line.commands, &writes, inside);
        }
        line
    }

    /// Reads `text` judging redirection targets by their text alone: absolute paths and paths
    /// that climb out with `..` are outside. For callers without a workspace at hand.
    pub fn parse_lexical(text: &str) -> Self {
        Self::parse(text, &lexically_inside)
    }

    pub fn is_plain(&self) -> bool {
        self.not_plain.is_none()
    }

    fn read(text: &str, depth: usize) -> (Self, Vec<Option<String>>) {
        let Some(reading) = syntax::read(text) else {
            let words = text.split_whitespace().map(str::to_owned).collect();
            let line = Self {
                text: text.to_owned(),
                commands: Vec::new(),
                everywhere: vec![words],
                not_plain: Some(NotPlain::Unparsable),
            };
            return (line, Vec::new());
        };
        let mut line = Self {
            text: text.to_owned(),
            commands: reading.top,
            everywhere: Vec::new(),
            not_plain: reading.not_plain,
        };
        let mut writes = reading.writes;
        let mut pending = reading.everywhere;
        while let Some(words) = pending.pop() {
            if line.everywhere.len() >= MAX_COMMANDS {
                break;
            }
            let runs = wrappers::runs(&words);
            let effects = options::effects(&words);
            line.everywhere.push(words);
            if let Some(why) = runs.why
                && line.not_plain.is_none()
            {
                line.not_plain = Some(NotPlain::RunsCommand(why));
            }
            if let Some(hit) = effects.hit
                && line.not_plain.is_none()
            {
                line.not_plain = Some(dangerous(hit));
            }
            writes.extend(effects.writes);
            pending.extend(runs.commands);
            if let Some(script) = runs.script {
                if depth < MAX_DEPTH {
                    let (inner, _) = Self::read(&script, depth + 1);
                    line.everywhere.extend(inner.everywhere);
                } else {
                    line.everywhere
                        .push(script.split_whitespace().map(str::to_owned).collect());
                }
            }
        }
        (line, writes)
    }
}

fn dangerous(hit: options::Hit) -> NotPlain {
    match hit {
        options::Hit::Option {
            program,
            option,
            why,
        } => NotPlain::DangerousOption {
            program,
            option,
            why,
        },
        options::Hit::Variable { name, why } => NotPlain::DangerousVariable { name, why },
    }
}

/// The first write that takes a plain line out of the workspace, if any.
fn check_writes(
    commands: &[Vec<String>],
    writes: &[Option<String>],
    inside: &dyn Fn(&str) -> bool,
) -> Option<NotPlain> {
    let changes_dir = commands.iter().any(|words| {
        program_index(words)
            .is_some_and(|i| matches!(program_name(&words[i]), "cd" | "pushd" | "popd"))
    });
    for write in writes {
        let Some(path) = write else {
            return Some(NotPlain::WritesUnknown(
                "a file named by an expansion".into(),
            ));
        };
        if HARMLESS_TARGETS.contains(&path.as_str()) || path.starts_with("/dev/fd/") {
            continue;
        }
        if changes_dir && !path.starts_with('/') {
            return Some(NotPlain::WritesUnknown(format!(
                "{path} after changing directory"
            )));
        }
        if !inside(path) {
            return Some(NotPlain::WritesOutside(path.clone()));
        }
        if lexically_protected(path) {
            return Some(NotPlain::WritesProtected(path.clone()));
        }
    }
    None
}

/// A relative path into a protected folder (`.git/x`, `./a/../.GIT/x`): its first component
/// once `.` and `..` are taken out, compared without case (macOS and Windows ignore it).
fn lexically_protected(path: &str) -> bool {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in Path::new(path).components() {
        match component {
            Component::Normal(part) => parts.push(part),
            Component::ParentDir => {
                parts.pop();
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    parts.first().is_some_and(|first| {
        PROTECTED_DIRS
            .iter()
            .any(|dir| first.to_string_lossy().eq_ignore_ascii_case(dir))
    })
}

/// A relative path that never climbs above where it starts.
pub fn lexically_inside(path: &str) -> bool {
    let mut depth = 0i32;
    for component in Path::new(path).components() {
        match component {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn plain_lines_list_their_commands() {
        let line =
            ShellLine::parse_lexical("FOO=1 cargo test -- --nocapture && echo 'a b' | wc -l");
        assert!(line.is_plain(), "{:?}", line.not_plain);
        assert_eq!(
            line.commands,
            vec![
                words("FOO=1 cargo test -- --nocapture"),
                vec!["echo".to_owned(), "a b".to_owned()],
                words("wc -l"),
            ]
        );
    }

    #[test]
    fn the_forms_that_are_not_plain() {
        for (text, why) in [
            ("echo hello $(touch ../p3.txt)", NotPlain::Substitution),
            ("echo hello `touch ../p4.txt`", NotPlain::Substitution),
            ("echo hello & touch ../p7.txt", NotPlain::Background),
            (
                "echo hello <(touch ../p6.txt)",
                NotPlain::ProcessSubstitution,
            ),
            ("echo hi > ../x", NotPlain::WritesOutside("../x".into())),
            ("ls >", NotPlain::Unparsable),
            ("X=1", NotPlain::Assignment),
            (
                "git diff --no-index --output=../x a.txt b.txt",
                NotPlain::WritesOutside("../x".into()),
            ),
            (
                "sed -i s/a/b/ /etc/x",
                NotPlain::WritesOutside("/etc/x".into()),
            ),
            (
                "echo hi >> .git/config",
                NotPlain::WritesProtected(".git/config".into()),
            ),
            (
                "cp hook ./x/../.GIT/hooks/pre-commit",
                NotPlain::WritesProtected("./x/../.GIT/hooks/pre-commit".into()),
            ),
            (
                "cd sub && cp a b",
                NotPlain::WritesUnknown("a after changing directory".into()),
            ),
        ] {
            assert_eq!(
                ShellLine::parse_lexical(text).not_plain,
                Some(why),
                "{text}"
            );
        }
    }

    #[test]
    fn dangerous_arguments_read_like_the_other_reasons() {
        for (text, reason) in [
            (
                "git -c core.pager=x log",
                "`git -c` sets configuration, which can name a program to run",
            ),
            (
                "rg --pre ./x foo",
                "`rg --pre` runs a program on every file it searches",
            ),
            (
                "sed 's/a/b/e' f",
                "`sed s///e` runs a command from its script",
            ),
            (
                "find . -delete",
                "`find -delete` deletes the files it finds",
            ),
            (
                "vim x",
                "`vim` is an interactive editor, which can run commands",
            ),
            (
                "LD_PRELOAD=./x.so ls",
                "`LD_PRELOAD=` changes which programs or code run",
            ),
            (
                "cat x | tee ../y",
                "it writes to ../y, outside the workspace",
            ),
        ] {
            let line = ShellLine::parse_lexical(text);
            let why = line.not_plain.map(|why| why.to_string());
            assert_eq!(why.as_deref(), Some(reason), "{text}");
        }
    }

    #[test]
    fn a_wrapped_commands_arguments_are_read_too() {
        let line = ShellLine::parse_lexical("env -S 'rm -rf x'");
        assert!(line.everywhere.contains(&words("rm -rf x")));
        let line = ShellLine::parse_lexical("timeout 5 git -c core.pager=x log");
        assert!(line.everywhere.contains(&words("git -c core.pager=x log")));
        // The files a command writes count wherever the rules would look.
        let line = ShellLine::parse("sort -o out.txt in.txt", &|path| path != "out.txt");
        assert_eq!(
            line.not_plain,
            Some(NotPlain::WritesOutside("out.txt".into()))
        );
    }

    #[test]
    fn nested_commands_are_found() {
        let line =
            ShellLine::parse_lexical("echo $(sudo rm -rf /tmp/x) && bash -c 'git push --force'");
        assert!(line.everywhere.contains(&words("rm -rf /tmp/x")));
        assert!(line.everywhere.contains(&words("git push --force")));
    }

    #[test]
    fn lexical_inside() {
        assert!(lexically_inside("a/b/../c"));
        assert!(lexically_inside("./x"));
        assert!(!lexically_inside("../x"));
        assert!(!lexically_inside("a/../../x"));
        assert!(!lexically_inside("/etc/passwd"));
    }
}
