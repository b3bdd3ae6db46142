import type { DiffLine } from "../protocol/DiffLine";
import type { Hunk } from "../protocol/Hunk";
import { pairedRows } from "./DiffRows";
import { copiedText } from "./diffCopy";
import type { DiffItem } from "./diffItems";

const ctx = (n: number, text: string): DiffLine => ({ tag: "context", old_line: n, new_line: n, spans: [{ text, changed: false }] });
const del = (n: number, text: string): DiffLine => ({ tag: "removed", old_line: n, new_line: null, spans: [{ text, changed: false }] });
const add = (n: number, ...texts: string[]): DiffLine => ({
  tag: "added",
  old_line: null,
  new_line: n,
  spans: texts.map((text) => ({ text, changed: true })),
});

const hunk: Hunk = {
  old_start: 1,
  old_lines: 3,
  new_start: 1,
  new_lines: 3,
  lines: [ctx(1, "fn main() {"), del(2, "    old();"), add(2, "    ", "new();"), add(3, "    more();"), ctx(3, "}")],
};

function unified(): DiffItem[] {
  return [{ kind: "hunk", index: 0, hunk }, ...hunk.lines.map((line) => ({ kind: "line" as const, line, hunk: 0 }))];
}

function split(): DiffItem[] {
  return [{ kind: "hunk", index: 0, hunk }, ...pairedRows(hunk.lines).rows.map((row) => ({ kind: "pair" as const, row, hunk: 0 }))];
}

test("a unified selection copies each row's code from its start offset to its end offset", () => {
  // From "main" in the first line to "new(" in the added line.
  expect(copiedText(unified(), { index: 1, offset: 3 }, { index: 3, offset: 8 })).toBe("main() {\n    old();\n    new(");
  // Whole rows, the hunk header included, spans joined.
  expect(copiedText(unified(), { index: 0, offset: 0 }, { index: 5, offset: Infinity })).toBe(
    "@@ -1,3 +1,3 @@\nfn main() {\n    old();\n    new();\n    more();\n}",
  );
  // Within one row.
  expect(copiedText(unified(), { index: 1, offset: 3 }, { index: 1, offset: 7 })).toBe("main");
  // Ending at the start of a row (a whole row selected) ends with a newline.
  expect(copiedText(unified(), { index: 4, offset: 0 }, { index: 5, offset: 0 })).toBe("    more();\n");
});

test("a side-by-side selection on one side copies that side; one across sides copies both", () => {
  // Rows: header, [ctx|ctx], [old()|new()], [gap|more()], [}|}].
  expect(copiedText(split(), { index: 1, offset: 0, side: "new" }, { index: 4, offset: 1, side: "new" })).toBe(
    "fn main() {\n    new();\n    more();\n}",
  );
  // The old side has no line in row 3: it is left out.
  expect(copiedText(split(), { index: 2, offset: 4, side: "old" }, { index: 4, offset: Infinity, side: "old" })).toBe("old();\n}");
  expect(copiedText(split(), { index: 2, offset: 0, side: "old" }, { index: 3, offset: 3, side: "new" })).toBe(
    "    old();\t    new();\n\t    more();",
  );
});

test("nothing to copy from no rows, and ends past the rows are clamped", () => {
  expect(copiedText([], { index: 0, offset: 0 }, { index: 3, offset: 0 })).toBe("");
  expect(copiedText(unified(), { index: 5, offset: 0 }, { index: 99, offset: Infinity })).toBe("}");
});
