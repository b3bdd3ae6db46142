//! What a command does through its own options, arguments and environment beyond what a rule
//! for its program can mean: a table per program of the options that run another program or
//! code (`git -c`, `rg --pre`, `sed 's/x/y/e'`, `tar --to-command`, `awk 'BEGIN{system(…)}'`,
//! `python -c`, an editor), the ones that delete (`find -delete`), and the files it writes
//! (`git diff --output=F`, `sed -i … F`, `cp A F`, `tee F`, `sort -o F`, `curl -o F`); and the
//! variables that change what runs (`PATH=`, `LD_PRELOAD=`, `GIT_EXTERNAL_DIFF=`, `PAGER=`…).
//!
//! A hit makes the line not plain. A file written is judged like a redirection's target: a
//! rule may allow writing inside the workspace (`sed -i s/a/b/ src/x.rs`, `cp a b`), never
//! outside it or somewhere not known before the command runs; for a program whose work is
//! writing its operands (`cp`, `mv`, `rm`, `tee`…) every operand counts. Without a kernel
//! sandbox (macOS, Windows, `--sandbox off`) this is all that keeps an allow rule for a program
//! from allowing what its options can do.

mod archives;
mod awk;
#[cfg(test)]
mod checking;
mod environment;
mod files;
mod git;
mod network;
mod runners;
mod scan;
mod sed;

use super::words::{is_assignment, program_index, program_name};

/// Why a command is more than its rule can mean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hit {
    /// An option or argument (`option`, as shown: `--output`, `-c`, `s///e`; empty for the
    /// program itself) of `program` (`git`, `git diff`) that does what `why` says.
    Option {
        program: String,
        option: String,
        why: String,
    },
    /// A variable set for the command.
    Variable { name: String, why: String },
}

/// What a command does through its options and environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects {
    /// The first thing it does that no rule can allow.
    pub hit: Option<Hit>,
    /// The files it writes, as written (relative to where it runs); `None` for one named by an
    /// expansion or not known before it runs.
    pub writes: Vec<Option<String>>,
}

impl Effects {
    fn danger(&mut self, program: &str, option: &str, why: &str) {
        if self.hit.is_none() {
            self.hit = Some(Hit::Option {
                program: program.to_owned(),
                option: option.to_owned(),
                why: why.to_owned(),
            });
        }
    }

    fn variable(&mut self, name: &str, why: &str) {
        if self.hit.is_none() {
            self.hit = Some(Hit::Variable {
                name: name.to_owned(),
                why: why.to_owned(),
            });
        }
    }

    /// Records a file written; `-` (standard output) and an empty name write nothing.
    fn write(&mut self, target: &str) {
        if target.is_empty() || target == "-" {
            return;
        }
        let known = !target.contains(['$', '`']) && !target.starts_with('~');
        self.writes.push(known.then(|| target.to_owned()));
    }

    /// Records a file written, taken from `dir` when relative.
    fn write_in(&mut self, dir: Option<&str>, target: &str) {
        match dir {
            Some(dir) if !target.starts_with('/') && !target.is_empty() && target != "-" => {
                self.write(&format!("{dir}/{target}"));
            }
            _ => self.write(target),
        }
    }

    fn write_unknown(&mut self) {
        self.writes.push(None);
    }
}

/// What `words` (a command's words, quotes removed, assignments first) does through its
/// options, arguments and environment.
pub fn effects(words: &[String]) -> Effects {
    let mut effects = Effects::default();
    let Some(at) = program_index(words) else {
        return effects;
    };
    environment::check(&words[..at], &mut effects);
    let program = program_name(&words[at]);
    let args = &words[at + 1..];
    if let Some(why) = runners::always(program) {
        effects.danger(program, "", why);
        return effects;
    }
    if runners::interpreter(program, args, &mut effects) && program != "bun" {
        return effects;
    }
    let check: fn(&str, &[String], &mut Effects) = match program {
        "git" => |_, args, effects| git::check(args, effects),
        "sed" | "gsed" => sed::check,
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => awk::check,
        "tar" | "gtar" | "bsdtar" => archives::tar,
        "unzip" => archives::unzip,
        "zip" => archives::zip,
        "gzip" | "gunzip" | "zcat" | "bzip2" | "bunzip2" | "bzcat" | "xz" | "unxz" | "xzcat"
        | "zstd" | "unzstd" | "zstdcat" | "lz4" | "lzma" | "unlzma" => archives::compressor,
        "cp" | "mv" | "ln" | "install" | "rm" | "rmdir" | "unlink" | "mkdir" | "touch"
        | "truncate" | "tee" | "chmod" | "chown" | "chgrp" | "shred" | "split" | "mkfifo"
        | "mknod" => files::writes_operands,
        "sort" | "csplit" | "patch" | "find" | "base64" | "basenc" => files::writes_by_options,
        "uniq" => files::uniq,
        "dd" => files::dd,
        "curl" => network::curl,
        "wget" => network::wget,
        "ssh" => network::ssh,
        "scp" | "rsync" => network::copy_remote,
        "rg" => runners::rg,
        "make" | "gmake" => runners::make,
        "npm" | "pnpm" | "yarn" | "bun" => runners::packages,
        "cargo" => runners::cargo,
        "man" => runners::man,
        "gdb" => runners::gdb,
        "openssl" => runners::openssl,
        "pwsh" | "powershell" | "cmd" => runners::powershell,
        "env" => |_, args, effects| {
            let assignments = args.iter().filter(|a| is_assignment(a));
            environment::check(&assignments.cloned().collect::<Vec<_>>(), effects);
        },
        _ => return effects,
    };
    check(program, args, &mut effects);
    effects
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(line: &str) -> Effects {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        effects(&words)
    }

    #[test]
    fn the_program_is_found_behind_its_environment_and_folder() {
        assert!(of("/usr/bin/git -c x=y log").hit.is_some());
        assert!(of("LANG=C rg --pre x foo").hit.is_some());
        assert!(matches!(
            of("LD_PRELOAD=./x.so ls").hit,
            Some(Hit::Variable { .. })
        ));
        assert!(matches!(
            of("env PATH=. ls").hit,
            Some(Hit::Variable { .. })
        ));
        assert!(of("vim notes.txt").hit.is_some());
        assert!(of("bun -e 1").hit.is_some());
        assert!(of("bun x cowsay").hit.is_some());
        assert_eq!(of("ls -la"), Effects::default());
        assert_eq!(of("cargo test"), Effects::default());
    }

    #[test]
    fn writes_named_by_an_expansion_are_unknown() {
        assert_eq!(of("cp a $HOME/x").writes, [Some("a".to_owned()), None]);
        assert_eq!(of("tee ~/x").writes, [None]);
        assert_eq!(of("sort -o - f").writes, []);
    }
}
