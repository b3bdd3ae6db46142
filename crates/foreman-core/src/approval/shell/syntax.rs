//! Reading a command line with tree-sitter-bash: its top-level commands, every command anywhere,
//! the files it writes through redirections, and the first construct that makes it more than a
//! list of simple commands.

use tree_sitter::{Node, Parser, Tree};

use super::NotPlain;
use super::words::{dequote, program_index};

/// What one reading of a line found.
#[derive(Debug, Default)]
pub(super) struct Reading {
    /// The commands joined at the top level by `;`, `&&`, `||`, `|` and newlines, as words.
    pub top: Vec<Vec<String>>,
    /// Every command node anywhere, as words (top-level ones included).
    pub everywhere: Vec<Vec<String>>,
    /// Output redirections' targets, quotes removed; `None` for a target that is not a literal
    /// (an expansion: where it writes is not known before it runs).
    pub writes: Vec<Option<String>>,
    /// The first reason the line is not plain.
    pub not_plain: Option<NotPlain>,
}

impl Reading {
    fn refuse(&mut self, why: NotPlain) {
        if self.not_plain.is_none() {
            self.not_plain = Some(why);
        }
    }
}

pub(super) fn parse(text: &str) -> Option<Tree> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .ok()?;
    parser.parse(text, None)
}

/// Reads `text`; `None` when the parser gave no tree at all.
pub(super) fn read(text: &str) -> Option<Reading> {
    let tree = parse(text)?;
    let root = tree.root_node();
    let mut reading = Reading::default();
    if root.has_error() {
        reading.refuse(NotPlain::Unparsable);
    }
    let mut top_nodes = Vec::new();
    structure(root, &mut reading, &mut top_nodes);
    let mut all_commands = 0usize;
    everything(root, text, &mut reading, &mut all_commands);
    // A command the structure did not reach sits inside some other construct.
    if all_commands > top_nodes.len() {
        reading.refuse(NotPlain::Construct(
            "a command inside another construct".into(),
        ));
    }
    reading.top = top_nodes.iter().map(|n| command_words(*n, text)).collect();
    Some(reading)
}

fn children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

fn text_of<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

/// The top-level shape: statements, lists, pipelines and (redirected) simple commands only.
fn structure<'t>(node: Node<'t>, reading: &mut Reading, top: &mut Vec<Node<'t>>) {
    match node.kind() {
        "program" | "list" | "pipeline" => {
            for child in children(node) {
                if child.is_named() {
                    structure(child, reading, top);
                } else if child.kind() == "&" {
                    reading.refuse(NotPlain::Background);
                }
            }
        }
        "command" => top.push(node),
        "redirected_statement" => {
            for child in children(node) {
                match child.kind() {
                    "command" => top.push(child),
                    // A here-document may carry the rest of its line: `cat <<EOF | sh`.
                    "heredoc_redirect" => {
                        for part in children(child) {
                            if matches!(part.kind(), "pipeline" | "list" | "command") {
                                structure(part, reading, top);
                            }
                        }
                    }
                    kind if kind.ends_with("_redirect") => {}
                    "comment" => {}
                    _ if !child.is_named() => {}
                    other => reading.refuse(construct(other)),
                }
            }
        }
        "comment" => {}
        "variable_assignment" | "variable_assignments" => reading.refuse(NotPlain::Assignment),
        other => reading.refuse(construct(other)),
    }
}

fn construct(kind: &str) -> NotPlain {
    NotPlain::Construct(
        match kind {
            "subshell" => "a subshell `( … )`",
            "compound_statement" => "a command group `{ … }`",
            "function_definition" => "a function definition",
            "if_statement" | "case_statement" => "a conditional",
            "for_statement" | "c_style_for_statement" | "while_statement" => "a loop",
            "test_command" => "a test `[[ … ]]`",
            "negated_command" => "a negated command `! …`",
            "declaration_command" => "a declaration (`export`, `declare`, `local`…)",
            "unset_command" => "`unset`",
            other => other,
        }
        .to_owned(),
    )
}

/// Every node: commands (as words), writes, and constructs that are never plain wherever they are.
fn everything(node: Node<'_>, src: &str, reading: &mut Reading, commands: &mut usize) {
    if node.is_error() || node.is_missing() {
        reading.refuse(NotPlain::Unparsable);
    }
    match node.kind() {
        "command" => {
            *commands += 1;
            let words = command_words(node, src);
            let program = program_index(&words).map(|i| words[i].as_str());
            let named_by_expansion = node.child_by_field_name("name").is_some_and(has_expansion);
            if named_by_expansion || program.is_some_and(|p| !literal_program(p)) {
                reading.refuse(NotPlain::ProgramNotLiteral);
            }
            reading.everywhere.push(words);
        }
        "command_substitution" => reading.refuse(NotPlain::Substitution),
        "process_substitution" => reading.refuse(NotPlain::ProcessSubstitution),
        "arithmetic_expansion" => reading.refuse(NotPlain::Expansion(text_of(node, src).into())),
        "expansion" if !simple_expansion(text_of(node, src)) => {
            reading.refuse(NotPlain::Expansion(text_of(node, src).into()));
        }
        "file_redirect" => redirect(node, src, reading),
        _ => {}
    }
    for child in children(node) {
        everything(child, src, reading, commands);
    }
}

/// A command's words: assignments first, then its name and arguments; redirections left out.
fn command_words(node: Node<'_>, src: &str) -> Vec<String> {
    let mut cursor = node.walk();
    let mut words = Vec::new();
    if cursor.goto_first_child() {
        loop {
            let child = cursor.node();
            let field = cursor.field_name();
            let is_word = child.is_named()
                && field != Some("redirect")
                && !child.kind().ends_with("_redirect")
                && child.kind() != "comment";
            if is_word {
                words.push(dequote(text_of(child, src)));
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    words
}

/// A program name the rules can know: no glob or expansion characters (`[` itself is `test`).
fn literal_program(word: &str) -> bool {
    word == "[" || (!word.is_empty() && !word.contains(['*', '?', '[', '$', '`']))
}

fn has_expansion(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "simple_expansion"
            | "expansion"
            | "command_substitution"
            | "process_substitution"
            | "arithmetic_expansion"
    ) || children(node).into_iter().any(has_expansion)
}

/// `${NAME}`, `${#NAME}` and the defaults `${NAME:-word}`, `${NAME-word}`, `${NAME:+word}`,
/// `${NAME+word}` with a literal word: nothing in them is evaluated. Subscripts and offsets are
/// arithmetic, which can run commands hidden in a variable's value.
fn simple_expansion(text: &str) -> bool {
    let Some(inner) = text
        .strip_prefix("${")
        .and_then(|rest| rest.strip_suffix('}'))
    else {
        return false;
    };
    let inner = inner.strip_prefix('#').unwrap_or(inner);
    let end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (name, rest) = inner.split_at(end);
    if name.is_empty() {
        return false;
    }
    if rest.is_empty() {
        return true;
    }
    let word = ["-", ":-", "+", ":+"]
        .iter()
        .find_map(|op| rest.strip_prefix(op));
    word.is_some_and(|w| !w.contains(['$', '`', '[', '(']))
}

/// An output redirection names a file written; an input one, or a descriptor copy (`2>&1`,
/// `>&-`), writes nothing.
fn redirect(node: Node<'_>, src: &str, reading: &mut Reading) {
    let operator = children(node)
        .into_iter()
        .find(|c| !c.is_named())
        .map(|c| c.kind())
        .unwrap_or("");
    let Some(destination) = node.child_by_field_name("destination") else {
        return;
    };
    let target = text_of(destination, src);
    let writes = match operator {
        ">" | ">>" | "&>" | "&>>" | ">|" | "<>" => true,
        ">&" | "<&" => !(destination.kind() == "number" || target == "-"),
        _ => false,
    };
    if !writes {
        return;
    }
    let literal = !has_expansion(destination) && !target.starts_with('~');
    reading.writes.push(literal.then(|| dequote(target)));
}
