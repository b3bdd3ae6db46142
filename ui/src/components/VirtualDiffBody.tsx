// The body of a long diff: a scroll box of bounded height in which only the rows in and near
// view are in the DOM. Laying out a row of code costs WebKit 0.2-0.45 ms with software painting
// (docs/MEASUREMENTS.md), and a table lays out all its rows again when one is added, so drawing
// 12,000 rows took seconds of long frames; here a scroll or a "Show all" draws a hundred or so.
// The rows above and below the drawn window are stood in for by spacer rows, sized from
// measured row heights (an estimate for rows never drawn), with the arithmetic of the
// virtualised conversation (virtualList.ts). The rows holding the ends of a selection stay drawn
// wherever the box scrolls, and a copy takes its text from the rows, not the DOM (diffCopy.ts),
// so a selection over thousands of rows copies all of them; a copy of a selection that reaches
// beyond the box draws the rows it covers first, for the browser's own copy.
import {
  Fragment,
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type MutableRefObject,
  type ReactNode,
} from "react";
import type { Hunk } from "../protocol/Hunk";
import { type DiffChoice, HunkHeaderRow, hunkChoice, SplitColumns, SplitPairRow, UnifiedRow } from "./DiffRows";
import type { DiffItem } from "./diffItems";
import { entryAt, layoutOffsets } from "./virtualList";
import { copiedText, selectionPoint } from "./diffCopy";
import { DIFF_ROWS, useSelectionEnds } from "./virtualSelection";
import { flushSync } from "react-dom";

/** What the diff view can ask of the virtualised body. */
export interface VirtualDiffApi {
  /** Scrolls hunk `index`'s header to the top of the box and focuses it. */
  scrollToHunk(index: number): void;
}

/** Drawn beyond each edge of the box, in pixels. */
export const DIFF_OVERSCAN = 400;
/** Rows are drawn in aligned chunks of this many, so a short scroll re-renders no drawn row. */
export const DIFF_CHUNK = 32;
/** The box height assumed before there is a layout (tests, a hidden card). */
const FALLBACK_VIEW = 600;
/** Row heights assumed before any row of the kind was measured (12.5 px text, line-height 1.45). */
const DEFAULT_HEIGHT: Record<DiffItem["kind"], number> = { hunk: 22, line: 18, pair: 18 };

/** Characters in the longest line among `items`, and digits in the largest line number. */
function extent(items: DiffItem[]): { chars: number; digits: number } {
  let chars = 0;
  let largest = 0;
  for (const item of items) {
    if (item.kind !== "line") continue;
    let n = 0;
    for (const span of item.line.spans) n += span.text.length;
    chars = Math.max(chars, n);
    largest = Math.max(largest, item.line.old_line ?? 0, item.line.new_line ?? 0);
  }
  return { chars, digits: String(largest).length };
}

const Chunk = memo(function Chunk(props: {
  items: DiffItem[];
  from: number;
  to: number;
  current: number | undefined;
  hunkRefs: MutableRefObject<(HTMLElement | null)[]>;
  choice: DiffChoice | undefined;
  onUndoHunk: ((hunk: Hunk) => void) | undefined;
}) {
  const rows: ReactNode[] = [];
  for (let i = props.from; i < props.to; i++) {
    const item = props.items[i]!;
    if (item.kind === "line") {
      const skipped = props.choice?.skipped.has(item.hunk);
      rows.push(<UnifiedRow key={i} line={item.line} index={i} skipped={skipped} />);
    } else if (item.kind === "pair") {
      const skipped = props.choice?.skipped.has(item.hunk);
      rows.push(<SplitPairRow key={i} row={item.row} index={i} skipped={skipped} />);
    }
    else {
      const hunk = item.index;
      rows.push(
        <HunkHeaderRow
          key={i}
          index={i}
          hunk={item.hunk}
          number={hunk + 1}
          choice={hunkChoice(props.choice, hunk)}
          undo={props.onUndoHunk}
          current={hunk === props.current}
          onHeader={(el) => {
            props.hunkRefs.current[hunk] = el;
          }}
        />,
      );
    }
  }
  return <>{rows}</>;
});

/** Stands in for rows `from..to`, which are not drawn (a copy reads the range). */
function Spacer({ height, from, to }: { height: number; from: number; to: number }) {
  if (height <= 0) return null;
  return (
    <tr className="diff-spacer" aria-hidden="true" data-from={from} data-to={to}>
      <td colSpan={4} style={{ height }} />
    </tr>
  );
}

/**
 * The rows of a long diff in a scroll box, drawn only near the view. `current` is the hunk the
 * navigation is on; `api` receives [`VirtualDiffApi`]; `hunkRefs` holds the drawn hunk headers.
 */
export function VirtualDiffBody(props: {
  items: DiffItem[];
  mode: "unified" | "split";
  current: number | undefined;
  api: MutableRefObject<VirtualDiffApi | null>;
  hunkRefs: MutableRefObject<(HTMLElement | null)[]>;
  /** The hunks left out of a waiting change, when the user may choose them. */
  choice?: DiffChoice;
  /** Undoes this hunk of a change that went through. */
  onUndoHunk?: (hunk: Hunk) => void;
}) {
  const { items, mode } = props;
  const box = useRef<HTMLDivElement | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [view, setView] = useState(FALLBACK_VIEW);
  // Measured heights by row (0: never drawn), and the height of each kind once one was drawn.
  const measured = useRef<Float64Array>(new Float64Array(0));
  const typical = useRef<Record<DiffItem["kind"], number>>({ ...DEFAULT_HEIGHT });
  const [version, setVersion] = useState(0);
  const measuredMode = useRef(mode);
  if (measuredMode.current !== mode) {
    // Other rows (pairs instead of lines): nothing measured applies.
    measuredMode.current = mode;
    measured.current = new Float64Array(items.length);
    typical.current = { ...DEFAULT_HEIGHT };
  } else if (measured.current.length !== items.length) {
    const previous = measured.current;
    measured.current = new Float64Array(items.length);
    // Rows keep their places when lines are added at the end (a "Show more").
    measured.current.set(previous.subarray(0, Math.min(previous.length, items.length)));
  }

  const offsets = useMemo(
    () => layoutOffsets(items.length, (i) => measured.current[i] || typical.current[items[i]!.kind]),
    // `version` changes when a measurement does.
    [items, version],
  );
  const { chars, digits } = useMemo(() => extent(items), [items]);

  const count = items.length;
  const first = Math.floor(entryAt(offsets, scrollTop - DIFF_OVERSCAN) / DIFF_CHUNK) * DIFF_CHUNK;
  const last = Math.min(count, Math.ceil((entryAt(offsets, scrollTop + view + DIFF_OVERSCAN) + 1) / DIFF_CHUNK) * DIFF_CHUNK);
  // The chunks in and near the view, those holding the ends of a selection, and during a copy of
  // a selection that reaches beyond the box, every row of the box it covers.
  const selected = useSelectionEnds(box, DIFF_ROWS);
  const [copying, setCopying] = useState<[number, number] | null>(null);
  const starts = new Set<number>();
  for (let from = first; from < last; from += DIFF_CHUNK) starts.add(from);
  for (const index of selected) if (index < count) starts.add(Math.floor(index / DIFF_CHUNK) * DIFF_CHUNK);
  if (copying) {
    for (let from = Math.floor(copying[0] / DIFF_CHUNK) * DIFF_CHUNK; from <= copying[1] && from < count; from += DIFF_CHUNK) {
      starts.add(from);
    }
  }
  const chunks: [number, number][] = [...starts].sort((a, b) => a - b).map((from) => [from, Math.min(count, from + DIFF_CHUNK)]);

  // The rows for the new position are drawn at once, in the frame of the scroll: the browser
  // fires at most one scroll event a frame, before painting it, so a render deferred to the next
  // frame showed the rows of the previous position (or a blank spacer) for a frame or two.
  const drawnTo = chunks.at(-1)?.[1] ?? 0;

  const onScroll = useCallback(() => {
    const el = box.current;
    if (el) flushSync(() => setScrollTop(el.scrollTop));
  }, []);

  // After each render: the box's height, and the heights of the rows drawn (in one layout).
  const focusHunk = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (el.clientHeight > 0 && el.clientHeight !== view) setView(el.clientHeight);
    let changed = false;
    for (const row of el.querySelectorAll<HTMLElement>("tr[data-index]")) {
      const i = Number(row.dataset.index);
      const height = row.getBoundingClientRect().height;
      if (!(height > 0) || i >= measured.current.length) continue;
      const kind = items[i]!.kind;
      if (typical.current[kind] === DEFAULT_HEIGHT[kind] && Math.abs(height - DEFAULT_HEIGHT[kind]) > 0.5) {
        typical.current[kind] = height;
        changed = true;
      }
      if (Math.abs(measured.current[i]! - height) > 0.5) {
        measured.current[i] = height;
        changed = true;
      }
    }
    if (changed) setVersion((v) => v + 1);
    if (focusHunk.current !== null) {
      const header = props.hunkRefs.current[focusHunk.current];
      if (header) {
        header.focus({ preventScroll: true });
        focusHunk.current = null;
      }
    }
  });

  const scrollToHunk = useCallback(
    (index: number) => {
      const at = items.findIndex((item) => item.kind === "hunk" && item.index === index);
      const el = box.current;
      if (at < 0 || !el) return;
      const top = offsets[at]!;
      el.scrollTop = top;
      el.scrollIntoView?.({ block: "nearest" });
      focusHunk.current = index;
      setScrollTop(top);
      // A render even when the position does not change, so the layout effect moves the focus.
      setVersion((v) => v + 1);
    },
    [items, offsets],
  );
  props.api.current = { scrollToHunk };

  // A copy takes its text from the rows, drawn or not (diffCopy.ts).
  const onCopy = useCallback(
    (event: ClipboardEvent<HTMLDivElement>) => {
      const el = box.current;
      const tbody = el?.querySelector("tbody");
      const selection = document.getSelection();
      if (!el || !tbody || !selection || selection.rangeCount === 0 || selection.isCollapsed) return;
      const range = selection.getRangeAt(0);
      // A selection reaching beyond the box is the page's to copy.
      if (!el.contains(range.startContainer) || !el.contains(range.endContainer)) return;
      const rows = { tbody, count: items.length };
      const start = selectionPoint(rows, range.startContainer, range.startOffset, "start");
      const end = selectionPoint(rows, range.endContainer, range.endOffset, "end");
      if (!start || !end) return;
      event.clipboardData.setData("text/plain", copiedText(items, start, end));
      event.preventDefault();
    },
    [items],
  );

  // A selection that begins or ends outside the box is the page's to copy, with the browser's own
  // copy, which reads only what is drawn: the rows of the box it covers are drawn first (in the
  // copy event's capture, before the browser reads the selection after the event) and let go
  // again afterwards. Drawing costs about 0.3 ms a row, so a copy over thousands takes a moment.
  const latestItems = useRef(items);
  latestItems.current = items;
  useEffect(() => {
    const onCopyAnywhere = () => {
      const el = box.current;
      const tbody = el?.querySelector("tbody");
      const selection = document.getSelection();
      if (!el || !tbody || !selection || selection.rangeCount === 0 || selection.isCollapsed) return;
      const range = selection.getRangeAt(0);
      const startIn = el.contains(range.startContainer);
      const endIn = el.contains(range.endContainer);
      if ((startIn && endIn) || !range.intersectsNode(el)) return;
      const rows = { tbody, count: latestItems.current.length };
      const from = startIn ? (selectionPoint(rows, range.startContainer, range.startOffset, "start")?.index ?? 0) : 0;
      const to = endIn ? (selectionPoint(rows, range.endContainer, range.endOffset, "end")?.index ?? rows.count - 1) : rows.count - 1;
      flushSync(() => setCopying([from, to]));
    };
    document.addEventListener("copy", onCopyAnywhere, true);
    return () => document.removeEventListener("copy", onCopyAnywhere, true);
  }, []);
  useEffect(() => {
    if (!copying) return;
    const id = setTimeout(() => setCopying(null), 0);
    return () => clearTimeout(id);
  }, [copying]);

  // Select all, in the focused box, selects the diff's rows rather than the page.
  const onKeyDown = useCallback((event: KeyboardEvent<HTMLDivElement>) => {
    const el = box.current;
    if (!el || event.key.toLowerCase() !== "a" || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    document.getSelection()?.selectAllChildren(el);
    event.preventDefault();
  }, []);

  // The unified table is as wide as the longest line, not only the longest drawn one, so the
  // width does not change as rows scroll in and out; at least as wide as the box.
  const table = mode === "unified" ? { minWidth: `max(100%, calc(${chars + 2 * digits + 1}ch + 40px))` } : undefined;
  return (
    <div
      className="diff-body diff-body-virtual"
      ref={box}
      onScroll={onScroll}
      onCopy={onCopy}
      onKeyDown={onKeyDown}
      tabIndex={0}
      role="region"
      aria-label={`Diff lines, ${count} rows`}
      data-rows={count}
    >
      <table className={`diff-table diff-table-${mode} diff-table-virtual`} style={{ ...table, ["--diff-num-ch" as string]: `${Math.max(digits, 3)}ch` }}>
        {mode === "split" && <SplitColumns />}
        <tbody>
          {chunks.map(([from, to], k) => {
            const gapFrom = k === 0 ? 0 : chunks[k - 1]![1];
            return (
              <Fragment key={from}>
                <Spacer height={(offsets[from] ?? 0) - (offsets[gapFrom] ?? 0)} from={gapFrom} to={from} />
                <Chunk
                  items={items}
                  from={from}
                  to={to}
                  current={props.current}
                  hunkRefs={props.hunkRefs}
                  choice={props.choice}
                  onUndoHunk={props.onUndoHunk}
                />
              </Fragment>
            );
          })}
          <Spacer height={(offsets[count] ?? 0) - (offsets[drawnTo] ?? 0)} from={drawnTo} to={count} />
        </tbody>
      </table>
    </div>
  );
}
