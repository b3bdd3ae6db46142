// The rows of the virtualised diff table (VirtualDiffBody.tsx) as data: a hunk's header, a line
// of the unified view, a pair of the side-by-side view. The body draws them and a copy takes its
// text from them (diffCopy.ts).
import type { DiffLine } from "../protocol/DiffLine";
import type { Hunk } from "../protocol/Hunk";
import { pairedRows, rowsWithin, type SplitRow } from "./DiffRows";

/** One row of the virtualised table. */
export type DiffItem =
  | { kind: "hunk"; index: number; hunk: Hunk }
  | { kind: "line"; line: DiffLine; hunk: number }
  | { kind: "pair"; row: SplitRow; hunk: number };

/**
 * The rows of `hunks` showing the first `shown[i]` lines of hunk `i` (hunks with none are left
 * out), each hunk led by its header row.
 */
export function diffItems(hunks: Hunk[], shown: number[], mode: "unified" | "split"): DiffItem[] {
  const items: DiffItem[] = [];
  hunks.forEach((hunk, i) => {
    const count = shown[i] ?? 0;
    if (count === 0) return;
    items.push({ kind: "hunk", index: i, hunk });
    if (mode === "unified") {
      for (let k = 0; k < count; k++) items.push({ kind: "line", line: hunk.lines[k]!, hunk: i });
    } else {
      const { rows, ends } = pairedRows(hunk.lines);
      const n = rowsWithin(ends, count);
      for (let k = 0; k < n; k++) items.push({ kind: "pair", row: rows[k]!, hunk: i });
    }
  });
  return items;
}
