#!/usr/bin/env python3
"""Where the release binary's code goes, by crate, from its symbol table.

Reads the symbols that scripts/split-debug.sh keeps beside the build (target/release/foreman.debug,
or the path given) with `nm`, and adds up the sizes of the code symbols by the crate their
demangled path starts with. A generic function is counted in the crate that names it (for
`core::ptr::drop_in_place<foreman_core::X>`, `core`), as `cargo bloat --crates` does; C code is
counted under the library it comes from where its symbol names say so (SQLite, ring, libgit
compat), otherwise under `[C]`.

Usage: scripts/size-by-crate.py [path] [rows]
"""

import collections
import re
import subprocess
import sys

C_PREFIXES = (("sqlite3", "SQLite (C)"), ("ring_core_", "ring"), ("tree_sitter_bash", "tree-sitter-bash"),
              ("ts_", "tree-sitter"))


def crate_of(name):
    name = name.lstrip("<&*([ ")
    for prefix in ("mut ", "dyn ", "const "):
        if name.startswith(prefix):
            name = name[len(prefix):].lstrip("<&*([ ")
    if "::" not in name:
        for prefix, crate in C_PREFIXES:
            if name.startswith(prefix):
                return crate
        return "[C]"
    head = re.split(r"::|<| ", name, maxsplit=1)[0]
    if " as " in name and not name.startswith(head + "::"):
        # `<T as Trait>::f` with a bare type parameter: the trait's crate.
        return crate_of(name.split(" as ", 1)[1])
    return head or "[C]"


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "target/release/foreman.debug"
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    out = subprocess.run(["nm", "-S", "-C", "--defined-only", path], capture_output=True, text=True,
                         check=True).stdout
    sizes = collections.Counter()
    seen = set()
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) < 4 or parts[2] not in ("t", "T", "W", "w"):
            continue
        addr, size, _, name = parts
        if addr in seen:  # aliases of one function
            continue
        seen.add(addr)
        sizes[crate_of(name)] += int(size, 16)
    total = sum(sizes.values())
    print(f"code in symbols: {total / 2**20:.1f} MiB")
    for crate, size in sizes.most_common(rows):
        print(f"{size / 2**20:7.2f} MiB  {100 * size / total:5.1f} %  {crate}")
    rest = sizes.most_common()[rows:]
    print(f"{sum(s for _, s in rest) / 2**20:7.2f} MiB          {len(rest)} more")


if __name__ == "__main__":
    main()
