//! The command corpus: what the approval policy decides for command lines a model might send,
//! given a few rules a user would have added. Every form that must ask whatever the rules say
//! is here: substitutions, subshells and groups, background jobs, writes outside the workspace,
//! programs that run further commands, loops and functions, and lines that do not parse.

use super::{ApprovalMode, CallFacts, Decision, Policy, Rule, ShellLine};
use crate::store::RuleAction;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Allow,
    Ask,
    Deny,
}
use Want::{Allow, Ask, Deny};

const RULES: [(RuleAction, &str); 10] = [
    (RuleAction::Allow, "bash(echo hello*)"),
    (RuleAction::Allow, "bash(cargo test *)"),
    (RuleAction::Allow, "bash(git status *)"),
    (RuleAction::Allow, "bash(ls *)"),
    (RuleAction::Allow, "bash(cat *)"),
    (RuleAction::Allow, "bash(grep *)"),
    (RuleAction::Allow, "bash(wc *)"),
    (RuleAction::Allow, "bash(npm run build *)"),
    (RuleAction::Ask, "bash(git push *)"),
    (RuleAction::Deny, "bash(rm -rf *)"),
];

const CORPUS: &[(&str, Want)] = &[
    // Plain commands the rules cover.
    ("echo hello", Allow),
    ("echo hello world", Allow),
    ("echo hello \"a b\"", Allow),
    ("echo hello 'single quoted'", Allow),
    ("\\echo hello", Allow),
    ("echo hello # a comment", Allow),
    ("echo hello \\\n  world", Allow),
    ("echo hello $HOME", Allow),
    ("echo hello \"${USER}\"", Allow),
    ("echo hello ${LANG:-C}", Allow),
    ("cargo test", Allow),
    ("cargo test --workspace -- --nocapture", Allow),
    ("cargo test > out.txt 2>&1", Allow),
    ("cargo test &> log/test.txt", Allow),
    ("cargo test 2>/dev/null", Allow),
    ("cargo test && echo hello", Allow),
    ("cargo test || echo hello", Allow),
    ("cargo test; echo hello", Allow),
    ("cargo test | grep FAILED", Allow),
    ("cargo test |& grep FAILED", Allow),
    ("cargo test\necho hello", Allow),
    ("ls -la src", Allow),
    ("ls *.rs", Allow),
    ("ls -la >> listing.txt", Allow),
    ("cat README.md | wc -l", Allow),
    ("grep -rn \"fn main\" src", Allow),
    ("grep foo <<< \"some text\"", Allow),
    ("git status --short", Allow),
    ("git status", Allow),
    ("cat <<'EOF' > notes.txt\nhello $(id)\nEOF", Allow),
    ("cat <<EOF\nplain text\nEOF", Allow),
    ("npm run build", Allow),
    ("npm run build -- --watch", Allow),
    // The four forms of the report, and their relatives.
    ("echo hello $(touch ../p3.txt)", Ask),
    ("echo hello `touch ../p4.txt`", Ask),
    ("echo hello & touch ../p7.txt", Ask),
    ("echo hello <(touch ../p6.txt)", Ask),
    ("echo hello >(tee x)", Ask),
    ("echo hello \"$(id)\"", Ask),
    ("cargo test &", Ask),
    // Writes outside the workspace.
    ("echo hello > ../escape.txt", Ask),
    ("echo hello > /tmp/x", Ask),
    ("echo hello >> ~/.bashrc", Ask),
    ("echo hello > $HOME/x", Ask),
    ("echo hello >& ../x", Ask),
    ("echo hello &> /etc/x", Ask),
    ("echo hello 2> ../err.txt", Ask),
    ("cd .. && echo hello > x", Ask),
    // A part the rules do not cover.
    ("echo hello; touch x", Ask),
    ("echo hello && touch x", Ask),
    ("echo hello || touch x", Ask),
    ("echo hello | sh", Ask),
    ("echo hello\ntouch x", Ask),
    ("echo helloworld; touch x", Ask),
    ("FOO=1 echo hello", Ask),
    ("git push origin main", Ask),
    ("cargo test && git push", Ask),
    // A wildcard never crosses a metacharacter, even a quoted one.
    ("echo hello\\;world", Ask),
    ("echo 'hello && touch x'", Ask),
    // Subshells, groups and other constructs.
    ("(echo hello)", Ask),
    ("{ echo hello; }", Ask),
    ("for f in *; do echo hello; done", Ask),
    ("while true; do echo hello; done", Ask),
    ("if true; then echo hello; fi", Ask),
    ("case x in x) echo hello;; esac", Ask),
    ("f() { echo hello; }; f", Ask),
    ("! echo hello", Ask),
    ("[[ -f x ]] && echo hello", Ask),
    ("X=1", Ask),
    ("export X=1; echo hello", Ask),
    ("FOO=$(id) cargo test", Ask),
    ("$CMD hello", Ask),
    ("echo hello $((1+2))", Ask),
    ("echo hello ${a[$i]}", Ask),
    ("cat <<EOF\n$(touch x)\nEOF", Ask),
    ("cat <<EOF | sh\ntouch x\nEOF", Ask),
    // Programs that run a further command.
    ("eval echo hello", Ask),
    ("sh -c 'echo hello'", Ask),
    ("bash -c \"echo hello\"", Ask),
    ("bash -lc 'cargo test'", Ask),
    ("echo hello | xargs touch", Ask),
    ("find . -exec touch {} \\;", Ask),
    ("find . -name '*.rs' -execdir cat {} +", Ask),
    ("sudo echo hello", Ask),
    ("env FOO=1 echo hello", Ask),
    ("timeout 10 cargo test", Ask),
    ("nohup cargo test", Ask),
    ("time cargo test", Ask),
    ("command echo hello", Ask),
    ("source script.sh", Ask),
    (". ./env.sh && echo hello", Ask),
    // Lines that do not parse.
    ("echo hello >", Ask),
    ("echo 'unterminated", Ask),
    ("echo hello &&", Ask),
    // Deny rules look everywhere.
    ("rm -rf target", Deny),
    ("echo hello && rm -rf /", Deny),
    ("echo hello $(rm -rf /)", Deny),
    ("echo hello `rm -rf x`", Deny),
    ("echo <(rm -rf x)", Deny),
    ("(cd x && rm -rf y)", Deny),
    ("bash -c 'rm -rf ~'", Deny),
    ("sh -c \"echo hi; rm -rf x\"", Deny),
    ("echo hello; bash -c \"sh -c 'rm -rf /'\"", Deny),
    ("eval \"rm -rf x\"", Deny),
    ("echo x | xargs rm -rf", Deny),
    ("xargs -0 rm -rf < list", Deny),
    ("find . -exec rm -rf {} \\;", Deny),
    ("sudo rm -rf /", Deny),
    ("nohup rm -rf x &", Deny),
    ("time rm -rf x", Deny),
    ("cat <<EOF\n$(rm -rf x)\nEOF", Deny),
    ("r\"m\" -rf x", Deny),
    ("\\rm -rf x", Deny),
    ("/bin/rm -rf x", Deny),
    ("FOO=1 rm -rf x", Deny),
    ("for f in a; do rm -rf $f; done", Deny),
];

fn policy(mode: ApprovalMode) -> Policy {
    Policy {
        mode,
        rules: RULES
            .iter()
            .map(|(action, text)| Rule::parse(*action, text).unwrap())
            .collect(),
        auto_approve_cap: 1000,
        sandboxed_commands: false,
    }
}

fn decide(policy: &Policy, line: &str) -> Decision {
    let facts = CallFacts::command("bash", ShellLine::parse_lexical(line));
    policy.decide(&facts, 0)
}

fn want(decision: &Decision) -> Want {
    match decision {
        Decision::Allow { .. } => Allow,
        Decision::Ask { .. } => Ask,
        Decision::Deny { .. } => Deny,
    }
}

#[test]
fn the_corpus_in_ask_mode() {
    assert!(CORPUS.len() >= 80, "{} commands", CORPUS.len());
    let policy = policy(ApprovalMode::Ask);
    let wrong: Vec<String> = CORPUS
        .iter()
        .filter_map(|(line, expected)| {
            let decision = decide(&policy, line);
            (want(&decision) != *expected)
                .then(|| format!("{line:?}: wanted {expected:?}, got {decision:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn yolo_runs_what_no_rule_refuses_or_asks_for() {
    let policy = policy(ApprovalMode::Yolo);
    for (line, expected) in [
        ("echo hello $(touch x)", Allow),
        ("touch x", Allow),
        ("git push origin main", Ask),
        ("echo $(git push)", Ask),
        ("rm -rf x", Deny),
        ("echo hi | xargs rm -rf", Deny),
    ] {
        let decision = decide(&policy, line);
        assert_eq!(want(&decision), expected, "{line:?}: {decision:?}");
    }
}

#[test]
fn a_line_no_rule_can_allow_says_why() {
    let decision = decide(&policy(ApprovalMode::Ask), "echo hello $(touch ../p3.txt)");
    let Decision::Ask { reason } = decision else {
        panic!("{decision:?}")
    };
    assert!(reason.contains("no rule can allow it"), "{reason}");
    assert!(reason.contains("command substitution"), "{reason}");
}

#[test]
fn a_rule_for_every_tool_call_still_needs_a_plain_line() {
    let policy = Policy {
        rules: vec![Rule::parse(RuleAction::Allow, "bash").unwrap()],
        ..Policy::default()
    };
    assert_eq!(want(&decide(&policy, "make && make install")), Allow);
    assert_eq!(want(&decide(&policy, "echo $(id)")), Ask);
}

#[test]
fn suggestions_grow_to_cover_a_compound_line() {
    let mut policy = Policy::default();
    let facts = CallFacts::command("bash", ShellLine::parse_lexical("cd app && npm test"));
    let first = policy.suggest_rule(&facts).unwrap();
    assert_eq!(first, "bash(cd app *)");
    policy
        .rules
        .push(Rule::parse(RuleAction::Allow, &first).unwrap());
    let second = policy.suggest_rule(&facts).unwrap();
    assert_eq!(second, "bash(npm test *)");
    policy
        .rules
        .push(Rule::parse(RuleAction::Allow, &second).unwrap());
    assert_eq!(want(&policy.decide(&facts, 0)), Allow);
    let complex = CallFacts::command("bash", ShellLine::parse_lexical("echo $(id)"));
    assert_eq!(policy.suggest_rule(&complex), None);
}
