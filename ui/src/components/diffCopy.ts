// What copying a selection in the virtualised diff body puts on the clipboard. The body draws
// only the rows near its view, so the browser's own copy would leave out every row between the
// two ends of a long selection; the text is built from the diff's rows instead. The selection's
// ends are read from the DOM (`selectionPoint`), the text from the rows (`copiedText`).
import { hunkHeader, type SplitRow } from "./DiffRows";
import type { DiffLine } from "../protocol/DiffLine";
import type { DiffItem } from "./diffItems";
import { boundaryRow, DIFF_ROWS } from "./virtualSelection";

/** A side of the side-by-side view. */
export type DiffSide = "old" | "new";

/**
 * One end of a selection, in the rows: row `index`, `offset` characters into its text (the code
 * of a line, the text of a hunk header), on `side` when the end is in one side of a pair row.
 * `offset` may be `Infinity`: the row's end.
 */
export interface SelectionPoint {
  index: number;
  offset: number;
  side?: DiffSide;
}

/** The text of a line of code, as the row shows it. */
export function lineText(line: DiffLine): string {
  let text = "";
  for (const span of line.spans) text += span.text;
  return text;
}

/** The text of `item`: its code (on `side` for a pair row), or the hunk header. */
function itemText(item: DiffItem, side: DiffSide | undefined): string | null {
  switch (item.kind) {
    case "hunk":
      return hunkHeader(item.hunk);
    case "line":
      return lineText(item.line);
    case "pair": {
      const line = sideLine(item.row, side ?? "new");
      return line ? lineText(line) : null;
    }
  }
}

function sideLine(row: SplitRow, side: DiffSide): DiffLine | null {
  return side === "old" ? row.left : row.right;
}

/**
 * The text from `start` to `end` (in document order) over `items`, one line per row joined with
 * newlines: the code of each line (without the numbers and signs, which cannot be selected), hunk
 * headers as `@@ … @@`. In the side-by-side view a selection that begins and ends on one side
 * copies that side's lines (rows where it has none are left out); one that crosses sides copies
 * both, old and new separated by a tab.
 */
export function copiedText(items: DiffItem[], start: SelectionPoint, end: SelectionPoint): string {
  if (items.length === 0) return "";
  const from = Math.max(0, Math.min(start.index, items.length - 1));
  const to = Math.max(0, Math.min(end.index, items.length - 1));
  const oneSide = start.side !== undefined && start.side === end.side ? start.side : undefined;
  const lines: string[] = [];
  for (let i = from; i <= to; i++) {
    const item = items[i]!;
    if (item.kind === "pair" && oneSide === undefined) {
      // Both sides: offsets within a side do not apply to the pair as a whole.
      const [left, right] = [item.row.left, item.row.right];
      lines.push(`${left ? lineText(left) : ""}\t${right ? lineText(right) : ""}`);
      continue;
    }
    const text = itemText(item, oneSide);
    if (text === null) continue;
    const begin = i === from ? Math.min(start.offset, text.length) : 0;
    const stop = i === to ? Math.min(end.offset, text.length) : text.length;
    lines.push(text.slice(begin, Math.max(begin, stop)));
  }
  return lines.join("\n");
}

/** What a boundary of a DOM selection is next to in the virtualised body's table. */
export interface BodyRows {
  /** The number of rows (`items.length`). */
  count: number;
  /** The `<tbody>` of the table: drawn rows (`tr[data-index]`) and spacers between them. */
  tbody: HTMLElement;
}

/**
 * The row and offset of a DOM selection boundary (`node`, `offset`) in the body, or null when it
 * is not in the body's table. A boundary between rows, or in a spacer standing for undrawn rows,
 * is the start of the row after it or, for the `end` of a selection in a spacer, the end of the
 * row before.
 */
export function selectionPoint(rows: BodyRows, node: Node, offset: number, edge: "start" | "end"): SelectionPoint | null {
  const at = boundaryRow(DIFF_ROWS, rows.tbody, rows.count, node, offset, edge);
  if (!at) return null;
  if (at.row) return pointInRow(at.row, node, offset);
  return { index: at.index, offset: at.atStart ? 0 : Infinity };
}

/** A boundary inside drawn row `row`: characters into its code (or header) cell. */
function pointInRow(row: HTMLElement, node: Node, offset: number): SelectionPoint {
  const index = Number(row.dataset.index);
  const element = node instanceof Element ? node : node.parentElement;
  const cells = [...row.querySelectorAll<HTMLElement>("td.diff-code, th")];
  let side: DiffSide | undefined;
  let cell: HTMLElement | undefined;
  const inCell = element?.closest<HTMLElement>("td, th");
  if (row.classList.contains("diff-split-row")) {
    // A pair row: the side whose cells the boundary is in (numbers included), or, for a
    // boundary on the row itself, the side it is next to.
    const all = [...row.children];
    const at = inCell ? all.indexOf(inCell) : Math.min(offset, all.length - 1);
    side = at < 2 ? "old" : "new";
    cell = cells.find((c) => c.dataset.side === side);
    if (!cell) return { index, offset: inCell && at % 2 === 1 ? Infinity : 0, side };
  } else {
    cell = cells[0];
  }
  if (!cell) return { index, offset: 0, side };
  const before = document.createRange();
  before.setStart(cell, 0);
  try {
    before.setEnd(node, offset);
  } catch {
    return { index, offset: 0, side };
  }
  // A boundary before the cell collapses the range (0); one after it covers the whole cell.
  return { index, offset: before.toString().length, side };
}
