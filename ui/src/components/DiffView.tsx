import { useMemo, useRef, useState } from "react";
import type { DiffKind } from "../protocol/DiffKind";
import type { DiffLine } from "../protocol/DiffLine";
import type { FileDiff } from "../protocol/FileDiff";
import type { Hunk } from "../protocol/Hunk";

export type DiffMode = "unified" | "split";

const KIND_LABEL: Record<DiffKind, string> = {
  create: "new file",
  modify: "modified",
  delete: "deleted",
};

/** `@@ -a,b +c,d @@`, as in a unified diff. */
export function hunkHeader(h: Hunk): string {
  return `@@ -${h.old_start},${h.old_lines} +${h.new_start},${h.new_lines} @@`;
}

/** One row of the side-by-side view; a missing side is a gap. */
export type SplitRow = { left: DiffLine | null; right: DiffLine | null };

/**
 * Pairs lines for the side-by-side view: context on both sides; a run of removed lines followed
 * by a run of added lines becomes aligned pairs (the longer run continues against gaps).
 */
export function splitRows(lines: DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.tag === "context") {
      rows.push({ left: line, right: line });
      i++;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (i < lines.length && lines[i]!.tag === "removed") removed.push(lines[i++]!);
    while (i < lines.length && lines[i]!.tag === "added") added.push(lines[i++]!);
    const n = Math.max(removed.length, added.length);
    for (let k = 0; k < n; k++) rows.push({ left: removed[k] ?? null, right: added[k] ?? null });
  }
  return rows;
}

function LineText({ line }: { line: DiffLine }) {
  // Words are marked only when part of the line stayed the same; a wholly changed line is
  // already coloured as a whole.
  const partial = line.tag !== "context" && line.spans.some((s) => !s.changed && s.text.trim() !== "");
  // Text nodes only: whatever the file contains is shown, never interpreted.
  return (
    <>
      {line.spans.map((span, i) =>
        span.changed && partial ? (
          <mark key={i} className="diff-word">
            {span.text}
          </mark>
        ) : (
          <span key={i}>{span.text}</span>
        ),
      )}
    </>
  );
}

const SIGN: Record<DiffLine["tag"], string> = { context: " ", added: "+", removed: "-" };

function UnifiedLines({ lines }: { lines: DiffLine[] }) {
  return (
    <>
      {lines.map((line, i) => (
        <tr key={i} className={`diff-line diff-${line.tag}`}>
          <td className="diff-num" aria-label={line.old_line === null ? undefined : `old line ${line.old_line}`}>
            {line.old_line ?? ""}
          </td>
          <td className="diff-num" aria-label={line.new_line === null ? undefined : `new line ${line.new_line}`}>
            {line.new_line ?? ""}
          </td>
          <td className="diff-sign" aria-hidden="true">
            {SIGN[line.tag]}
          </td>
          <td className="diff-code">
            <LineText line={line} />
          </td>
        </tr>
      ))}
    </>
  );
}

function SplitSide({ line, side }: { line: DiffLine | null; side: "old" | "new" }) {
  if (line === null) {
    return (
      <>
        <td className="diff-num diff-gap" />
        <td className="diff-code diff-gap" />
      </>
    );
  }
  const num = side === "old" ? line.old_line : line.new_line;
  return (
    <>
      <td className={`diff-num diff-${line.tag}`}>{num ?? ""}</td>
      <td className={`diff-code diff-${line.tag}`} data-side={side}>
        <LineText line={line} />
      </td>
    </>
  );
}

function SplitLines({ lines }: { lines: DiffLine[] }) {
  const rows = useMemo(() => splitRows(lines), [lines]);
  return (
    <>
      {rows.map((row, i) => (
        <tr key={i} className="diff-line diff-split-row">
          <SplitSide line={row.left} side="old" />
          <SplitSide line={row.right} side="new" />
        </tr>
      ))}
    </>
  );
}

/** How many lines of each hunk fit in `budget` lines, in order. */
function allotLines(hunks: Hunk[], budget: number): number[] {
  let left = budget;
  return hunks.map((h) => {
    const n = Math.min(left, h.lines.length);
    left -= n;
    return n;
  });
}

/**
 * Lines of a diff rendered before the person asks for more. The final diff of a large write is
 * drawn in the frame after the stream ends, so it must be cheap: in the e2e window (software
 * painting) 400 rows cost about 50 ms more than 100 (docs/MEASUREMENTS.md).
 */
export const DIFF_LINES_SHOWN = 200;

/** Lines added to a collapsed diff by one "Show more": a step that renders in one frame or two. */
export const SHOW_MORE_STEP = 1000;

/**
 * A structured file diff: header with counts, unified or side-by-side body with word highlights,
 * hunk navigation, and collapsing of large diffs (only `maxLines` lines are rendered until the
 * person asks for more, [`SHOW_MORE_STEP`] at a time, or for all of them).
 */
export function DiffView(props: {
  diff: FileDiff;
  initialMode?: DiffMode;
  maxLines?: number;
  /**
   * Asks the engine for the whole diff when the person wants lines this copy left out
   * (`lines_left_out`); the whole diff then arrives as a new `diff`.
   */
  onLoadMore?: () => void;
}) {
  const { diff } = props;
  const maxLines = props.maxLines ?? DIFF_LINES_SHOWN;
  const [mode, setMode] = useState<DiffMode>(props.initialMode ?? "unified");
  // How many lines may be rendered; grows when the person asks for more.
  const [limit, setLimit] = useState(maxLines);
  const [current, setCurrent] = useState(-1);
  const hunkRefs = useRef<(HTMLElement | null)[]>([]);

  const loaded = useMemo(() => diff.hunks.reduce((n, h) => n + h.lines.length, 0), [diff.hunks]);
  // Every line of the diff, including those the engine has not sent yet.
  const total = loaded + diff.lines_left_out;
  const collapsed = total > limit;
  // The person asked for lines that are still on their way.
  const loading = limit > loaded && diff.lines_left_out > 0;
  const showUpTo = (n: number) => {
    setLimit(n);
    if (n > loaded && diff.lines_left_out > 0) props.onLoadMore?.();
  };
  const shownPerHunk = useMemo(
    () => (collapsed ? allotLines(diff.hunks, limit) : diff.hunks.map((h) => h.lines.length)),
    [collapsed, diff.hunks, limit],
  );
  const shown = shownPerHunk.reduce((a, b) => a + b, 0);
  const next = Math.min(total - shown, SHOW_MORE_STEP);
  // Hunks with nothing shown are hidden while collapsed; navigation moves between the others.
  const visible = useMemo(
    () => diff.hunks.map((_, i) => i).filter((i) => !collapsed || (shownPerHunk[i] ?? 0) > 0),
    [diff.hunks, collapsed, shownPerHunk],
  );
  const visibleHunks = visible.length;

  const goTo = (position: number) => {
    const index = visible[position];
    const el = index === undefined ? null : hunkRefs.current[index];
    if (!el) return;
    setCurrent(position);
    el.scrollIntoView?.({ block: "start", behavior: "smooth" });
    el.focus({ preventScroll: true });
  };

  return (
    <section className="diff-view" aria-label={`Diff of ${diff.path}`}>
      <header className="diff-header">
        <span className="diff-path" title={diff.path}>
          {diff.path}
        </span>
        <span className={`diff-kind diff-kind-${diff.kind}`}>{KIND_LABEL[diff.kind]}</span>
        <span className="diff-counts">
          <span className="diff-count-added">+{diff.added}</span>{" "}
          <span className="diff-count-removed">−{diff.removed}</span>
        </span>
        {diff.approximate && (
          <span className="diff-note" title="The diff gave up on finding the smallest set of changes in time">
            approximate
          </span>
        )}
        <span className="diff-toolbar">
          <button
            type="button"
            className="ghost diff-nav"
            aria-label="Previous change"
            title="Previous change"
            disabled={visibleHunks === 0 || current <= 0}
            onClick={() => goTo(Math.max(0, current - 1))}
          >
            ↑
          </button>
          <button
            type="button"
            className="ghost diff-nav"
            aria-label="Next change"
            title="Next change"
            disabled={visibleHunks === 0 || current >= visibleHunks - 1}
            onClick={() => goTo(Math.min(visibleHunks - 1, current + 1))}
          >
            ↓
          </button>
          <span className="diff-mode" role="group" aria-label="Diff layout">
            <button
              type="button"
              className="ghost"
              aria-pressed={mode === "unified"}
              onClick={() => setMode("unified")}
            >
              Unified
            </button>
            <button type="button" className="ghost" aria-pressed={mode === "split"} onClick={() => setMode("split")}>
              Side by side
            </button>
          </span>
        </span>
      </header>
      <div className="diff-body">
        <table className={`diff-table diff-table-${mode}`}>
          {mode === "split" && (
            <colgroup>
              <col className="diff-col-num" />
              <col />
              <col className="diff-col-num" />
              <col />
            </colgroup>
          )}
          {diff.hunks.map((hunk, i) => {
            const n = shownPerHunk[i] ?? 0;
            if (collapsed && n === 0) return null;
            const lines = n < hunk.lines.length ? hunk.lines.slice(0, n) : hunk.lines;
            return (
              <tbody key={i} className={i === visible[current] ? "diff-hunk diff-hunk-current" : "diff-hunk"}>
                <tr className="diff-hunk-header">
                  <th
                    colSpan={4}
                    scope="colgroup"
                    tabIndex={-1}
                    ref={(el) => {
                      hunkRefs.current[i] = el;
                    }}
                  >
                    {hunkHeader(hunk)}
                  </th>
                </tr>
                {mode === "unified" ? <UnifiedLines lines={lines} /> : <SplitLines lines={lines} />}
              </tbody>
            );
          })}
        </table>
      </div>
      {(collapsed || loading || diff.omitted_hunks > 0) && (
        <footer className="diff-footer">
          {loading && (
            <span className="muted" role="status">
              Loading {Math.min(limit, total) - shown} more lines…
            </span>
          )}
          {collapsed && !loading && (
            <button type="button" onClick={() => showUpTo(shown + next)}>
              Show {next} more lines
            </button>
          )}
          {collapsed && !loading && total - shown > next && (
            <button type="button" className="ghost" onClick={() => showUpTo(total)}>
              Show all {total - shown} remaining lines
            </button>
          )}
          {diff.omitted_hunks > 0 && (
            <span className="muted">
              {diff.omitted_hunks} more {diff.omitted_hunks === 1 ? "hunk" : "hunks"} not shown
            </span>
          )}
        </footer>
      )}
    </section>
  );
}
