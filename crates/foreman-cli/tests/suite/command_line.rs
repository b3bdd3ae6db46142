//! The command line itself: `--help` of every subcommand, `--version`, the suggestion for a
//! mistyped flag, and the completion scripts.

use std::process::Output;

use crate::common::{BIN, isolated_env};

fn run(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    std::process::Command::new(BIN)
        .args(args)
        .envs(isolated_env(dir.path()))
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn every_subcommand_has_help() {
    // Each subcommand, with a flag its help must list.
    let commands: &[(&[&str], &str)] = &[
        (&["exec"], "--attach <PATH>"),
        (&["mcp", "list"], "--mcp-config <FILE>"),
        (&["mcp", "approve"], "<NAME>..."),
        (&["sessions"], "--workspace <DIR>"),
        (&["checkpoints", "list"], "--session <ID>"),
        (&["rewind"], "--before-message <N>"),
        (&["rules", "list"], "--workspace <DIR>"),
        (&["rules", "add"], "--action <allow|ask|deny>"),
        (&["rules", "remove"], "<ID>"),
        (&["recent"], "--db <FILE>"),
        (&["check-workspace"], "<DIR>"),
        (&["completions"], "<SHELL>"),
    ];
    for (command, flag) in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{command:?}: {}", stderr(&out));
        let help = stdout(&out);
        assert!(
            help.contains(&format!("Usage: foreman-cli {}", command.join(" "))),
            "{command:?}: {help}"
        );
        assert!(help.contains(flag), "{command:?} lacks {flag}: {help}");
    }
    let top = stdout(&run(&["--help"]));
    for name in [
        "exec",
        "mcp",
        "sessions",
        "checkpoints",
        "rewind",
        "rules",
        "recent",
    ] {
        assert!(top.contains(&format!("\n  {name} ")), "{name}: {top}");
    }
}

#[test]
fn version_prints_the_crate_version() {
    let out = run(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out).trim(),
        format!("foreman-cli {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_mistyped_flag_gets_the_nearest_suggestion() {
    let out = run(&["exec", "--workspac", "/w", "p"]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(said.contains("unexpected argument '--workspac'"), "{said}");
    assert!(
        said.contains("a similar argument exists: '--workspace'"),
        "{said}"
    );
    let out = run(&[
        "rules",
        "add",
        "--workspace",
        "/w",
        "--actoin",
        "deny",
        "bash(rm *)",
    ]);
    assert!(
        stderr(&out).contains("a similar argument exists: '--action'"),
        "{}",
        stderr(&out)
    );
    let out = run(&["sesions"]);
    assert!(
        stderr(&out).contains("a similar subcommand exists: 'sessions'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn completions_for_each_shell_name_the_commands_and_flags() {
    // What marks each shell's script as its own.
    for (shell, marker) in [
        ("bash", "complete -F _foreman__cli"),
        ("zsh", "#compdef foreman-cli"),
        ("fish", "complete -c foreman-cli"),
    ] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(script.contains(marker), "{shell}: {script}");
        // Fish names a long flag `-l workspace`, the others `--workspace`.
        for word in [
            "exec",
            "checkpoints",
            "workspace",
            "thinking-budget",
            "yolo",
        ] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
    }
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("possible values: bash"),
        "{}",
        stderr(&out)
    );
}
