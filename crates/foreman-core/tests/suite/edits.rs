//! The edit tools against what models really send: a table of cases, each run through the tool
//! on a real file (read first, as the stale-read guard wants), checking the bytes written, the
//! tolerance the model is told about, or the failure's code and text with the file untouched.

use foreman_core::boundary::WorkspaceBoundary;
use foreman_core::builtin_tools::BuiltinSession;
use foreman_core::builtin_tools::edit::{EditParams, run_edit};
use foreman_core::builtin_tools::multi_edit::{EditOperation, MultiEditParams, run_multi_edit};
use foreman_core::builtin_tools::read::{ReadParams, run_read};
use foreman_core::protocol::{ApprovalMode, ApprovalScope, CallState, EventMsg, Op};
use foreman_core::testing::scripts::call;
use serde_json::json;

use super::common::*;

/// What a case must do.
enum Expect {
    /// The file ends up as `bytes`; the result mentions each of `notes` (none: no note at all).
    Writes {
        bytes: &'static [u8],
        notes: &'static [&'static str],
    },
    /// The edit fails with `code`, its text has each of `says`, and the file is unchanged.
    Fails {
        code: &'static str,
        says: &'static [&'static str],
    },
}

struct Case {
    name: &'static str,
    file: &'static [u8],
    /// `old_string`, `new_string`, `replace_all`; more than one runs `multi_edit`.
    edits: &'static [(&'static str, &'static str, bool)],
    expect: Expect,
}

use Expect::{Fails, Writes};

const fn ok(bytes: &'static [u8]) -> Expect {
    Writes { bytes, notes: &[] }
}

const fn noted(bytes: &'static [u8], notes: &'static [&'static str]) -> Expect {
    Writes { bytes, notes }
}

const fn fails(code: &'static str, says: &'static [&'static str]) -> Expect {
    Fails { code, says }
}

const fn case(
    name: &'static str,
    file: &'static [u8],
    edits: &'static [(&'static str, &'static str, bool)],
    expect: Expect,
) -> Case {
    Case {
        name,
        file,
        edits,
        expect,
    }
}

const INDENTED: &str = "normalising indentation";
const INNER: &str = "runs of spaces and tabs";
const PUNCT: &str = "Unicode dashes, quotes and spaces";
const TOKENS: &str = "next to brackets, commas";
const BLANK: &str = "blank lines at the start or end";
const NUMBERS: &str = "line-number prefixes";
const ESCAPES: &str = "escape sequences";
const WHOLE: &str = "removed whole, with their indentation";

const CASES: &[Case] = &[
    // Exact matches.
    case(
        "exact, one match",
        b"a\nb\nc\n",
        &[("b", "B", false)],
        ok(b"a\nB\nc\n"),
    ),
    case(
        "replace_all",
        b"x1 x2\nx3\n",
        &[("x", "y", true)],
        ok(b"y1 y2\ny3\n"),
    ),
    case(
        "several matches ask for context, with line and column",
        b"a\nfoo\nb\nfoo\n",
        &[("foo", "bar", false)],
        fails(
            "EDIT_AMBIGUOUS",
            &["2 times", "line 2 column 1, line 4 column 1"],
        ),
    ),
    case(
        "two matches on one line give their columns",
        b"let a = f(x) + f(x);\n",
        &[("f(x)", "g(x)", false)],
        fails("EDIT_AMBIGUOUS", &["line 1 column 9, line 1 column 16"]),
    ),
    case(
        "columns count characters, not bytes",
        "é x é x\n".as_bytes(),
        &[("x", "y", false)],
        fails("EDIT_AMBIGUOUS", &["line 1 column 3, line 1 column 7"]),
    ),
    case(
        "empty old_string",
        b"a\n",
        &[("", "b", false)],
        fails("EDIT_INVALID", &["old_string is empty"]),
    ),
    case(
        "identical strings",
        b"a\n",
        &[("a", "a", false)],
        fails("EDIT_INVALID", &["identical"]),
    ),
    case(
        "no match shows the closest region",
        b"fn main() {\n    let x = 1;\n}\n",
        &[("let x = 2;\nlet y = 3;", "z", false)],
        fails(
            "EDIT_NO_MATCH",
            &["closest region is lines", "% similar", "let x = 1;"],
        ),
    ),
    case(
        "an empty file has nothing to match",
        b"",
        &[("a", "b", false)],
        fails("EDIT_NO_MATCH", &["not found"]),
    ),
    case(
        "no final newline stays so",
        b"a\nb",
        &[("b", "c", false)],
        ok(b"a\nc"),
    ),
    case(
        "appending to a last line without a newline",
        b"a\nb",
        &[("b", "b\nc", false)],
        ok(b"a\nb\nc"),
    ),
    case(
        "tabs are matched exactly",
        b"\tif x {\n\t\tgo()\n\t}\n",
        &[("\t\tgo()", "\t\tstop()", false)],
        ok(b"\tif x {\n\t\tstop()\n\t}\n"),
    ),
    // Line endings: every untouched line keeps its bytes.
    case(
        "CRLF file, one line",
        b"one\r\ntwo\r\nthree\r\n",
        &[("two", "2", false)],
        ok(b"one\r\n2\r\nthree\r\n"),
    ),
    case(
        "CRLF file, old_string sent with LF",
        b"one\r\ntwo\r\nthree\r\n",
        &[("one\ntwo\n", "1\n2\n", false)],
        ok(b"1\r\n2\r\nthree\r\n"),
    ),
    case(
        "LF file, old_string sent with CRLF",
        b"one\ntwo\n",
        &[("one\r\ntwo", "1\r\n2", false)],
        ok(b"1\n2\n"),
    ),
    case(
        "CR-only file",
        b"one\rtwo\rthree\r",
        &[("two", "2", false)],
        ok(b"one\r2\rthree\r"),
    ),
    case(
        "mixed endings: an edit of an LF line leaves the CRLF lines alone",
        b"a\r\nb\nc\r\nd\n",
        &[("b", "B", false)],
        ok(b"a\r\nB\nc\r\nd\n"),
    ),
    case(
        "mixed endings: new lines take the ending where the edit starts",
        b"a\nb\r\nc\n",
        &[("b", "b1\nb2", false)],
        ok(b"a\nb1\r\nb2\r\nc\n"),
    ),
    case(
        "mixed endings: a deletion keeps the rest",
        b"a\r\nb\nc\r\n",
        &[("b\n", "", false)],
        ok(b"a\r\nc\r\n"),
    ),
    case(
        "a line added at the end of a CRLF file without a final newline",
        b"a\r\nb",
        &[("b", "b\nc", false)],
        ok(b"a\r\nb\r\nc"),
    ),
    case(
        "replace_all in a CRLF file",
        b"x\r\ny\r\nx\r\n",
        &[("x", "z", true)],
        ok(b"z\r\ny\r\nz\r\n"),
    ),
    case(
        "a byte-order mark stays",
        b"\xef\xbb\xbfname = 1\n",
        &[("name = 1", "name = 2", false)],
        ok(b"\xef\xbb\xbfname = 2\n"),
    ),
    case(
        "a byte-order mark with CRLF",
        b"\xef\xbb\xbfa\r\nb\r\n",
        &[("a\nb", "c", false)],
        ok(b"\xef\xbb\xbfc\r\n"),
    ),
    // Deleting lines quoted without their indentation.
    case(
        "deleting a line quoted without its indentation takes the line whole",
        b"    line1\n    line2\n",
        &[("line1\n", "", false)],
        noted(b"    line2\n", &[WHOLE]),
    ),
    case(
        "deleting several such lines",
        b"fn f() {\n    a();\n    b();\n    c();\n}\n",
        &[("a();\n    b();\n", "", false)],
        noted(b"fn f() {\n    c();\n}\n", &[WHOLE]),
    ),
    case(
        "deleting a line with its indentation needs no tolerance",
        b"    line1\n    line2\n",
        &[("    line1\n", "", false)],
        ok(b"    line2\n"),
    ),
    case(
        "deleting part of a line keeps the line",
        b"a = 1; b = 2;\n",
        &[(" b = 2;", "", false)],
        ok(b"a = 1;\n"),
    ),
    // Indentation and trailing spaces.
    case(
        "indentation differs: re-indented",
        b"\tif x {\n\t\tgo()\n\t}\n",
        &[("if x {\n    go()\n}", "if y {\n    go()\n}", false)],
        noted(b"\tif y {\n\t    go()\n\t}\n", &[INDENTED]),
    ),
    case(
        "trailing spaces in the file",
        b"a();   \nb();\n",
        &[("a();\nb();", "c();", false)],
        noted(b"c();\n", &[INDENTED]),
    ),
    case(
        "indentation tolerance refused when two blocks would match",
        b"  go()\nx\n    go()\n",
        &[("go() ", "stop()", false)],
        fails("EDIT_NO_MATCH", &[]),
    ),
    // Runs of whitespace inside a line.
    case(
        "runs of spaces in the file",
        b"function   sum(a,   b) {\n",
        &[("function sum(a, b) {", "function add(a, b) {", false)],
        noted(b"function add(a, b) {\n", &[INNER]),
    ),
    case(
        "runs of spaces in old_string",
        b"let x = 1;\n",
        &[("let  x  =  1;", "let x = 2;", false)],
        noted(b"let x = 2;\n", &[INNER]),
    ),
    case(
        "tabs inside a line",
        b"key\t=\tvalue\n",
        &[("key = value", "key = other", false)],
        noted(b"key = other\n", &[INNER]),
    ),
    case(
        "inner whitespace refused when ambiguous",
        b"a  b\nx\na b\n",
        &[("a   b", "c", false)],
        fails("EDIT_NO_MATCH", &[]),
    ),
    // Whitespace between tokens inside a line (Gemini CLI's "flexible intra-line whitespace").
    case(
        "spaces inside brackets in the file",
        b"  function  myFunc( a, b ) {\n    return a + b;\n  }\n",
        &[(
            "function myFunc(a, b) {",
            "function yourFunc(a, b) {",
            false,
        )],
        noted(
            b"  function yourFunc(a, b) {\n    return a + b;\n  }\n",
            &[TOKENS, INNER],
        ),
    ),
    case(
        "spaces around punctuation in old_string",
        b"call(x,y);\n",
        &[("call( x , y );", "call(y, x);", false)],
        noted(b"call(y, x);\n", &[TOKENS]),
    ),
    case(
        "token spacing refused when ambiguous",
        b"f( a )\nx\nf(a)\n",
        &[("f(a )", "g(a)", false)],
        fails("EDIT_NO_MATCH", &[]),
    ),
    case(
        "token spacing keeps the space between two words",
        b"let value = 1;\n",
        &[("letvalue = 1;", "let value = 2;", false)],
        fails("EDIT_NO_MATCH", &[]),
    ),
    // Unicode punctuation and spaces.
    case(
        "an en dash in the file",
        "range 1–10\n".as_bytes(),
        &[("range 1-10", "range 1-20", false)],
        noted(b"range 1-20\n", &[PUNCT]),
    ),
    case(
        "curly quotes in the file",
        "say(“hi”)\n".as_bytes(),
        &[("say(\"hi\")", "say(\"bye\")", false)],
        noted(b"say(\"bye\")\n", &[PUNCT]),
    ),
    case(
        "a non-breaking space in the file",
        "a\u{a0}= 1\n".as_bytes(),
        &[("a = 1", "a = 2", false)],
        noted(b"a = 2\n", &[PUNCT]),
    ),
    case(
        "a non-breaking hyphen in the file",
        "well\u{2011}known\n".as_bytes(),
        &[("well-known", "famous", false)],
        noted(b"famous\n", &[PUNCT]),
    ),
    case(
        "an em dash in old_string",
        b"a - b\n",
        &[("a \u{2014} b", "a + b", false)],
        noted(b"a + b\n", &[PUNCT]),
    ),
    case(
        "curly apostrophe in old_string",
        b"it's\n",
        &[("it\u{2019}s", "it is", false)],
        noted(b"it is\n", &[PUNCT]),
    ),
    case(
        "punctuation refused when ambiguous",
        "x – y\nx - y\n".as_bytes(),
        &[("x — y", "z", false)],
        fails("EDIT_NO_MATCH", &[]),
    ),
    case(
        "an exact match wins over a looser one",
        "x – y\nx - y\n".as_bytes(),
        &[("x - y", "z", false)],
        ok("x – y\nz\n".as_bytes()),
    ),
    // Blank lines at the ends of old_string.
    case(
        "a leading blank line the file does not have",
        b"b\nc\n",
        &[("\nb\n", "\nB\n", false)],
        noted(b"B\nc\n", &[BLANK]),
    ),
    case(
        "trailing blank lines the file does not have",
        b"fn a() {}\nfn b() {}\n",
        &[("fn a() {}\n\n\n", "fn c() {}\n", false)],
        noted(b"fn c() {}\nfn b() {}\n", &[BLANK]),
    ),
    case(
        "blank lines trimmed from new_string as from old_string",
        b"x\ny\n",
        &[("\n\ny\n", "\n\nz\n", false)],
        noted(b"x\nz\n", &[BLANK]),
    ),
    case(
        "blank-line trimming refused when ambiguous",
        b"k\nx\nk\n",
        &[("\nk\n\n", "j\n", false)],
        fails("EDIT_NO_MATCH", &[]),
    ),
    // Line-number prefixes copied from read output.
    case(
        "read's own prefixes on both strings",
        b"a\nb\nc\n",
        &[("     2\tb\n     3\tc\n", "     2\tB\n     3\tC\n", false)],
        noted(b"a\nB\nC\n", &[NUMBERS]),
    ),
    case(
        "arrow prefixes",
        b"one\ntwo\n",
        &[("1→one\n2→two", "1→uno\n2→dos", false)],
        noted(b"uno\ndos\n", &[NUMBERS]),
    ),
    case(
        "bar prefixes",
        b"one\ntwo\n",
        &[("1 | one\n2 | two", "1 | uno\n2 | dos", false)],
        noted(b"uno\ndos\n", &[NUMBERS]),
    ),
    case(
        "prefixes on old_string only",
        b"one\ntwo\n",
        &[("1\tone\n2\ttwo", "uno\ndos", false)],
        noted(b"uno\ndos\n", &[NUMBERS]),
    ),
    case(
        "prefixes that do not count up are not prefixes",
        b"one\ntwo\n",
        &[("1\tone\n3\ttwo", "x", false)],
        fails("EDIT_NO_MATCH", &[]),
    ),
    case(
        "numbers that are the file's own text match exactly",
        b"1\tone\n2\ttwo\n",
        &[("1\tone", "1\tuno", false)],
        ok(b"1\tuno\n2\ttwo\n"),
    ),
    case(
        "prefixes refused when the stripped text is ambiguous",
        b"x\nx\n",
        &[("5\tx", "y", false)],
        fails("EDIT_NO_MATCH", &[]),
    ),
    // Over-escaped strings.
    case(
        "a literal \\n where the file has a newline",
        b"a\nb\n",
        &[("a\\nb", "a\\nc", false)],
        noted(b"a\nc\n", &[ESCAPES]),
    ),
    case(
        "escaped quotes",
        b"print(\"hi\")\n",
        &[("print(\\\"hi\\\")", "print(\\\"bye\\\")", false)],
        noted(b"print(\"bye\")\n", &[ESCAPES]),
    ),
    case(
        "a real backslash-n in the file matches as it is",
        b"printf(\"a\\n\");\n",
        &[("\"a\\n\"", "\"b\\n\"", false)],
        ok(b"printf(\"b\\n\");\n"),
    ),
    case(
        "unescaping refused when ambiguous",
        b"q\"\nq\"\n",
        &[("q\\\"", "r", false)],
        fails("EDIT_NO_MATCH", &[]),
    ),
    // Placeholders instead of code.
    case(
        "a rest-of-the-code placeholder",
        b"fn a() {\n    one();\n    two();\n}\n",
        &[(
            "fn a() {\n    one();\n    two();\n}",
            "fn a() {\n    zero();\n    // ... rest of the code ...\n}",
            false,
        )],
        fails(
            "EDIT_PLACEHOLDER",
            &["// ... rest of the code ...", "complete text"],
        ),
    ),
    case(
        "a parenthesised placeholder",
        b"class A:\n    def f(self): pass\n",
        &[(
            "class A:\n    def f(self): pass",
            "class A:\n    (rest of methods unchanged)",
            false,
        )],
        fails("EDIT_PLACEHOLDER", &["(rest of methods unchanged)"]),
    ),
    case(
        "a hash placeholder",
        b"x = 1\ny = 2\n",
        &[("x = 1\ny = 2", "x = 3\n# ... existing code ...", false)],
        fails("EDIT_PLACEHOLDER", &[]),
    ),
    case(
        "a placeholder the file already had is kept",
        b"a\n// ... rest of the code ...\n",
        &[(
            "a\n// ... rest of the code ...",
            "b\n// ... rest of the code ...",
            false,
        )],
        ok(b"b\n// ... rest of the code ...\n"),
    ),
    case(
        "a real comment is not a placeholder",
        b"f()\n",
        &[("f()", "// rest of the function handles errors\nf()", false)],
        ok(b"// rest of the function handles errors\nf()\n"),
    ),
    // multi_edit.
    case(
        "two edits in order",
        b"a\nb\nc\n",
        &[("a", "A", false), ("c", "C", false)],
        ok(b"A\nb\nC\n"),
    ),
    case(
        "a later edit may match what an earlier one wrote",
        b"a\nb\n",
        &[("a", "x", false), ("x\nb", "y", false)],
        ok(b"y\n"),
    ),
    case(
        "a failed second edit has its own code and number, and nothing is written",
        b"a\nb\n",
        &[("a", "A", false), ("zzz", "y", false)],
        fails(
            "EDIT_NO_MATCH",
            &["edit 2 of 2 failed, so no edit was written", "not found"],
        ),
    ),
    case(
        "a second edit whose text the first changed says so, with the line on disk",
        b"alpha\nbeta\ngamma\n",
        &[("beta", "BETA", false), ("beta\ngamma", "x", false)],
        fails(
            "EDIT_NO_MATCH",
            &[
                "at line 2 of the file",
                "an earlier edit of this call changed",
            ],
        ),
    ),
    case(
        "a failed later edit describes the file on disk",
        b"one\ntwo\nthree\n",
        &[
            ("one", "zero\nzero\nzero\none", false),
            ("three!", "3", false),
        ],
        fails("EDIT_NO_MATCH", &["lines 3–3", "     3\tthree"]),
    ),
    case(
        "an ambiguous later edit counts matches on disk",
        b"x\nx\ny\n",
        &[("y", "z", false), ("x", "w", false)],
        fails(
            "EDIT_AMBIGUOUS",
            &["edit 2 of 2", "line 1 column 1, line 2 column 1"],
        ),
    ),
];

fn session() -> (tempfile::TempDir, BuiltinSession) {
    let dir = tempfile::tempdir().unwrap();
    let boundary = WorkspaceBoundary::new(dir.path()).unwrap();
    let session = BuiltinSession::new(boundary, dir.path().join(".data"));
    (dir, session)
}

async fn read_first(session: &BuiltinSession, path: &str) {
    let params = ReadParams {
        path: path.into(),
        offset: None,
        limit: None,
    };
    run_read(session, params).await.unwrap();
}

/// Runs `edits` on a file holding `bytes`: the result (text for the model, or the error's code
/// and text) and the file afterwards.
async fn run(
    bytes: &[u8],
    edits: &[(&str, &str, bool)],
) -> (Result<String, (String, String)>, Vec<u8>) {
    let (dir, s) = session();
    let path = dir.path().join("f.txt");
    std::fs::write(&path, bytes).unwrap();
    read_first(&s, "f.txt").await;
    let operations: Vec<EditOperation> = edits
        .iter()
        .map(|(old, new, all)| EditOperation {
            old_string: (*old).into(),
            new_string: (*new).into(),
            replace_all: *all,
        })
        .collect();
    let result = match operations.as_slice() {
        [one] => {
            let params = EditParams {
                path: "f.txt".into(),
                old_string: one.old_string.clone(),
                new_string: one.new_string.clone(),
                replace_all: one.replace_all,
            };
            run_edit(&s, params).await
        }
        _ => {
            let params = MultiEditParams {
                path: "f.txt".into(),
                edits: operations,
            };
            run_multi_edit(&s, params).await
        }
    };
    let result = result
        .map(|out| out.render())
        .map_err(|e| (e.code().to_owned(), e.to_string()));
    (result, std::fs::read(&path).unwrap())
}

#[tokio::test]
async fn every_case_of_the_corpus() {
    assert!(CASES.len() >= 60, "the corpus has {} cases", CASES.len());
    let mut wrong = Vec::new();
    for case in CASES {
        let (result, after) = run(case.file, case.edits).await;
        let problem = match (&case.expect, &result) {
            (Writes { bytes, notes }, Ok(text)) => {
                if after != *bytes {
                    Some(format!(
                        "wrote {:?}, wanted {:?}",
                        String::from_utf8_lossy(&after),
                        String::from_utf8_lossy(bytes)
                    ))
                } else if notes.is_empty() && text.contains("Note:") {
                    Some(format!("a note where none was due: {text}"))
                } else {
                    notes
                        .iter()
                        .find(|n| !text.contains(*n))
                        .map(|n| format!("no note {n:?} in {text}"))
                }
            }
            (Fails { code, says }, Err((got, text))) => {
                if got != code {
                    Some(format!("code {got}, wanted {code}: {text}"))
                } else if after != case.file {
                    Some("the file changed".to_owned())
                } else if text.matches(*code).count() != 1 {
                    Some(format!("the code is not said exactly once: {text}"))
                } else {
                    says.iter()
                        .find(|s| !text.contains(*s))
                        .map(|s| format!("{s:?} missing from {text}"))
                }
            }
            (Writes { .. }, Err((code, text))) => Some(format!("failed: {code}: {text}")),
            (Fails { code, .. }, Ok(text)) => Some(format!("wanted {code}, but it wrote: {text}")),
        };
        if let Some(problem) = problem {
            wrong.push(format!("{}: {problem}", case.name));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases:\n{}",
        wrong.len(),
        CASES.len(),
        wrong.join("\n")
    );
}

#[tokio::test]
async fn a_file_that_is_not_utf8_is_refused_and_kept() {
    let bytes = b"caf\xe9 = 1\nnext = 2\n";
    let (result, after) = run(bytes, &[("next = 2", "next = 3", false)]).await;
    let (code, text) = result.unwrap_err();
    assert_eq!(code, "INVALID_PARAMS", "{text}");
    assert!(text.contains("not valid UTF-8"), "{text}");
    assert_eq!(after, bytes);
}

#[tokio::test]
async fn a_5_mib_file_changes_in_one_line_only() {
    let mut file = String::new();
    let mut n = 0;
    while file.len() < 5 << 20 {
        n += 1;
        let ending = if n % 3 == 0 { "\r\n" } else { "\n" };
        file.push_str(&format!("line {n} of a large file{ending}"));
    }
    let (result, after) = run(
        file.as_bytes(),
        &[("line 77777 of a large file", "the changed line", false)],
    )
    .await;
    let text = result.unwrap();
    assert!(text.contains("+1 −1"), "{text}");
    let expected = file.replacen("line 77777 of a large file", "the changed line", 1);
    assert!(
        after == expected.as_bytes(),
        "only that line changed, every ending kept"
    );
}

/// Through the session: an edit that quotes `read`'s line numbers lands, the approval shows the
/// change it writes, and the model is told which tolerance applied, in both wire formats.
#[tokio::test]
async fn the_model_is_told_which_tolerance_applied() {
    for wire in BOTH {
        let turns = vec![
            vec![read("r", "notes.txt")],
            vec![call(
                "e",
                "edit",
                json!({"path": "notes.txt", "old_string": "     2\tbeta", "new_string": "     2\tgamma"}),
            )],
            done("d"),
        ];
        let mut h = start(wire, &turns, ApprovalMode::Ask).await;
        h.say("change beta");
        let EventMsg::ApprovalRequested {
            call_id: id,
            preview_hash: hash,
            preview,
            ..
        } = h.approval_request().await
        else {
            unreachable!()
        };
        let diff = preview
            .and_then(|p| p.diff)
            .expect("the approval shows the change");
        assert_eq!((diff.added, diff.removed), (1, 1), "{wire:?}");
        h.send(Op::Approve {
            call_id: id,
            preview_hash: hash,
            scope: ApprovalScope::Once,
        });
        assert!(h.end().await.is_success(), "{wire:?}");
        assert_eq!(h.file("notes.txt"), "alpha\ngamma\n");
        assert_eq!(h.finished("e").unwrap().0, CallState::Succeeded);
        let told = h.request_text(2);
        assert!(
            told.contains("line-number prefixes copied from read output"),
            "{wire:?}: {told}"
        );
    }
}
