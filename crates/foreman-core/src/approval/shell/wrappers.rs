//! Programs that run a further command: `eval`, `sh -c`, `xargs`, `find -exec`, `sudo`, `env`,
//! `timeout`…
//!
//! A rule that allows the program would allow whatever it runs, so such a command never counts
//! as plain. The commands it runs are still looked at by deny and ask rules.

use super::words::{program_index, program_name};

/// Programs whose arguments are, from some point on, a command they run.
const WRAPPERS: [&str; 27] = [
    "xargs", "parallel", "sudo", "doas", "su", "runuser", "nohup", "timeout", "nice", "ionice",
    "stdbuf", "time", "command", "builtin", "exec", "watch", "setsid", "chroot", "flock",
    "unbuffer", "strace", "ltrace", "nsenter", "unshare", "chrt", "taskset", "busybox",
];

/// Programs that run a script given as text.
const SHELLS: [&str; 9] = [
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh",
];

/// Programs that run a file's or a string's commands in the current shell.
const SOURCES: [&str; 3] = ["eval", "source", "."];

/// What a command runs besides its own program.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Runs {
    /// Why it counts as running a further command (`None`: it does not).
    pub why: Option<String>,
    /// Shell text it runs (`sh -c TEXT`, `eval WORDS`), to be read as a line of its own.
    pub script: Option<String>,
    /// Commands it runs, as words (`xargs rm -f` runs `rm -f`; every tail after a wrapper).
    pub commands: Vec<Vec<String>>,
}

/// What `words` (a command's words, quotes removed, assignments first) runs besides itself.
pub fn runs(words: &[String]) -> Runs {
    let Some(at) = program_index(words) else {
        return Runs::default();
    };
    let program = program_name(&words[at]);
    let args = &words[at + 1..];
    if SOURCES.contains(&program) {
        return Runs {
            why: Some(format!("`{program}` runs further commands")),
            script: (program == "eval").then(|| args.join(" ")),
            commands: Vec::new(),
        };
    }
    if SHELLS.contains(&program) {
        // `-c`, or a cluster holding it (`-lc`, `-ec`); the script is the next word.
        let flag = args
            .iter()
            .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'));
        return match flag {
            Some(i) => Runs {
                why: Some(format!("`{program} -c` runs a script given as text")),
                script: args.get(i + 1).cloned(),
                commands: Vec::new(),
            },
            None => Runs::default(),
        };
    }
    if program == "find" {
        let mut commands = Vec::new();
        let mut i = 0;
        while i < args.len() {
            if matches!(args[i].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                let end = args[i + 1..]
                    .iter()
                    .position(|a| a == ";" || a == "+")
                    .map_or(args.len(), |p| i + 1 + p);
                commands.push(args[i + 1..end].to_vec());
                i = end;
            }
            i += 1;
        }
        return match commands.is_empty() {
            true => Runs::default(),
            false => Runs {
                why: Some("`find -exec` runs a further command".into()),
                script: None,
                commands,
            },
        };
    }
    if program == "env"
        && let Some(script) = env_split_string(args)
    {
        return Runs {
            why: Some("`env -S` runs a command given as text".into()),
            script: Some(script),
            commands: Vec::new(),
        };
    }
    // `env` alone prints the environment; with a command it runs it.
    let env_runs = program == "env"
        && args
            .iter()
            .any(|a| !a.starts_with('-') && !super::words::is_assignment(a));
    if env_runs || WRAPPERS.contains(&program) {
        return Runs {
            why: Some(format!("`{program}` runs a further command")),
            script: None,
            // Where its command starts depends on its options: every tail is looked at.
            commands: (1..args.len() + 1)
                .map(|from| words[at + from..].to_vec())
                .filter(|tail| !tail.is_empty())
                .collect(),
        };
    }
    Runs::default()
}

/// The command `env -S STRING ARGS…` (`--split-string`, `-iS…`) runs, as shell text: the
/// string split into words, then the words after it.
fn env_split_string(args: &[String]) -> Option<String> {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let text = if let Some(text) = word.strip_prefix("--split-string=") {
            Some(text.to_owned())
        } else if word == "--split-string" {
            words.next().cloned()
        } else if word.starts_with('-') && !word.starts_with("--") {
            // A cluster: `-u NAME` and `-C DIR` take the rest or the next word, as `-S` does.
            let letters = word.get(1..).unwrap_or("");
            match letters.find(['S', 'u', 'C']) {
                Some(at) => {
                    let rest = letters.get(at + 1..).unwrap_or("");
                    let value = match rest {
                        "" => words.next().cloned(),
                        rest => Some(rest.to_owned()),
                    };
                    match letters.as_bytes().get(at) {
                        Some(b'S') => value,
                        _ => continue,
                    }
                }
                None => continue,
            }
        } else if word.starts_with("--") {
            continue;
        } else {
            return None;
        };
        let rest: Vec<&str> = words.map(String::as_str).collect();
        return text.map(|text| {
            [text.as_str()]
                .into_iter()
                .chain(rest)
                .collect::<Vec<_>>()
                .join(" ")
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn recognises_commands_that_run_commands() {
        assert_eq!(runs(&w("bash -lc ls")).script.as_deref(), Some("ls"));
        assert_eq!(
            runs(&w("eval rm -rf x")).script.as_deref(),
            Some("rm -rf x")
        );
        assert!(runs(&w("bash script.sh")).why.is_none());
        let find = runs(&w("find . -name x -exec rm {} ; -print"));
        assert_eq!(find.commands, vec![w("rm {}")]);
        assert!(runs(&w("find . -name x")).why.is_none());
        let sudo = runs(&w("sudo -u root rm -rf /"));
        assert!(sudo.commands.contains(&w("rm -rf /")));
        assert!(runs(&w("env")).why.is_none());
        assert!(runs(&w("env -i A=1 make")).why.is_some());
        assert!(
            runs(&w("A=1 /usr/bin/xargs rm"))
                .commands
                .contains(&w("rm"))
        );
        assert!(runs(&w("cargo test")).why.is_none());
        let split = |args: &[&str]| {
            let words: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            runs(&words).script
        };
        assert_eq!(
            split(&["env", "-S", "rm -rf x"]).as_deref(),
            Some("rm -rf x")
        );
        assert_eq!(split(&["env", "-Srm -rf x"]).as_deref(), Some("rm -rf x"));
        assert_eq!(
            split(&["env", "-iS", "rm -rf", "x"]).as_deref(),
            Some("rm -rf x")
        );
        assert_eq!(
            split(&["env", "-u", "S", "--split-string=sh -c id"]).as_deref(),
            Some("sh -c id")
        );
        assert_eq!(split(&["env", "-u", "HOME", "ls"]), None);
    }
}
