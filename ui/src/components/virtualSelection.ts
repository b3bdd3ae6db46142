// The document's selection in a virtualised list: which drawn rows hold its ends (they must stay
// drawn, or removing them from the DOM would take the selection's ends with them), and which row
// a selection boundary falls on when it is between rows or in a spacer standing for undrawn ones.
// Drawn rows carry their place in the list in a data attribute ([`Rows`]); spacers carry
// `data-from` and `data-to` (the rows they stand for).
import { useEffect, useState, type MutableRefObject } from "react";

/** How a list marks its drawn rows: the selector of a row, and the `dataset` key of its index. */
export interface Rows {
  selector: string;
  key: string;
}

/** The rows of the virtualised diff body. */
export const DIFF_ROWS: Rows = { selector: "tr[data-index]", key: "index" };
/**
 * The entries of the virtualised conversation (which may hold diffs with rows of their own), by
 * place in the list; [`ENTRY_IDS`] by item id, which stays the same when earlier entries load.
 */
export const ENTRY_ROWS: Rows = { selector: "[data-entry-index]", key: "entryIndex" };
export const ENTRY_IDS: Rows = { selector: "[data-entry]", key: "entry" };

/**
 * The indexes of the rows of `box` that hold the ends (anchor, focus) of the document's selection
 * when it is not collapsed, in order; updated on every `selectionchange`.
 */
export function useSelectionEnds(box: MutableRefObject<HTMLElement | null>, rows: Rows): number[] {
  const [ends, setEnds] = useState<number[]>([]);
  useEffect(() => {
    const update = () => {
      const el = box.current;
      const selection = document.getSelection();
      const found = new Set<number>();
      if (el && selection && selection.rangeCount > 0 && !selection.isCollapsed) {
        for (const node of [selection.anchorNode, selection.focusNode]) {
          const row = rowOf(node, rows);
          if (row && el.contains(row)) found.add(Number(row.dataset[rows.key]));
        }
      }
      const next = [...found].sort((a, b) => a - b);
      setEnds((previous) => (previous.length === next.length && previous.every((c, i) => c === next[i]) ? previous : next));
    };
    document.addEventListener("selectionchange", update);
    return () => document.removeEventListener("selectionchange", update);
  }, [box, rows]);
  return ends;
}

/** The drawn row holding `node`, if any. */
export function rowOf(node: Node | null, rows: Rows): HTMLElement | null {
  const element = node instanceof Element ? node : (node?.parentElement ?? null);
  return element?.closest<HTMLElement>(rows.selector) ?? null;
}

/**
 * The row at a selection boundary (`node`, `offset`) in a list whose rows and spacers are the
 * children of `parent`, with `count` rows: `row` is the drawn row the boundary is inside; outside
 * the rows, the boundary is at the start of the row after it (`atStart`) or, for a boundary in a
 * spacer seen as a selection's `end`, the end of the row before. Null outside the list.
 */
export function boundaryRow(
  rows: Rows,
  parent: HTMLElement,
  count: number,
  node: Node,
  offset: number,
  edge: "start" | "end",
): { index: number; row: HTMLElement | null; atStart: boolean } | null {
  if (count === 0) return null;
  const row = rowOf(node, rows);
  if (row && parent.contains(row)) return { index: Number(row.dataset[rows.key]), row, atStart: false };
  if (node === parent) {
    const child = parent.childNodes[offset] as HTMLElement | undefined;
    if (!child) return { index: count - 1, row: null, atStart: false };
    return childEdge(rows, child, "start", count);
  }
  if (parent.contains(node)) {
    let child: Node | null = node;
    while (child && child.parentNode !== parent) child = child.parentNode;
    return child ? childEdge(rows, child as HTMLElement, edge, count) : null;
  }
  // Around the list (a selection of a whole box): before or after every row.
  const probe = document.createRange();
  probe.selectNodeContents(parent);
  try {
    const side = probe.comparePoint(node, offset);
    if (side < 0) return { index: 0, row: null, atStart: true };
    if (side > 0) return { index: count - 1, row: null, atStart: false };
  } catch {
    return null;
  }
  return null;
}

/** The first (`start`) or last (`end`) row a child of the list is or stands for. */
function childEdge(rows: Rows, child: HTMLElement, edge: "start" | "end", count: number) {
  const drawn = child.dataset?.[rows.key];
  if (drawn !== undefined) return { index: Number(drawn), row: null, atStart: edge === "start" };
  const from = Number(child.dataset?.from ?? 0);
  const to = Number(child.dataset?.to ?? count);
  return edge === "start"
    ? { index: Math.min(from, count - 1), row: null, atStart: true }
    : { index: Math.max(0, to - 1), row: null, atStart: false };
}
