#!/usr/bin/env python3
"""Checks the shape rules of docs/ARCHITECTURE.md that the compiler does not:

- no import cycle between the Rust files of a crate (a `use` or path naming an item of another
  file of the same crate is an edge from this file to that one; `mod` declarations are not);
- no import from a lower folder of `foreman-core` to a higher one ([`LAYERS`], bottom to top,
  the same list as docs/ARCHITECTURE.md's); code under `#[cfg(test)]` may import anything;
- no import cycle between the TypeScript files of `ui/src` (relative static imports, type-only
  ones too, resolved with `.ts`/`.tsx` and a folder's `index`);
- no source file over 700 lines outside tests (a Rust file's own `#[cfg(test)]` part is not
  counted; test directories and `*.test.*` files are left out);
- docs/ARCHITECTURE.md at most 1,500 words.

Run from the repository root (`make lint` does). Exits 1 with what is wrong.
"""
import os
import re
import sys

CRATES = ["crates/foreman-stream/src", "crates/foreman-protocol/src", "crates/foreman-core/src", "crates/foreman-cli/src", "src-tauri/src"]
SOURCES = ["crates", "src-tauri/src", "ui/src", "scripts", "tests/e2e"]
MAX_LINES = 700
MAX_ARCH_WORDS = 1500
CORE = "crates/foreman-core/src"
UI = "ui/src"

# The folders (and single-file modules) of foreman-core, bottom to top: a module imports only
# modules below it. `testing` is the test-support feature. A name with no module (one moved to
# a crate of its own) is simply not checked; a module missing from the list is reported.
LAYERS = [
    "os_path", "tls", "boundary", "diff", "secrets", "sandbox", "process_tree", "watcher",
    "store", "workspace", "providers", "checkpoints", "approval", "tools", "builtin_tools",
    "attachments", "project_rules", "conversation", "mcp", "acp", "slash", "hooks", "tasks", "agent",
    "testing",
]


def rust_files(root):
    for d, _, names in os.walk(root):
        for n in sorted(names):
            if n.endswith(".rs"):
                yield os.path.join(d, n)


def module_path(root, path):
    parts = os.path.relpath(path, root)[:-3].split(os.sep)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


RUST_TOKENS = re.compile(
    r"""(?P<comment>//[^\n]*|/\*[\s\S]*?\*/)
      | (?P<raw>(?<!\w)b?r(?P<hashes>\#*)"[\s\S]*?"(?P=hashes))
      | (?P<string>b?"(?:\\[\s\S]|[^"\\])*")
      | (?P<char>(?<!\w)b?'(?:\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^'\\\n])')""",
    re.X,
)


def strip_rust(text):
    """`text` without comments, with empty string and character literals."""

    def blank(m):
        if m.group("comment"):
            return "\n" * m.group(0).count("\n")
        return "' '" if m.group("char") else '""'

    return RUST_TOKENS.sub(blank, text)


def item_end(text, start, closes=";}"):
    """Where what starts at `start` ends: after the first of `closes` outside any brackets (a `}`
    when it closes the brackets opened), so an item after its `;` or its closing brace."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0 and ch in closes:
                return i + 1
        elif ch == ";" and depth == 0 and ";" in closes:
            return i + 1
    return len(text)


CFG_TEST = re.compile(r"#\[cfg\(test\)\]")
ATTRIBUTE = re.compile(r"\s*#\[")


def after_attributes(text, at):
    """Where the item at `at` starts, past any further attributes (`#[cfg(unix)]`)."""
    while (attr := ATTRIBUTE.match(text, at)) is not None:
        at = item_end(text, attr.end() - 1, "]")
    return at


def without_tests(text):
    """`text` (stripped) without its `#[cfg(test)]` items, wherever they are."""
    out, at = [], 0
    for m in CFG_TEST.finditer(text):
        if m.start() < at:
            continue
        out.append(text[at:m.start()])
        at = item_end(text, after_attributes(text, m.end()))
    out.append(text[at:])
    return "".join(out)


def code_of(text):
    """The file's code outside its tests, without comments and string contents."""
    return without_tests(strip_rust(text))


def code_before_tests(text):
    """The file's code up to its first `#[cfg(test)]`, without comments and string contents.

    What the cycle check reads (it always has): read whole, `tasks/mod.rs` defines `Tasks`, which
    its files import, after a `#[cfg(test)] mod testing;`, and re-exports their types, a cycle.
    """
    stripped = strip_rust(text)
    cut = stripped.find("#[cfg(test)]")
    return stripped if cut < 0 else stripped[:cut]


def test_modules(text):
    """The names of the modules `text` declares under `#[cfg(test)]` (`mod tests;`)."""
    stripped = strip_rust(text)
    names = set()
    declaration = re.compile(r"\s*(?:pub(?:\([\w:]+\))?\s+)?mod\s+(\w+)\s*;")
    for m in CFG_TEST.finditer(stripped):
        decl = declaration.match(stripped, after_attributes(stripped, m.end()))
        if decl:
            names.add(decl.group(1))
    return names


def expand(tree):
    """The paths of one `use` tree (`a::{b, c::d}` gives `a::b` and `a::c::d`)."""
    out = []

    def walk(prefix, t):
        t = t.strip()
        m = re.match(r"^([\w:]*?)(::)?\{(.*)\}$", t, re.S)
        if m:
            pre = [s for s in m.group(1).split("::") if s]
            depth, cur, parts = 0, "", []
            for ch in m.group(3):
                depth += ch == "{"
                depth -= ch == "}"
                if ch == "," and depth == 0:
                    parts.append(cur)
                    cur = ""
                else:
                    cur += ch
            parts.append(cur)
            for p in parts:
                if p.strip():
                    walk(prefix + pre, p)
        else:
            name = re.split(r"\s+as\s+", t)
            segs = [s for s in name[0].split("::") if s]
            alias = name[1].strip() if len(name) > 1 else (segs[-1] if segs else "")
            if segs and segs[-1] == "self":
                segs = segs[:-1]
            out.append((prefix + segs, alias))

    walk([], tree)
    return out


def crate_graph(root, read=code_of):
    """Each Rust file of the crate at `root` and the files it imports, in the code `read` gives."""
    modules = {module_path(root, f): f for f in rust_files(root)}
    code = {k: read(open(f, encoding="utf-8").read()) for k, f in modules.items()}
    reexports = {}
    for key, text in code.items():
        for tree in re.findall(r"\bpub(?:\([\w:]+\))?\s+use\s+([^;]+);", text):
            for segs, alias in expand(tree):
                reexports.setdefault(key, {})[alias] = segs

    def resolve(full):
        for n in range(len(full), -1, -1):
            key = tuple(full[:n])
            if key not in modules:
                continue
            rest = full[n:]
            if rest and rest[0] in reexports.get(key, {}):
                segs = reexports[key][rest[0]]
                if segs and segs[0] == "self":
                    segs = segs[1:]
                if segs and segs[0] == "crate":
                    return resolve(segs[1:] + rest[1:])
                if segs and segs[0] == "super":
                    return resolve(list(key[:-1]) + segs[1:] + rest[1:])
                child = key + tuple(segs[:1])
                if child in modules:
                    return resolve(list(key) + segs + rest[1:])
                return None  # a re-export of another crate's item
            return key
        return None

    graph = {f: set() for f in modules.values()}
    for key, path in modules.items():
        here = list(key)
        children = {k[-1] for k in modules if len(k) == len(key) + 1 and k[:-1] == key}
        paths = [segs for tree in re.findall(r"\buse\s+([^;]+);", code[key]) for segs, _ in expand(tree)]
        for m in re.finditer(r"\b(crate|super|self)((?:::\w+)+)", code[key]):
            paths.append([m.group(1)] + m.group(2).strip(":").split("::"))
        for segs in paths:
            if not segs:
                continue
            if segs[0] == "crate":
                full = segs[1:]
            elif segs[0] == "self":
                full = here + segs[1:]
            elif segs[0] == "super":
                cur = here[:]
                while segs and segs[0] == "super":
                    cur, segs = cur[:-1], segs[1:]
                full = cur + segs
            elif segs[0] in children:
                full = here + segs
            else:
                continue
            target = resolve(full)
            if target is not None and target != key and modules[target] != path:
                graph[path].add(modules[target])
    return graph


def cycles(graph):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def is_test(path):
    parts = path.split(os.sep)
    name = parts[-1]
    return (
        "tests" in parts[:-1]
        or "benches" in parts[:-1]
        or "fuzz" in parts[:-1]
        or ".test." in name
        or name.startswith("test_")
        or "node_modules" in parts
        or os.sep.join(parts[:3]) == os.sep.join(["ui", "src", "protocol"])
        or "bindings" in parts[:-1]
    )


def long_files():
    out = []
    for top in SOURCES:
        for d, dirs, names in os.walk(top):
            dirs[:] = [x for x in dirs if x not in ("node_modules", "target", "dist")]
            for n in names:
                path = os.path.join(d, n)
                if not n.endswith((".rs", ".ts", ".tsx", ".css", ".mjs", ".py", ".sh")) or is_test(path):
                    continue
                text = open(path, encoding="utf-8").read()
                if n.endswith(".rs"):
                    cut = text.find("#[cfg(test)]")
                    text = text if cut < 0 else text[:cut]
                lines = text.count("\n")
                if lines > MAX_LINES:
                    out.append((path, lines))
    return out


def test_only(root):
    """The files of the crate at `root` compiled only for its tests (`#[cfg(test)] mod x;` and
    everything below it)."""
    modules = {module_path(root, f): f for f in rust_files(root)}
    gated = set()
    for key, path in modules.items():
        for name in test_modules(open(path, encoding="utf-8").read()):
            gated.add(key + (name,))
    return {f for k, f in modules.items() if any(k[: len(g)] == g for g in gated)}


def back_imports(root=CORE, layers=LAYERS):
    """Each import of a module from one above it in `layers`: (the file, the file it imports,
    their two layers); and the crate's top-level modules that `layers` does not place."""
    graph = crate_graph(root)
    tests = test_only(root)
    rank = {name: i for i, name in enumerate(layers)}

    def layer(path):
        parts = module_path(root, path)
        return parts[0] if parts else None

    unplaced = sorted({layer(f) for f in graph if layer(f) is not None and layer(f) not in rank})
    found = []
    for path in sorted(graph):
        low = layer(path)
        if path in tests or low not in rank:
            continue
        for target in sorted(graph[path]):
            high = layer(target)
            if high in rank and rank[high] > rank[low]:
                found.append((path, target, low, high))
    return found, unplaced


TS_TOKENS = re.compile(
    r"""(?P<comment>//[^\n]*|/\*[\s\S]*?\*/)
      | (?P<string>"(?:\\[\s\S]|[^"\\\n])*"|'(?:\\[\s\S]|[^'\\\n])*'|`(?:\\[\s\S]|[^`\\])*`)""",
    re.X,
)
# `import … from "./x"`, `export … from "./x"` (type-only too) and `import "./x"`; a lazy
# `import("./x")` is left out: it loads after both modules are there.
TS_IMPORT = re.compile(r"""(?:\bfrom|^\s*import)\s*["'](\.{1,2}/[^"']*)["']""", re.M)
TS_EXTENSIONS = (".ts", ".tsx")


def ts_files(root):
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != "node_modules")
        for n in sorted(names):
            if n.endswith(TS_EXTENSIONS):
                yield os.path.join(d, n)


def ts_resolve(importer, spec, files):
    """The file `spec` (relative to `importer`) names: as written, with `.ts`/`.tsx`, or a
    folder's `index`; a `.js` ending stands for the TypeScript file."""
    base = os.path.normpath(os.path.join(os.path.dirname(importer), spec))
    stem = base[:-3] if base.endswith(".js") else base
    for candidate in [base, *(stem + e for e in TS_EXTENSIONS),
                      *(os.path.join(base, "index" + e) for e in TS_EXTENSIONS)]:
        if candidate in files:
            return candidate
    return None


def ts_graph(root=UI):
    """Each TypeScript file of `root` and the files it imports (type-only imports too)."""
    files = set(ts_files(root))
    graph = {}
    for path in sorted(files):
        text = TS_TOKENS.sub(lambda m: m.group(0) if m.group("string") else "",
                             open(path, encoding="utf-8").read())
        targets = {ts_resolve(path, spec, files) for spec in TS_IMPORT.findall(text)}
        graph[path] = {t for t in targets if t is not None and t != path}
    return graph


def main():
    problems = []
    for root in CRATES:
        for comp in cycles(crate_graph(root, code_before_tests)):
            problems.append("import cycle: " + " -> ".join(comp))
    backs, unplaced = back_imports()
    for path, target, low, high in backs:
        problems.append(f"back import: {path} -> {target} ({low} is below {high})")
    for name in unplaced:
        problems.append(f"{CORE}/{name}: not in the layer order (LAYERS in {sys.argv[0]})")
    for comp in cycles(ts_graph()):
        problems.append("TypeScript import cycle: " + " -> ".join(comp))
    for path, lines in long_files():
        problems.append(f"{path}: {lines} lines outside tests (at most {MAX_LINES})")
    arch = open("docs/ARCHITECTURE.md", encoding="utf-8").read()
    words = len(arch.split())
    if words > MAX_ARCH_WORDS:
        problems.append(f"docs/ARCHITECTURE.md: {words} words (at most {MAX_ARCH_WORDS})")
    if ", ".join(LAYERS) not in " ".join(arch.split()):
        problems.append("docs/ARCHITECTURE.md: does not give the layer order as LAYERS has it: "
                        + ", ".join(LAYERS))
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"shape: no import cycles in {len(CRATES)} crates and ui/src, no back import in "
          f"foreman-core, no file over {MAX_LINES} lines, docs/ARCHITECTURE.md {words} words")


if __name__ == "__main__":
    main()
