//! Reading a program's arguments the way its option parser does: short options clustered
//! (`-xvf a.tar`), long ones with their value attached (`--output=x`) or in the next word, long
//! names abbreviated (`--outp=x` is `--output=x` to getopt and to git), `--` ending the options,
//! options after operands (GNU permutes them). One [`Table`] per program says which options take
//! a value and what the dangerous ones do.

use super::Effects;

/// Whether an option takes a value, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Takes {
    Nothing,
    /// Attached (`-oFILE`, `--output=FILE`) or in the next word (`-o FILE`).
    Value,
    /// Only attached (`-i.bak`, `--in-place=.bak`): the next word is not its value.
    Attached,
}

/// What an option does that a rule allowing its program does not say.
#[derive(Debug, Clone, Copy)]
pub(super) enum Does {
    /// Nothing: listed so that its value is read as a value.
    Nothing,
    /// Runs a program or code, or acts beyond what its program is allowed for; the text says
    /// what, after the option's name (`runs a program on every file`).
    Danger(&'static str),
    /// Writes the file, or into the folder, its value names.
    Writes,
    /// Dangerous for some values: the check says why, or `None` for a harmless value.
    Value(fn(&str) -> Option<&'static str>),
}

/// One option of a program.
#[derive(Debug, Clone, Copy)]
pub(super) struct Opt {
    /// Its names: `-o` (short), `--output` (long), or `-delete` for a program whose long
    /// options take one dash.
    pub names: &'static [&'static str],
    pub takes: Takes,
    pub does: Does,
}

impl Opt {
    pub const fn new(names: &'static [&'static str], takes: Takes, does: Does) -> Self {
        Self { names, takes, does }
    }

    /// An option that takes a value and does nothing worth asking about.
    pub const fn valued(names: &'static [&'static str]) -> Self {
        Self::new(names, Takes::Value, Does::Nothing)
    }

    /// An option that writes the file its value names.
    pub const fn writes(names: &'static [&'static str]) -> Self {
        Self::new(names, Takes::Value, Does::Writes)
    }

    /// A dangerous flag (no value).
    pub const fn flag(names: &'static [&'static str], why: &'static str) -> Self {
        Self::new(names, Takes::Nothing, Does::Danger(why))
    }

    /// A dangerous option with a value.
    pub const fn danger(names: &'static [&'static str], why: &'static str) -> Self {
        Self::new(names, Takes::Value, Does::Danger(why))
    }
}

/// A program's options, as far as approvals care.
#[derive(Debug, Clone, Copy)]
pub(super) struct Table {
    pub options: &'static [Opt],
    /// Long options take one dash (`find -delete`, `openssl -out`) and nothing clusters.
    pub single_dash: bool,
    /// Full names of harmless long options that abbreviate a listed one (`--text` of
    /// `--textconv`): these are never read as the abbreviation.
    pub exact: &'static [&'static str],
    /// Options end at the first operand (POSIX `getopt`; the words after a script are its own).
    pub posix: bool,
}

impl Table {
    pub const fn new(options: &'static [Opt]) -> Self {
        Self {
            options,
            single_dash: false,
            exact: &[],
            posix: false,
        }
    }

    pub const fn exact(self, exact: &'static [&'static str]) -> Self {
        Self { exact, ..self }
    }

    pub const fn single_dash(self) -> Self {
        Self {
            single_dash: true,
            ..self
        }
    }

    pub const fn posix(self) -> Self {
        Self {
            posix: true,
            ..self
        }
    }
}

/// One option as given.
#[derive(Debug, Clone)]
pub(super) struct Seen {
    /// The table's entry, if the option is listed.
    pub opt: Option<Opt>,
    /// Its name: the listed name it stands for (`--output` for `--outp`), else as written.
    pub name: String,
    pub value: Option<String>,
}

/// A program's arguments, read.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanned {
    pub options: Vec<Seen>,
    /// The words that are not options or their values, in order.
    pub operands: Vec<String>,
}

impl Scanned {
    /// Whether an option with one of `names` was given.
    pub fn has(&self, names: &[&str]) -> bool {
        self.options
            .iter()
            .any(|o| names.contains(&o.name.as_str()))
    }

    /// The values of the options with one of `names`, in order.
    pub fn values<'s>(&'s self, names: &'s [&str]) -> impl Iterator<Item = &'s str> + 's {
        self.options
            .iter()
            .filter(|o| names.contains(&o.name.as_str()))
            .filter_map(|o| o.value.as_deref())
    }
}

/// Reads `args` (the words after the program's name) with `table`.
pub(super) fn scan(args: &[String], table: &Table) -> Scanned {
    let mut out = Scanned::default();
    let mut words = args.iter();
    let mut ended = false;
    while let Some(word) = words.next() {
        if ended || word == "-" || !word.starts_with('-') {
            out.operands.push(word.clone());
            ended |= table.posix;
        } else if word == "--" {
            ended = true;
        } else if table.single_dash || word.starts_with("--") {
            let (written, attached) = match word.split_once('=') {
                Some((name, value)) if !table.single_dash => (name, Some(value.to_owned())),
                _ => (word.as_str(), None),
            };
            let found = long(table, written);
            let value = match (attached, found.map(|(opt, _)| opt.takes)) {
                (Some(value), _) => Some(value),
                (None, Some(Takes::Value)) => words.next().cloned(),
                (None, _) => None,
            };
            out.options.push(Seen {
                opt: found.map(|(opt, _)| opt),
                name: found.map_or(written, |(_, name)| name).to_owned(),
                value,
            });
        } else {
            let letters: Vec<char> = word.chars().skip(1).collect();
            for (at, letter) in letters.iter().enumerate() {
                let name = format!("-{letter}");
                let opt = table
                    .options
                    .iter()
                    .find(|o| o.names.contains(&name.as_str()))
                    .copied();
                let rest: String = letters[at + 1..].iter().collect();
                let takes = opt.map_or(Takes::Nothing, |o| o.takes);
                let value = match takes {
                    Takes::Nothing => None,
                    Takes::Attached => (!rest.is_empty()).then_some(rest),
                    Takes::Value if rest.is_empty() => words.next().cloned(),
                    Takes::Value => Some(rest),
                };
                out.options.push(Seen { opt, name, value });
                if takes != Takes::Nothing {
                    break;
                }
            }
        }
    }
    out
}

/// The listed option a long name stands for: the exact name, else (two dashes only) the one it
/// abbreviates, a dangerous one first when it abbreviates several.
fn long(table: &Table, written: &str) -> Option<(Opt, &'static str)> {
    let named = |pick: &dyn Fn(&str) -> bool| {
        table.options.iter().find_map(|opt| {
            opt.names
                .iter()
                .find(|name| pick(name))
                .map(|name| (*opt, *name))
        })
    };
    if let Some(found) = named(&|name| name == written) {
        return Some(found);
    }
    let abbreviation = !table.single_dash
        && written.len() > 2
        && written.starts_with("--")
        && !table.exact.contains(&written);
    if !abbreviation {
        return None;
    }
    let abbreviates = |name: &str| name.starts_with("--") && name.starts_with(written);
    let dangerous = table.options.iter().find_map(|opt| {
        let name = opt.names.iter().find(|name| abbreviates(name))?;
        (!matches!(opt.does, Does::Nothing)).then_some((*opt, *name))
    });
    dangerous.or_else(|| named(&abbreviates))
}

/// Records what the listed options among `scanned` do, for `program` (as shown: `git diff`);
/// relative files they write are taken from `dir` when the program works in another folder.
pub(super) fn apply(program: &str, scanned: &Scanned, dir: Option<&str>, effects: &mut Effects) {
    for seen in &scanned.options {
        let Some(opt) = seen.opt else { continue };
        match opt.does {
            Does::Nothing => {}
            Does::Danger(why) => effects.danger(program, &seen.name, why),
            Does::Writes => {
                if let Some(value) = &seen.value {
                    effects.write_in(dir, value);
                }
            }
            Does::Value(check) => {
                if let Some(why) = check(seen.value.as_deref().unwrap_or("")) {
                    effects.danger(program, &seen.name, why);
                }
            }
        }
    }
}

/// Scans `args` with `table` and records what its options do.
pub(super) fn check(program: &str, args: &[String], table: &Table, effects: &mut Effects) {
    apply(program, &scan(args, table), None, effects);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    const TABLE: Table = Table::new(&[
        Opt::writes(&["-o", "--output"]),
        Opt::valued(&["-k", "--key"]),
        Opt::new(&["-i", "--in-place"], Takes::Attached, Does::Nothing),
        Opt::flag(&["--textconv"], "runs a program"),
    ])
    .exact(&["--text"]);

    #[test]
    fn values_attached_separate_and_clustered() {
        let s = scan(
            &w("-nko a -o out --output=b --output c -i.bak -i d"),
            &TABLE,
        );
        let values: Vec<&str> = s.values(&["-o", "--output"]).collect();
        assert_eq!(values, ["out", "b", "c"]);
        assert_eq!(s.values(&["-k"]).collect::<Vec<_>>(), ["o"]);
        assert_eq!(s.values(&["-i"]).collect::<Vec<_>>(), [".bak"]);
        assert_eq!(s.operands, ["a", "d"]);
    }

    #[test]
    fn abbreviations_stand_for_the_option() {
        let s = scan(&w("--outp x --text --textc"), &TABLE);
        let names: Vec<&str> = s.options.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["--output", "--text", "--textconv"]);
        assert_eq!(s.options[0].value.as_deref(), Some("x"));
        assert!(s.options[1].opt.is_none());
    }

    #[test]
    fn a_double_dash_ends_the_options() {
        let s = scan(&w("-- -o x"), &TABLE);
        assert!(s.options.is_empty());
        assert_eq!(s.operands, ["-o", "x"]);
    }

    #[test]
    fn posix_options_end_at_the_first_operand() {
        let s = scan(&w("-k x script.py -o y"), &TABLE.posix());
        assert!(!s.has(&["-o"]));
        assert_eq!(s.operands, ["script.py", "-o", "y"]);
    }

    #[test]
    fn single_dash_long_options_are_whole_words() {
        const FIND: Table = Table::new(&[
            Opt::writes(&["-fprint"]),
            Opt::flag(&["-delete"], "deletes"),
        ])
        .single_dash();
        let find = FIND;
        let s = scan(&w(". -name x -fprint ../out -delete"), &find);
        assert_eq!(s.values(&["-fprint"]).collect::<Vec<_>>(), ["../out"]);
        assert!(s.has(&["-delete"]));
        assert_eq!(s.operands, [".", "x"]);
    }
}
