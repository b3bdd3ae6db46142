#!/usr/bin/env python3
"""Checks the shape rules of docs/ARCHITECTURE.md that the compiler does not:

- no import cycle between the Rust files of a crate (a `use` or path naming an item of another
  file of the same crate is an edge from this file to that one; `mod` declarations are not);
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


def code_of(text):
    """The text before the file's tests, without comments and string contents."""
    cut = text.find("#[cfg(test)]")
    if cut >= 0:
        text = text[:cut]
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


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


def crate_graph(root):
    modules = {module_path(root, f): f for f in rust_files(root)}
    code = {k: code_of(open(f, encoding="utf-8").read()) for k, f in modules.items()}
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


def main():
    problems = []
    for root in CRATES:
        for comp in cycles(crate_graph(root)):
            problems.append("import cycle: " + " -> ".join(comp))
    for path, lines in long_files():
        problems.append(f"{path}: {lines} lines outside tests (at most {MAX_LINES})")
    words = len(open("docs/ARCHITECTURE.md", encoding="utf-8").read().split())
    if words > MAX_ARCH_WORDS:
        problems.append(f"docs/ARCHITECTURE.md: {words} words (at most {MAX_ARCH_WORDS})")
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"shape: no import cycles in {len(CRATES)} crates, no file over {MAX_LINES} lines, "
          f"docs/ARCHITECTURE.md {words} words")


if __name__ == "__main__":
    main()
