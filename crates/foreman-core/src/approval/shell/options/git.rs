//! git's options that run a program or write outside what its subcommand names: `-c` and
//! `--config-env` (any configuration can name a program: `core.pager`, `diff.external`,
//! `core.sshCommand`, aliases), `--exec-path`, `--output`, `--ext-diff`, `--textconv`,
//! `--upload-pack`, `--receive-pack`, `--exec`, `--template`; the subcommands that run a program
//! (`difftool`, `bisect run`, `rebase --exec`, `submodule foreach`, `filter-branch`…); `git config`
//! when it writes. `-C`, `--git-dir` and `--work-tree` name where git works, which is written
//! (the index, refs) and so must be inside the workspace; relative files written after `-C` are
//! taken from there.

use super::Effects;
use super::scan::{Does, Opt, Scanned, Table, Takes, apply, scan};

const CONFIG: &str = "sets configuration, which can name a program to run";
const EXTERNAL_DIFF: &str = "runs the external diff program configured";
const TEXTCONV: &str = "runs the text conversion programs configured";
const SERVES: &str = "names the program that serves the transfer";

/// The diff and log family: `diff`, `log`, `show`, `format-patch`, `stash show`…
const DIFF: Table = Table::new(&[
    Opt::writes(&["--output"]),
    Opt::flag(&["--ext-diff"], EXTERNAL_DIFF),
    Opt::flag(&["--textconv"], TEXTCONV),
    Opt::valued(&["-n", "-S", "-G", "-O", "-l"]),
])
.exact(&["--text"]);

const FORMAT_PATCH: Table = Table::new(&[
    Opt::writes(&["--output"]),
    Opt::writes(&["-o", "--output-directory"]),
    Opt::flag(&["--ext-diff"], EXTERNAL_DIFF),
    Opt::flag(&["--textconv"], TEXTCONV),
    Opt::valued(&["-n", "-S", "-G", "-O", "-l", "-v"]),
])
.exact(&["--text"]);

const GREP: Table = Table::new(&[
    Opt::new(
        &["-O", "--open-files-in-pager"],
        Takes::Attached,
        Does::Danger("opens the files in a program it names"),
    ),
    Opt::flag(&["--textconv"], TEXTCONV),
    Opt::valued(&["-e", "-f", "-A", "-B", "-C", "-m"]),
])
.exact(&["--text"]);

const FETCH: Table = Table::new(&[Opt::danger(&["--upload-pack"], SERVES)]);

const LS_REMOTE: Table = Table::new(&[Opt::danger(&["-u", "--upload-pack"], SERVES)]);

const PUSH: Table = Table::new(&[
    Opt::danger(&["--receive-pack", "--exec"], SERVES),
    Opt::valued(&["-o", "--push-option"]),
]);

const CLONE: Table = Table::new(&[
    Opt::danger(&["-u", "--upload-pack"], SERVES),
    Opt::danger(&["-c", "--config"], CONFIG),
    Opt::danger(&["--template"], "installs hooks from a template folder"),
    Opt::writes(&["--separate-git-dir"]),
    Opt::valued(&[
        "-o",
        "-b",
        "-j",
        "--origin",
        "--branch",
        "--depth",
        "--reference",
        "--reference-if-able",
        "--shallow-since",
        "--shallow-exclude",
        "--jobs",
        "--filter",
    ]),
]);

const INIT: Table = Table::new(&[
    Opt::danger(&["--template"], "installs hooks from a template folder"),
    Opt::writes(&["--separate-git-dir"]),
    Opt::valued(&["-b", "--initial-branch", "--object-format", "--shared"]),
]);

const ARCHIVE: Table = Table::new(&[
    Opt::writes(&["-o", "--output"]),
    Opt::danger(&["--exec"], SERVES),
    Opt::valued(&["--remote", "--prefix", "--format"]),
]);

const REBASE: Table = Table::new(&[
    Opt::danger(&["-x", "--exec"], "runs a command after each commit"),
    Opt::valued(&["-s", "-X", "--onto", "--strategy", "--strategy-option"]),
]);

const APPLY: Table = Table::new(&[Opt::flag(
    &["--unsafe-paths"],
    "writes files outside the work tree",
)]);

const CAT_FILE: Table = Table::new(&[
    Opt::flag(&["--textconv"], TEXTCONV),
    Opt::flag(&["--filters"], "runs the filter programs configured"),
]);

const HELP: Table = Table::new(&[Opt::flag(&["-w", "--web"], "opens a web browser")]);

const WORKTREE: Table = Table::new(&[Opt::valued(&["-b", "-B", "--reason"])]);

const NO_OPTIONS: Table = Table::new(&[]);

/// Subcommands that run a program whatever their arguments, and what they run.
const RUNNERS: [(&str, &str); 8] = [
    ("difftool", "runs a diff tool"),
    ("mergetool", "runs a merge tool"),
    ("filter-branch", "runs the commands it is given"),
    ("filter-repo", "runs the code it is given"),
    ("instaweb", "starts a web server and a browser"),
    ("send-email", "runs the programs it is configured with"),
    ("web--browse", "opens a web browser"),
    ("hook", "runs a hook"),
];

/// Records what `git ARGS` does beyond its subcommand.
pub(super) fn check(args: &[String], effects: &mut Effects) {
    let mut dir: Option<String> = None;
    let mut at = 0;
    while let Some(word) = args.get(at) {
        let word = word.as_str();
        if !word.starts_with('-') || word == "--" {
            break;
        }
        let next = args.get(at + 1).map(String::as_str);
        let (name, attached) = match word.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (word, None),
        };
        let separate = attached.is_none()
            && matches!(
                name,
                "-C" | "-c"
                    | "--git-dir"
                    | "--work-tree"
                    | "--namespace"
                    | "--config-env"
                    | "--attr-source"
                    | "--super-prefix"
            );
        let value = attached.or(if separate { next } else { None });
        match name {
            "-C" => {
                if let Some(path) = value {
                    let joined = join(dir.as_deref(), path);
                    effects.write(&joined);
                    dir = Some(joined);
                }
            }
            "--git-dir" | "--work-tree" => {
                if let Some(path) = value {
                    effects.write_in(dir.as_deref(), path);
                }
            }
            "--config-env" => effects.danger("git", name, CONFIG),
            "--exec-path" if attached.is_some() => {
                effects.danger("git", name, "runs git's commands from another folder");
            }
            _ if name == "-c" || (name.starts_with("-c") && !name.starts_with("--")) => {
                effects.danger("git", "-c", CONFIG);
            }
            _ => {}
        }
        at += if separate { 2 } else { 1 };
    }
    let Some(sub) = args.get(at) else { return };
    let rest = &args[at + 1..];
    let program = format!("git {sub}");
    if let Some((_, why)) = RUNNERS.iter().find(|(name, _)| name == sub) {
        effects.danger("git", sub, why);
        return;
    }
    let table = match sub.as_str() {
        "diff" | "log" | "show" | "whatchanged" | "diff-tree" | "diff-index" | "diff-files"
        | "range-diff" | "stash" | "reflog" | "shortlog" | "blame" => &DIFF,
        "format-patch" => &FORMAT_PATCH,
        "grep" => &GREP,
        "fetch" | "pull" => &FETCH,
        "ls-remote" => &LS_REMOTE,
        "push" | "send-pack" => &PUSH,
        "clone" => &CLONE,
        "init" => &INIT,
        "archive" => &ARCHIVE,
        "rebase" => &REBASE,
        "apply" => &APPLY,
        "cat-file" => &CAT_FILE,
        "help" => &HELP,
        "worktree" => &WORKTREE,
        _ => &NO_OPTIONS,
    };
    let scanned = scan(rest, table);
    apply(&program, &scanned, dir.as_deref(), effects);
    operands(sub, &scanned, dir.as_deref(), effects);
}

/// What a subcommand's operands do: run a program, or name a folder or file written.
fn operands(sub: &str, scanned: &Scanned, dir: Option<&str>, effects: &mut Effects) {
    let ops = &scanned.operands;
    if let Some(url) = ops.iter().find(|op| op.starts_with("ext::")) {
        effects.danger("git", url, "names a transport that runs a command");
    }
    let first = ops.first().map(String::as_str);
    match (sub, first) {
        ("bisect", Some("run")) => effects.danger("git", "bisect run", "runs a command"),
        ("submodule", Some("foreach")) => {
            effects.danger(
                "git",
                "submodule foreach",
                "runs a command in every submodule",
            );
        }
        ("config", _) if !config_only_reads(scanned) => {
            effects.danger(
                "git",
                "config",
                "changes configuration, which can name a program",
            );
        }
        // The repository is read; where it goes is written.
        ("clone", _) => ops.iter().skip(1).for_each(|op| effects.write_in(dir, op)),
        ("init", _) => ops.iter().for_each(|op| effects.write_in(dir, op)),
        ("worktree", Some("add" | "move")) => {
            ops.iter().skip(1).for_each(|op| effects.write_in(dir, op));
        }
        ("bundle", Some("create")) => {
            if let Some(file) = ops.get(1) {
                effects.write_in(dir, file);
            }
        }
        _ => {}
    }
}

/// Whether a `git config` only reads: `--get…`, `--list`, `get`, `list`, or one name alone.
fn config_only_reads(scanned: &Scanned) -> bool {
    const WRITES: [&str; 8] = [
        "--add",
        "--unset",
        "--unset-all",
        "--replace-all",
        "--rename-section",
        "--remove-section",
        "-e",
        "--edit",
    ];
    const READS: [&str; 8] = [
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--get-color",
        "--get-colorbool",
        "--list",
        "-l",
    ];
    if scanned.has(&WRITES) {
        return false;
    }
    let ops = &scanned.operands;
    scanned.has(&READS)
        || matches!(ops.first().map(String::as_str), Some("get" | "list"))
        || (ops.len() == 1
            && !matches!(
                ops[0].as_str(),
                "set" | "unset" | "edit" | "rename-section" | "remove-section"
            ))
}

/// `path` taken from `dir` when it is relative.
fn join(dir: Option<&str>, path: &str) -> String {
    match dir {
        Some(dir) if !path.starts_with('/') => format!("{dir}/{path}"),
        _ => path.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Hit;
    use super::*;

    fn of(line: &str) -> Effects {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        let mut effects = Effects::default();
        check(&words, &mut effects);
        effects
    }

    fn option(line: &str) -> Option<String> {
        match of(line).hit {
            Some(Hit::Option {
                program, option, ..
            }) => Some(format!("{program} {option}")),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn options_that_run_a_program() {
        for (line, hit) in [
            ("-c core.pager=sh log", "git -c"),
            ("-ccore.pager=sh log", "git -c"),
            ("--config-env=core.pager=X log", "git --config-env"),
            ("--exec-path=. status", "git --exec-path"),
            ("diff --ext-diff", "git diff --ext-diff"),
            ("log -p --textconv", "git log --textconv"),
            ("log -p --textc", "git log --textconv"),
            ("grep -O foo", "git grep -O"),
            (
                "grep --open-files-in-pager=vim foo",
                "git grep --open-files-in-pager",
            ),
            ("fetch --upload-pack=x origin", "git fetch --upload-pack"),
            ("clone -u x repo", "git clone -u"),
            ("clone --config core.fsmonitor=x repo", "git clone --config"),
            ("clone --template=/tmp/t repo", "git clone --template"),
            ("ls-remote -u x origin", "git ls-remote -u"),
            ("push --receive-pack=x origin", "git push --receive-pack"),
            ("archive --remote=r --exec=x HEAD", "git archive --exec"),
            ("rebase -x 'make test' main", "git rebase -x"),
            ("rebase --exec=x main", "git rebase --exec"),
            ("difftool HEAD", "git difftool"),
            ("mergetool", "git mergetool"),
            ("bisect run ./test.sh", "git bisect run"),
            ("submodule foreach ls", "git submodule foreach"),
            ("filter-branch --tree-filter x", "git filter-branch"),
            ("config core.pager sh", "git config"),
            ("config --add alias.x !sh", "git config"),
            ("config set core.pager sh", "git config"),
            ("fetch ext::sh", "git ext::sh"),
            ("apply --unsafe-paths x.patch", "git apply --unsafe-paths"),
        ] {
            assert_eq!(option(line).as_deref(), Some(hit), "{line}");
        }
    }

    #[test]
    fn files_and_folders_it_writes() {
        for (line, writes) in [
            ("diff --no-index --output=../x a b", vec!["../x"]),
            ("diff --output ../x", vec!["../x"]),
            ("log --outp=/tmp/x", vec!["/tmp/x"]),
            ("-C sub diff --output=x", vec!["sub", "sub/x"]),
            ("-C ../other status", vec!["../other"]),
            ("--git-dir=../o/.git log", vec!["../o/.git"]),
            ("--work-tree /tmp checkout .", vec!["/tmp"]),
            ("format-patch -o ../out HEAD~2", vec!["../out"]),
            ("archive -o ../a.zip HEAD", vec!["../a.zip"]),
            ("clone https://x/y ../y", vec!["../y"]),
            ("worktree add ../feature", vec!["../feature"]),
            (
                "worktree add -b f ../feature main",
                vec!["../feature", "main"],
            ),
            ("bundle create ../x.bundle HEAD", vec!["../x.bundle"]),
        ] {
            let effects = of(line);
            assert!(effects.hit.is_none(), "{line}: {:?}", effects.hit);
            let got: Vec<String> = effects.writes.into_iter().flatten().collect();
            assert_eq!(got, writes, "{line}");
        }
    }

    #[test]
    fn reading_subcommands_are_harmless() {
        for line in [
            "diff --stat",
            "diff --text a b",
            "log --oneline -5",
            "log -S --output",
            "show HEAD --stat",
            "status --short",
            "grep -c foo",
            "grep -n -e foo -- src",
            "config --get user.name",
            "config user.name",
            "config --list --show-origin",
            "config get core.pager",
            "--no-pager log -n 3",
            "-C sub status",
            "push -u origin main",
            "fetch -u origin",
            "commit -m x",
            "--exec-path",
        ] {
            let effects = of(line);
            assert!(effects.hit.is_none(), "{line}: {:?}", effects.hit);
            assert!(
                effects
                    .writes
                    .iter()
                    .flatten()
                    .all(|w| !w.starts_with("..")),
                "{line}"
            );
        }
    }
}
