#!/usr/bin/env python3
"""Tests of scripts/check-shape.py: on a small tree of its own, the checker passes a clean tree
and fails a planted import from a lower folder of foreman-core to a higher one, a planted
TypeScript import cycle (through a type-only import, and through a folder's `index.tsx`) and a
module missing from the layer order; test code and the known exception do not fail it.

Run from anywhere (`make lint` runs it): `python3 scripts/test_check_shape.py`.
"""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-shape.py")
_spec = importlib.util.spec_from_file_location("check_shape", CHECKER)
check_shape = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_shape)

CORE = "crates/foreman-core/src"

CLEAN = {
    f"{CORE}/lib.rs": "pub mod os_path;\npub mod store;\npub mod watcher;\npub mod tasks;\n"
                      "pub mod agent;\n",
    f"{CORE}/os_path/mod.rs": "pub fn from_bytes() {}\n",
    f"{CORE}/store/mod.rs": "pub struct Store;\n",
    f"{CORE}/watcher/mod.rs": "use crate::os_path::from_bytes;\n",
    f"{CORE}/tasks/mod.rs": "pub mod place;\n",
    f"{CORE}/tasks/place.rs": "use crate::store::Store;\n",
    f"{CORE}/agent/mod.rs": "pub struct SessionConfig;\nuse crate::tasks::place;\n",
    "ui/src/a.ts": 'import { b } from "./b";\nexport const a = b;\n',
    "ui/src/b.ts": "export const b = 1;\n",
    "ui/src/parts/index.tsx": 'import { b } from "../b";\nexport const Part = b;\n',
    "ui/src/App.tsx": 'import { Part } from "./parts";\nimport "./styles.css";\n'
                      'const Lazy = import("./a");\nexport { Part, Lazy };\n',
    "docs/ARCHITECTURE.md": "# Architecture\n\nThe layers, bottom to top: `"
                            + ", ".join(check_shape.LAYERS) + "`.\n",
}


class CheckShapeTest(unittest.TestCase):
    def run_checker(self, changes):
        """The checker's exit code and output over the clean tree with `changes` (path: text)."""
        with tempfile.TemporaryDirectory() as root:
            for path, text in {**CLEAN, **changes}.items():
                full = os.path.join(root, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w", encoding="utf-8") as f:
                    f.write(text)
            done = subprocess.run([sys.executable, CHECKER], cwd=root, capture_output=True,
                                  text=True, check=False)
        return done.returncode, done.stdout + done.stderr

    def test_a_clean_tree_passes(self):
        code, out = self.run_checker({})
        self.assertEqual(code, 0, out)
        self.assertIn("no back import", out)

    def test_a_planted_back_import_fails(self):
        code, out = self.run_checker({
            f"{CORE}/os_path/mod.rs": "use crate::store::Store;\npub fn from_bytes() {}\n",
        })
        self.assertEqual(code, 1, out)
        self.assertIn(f"back import: {CORE}/os_path/mod.rs -> {CORE}/store/mod.rs "
                      "(os_path is below store)", out)
        self.assertNotIn("import cycle", out)

    def test_a_back_path_outside_a_use_fails_too(self):
        code, out = self.run_checker({
            f"{CORE}/store/mod.rs": "pub struct Store;\nfn f() { crate::agent::SessionConfig; }\n",
        })
        self.assertEqual(code, 1, out)
        self.assertIn("(store is below agent)", out)

    def test_test_code_may_import_anything(self):
        code, out = self.run_checker({
            f"{CORE}/os_path/mod.rs": "pub fn from_bytes() {}\n#[cfg(test)]\nmod tests;\n"
                                      "#[cfg(test)]\nfn helper() { crate::store::Store; }\n"
                                      "// crate::agent::SessionConfig in a comment\n",
            f"{CORE}/os_path/tests.rs": "use crate::agent::SessionConfig;\n",
        })
        self.assertEqual(code, 0, out)

    def test_code_after_a_test_item_is_still_checked(self):
        code, out = self.run_checker({
            f"{CORE}/os_path/mod.rs": "#[cfg(test)]\nmod tests {}\nuse crate::store::Store;\n",
        })
        self.assertEqual(code, 1, out)
        self.assertIn("(os_path is below store)", out)

    def test_tasks_reaching_up_into_agent_fails(self):
        code, out = self.run_checker({
            f"{CORE}/tasks/place.rs": "use crate::agent::SessionConfig;\n",
            f"{CORE}/agent/mod.rs": "pub struct SessionConfig;\n",
        })
        self.assertEqual(code, 1, out)
        self.assertIn("(tasks is below agent)", out)

    def test_a_module_missing_from_the_order_fails(self):
        code, out = self.run_checker({
            f"{CORE}/lib.rs": CLEAN[f"{CORE}/lib.rs"] + "pub mod newcomer;\n",
            f"{CORE}/newcomer.rs": "pub fn f() {}\n",
        })
        self.assertEqual(code, 1, out)
        self.assertIn("newcomer: not in the layer order", out)

    def test_a_planted_typescript_cycle_fails(self):
        code, out = self.run_checker({
            "ui/src/b.ts": 'import type { A } from "./a";\nexport const b = 1;\n'
                           "export type B = A;\n",
        })
        self.assertEqual(code, 1, out)
        self.assertIn("TypeScript import cycle: ui/src/a.ts -> ui/src/b.ts", out)

    def test_a_cycle_through_a_folders_index_fails(self):
        code, out = self.run_checker({
            "ui/src/b.ts": 'export { Part } from "./parts/index";\nexport const b = 1;\n',
        })
        self.assertEqual(code, 1, out)
        self.assertIn("TypeScript import cycle: ui/src/b.ts -> ui/src/parts/index.tsx", out)

    def test_the_order_must_be_in_the_architecture_page(self):
        code, out = self.run_checker({"docs/ARCHITECTURE.md": "# Architecture\n"})
        self.assertEqual(code, 1, out)
        self.assertIn("does not give the layer order", out)


if __name__ == "__main__":
    unittest.main()
