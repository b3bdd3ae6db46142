//! Variables that, set for one command (`PAGER=x git log`, `env PATH=. ls`), change what it runs
//! or where it writes: the table of them and what each does.

use super::Effects;

/// What setting a variable does to the command it is set for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sets {
    /// Its value is a program the command may run.
    Program,
    /// It changes which programs, libraries or modules are found and loaded.
    Loading,
    /// It changes which configuration is read, and configuration can name a program.
    Config,
    /// It changes how a shell reads its commands.
    Shell,
    /// Its value is a file or folder the command writes in.
    Place,
    /// Its value, when a path, is a file the command writes a trace to.
    Trace,
}

impl Sets {
    fn why(self) -> &'static str {
        match self {
            Self::Program => "names a program to run",
            Self::Loading => "changes which programs or code run",
            Self::Config => "changes the configuration read, which can name a program to run",
            Self::Shell => "changes how the shell reads commands",
            Self::Place | Self::Trace => "changes where the command writes",
        }
    }
}

/// The variables, upper-case (names are compared without case: Windows ignores it, npm
/// too); a name ending in `*` stands for every name it starts, one starting with `*` for every
/// name it ends. Exact names are tried first.
const VARIABLES: &[(&str, Sets)] = &[
    // Programs run by name.
    ("PAGER", Sets::Program),
    ("MANPAGER", Sets::Program),
    ("EDITOR", Sets::Program),
    ("VISUAL", Sets::Program),
    ("BROWSER", Sets::Program),
    ("SHELL", Sets::Program),
    ("LESSOPEN", Sets::Program),
    ("LESSCLOSE", Sets::Program),
    ("SSH_ASKPASS", Sets::Program),
    ("SUDO_ASKPASS", Sets::Program),
    ("GIT_EXTERNAL_DIFF", Sets::Program),
    ("GIT_SSH", Sets::Program),
    ("GIT_SSH_COMMAND", Sets::Program),
    ("GIT_PAGER", Sets::Program),
    ("GIT_EDITOR", Sets::Program),
    ("GIT_SEQUENCE_EDITOR", Sets::Program),
    ("GIT_ASKPASS", Sets::Program),
    ("GIT_PROXY_COMMAND", Sets::Program),
    ("RUSTC", Sets::Program),
    ("RUSTC_WRAPPER", Sets::Program),
    ("RUSTC_WORKSPACE_WRAPPER", Sets::Program),
    ("RUSTDOC", Sets::Program),
    ("CC", Sets::Program),
    ("CXX", Sets::Program),
    // `GH_PAGER`, `SYSTEMD_EDITOR`, `FZF_DEFAULT_COMMAND`, `CARGO_BUILD_RUSTC_WRAPPER`…
    ("*PAGER", Sets::Program),
    ("*EDITOR", Sets::Program),
    ("*ASKPASS", Sets::Program),
    ("*_COMMAND", Sets::Program),
    ("*_CMD", Sets::Program),
    ("*_WRAPPER", Sets::Program),
    // What is found and loaded.
    ("PATH", Sets::Loading),
    ("LD_*", Sets::Loading),
    ("DYLD_*", Sets::Loading),
    ("GIT_EXEC_PATH", Sets::Loading),
    ("GIT_TEMPLATE_DIR", Sets::Loading),
    ("GIT_ALLOW_PROTOCOL", Sets::Loading),
    ("PYTHONPATH", Sets::Loading),
    ("PYTHONSTARTUP", Sets::Loading),
    ("PYTHONHOME", Sets::Loading),
    ("PYTHONBREAKPOINT", Sets::Loading),
    ("PYTHONWARNINGS", Sets::Loading),
    ("PYTHONUSERBASE", Sets::Loading),
    ("GCONV_PATH", Sets::Loading),
    ("CLASSPATH", Sets::Loading),
    ("GEM_HOME", Sets::Loading),
    ("GEM_PATH", Sets::Loading),
    ("LUA_INIT", Sets::Loading),
    ("LUA_PATH", Sets::Loading),
    ("LUA_CPATH", Sets::Loading),
    ("NODE_OPTIONS", Sets::Loading),
    ("NODE_PATH", Sets::Loading),
    ("PERL5OPT", Sets::Loading),
    ("PERL5LIB", Sets::Loading),
    ("PERLLIB", Sets::Loading),
    ("PERL5DB", Sets::Loading),
    ("RUBYOPT", Sets::Loading),
    ("RUBYLIB", Sets::Loading),
    ("JAVA_TOOL_OPTIONS", Sets::Loading),
    ("_JAVA_OPTIONS", Sets::Loading),
    ("JDK_JAVA_OPTIONS", Sets::Loading),
    ("RUSTFLAGS", Sets::Loading),
    ("RUSTDOCFLAGS", Sets::Loading),
    ("CARGO_ENCODED_RUSTFLAGS", Sets::Loading),
    ("CARGO_ENCODED_RUSTDOCFLAGS", Sets::Loading),
    ("CARGO_BUILD_*", Sets::Loading),
    ("CARGO_TARGET_*", Sets::Loading),
    // Configuration from elsewhere.
    ("HOME", Sets::Config),
    ("XDG_CONFIG_HOME", Sets::Config),
    ("GIT_CONFIG*", Sets::Config),
    ("CARGO_HOME", Sets::Config),
    ("CURL_HOME", Sets::Config),
    ("WGETRC", Sets::Config),
    ("RIPGREP_CONFIG_PATH", Sets::Config),
    ("OPENSSL_CONF", Sets::Config),
    ("PHPRC", Sets::Config),
    ("PHP_INI_SCAN_DIR", Sets::Config),
    ("R_PROFILE_USER", Sets::Config),
    ("TAR_OPTIONS", Sets::Config),
    ("MAKEFLAGS", Sets::Config),
    ("MAKEFILES", Sets::Config),
    ("NPM_CONFIG_*", Sets::Config),
    // The shell's own reading.
    ("BASH_ENV", Sets::Shell),
    ("ENV", Sets::Shell),
    ("PROMPT_COMMAND", Sets::Shell),
    ("PS4", Sets::Shell),
    ("SHELLOPTS", Sets::Shell),
    ("BASHOPTS", Sets::Shell),
    ("IFS", Sets::Shell),
    // Where it writes.
    ("GIT_DIR", Sets::Place),
    ("GIT_WORK_TREE", Sets::Place),
    ("GIT_COMMON_DIR", Sets::Place),
    ("GIT_INDEX_FILE", Sets::Place),
    ("GIT_OBJECT_DIRECTORY", Sets::Place),
    ("GIT_ALTERNATE_OBJECT_DIRECTORIES", Sets::Place),
    ("CARGO_TARGET_DIR", Sets::Place),
    ("GIT_TRACE*", Sets::Trace),
];

fn lookup(name: &str) -> Option<Sets> {
    let name = name.to_ascii_uppercase();
    let exact = VARIABLES.iter().find(|(n, _)| *n == name);
    let prefix = || {
        VARIABLES.iter().find(|(n, _)| {
            n.strip_suffix('*')
                .is_some_and(|start| name.starts_with(start))
                || n.strip_prefix('*').is_some_and(|end| name.ends_with(end))
        })
    };
    exact.or_else(prefix).map(|(_, sets)| *sets)
}

/// Records what the assignments `NAME=VALUE` among `words` do to the command they are set for.
pub(super) fn check(words: &[String], effects: &mut Effects) {
    for word in words {
        let Some((name, value)) = word.split_once('=') else {
            continue;
        };
        match lookup(name) {
            None => {}
            Some(Sets::Place) => effects.write(value),
            // `1`, `2`, `true`: standard error; a number up to 9: a descriptor; a path: a file.
            Some(Sets::Trace) if !value.starts_with('/') => {}
            Some(Sets::Trace) => effects.write(value),
            Some(sets) => effects.variable(name, sets.why()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(words: &str) -> Effects {
        let words: Vec<String> = words.split_whitespace().map(String::from).collect();
        let mut effects = Effects::default();
        check(&words, &mut effects);
        effects
    }

    #[test]
    fn variables_that_run_or_load_programs() {
        for (words, name) in [
            ("GIT_EXTERNAL_DIFF=x", "GIT_EXTERNAL_DIFF"),
            ("LD_PRELOAD=./x.so", "LD_PRELOAD"),
            ("LD_AUDIT=./x.so", "LD_AUDIT"),
            ("PATH=.:$PATH", "PATH"),
            ("RUST_LOG=1 PAGER=sh", "PAGER"),
            ("GIT_CONFIG_COUNT=1", "GIT_CONFIG_COUNT"),
            ("npm_config_script_shell=./x", "npm_config_script_shell"),
            (
                "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=sh",
                "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER",
            ),
            ("IFS=/", "IFS"),
            ("GH_PAGER=sh", "GH_PAGER"),
            ("FZF_DEFAULT_COMMAND=x", "FZF_DEFAULT_COMMAND"),
        ] {
            let hit = of(words).hit;
            assert!(
                matches!(&hit, Some(super::super::Hit::Variable { name: n, .. }) if n == name),
                "{words}: {hit:?}"
            );
        }
    }

    #[test]
    fn variables_that_name_where_it_writes() {
        let effects =
            of("GIT_DIR=../other/.git CARGO_TARGET_DIR=/tmp/t GIT_TRACE=1 GIT_TRACE_PACKET=/tmp/p");
        assert!(effects.hit.is_none());
        assert_eq!(
            effects.writes,
            [
                Some("../other/.git".to_owned()),
                Some("/tmp/t".to_owned()),
                Some("/tmp/p".to_owned())
            ]
        );
    }

    #[test]
    fn harmless_variables() {
        let effects = of("RUST_LOG=debug RUST_BACKTRACE=1 LANG=C TZ=UTC CARGO_TERM_COLOR=never");
        assert_eq!(effects, Effects::default());
    }
}
