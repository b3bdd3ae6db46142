//! awk (and gawk, mawk, nawk): a program that runs a command (`system(…)`, a pipe `|` to or
//! from a command, `|&`), one that writes a file (`print > FILE`, `printf >> FILE`), one read
//! from a file (`-f`, `-E`) or extended by one (`-i`, `-l`, `@include`, `@load`).
//!
//! A `print` to a string literal is a file written, judged like a redirection's target; to an
//! expression it is a file not known before it runs.

use super::Effects;
use super::scan::{Does, Opt, Table, Takes, scan};

const PROGRAM_FILE: &str = "runs a program from a file, which can run commands or write files";

const AWK: Table = Table::new(&[
    Opt::danger(&["-f", "--file", "-E", "--exec"], PROGRAM_FILE),
    Opt::danger(&["-i", "--include"], "includes a program file"),
    Opt::danger(&["-l", "--load"], "loads a compiled extension"),
    Opt::danger(
        &["-W"],
        "passes an implementation option this check cannot read",
    ),
    Opt::new(
        &["-D", "--debug"],
        Takes::Attached,
        Does::Danger("starts the debugger"),
    ),
    Opt::new(&["-o", "--pretty-print"], Takes::Attached, Does::Writes),
    Opt::new(&["-p", "--profile"], Takes::Attached, Does::Writes),
    Opt::new(&["-d", "--dump-variables"], Takes::Attached, Does::Writes),
    Opt::valued(&["-e", "--source"]),
    Opt::valued(&["-F", "--field-separator", "-v", "--assign"]),
]);

/// Records what `awk ARGS` does beyond printing.
pub(super) fn check(program: &str, args: &[String], effects: &mut Effects) {
    let scanned = scan(args, &AWK);
    super::scan::apply(program, &scanned, None, effects);
    let sources: Vec<&str> = scanned.values(&["-e", "--source"]).collect();
    let from_file = scanned.has(&["-f", "--file", "-E", "--exec"]);
    let texts = if sources.is_empty() && !from_file {
        scanned
            .operands
            .first()
            .map(String::as_str)
            .into_iter()
            .collect()
    } else {
        sources
    };
    for text in texts {
        read_program(program, text, effects);
    }
}

/// One lexical element of an awk program, as far as this check needs.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    /// A string literal's contents.
    Text(String),
    Number,
    Regex,
    /// Punctuation and operators, longest first (`>>`, `||`, `|&`).
    Op(&'static str),
    Newline,
}

const OPS: [&str; 32] = [
    "|&", "||", "&&", ">>", ">=", "<=", "==", "!=", "!~", "++", "--", "+=", "-=", "*=", "/=", "%=",
    "^=", "|", ">", "<", "(", ")", "{", "}", ";", ",", "!", "~", "?", ":", "=", "$",
];

/// Words after which a `/` starts a regular expression rather than dividing.
const BEFORE_REGEX: [&str; 8] = [
    "print", "printf", "return", "in", "getline", "case", "do", "else",
];

fn tokens(text: &str) -> Result<Vec<Token>, ()> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<Token> = Vec::new();
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        let rest: String = chars[at..chars.len().min(at + 2)].iter().collect();
        if c == '\n' {
            out.push(Token::Newline);
            at += 1;
        } else if c.is_whitespace() || (c == '\\' && chars.get(at + 1) == Some(&'\n')) {
            at += if c == '\\' { 2 } else { 1 };
        } else if c == '#' {
            while chars.get(at).is_some_and(|c| *c != '\n') {
                at += 1;
            }
        } else if c == '"' {
            let (body, end) = delimited(&chars, at + 1, '"')?;
            out.push(Token::Text(body));
            at = end;
        } else if c == '/' && regex_may_start(out.last()) {
            let (_, end) = delimited(&chars, at + 1, '/')?;
            out.push(Token::Regex);
            at = end;
        } else if c.is_ascii_alphabetic() || c == '_' || c == '@' {
            let start = at;
            at += 1;
            while chars
                .get(at)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
            {
                at += 1;
            }
            out.push(Token::Word(chars[start..at].iter().collect()));
        } else if c.is_ascii_digit() || c == '.' {
            while chars
                .get(at)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '.')
            {
                at += 1;
            }
            out.push(Token::Number);
        } else if let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) {
            out.push(Token::Op(op));
            at += op.chars().count();
        } else {
            // `+`, `-`, `*`, `/` (dividing), `%`, `^`, `[`, `]` and the like.
            out.push(Token::Op("_"));
            at += 1;
        }
    }
    Ok(out)
}

/// The body of a string or regex from `start` to its closing `end`, and the index past it.
fn delimited(chars: &[char], start: usize, end: char) -> Result<(String, usize), ()> {
    let mut body = String::new();
    let mut at = start;
    while let Some(&c) = chars.get(at) {
        match c {
            '\\' => {
                body.push(c);
                body.extend(chars.get(at + 1));
                at += 2;
            }
            '\n' => return Err(()),
            c if c == end => return Ok((body, at + 1)),
            c => {
                body.push(c);
                at += 1;
            }
        }
    }
    Err(())
}

fn regex_may_start(previous: Option<&Token>) -> bool {
    match previous {
        None | Some(Token::Newline) => true,
        Some(Token::Word(word)) => BEFORE_REGEX.contains(&word.as_str()),
        Some(Token::Op(op)) => !matches!(*op, ")" | "$" | "++" | "--" | "_"),
        Some(Token::Text(_) | Token::Number | Token::Regex) => false,
    }
}

/// Records what the awk program `text` runs and writes.
fn read_program(program: &str, text: &str, effects: &mut Effects) {
    let Ok(tokens) = tokens(text) else {
        effects.danger(program, text, "is a program this check cannot read");
        return;
    };
    // Inside a `print` or `printf` statement: the parenthesis depth it started at.
    let mut printing: Option<usize> = None;
    let mut depth = 0usize;
    for (at, token) in tokens.iter().enumerate() {
        match token {
            Token::Word(word) if word == "system" => {
                effects.danger(program, "system()", "runs a command");
            }
            Token::Word(word) if word == "@include" || word == "@load" => {
                effects.danger(program, word, "loads another file");
            }
            Token::Word(word) if word == "print" || word == "printf" => printing = Some(depth),
            Token::Op("|" | "|&") => effects.danger(program, "|", "pipes to or from a command"),
            Token::Op("(") => depth += 1,
            Token::Op(")") => depth = depth.saturating_sub(1),
            Token::Op(";" | "{" | "}") | Token::Newline => printing = None,
            Token::Op(">" | ">>") if printing == Some(depth) => {
                match (tokens.get(at + 1), tokens.get(at + 2)) {
                    (
                        Some(Token::Text(file)),
                        None | Some(Token::Op(";" | "}") | Token::Newline),
                    ) => {
                        effects.write(file);
                    }
                    _ => effects.write_unknown(),
                }
                printing = None;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Hit;
    use super::*;

    fn of(args: &[&str]) -> Effects {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let mut effects = Effects::default();
        check("awk", &args, &mut effects);
        effects
    }

    fn option(args: &[&str]) -> String {
        match of(args).hit {
            Some(Hit::Option { option, .. }) => option,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn programs_that_only_read_and_print() {
        for program in [
            "{print $1}",
            "$3 > 100",
            "$3 > 100 { print $1, $2 }",
            "/foo|bar/ { n++ } END { print n }",
            "{ if ($1 > max) max = $1 } END { print max }",
            "a || b { print }",
            "{ x = $1 / 2; y = $2 / 3; print x > \"/dev/stderr\" }",
            "{ print ($1 > 2) }",
            "BEGIN { FS = \",\" } { s += $2 } END { printf \"%d\\n\", s }",
            "NR==FNR{a[$1];next} $1 in a",
            "{ getline line < \"other.txt\"; print line }",
            "# a comment | system\n{ print }",
        ] {
            let effects = of(&[program, "f"]);
            assert!(effects.hit.is_none(), "{program}: {:?}", effects.hit);
            assert!(
                effects
                    .writes
                    .iter()
                    .flatten()
                    .all(|w| w.starts_with("/dev/"))
            );
        }
    }

    #[test]
    fn programs_that_run_or_write() {
        assert_eq!(option(&["BEGIN{system(\"id\")}"]), "system()");
        assert_eq!(option(&["BEGIN { system (\"id\") }"]), "system()");
        assert_eq!(option(&["BEGIN { \"id\" | getline x }"]), "|");
        assert_eq!(option(&["{ print | \"sh\" }"]), "|");
        assert_eq!(option(&["{ print |& \"sh\" }"]), "|");
        assert_eq!(option(&["-f", "prog.awk", "f"]), "-f");
        assert_eq!(option(&["-i", "lib", "{print}"]), "-i");
        assert_eq!(option(&["-l", "ext", "{print}"]), "-l");
        assert_eq!(option(&["-e", "BEGIN{system(\"id\")}", "f"]), "system()");
        assert_eq!(option(&["@load \"x\"; {print}"]), "@load");
        assert_eq!(
            option(&["{ print \"unterminated }"]),
            "{ print \"unterminated }"
        );
        let writes = of(&["{ print > \"../x\" }"]).writes;
        assert_eq!(writes, [Some("../x".to_owned())]);
        let writes = of(&["{ printf \"%s\", $0 >> \"out.txt\" }"]).writes;
        assert_eq!(writes, [Some("out.txt".to_owned())]);
        let writes = of(&["{ print $2 > $1 \".txt\" }"]).writes;
        assert_eq!(writes, [None]);
        let writes = of(&["-o/tmp/pretty", "{print}"]).writes;
        assert_eq!(writes, [Some("/tmp/pretty".to_owned())]);
    }
}
