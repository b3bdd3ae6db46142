//! sed: its script's commands that run a command (`e`, `s///e`) or write a file (`w FILE`,
//! `W FILE`, `s///w FILE`), a script read from a file (`-f`, which could hold either), and
//! `-i`/`--in-place`, which writes every file operand.
//!
//! Files written are judged like a redirection's target: inside the workspace they are fine,
//! so `sed -i s/a/b/ src/x.rs` is allowed by a rule for sed and `sed -i s/a/b/ ../x` is not.
//! GNU's `-i[SUFFIX]` and BSD's (macOS) `-i SUFFIX` read the words after it differently, so
//! both readings are checked: each word that is a script in either is read as one, each word
//! that is a file in either is judged as written.

use super::Effects;
use super::scan::{Does, Opt, Table, Takes, scan};

const SCRIPT_FILE: &str = "runs a script from a file, which can run commands or write files";

const SED: Table = Table::new(&[
    Opt::valued(&["-e", "--expression"]),
    Opt::valued(&["-f", "--file"]),
    Opt::valued(&["-l", "--line-length"]),
    Opt::new(&["-i", "-I", "--in-place"], Takes::Attached, Does::Nothing),
]);

/// Records what `sed ARGS` does beyond printing.
pub(super) fn check(program: &str, args: &[String], effects: &mut Effects) {
    let scanned = scan(args, &SED);
    // GNU's `--sandbox` refuses `e`, `w` and `r`.
    if scanned.has(&["--sandbox"]) {
        return;
    }
    if scanned.has(&["-f", "--file"]) {
        effects.danger(program, "-f", SCRIPT_FILE);
    }
    let in_place = scanned.has(&["-i", "-I", "--in-place"]);
    // GNU joins the expressions with newlines into one script.
    let expressions: Vec<&str> = scanned.values(&["-e", "--expression"]).collect();
    let ops = &scanned.operands;
    let (script, files): (Option<String>, &[String]) = if expressions.is_empty() {
        (ops.first().cloned(), ops.get(1..).unwrap_or_default())
    } else {
        (Some(expressions.join("\n")), ops)
    };
    if let Some(script) = script {
        match read_script(&script) {
            Ok(found) => record(program, found, effects),
            Err(()) => effects.danger(program, &script, UNREADABLE),
        }
    }
    // BSD's script, after the suffix: BSD has no `e` and runs nothing it cannot read, so only
    // the files it would write count.
    if scanned.values(&["-e", "--expression"]).next().is_none()
        && bare_in_place_first(args)
        && let Some(Ok(found)) = ops.get(1).map(|script| read_script(script))
    {
        let writes = found.into_iter().filter(|f| matches!(f, Found::Writes(_)));
        record(program, writes.collect(), effects);
    }
    if in_place {
        files.iter().for_each(|file| effects.write(file));
    }
}

fn record(program: &str, found: Vec<Found>, effects: &mut Effects) {
    for one in found {
        match one {
            Found::Runs(command) => effects.danger(program, command, RUNS),
            Found::Writes(file) => effects.write(&file),
        }
    }
}

/// Whether a bare `-i` (or `-I`, or a cluster ending in one) comes before the first operand:
/// BSD then reads the next word as its suffix.
fn bare_in_place_first(args: &[String]) -> bool {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--" || word == "-" || !word.starts_with('-') {
            return false;
        }
        if word.starts_with("--") {
            continue;
        }
        for (at, letter) in word.char_indices().skip(1) {
            let last = at + letter.len_utf8() == word.len();
            match letter {
                'i' | 'I' if last => return true,
                // A value: the rest of the word, or the next word.
                'e' | 'f' | 'l' if last => {
                    words.next();
                }
                'i' | 'I' | 'e' | 'f' | 'l' => break,
                _ => {}
            }
        }
    }
    false
}

const RUNS: &str = "runs a command from its script";
const UNREADABLE: &str = "is a script this check cannot read";

/// A command of a script that does more than edit the text.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Found {
    /// `e` or the `e` flag of `s` (as the option shown).
    Runs(&'static str),
    /// `w FILE`, `W FILE` or the `w FILE` flag of `s`.
    Writes(String),
}

/// The commands of a GNU sed script that run or write; `Err` when it does not read as one.
fn read_script(script: &str) -> Result<Vec<Found>, ()> {
    let mut found = Vec::new();
    let mut s = Reader {
        chars: script.chars().collect(),
        at: 0,
    };
    loop {
        s.skip(|c| c.is_whitespace() || c == ';');
        let Some(c) = s.peek() else { break };
        if c == '#' {
            s.rest_of_line();
            continue;
        }
        s.address()?;
        s.skip(char::is_whitespace);
        if s.peek() == Some(',') {
            s.at += 1;
            s.skip(char::is_whitespace);
            if matches!(s.peek(), Some('+' | '~')) {
                s.at += 1;
            }
            s.address()?;
            s.skip(char::is_whitespace);
        }
        s.skip(|c| c == '!' || c.is_whitespace());
        let Some(command) = s.next() else {
            return Err(());
        };
        match command {
            '{' => continue,
            '}' | '=' | 'd' | 'D' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'x' | 'z'
            | 'F' => {}
            'l' | 'L' | 'q' | 'Q' => {
                s.skip(char::is_whitespace);
                s.skip(|c| c.is_ascii_digit());
            }
            ':' | 'b' | 't' | 'T' | 'v' => {
                s.skip(|c| c == ' ' || c == '\t');
                s.skip(|c| c != ';' && c != '\n');
            }
            'a' | 'i' | 'c' => s.text(),
            'r' | 'R' => {
                s.rest_of_line();
            }
            'w' | 'W' => found.push(Found::Writes(s.file_name())),
            'e' => {
                s.rest_of_line();
                found.push(Found::Runs("e"));
            }
            'y' => {
                let delimiter = s.next().ok_or(())?;
                s.until(delimiter)?;
                s.until(delimiter)?;
            }
            's' => {
                let delimiter = s.next().filter(|d| *d != '\n' && *d != '\\').ok_or(())?;
                s.until(delimiter)?;
                s.until(delimiter)?;
                while let Some(flag) = s.peek() {
                    match flag {
                        'g' | 'p' | 'i' | 'I' | 'm' | 'M' | '0'..='9' => s.at += 1,
                        'e' => {
                            s.at += 1;
                            found.push(Found::Runs("s///e"));
                        }
                        'w' => {
                            s.at += 1;
                            found.push(Found::Writes(s.file_name()));
                        }
                        _ => break,
                    }
                }
            }
            _ => return Err(()),
        }
        s.skip(|c| c == ' ' || c == '\t');
        match s.peek() {
            None | Some(';' | '\n' | '}' | '#') => {}
            Some(_) => return Err(()),
        }
    }
    Ok(found)
}

struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        self.at += usize::from(c.is_some());
        c
    }

    fn skip(&mut self, what: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&what) {
            self.at += 1;
        }
    }

    fn rest_of_line(&mut self) -> String {
        let start = self.at;
        self.skip(|c| c != '\n');
        self.chars[start..self.at].iter().collect()
    }

    /// A file name: the rest of the line after blanks.
    fn file_name(&mut self) -> String {
        self.skip(|c| c == ' ' || c == '\t');
        self.rest_of_line()
    }

    /// Text of `a`, `i`, `c`: to the end of the line, lines ending in `\` going on.
    fn text(&mut self) {
        while let Some(c) = self.next() {
            match c {
                '\\' => self.at += usize::from(self.peek().is_some()),
                '\n' => break,
                _ => {}
            }
        }
    }

    /// Up to and past the next `delimiter` that no backslash escapes.
    fn until(&mut self, delimiter: char) -> Result<(), ()> {
        while let Some(c) = self.next() {
            if c == '\\' {
                self.next().ok_or(())?;
            } else if c == delimiter {
                return Ok(());
            }
        }
        Err(())
    }

    /// An address, if one is here: a line number (`3`, `0~4`), `$`, `/re/` or `\%re%`, with
    /// the flags `I` and `M` of a regular expression.
    fn address(&mut self) -> Result<(), ()> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                self.skip(|c| c.is_ascii_digit() || c == '~');
            }
            Some('$') => self.at += 1,
            Some('/') => {
                self.at += 1;
                self.until('/')?;
                self.skip(|c| c == 'I' || c == 'M');
            }
            Some('\\') => {
                self.at += 1;
                let delimiter = self.next().ok_or(())?;
                self.until(delimiter)?;
                self.skip(|c| c == 'I' || c == 'M');
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Hit;
    use super::*;

    fn of(args: &[&str]) -> Effects {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let mut effects = Effects::default();
        check("sed", &args, &mut effects);
        effects
    }

    fn writes(effects: &Effects) -> Vec<&str> {
        effects
            .writes
            .iter()
            .flatten()
            .map(String::as_str)
            .collect()
    }

    #[test]
    fn scripts_that_only_edit_text() {
        for script in [
            "s/a/b/g",
            "1,5p",
            "/foo/d",
            "/start/,/end/p",
            r"s/\(x\)/\1/2",
            "$d",
            "s|a/b|c|g",
            "y/abc/xyz/",
            "1!G;h;$!d",
            ":a;N;$!ba;s/\\n/ /g",
            "/x/{p;q}",
            "0~3s/x/y/I",
            "\\%a%,+2d",
            "a hello",
            "3i\\\nline",
            "s/x/y/ # comment",
            "r other.txt",
            "q5",
        ] {
            let effects = of(&["-n", script, "f"]);
            assert_eq!(effects, Effects::default(), "{script}");
        }
    }

    #[test]
    fn scripts_that_run_or_write() {
        for (args, option) in [
            (&["s/a/b/e", "f"][..], "s///e"),
            (&["1e touch x", "f"], "e"),
            (&["-n", "-e", "p", "-e", "e id", "f"], "e"),
            (&["s/a/b/ge", "f"], "s///e"),
        ] {
            match of(args).hit {
                Some(Hit::Option { option: got, .. }) => assert_eq!(got, option, "{args:?}"),
                other => panic!("{args:?}: {other:?}"),
            }
        }
        assert_eq!(writes(&of(&["s/a/b/w ../x", "f"])), ["../x"]);
        assert_eq!(writes(&of(&["-n", "/x/w out.txt", "f"])), ["out.txt"]);
        assert_eq!(writes(&of(&["W /tmp/x", "f"])), ["/tmp/x"]);
        assert!(of(&["-f", "script.sed", "f"]).hit.is_some());
        // `a\` goes on in the next expression: `e id` is text there, not a command.
        assert!(of(&["-e", "a\\", "-e", "e id", "f"]).hit.is_none());
        assert!(of(&["-e", "s/a\\", "-e", "/b/e", "f"]).hit.is_some());
        assert!(of(&["s/a/b/;k", "f"]).hit.is_some(), "an unknown command");
        assert!(of(&["s/a/b", "f"]).hit.is_some(), "an unterminated s");
        assert!(of(&["--sandbox", "s/a/b/e", "f"]).hit.is_none());
    }

    #[test]
    fn in_place_edits_write_every_file() {
        assert_eq!(writes(&of(&["-i", "s/a/b/", "../x", "y"])), ["../x", "y"]);
        assert_eq!(writes(&of(&["-i.bak", "s/a/b/", "f"])), ["f"]);
        assert_eq!(
            writes(&of(&["-ni", "-e", "p", "f", "/etc/x"])),
            ["f", "/etc/x"]
        );
        assert_eq!(writes(&of(&["--in-place", "s/a/b/", "f"])), ["f"]);
        assert_eq!(writes(&of(&["s/a/b/", "-i", "f"])), ["f"]);
        assert!(writes(&of(&["s/a/b/", "f"])).is_empty());
        // macOS: the suffix is the next word, the script the one after it.
        let bsd = of(&["-i", "", "s/a/b/w ../x", "f"]);
        assert!(bsd.hit.is_none(), "{:?}", bsd.hit);
        assert!(writes(&bsd).contains(&"../x"));
        assert!(writes(&bsd).contains(&"f"));
    }
}
