//! Programs that can be told to run something else: `rg --pre`, interpreters given code as text
//! (`python -c`, `node -e`, `perl -e`…), interactive editors (which run commands), `make
//! --eval` or a makefile from outside, the package runners (`npx`, `npm exec`, `pnpm dlx`…) and
//! their configuration, `cargo --config`, `man -P`, `gdb -ex`, `openssl -engine`.
//!
//! A rule for `make`, `npm run` or `cargo test` allows the recipes, scripts and tests of the
//! workspace: that is what the person allowed. Only what reaches outside them is caught.

use super::Effects;
use super::scan::{Does, Opt, Scanned, Table, Takes, apply, check as check_table, scan};

const CODE: &str = "runs code given as text";
const PACKAGE: &str = "runs a package's program, fetching it if needed";
const CONFIG: &str = "changes configuration, which can name a program to run";

const RG: Table = Table::new(&[
    Opt::danger(&["--pre"], "runs a program on every file it searches"),
    Opt::danger(&["--hostname-bin"], "runs a program"),
    Opt::valued(&[
        "-e", "-f", "-g", "-t", "-T", "-A", "-B", "-C", "-m", "-M", "-j", "-r", "-E",
    ]),
    Opt::valued(&[
        "--regexp",
        "--file",
        "--glob",
        "--iglob",
        "--type",
        "--type-not",
        "--type-add",
        "--pre-glob",
        "--replace",
        "--context",
        "--after-context",
        "--before-context",
        "--max-count",
        "--max-depth",
        "--encoding",
        "--sort",
        "--sortr",
        "--colors",
        "--ignore-file",
    ]),
]);

/// Records what `rg ARGS` runs.
pub(super) fn rg(program: &str, args: &[String], effects: &mut Effects) {
    check_table(program, args, &RG, effects);
}

/// Interpreters and how each is given code as text or a module to load first.
fn interpreter_table(program: &str) -> Option<Table> {
    const PYTHON: &[Opt] = &[
        Opt::danger(&["-c"], CODE),
        Opt::valued(&["-m", "-W", "-X", "-Q"]),
    ];
    const NODE: &[Opt] = &[
        Opt::danger(&["-e", "--eval", "-p", "--print"], CODE),
        Opt::danger(
            &[
                "-r",
                "--require",
                "--import",
                "--loader",
                "--experimental-loader",
            ],
            "loads a module first",
        ),
        Opt::valued(&["-C", "--conditions", "--title", "--env-file"]),
    ];
    const PERL: &[Opt] = &[
        Opt::danger(&["-e", "-E"], CODE),
        Opt::valued(&["-I", "-M", "-m"]),
    ];
    const E: &[Opt] = &[Opt::danger(&["-e"], CODE)];
    const PHP: &[Opt] = &[
        Opt::danger(&["-r", "-B", "-R", "-E"], CODE),
        Opt::danger(&["-d"], "sets a setting that can run code"),
        Opt::valued(&["-c", "-f", "-z"]),
    ];
    let options = match program {
        p if p.starts_with("python") || p.starts_with("pypy") => PYTHON,
        "node" | "nodejs" | "bun" => NODE,
        "perl" => PERL,
        "ruby" | "lua" | "luajit" | "Rscript" | "R" | "osascript" => E,
        "php" => PHP,
        _ => return None,
    };
    Some(Table::new(options).posix())
}

/// Records the code `program ARGS` is given as text; `false` when it is no interpreter.
pub(super) fn interpreter(program: &str, args: &[String], effects: &mut Effects) -> bool {
    let Some(table) = interpreter_table(program) else {
        return false;
    };
    let scanned = scan(args, &table);
    // `python -m MODULE`: what follows is the module's.
    let before_module = scanned
        .options
        .iter()
        .take_while(|o| !(program.starts_with("py") && o.name == "-m"))
        .cloned()
        .collect();
    let scanned = Scanned {
        options: before_module,
        operands: scanned.operands,
    };
    apply(program, &scanned, None, effects);
    true
}

/// Programs of one word that run code: editors (whose commands run programs), `npx`…
pub(super) fn always(program: &str) -> Option<&'static str> {
    match program {
        "vi" | "vim" | "nvim" | "gvim" | "view" | "vimdiff" | "ex" | "ed" | "red" | "emacs"
        | "emacsclient" | "nano" | "pico" | "micro" | "kak" | "hx" => {
            Some("is an interactive editor, which can run commands")
        }
        "npx" | "pnpx" | "bunx" => Some(PACKAGE),
        _ => None,
    }
}

/// Records what `pwsh ARGS` runs (`-Command`, `-EncodedCommand`, however abbreviated), or
/// `cmd /c`.
pub(super) fn powershell(program: &str, args: &[String], effects: &mut Effects) {
    let code = args.iter().find(|a| {
        let a = a.to_ascii_lowercase();
        let a = a.split(':').next().unwrap_or("");
        matches!(a, "-c" | "-e" | "-ec" | "/c" | "/k")
            || (a.len() >= 4 && ("-command".starts_with(a) || "-encodedcommand".starts_with(a)))
    });
    if let Some(flag) = code {
        effects.danger(program, flag, CODE);
    }
}

/// Records what `gdb ARGS` runs: `-ex`, `-x` and their long forms run debugger commands, which
/// can run programs.
pub(super) fn gdb(program: &str, args: &[String], effects: &mut Effects) {
    const RUNS: [&str; 8] = [
        "ex",
        "eval-command",
        "x",
        "command",
        "iex",
        "init-eval-command",
        "ix",
        "init-command",
    ];
    let runs = args.iter().find(|a| {
        let name = a.split('=').next().unwrap_or("");
        name.starts_with('-') && RUNS.contains(&name.trim_start_matches('-'))
    });
    if let Some(flag) = runs {
        effects.danger(
            program,
            flag,
            "runs debugger commands, which can run programs",
        );
    }
}

/// A path that may lead out of the workspace, judged by its text alone.
fn may_lead_out(path: &str) -> Option<&'static str> {
    let out = path.starts_with('/')
        || path.starts_with('~')
        || path.contains('$')
        || path.split('/').any(|part| part == "..");
    out.then_some("runs what a makefile outside the workspace says")
}

const MAKE: Table = Table::new(&[
    Opt::danger(&["-E", "--eval"], "evaluates text as a makefile"),
    Opt::new(
        &["-f", "--file", "--makefile", "-I", "--include-dir"],
        Takes::Value,
        Does::Value(may_lead_out),
    ),
    Opt::writes(&["-C", "--directory"]),
    Opt::valued(&[
        "-o",
        "-W",
        "--old-file",
        "--assume-old",
        "--what-if",
        "--assume-new",
    ]),
]);

/// Make variables whose value runs every recipe, or reads further makefiles.
const MAKE_VARIABLES: [&str; 6] = [
    "SHELL",
    ".SHELLFLAGS",
    "MAKESHELL",
    "MAKE",
    "MAKEFLAGS",
    "MAKEFILES",
];

/// Records what `make ARGS` runs beyond the workspace's makefile.
pub(super) fn make(program: &str, args: &[String], effects: &mut Effects) {
    let scanned = scan(args, &MAKE);
    apply(program, &scanned, None, effects);
    for operand in &scanned.operands {
        if let Some((name, _)) = operand.split_once('=')
            && MAKE_VARIABLES.contains(&name.trim_end_matches([':', '+', '?', '!']))
        {
            effects.danger(program, operand, "changes what runs every recipe");
        }
    }
}

const PACKAGES: Table = Table::new(&[
    Opt::danger(&["--script-shell"], "names the shell that runs scripts"),
    Opt::danger(&["--node-options"], "changes which code runs"),
    Opt::flag(
        &["-g", "--global"],
        "installs or changes packages outside the workspace",
    ),
    Opt::new(
        &["--location"],
        Takes::Value,
        Does::Value(|at| {
            (at == "global").then_some("installs or changes packages outside the workspace")
        }),
    ),
    Opt::writes(&["--prefix", "-C", "--dir"]),
    Opt::valued(&["--workspace", "--filter"]),
]);

/// Records what `npm ARGS` (or pnpm, yarn, bun) runs beyond the workspace's scripts.
pub(super) fn packages(program: &str, args: &[String], effects: &mut Effects) {
    let scanned = scan(args, &PACKAGES);
    apply(program, &scanned, None, effects);
    let ops: Vec<&str> = scanned.operands.iter().map(String::as_str).collect();
    // npm's `-w NAME` takes a value, pnpm's `-w` does not: the subcommand is either word.
    let skip = if scanned.has(&["-w"]) { 2 } else { 1 };
    for at in 0..skip.min(ops.len()) {
        if let Some(why) = package_subcommand(&ops[at..]) {
            effects.danger(program, ops[at], why);
        }
    }
}

/// Why the subcommand `ops[0]` (with its operands) runs more than the workspace's scripts.
fn package_subcommand(ops: &[&str]) -> Option<&'static str> {
    match ops {
        ["exec" | "x" | "dlx", ..] => Some(PACKAGE),
        // `npm init vite` runs `create-vite`.
        ["init", _, ..] | ["create", ..] => Some(PACKAGE),
        ["config" | "c", "set" | "edit" | "delete", ..] | ["set", ..] => Some(CONFIG),
        ["global", ..] => Some("installs or changes packages outside the workspace"),
        ["edit" | "explore", ..] => Some("runs an editor or a shell"),
        _ => None,
    }
}

const CARGO: Table = Table::new(&[
    Opt::danger(&["--config"], CONFIG),
    Opt::writes(&[
        "--target-dir",
        "--manifest-path",
        "--root",
        "--artifact-dir",
    ]),
    Opt::writes(&["--out-dir", "--lockfile-path", "-C"]),
    Opt::valued(&[
        "-p",
        "--package",
        "-j",
        "--jobs",
        "-F",
        "--features",
        "--target",
    ]),
    Opt::valued(&["--bin", "--example", "--test", "--bench", "--profile", "-Z"]),
]);

/// Records what `cargo ARGS` runs or writes beyond the workspace's build.
pub(super) fn cargo(program: &str, args: &[String], effects: &mut Effects) {
    check_table(program, args, &CARGO, effects);
}

const MAN: Table = Table::new(&[
    Opt::danger(&["-P", "--pager"], "names a program to run"),
    Opt::new(
        &["-H", "--html"],
        Takes::Attached,
        Does::Danger("opens a web browser"),
    ),
    Opt::valued(&["-M", "-S", "-L", "-m", "-C", "-E", "-R"]),
]);

/// Records what `man ARGS` runs.
pub(super) fn man(program: &str, args: &[String], effects: &mut Effects) {
    check_table(program, args, &MAN, effects);
}

const OPENSSL: Table = Table::new(&[
    Opt::writes(&["-out", "-keyout", "-writerand"]),
    Opt::danger(&["-engine"], "loads a library"),
    Opt::danger(
        &["-config"],
        "reads a configuration that can load a library",
    ),
    Opt::valued(&[
        "-in", "-passin", "-passout", "-subj", "-days", "-newkey", "-key",
    ]),
])
.single_dash();

/// Records what `openssl ARGS` writes or loads.
pub(super) fn openssl(program: &str, args: &[String], effects: &mut Effects) {
    check_table(program, args, &OPENSSL, effects);
}

#[cfg(test)]
mod tests {
    use super::super::checking::{option, run};
    use super::*;

    fn interpret(program: &str, args: &[String], effects: &mut Effects) {
        assert!(interpreter(program, args, effects), "{program}");
    }

    #[test]
    fn rg_runs_nothing_but_with_pre() {
        assert_eq!(option(rg, "rg --pre ./x foo").as_deref(), Some("--pre"));
        assert_eq!(option(rg, "rg --pre=./x foo").as_deref(), Some("--pre"));
        assert_eq!(
            option(rg, "rg --hostname-bin=x foo").as_deref(),
            Some("--hostname-bin")
        );
        for line in [
            "rg -n foo src",
            "rg --search-zip foo",
            "rg --pre-glob '*.gz' foo",
            "rg -e --pre foo",
            "rg --pretty foo",
        ] {
            assert_eq!(option(rg, line), None, "{line}");
        }
    }

    #[test]
    fn interpreters_given_code_as_text() {
        for (line, hit) in [
            ("python3 -c print(1)", "-c"),
            ("python -Bc print(1)", "-c"),
            ("node -e 1", "-e"),
            ("node --eval=1", "--eval"),
            ("node -r ./x.js app.js", "-r"),
            ("perl -ne print", "-e"),
            ("ruby -e 1", "-e"),
            ("php -r 1;", "-r"),
            ("osascript -e x", "-e"),
        ] {
            assert_eq!(option(interpret, line).as_deref(), Some(hit), "{line}");
        }
        for line in [
            "python3 script.py -c x",
            "python3 -m pytest -c pytest.ini",
            "node server.js -e",
            "perl x.pl -e 1",
        ] {
            assert_eq!(option(interpret, line), None, "{line}");
        }
        assert!(!interpreter("ls", &[], &mut Effects::default()));
    }

    #[test]
    fn make_and_package_runners() {
        assert_eq!(option(make, "make test"), None);
        assert_eq!(option(make, "make -j4 -f Makefile.dev build"), None);
        assert_eq!(option(make, "make --eval=x").as_deref(), Some("--eval"));
        assert_eq!(option(make, "make -f /tmp/M").as_deref(), Some("-f"));
        assert_eq!(
            option(make, "make SHELL=/tmp/x all").as_deref(),
            Some("SHELL=/tmp/x")
        );
        assert_eq!(
            run(make, "make -C ../other").writes,
            [Some("../other".to_owned())]
        );
        for (line, hit) in [
            ("npm exec foo", Some("exec")),
            ("npm x foo", Some("x")),
            ("pnpm dlx create-x", Some("dlx")),
            ("yarn dlx x", Some("dlx")),
            ("npm init vite", Some("init")),
            ("npm config set script-shell=x", Some("config")),
            ("npm run build --script-shell=./x", Some("--script-shell")),
            ("npm install -g x", Some("-g")),
            ("yarn global add x", Some("global")),
            ("npm run build", None),
            ("npm test", None),
            ("npm install", None),
            ("npm init -y", None),
            ("pnpm -w run lint", None),
            ("pnpm -w exec x", Some("exec")),
            ("npm -w pkg exec x", Some("exec")),
            ("pnpm --filter pkg exec x", Some("exec")),
            ("npm ls -p", None),
        ] {
            assert_eq!(option(packages, line).as_deref(), hit, "{line}");
        }
    }

    #[test]
    fn cargo_man_gdb_openssl_and_editors() {
        assert_eq!(
            option(cargo, "cargo --config target.x.runner=sh run").as_deref(),
            Some("--config")
        );
        assert_eq!(option(cargo, "cargo test -p foo --features x"), None);
        assert_eq!(
            run(cargo, "cargo build --target-dir ../t").writes,
            [Some("../t".to_owned())]
        );
        assert_eq!(option(man, "man -P sh ls").as_deref(), Some("-P"));
        assert_eq!(option(man, "man ls"), None);
        assert_eq!(
            option(gdb, "gdb -batch -ex run ./a").as_deref(),
            Some("-ex")
        );
        assert_eq!(
            option(gdb, "gdb --eval-command=run ./a").as_deref(),
            Some("--eval-command=run")
        );
        assert_eq!(
            option(powershell, "pwsh -NoProfile -Command x").as_deref(),
            Some("-Command")
        );
        assert_eq!(
            option(powershell, "pwsh -ExecutionPolicy Bypass -File x.ps1"),
            None
        );
        assert_eq!(option(powershell, "cmd /C dir").as_deref(), Some("/C"));
        assert_eq!(
            run(openssl, "openssl req -new -out ../x.csr").writes,
            [Some("../x.csr".to_owned())]
        );
        assert_eq!(
            option(openssl, "openssl dgst -engine ./x.so f").as_deref(),
            Some("-engine")
        );
        assert!(always("vim").is_some());
        assert!(always("npx").is_some());
        assert!(always("less").is_none());
    }
}
