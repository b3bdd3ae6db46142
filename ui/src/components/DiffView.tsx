import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { DiffKind } from "../protocol/DiffKind";
import type { DiffLine } from "../protocol/DiffLine";
import type { FileDiff } from "../protocol/FileDiff";
import type { Hunk } from "../protocol/Hunk";
import { type DiffChoice, HunkHeaderRow, hunkChoice, pairedRows, rowsWithin, SplitColumns, SplitPairRow, UnifiedRow, type SplitRow } from "./DiffRows";
import { diffItems } from "./diffItems";
import { VirtualDiffBody, type VirtualDiffApi } from "./VirtualDiffBody";
import { nextFrame } from "../nextFrame";
import type { ChangeLook } from "../session/changeLook";

export { hunkHeader, splitRows, type DiffChoice } from "./DiffRows";

export type DiffMode = "unified" | "split";


const KIND_LABEL: Record<DiffKind, string> = {
  create: "new file",
  modify: "modified",
  delete: "deleted",
};


/**
 * Rows `from..to` of a hunk. Memoised on stable props, so when a diff grows by a frame's worth
 * of rows only the new chunk renders, not every row drawn before it.
 */
const UnifiedChunk = memo(function UnifiedChunk(props: { lines: DiffLine[]; from: number; to: number }) {
  const rows: ReactNode[] = [];
  for (let i = props.from; i < props.to; i++) rows.push(<UnifiedRow key={i} line={props.lines[i]!} />);
  return <>{rows}</>;
});

/** `[from, to)` ranges of [`ROWS_PER_FRAME`] items covering `0..count`. */
function chunks(count: number): [number, number][] {
  const out: [number, number][] = [];
  for (let from = 0; from < count; from += ROWS_PER_FRAME) out.push([from, Math.min(count, from + ROWS_PER_FRAME)]);
  return out;
}

/** The first `count` lines of a hunk, one row each. */
function UnifiedLines({ lines, count }: { lines: DiffLine[]; count: number }) {
  return (
    <>
      {chunks(count).map(([from, to]) => (
        <UnifiedChunk key={from} lines={lines} from={from} to={to} />
      ))}
    </>
  );
}

const SplitChunk = memo(function SplitChunk(props: { rows: SplitRow[]; from: number; to: number }) {
  const out: ReactNode[] = [];
  for (let i = props.from; i < props.to; i++) out.push(<SplitPairRow key={i} row={props.rows[i]!} />);
  return <>{out}</>;
});

/** The rows of the side-by-side view that pair lines among the first `count` of a hunk. */
function SplitLines({ lines, count }: { lines: DiffLine[]; count: number }) {
  // Paired once per hunk; `ends[r]` is how many lines rows 0..r use.
  const { rows, ends } = useMemo(() => pairedRows(lines), [lines]);
  const drawn = rowsWithin(ends, count);
  return (
    <>
      {chunks(drawn).map(([from, to]) => (
        <SplitChunk key={from} rows={rows} from={from} to={to} />
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
 * Lines of a diff shown before the user asks for more: enough to judge a change, and drawn
 * within a few frames of the stream's end ([`ROWS_PER_FRAME`] at a time).
 */
export const DIFF_LINES_SHOWN = 200;

/**
 * More lines than this, once the user asks for them, are shown in a scroll box that draws only
 * the rows in view ([`VirtualDiffBody`]); up to this many are drawn in the page's flow.
 */
export const VIRTUAL_FROM = DIFF_LINES_SHOWN;

/** Lines added to a collapsed diff by one "Show more". */
export const SHOW_MORE_STEP = 1000;

/**
 * Rows drawn in a diff's first frame, and added per animation frame after it until the lines
 * the user asked for are all drawn. Laying out a row of code takes WebKit 0.2-0.45 ms here
 * (software painting, docs/MEASUREMENTS.md), so 200 rows at once blocked a frame for about
 * 90 ms. The first frame also lays out the header and the approval bar, where 50 rows made it
 * 45-50 ms in the release build; 25 leave room, and the first 200 lines fill in within about
 * seven frames.
 */
export const ROWS_PER_FRAME = 25;

/**
 * Rows added in the next frame when `drawn` are drawn: [`ROWS_PER_FRAME`], or a quarter of what
 * is drawn once that is more. Each frame also lays out the rows already there again (the table
 * is one box), so a fixed step made "Show all" on 12,000 rows take 20 s of ever slower frames;
 * growing by a quarter needs a few dozen frames for any length.
 */
export function growth(drawn: number): number {
  return Math.max(ROWS_PER_FRAME, Math.floor(drawn / 4));
}

/**
 * A structured file diff: header with counts, unified or side-by-side body with word highlights,
 * hunk navigation, and collapsing of large diffs (only `maxLines` lines are rendered until the
 * user asks for more, [`SHOW_MORE_STEP`] at a time, or for all of them).
 */
export function DiffView(props: {
  diff: FileDiff;
  initialMode?: DiffMode;
  maxLines?: number;
  /**
   * Asks the engine for the whole diff when the user wants lines this copy left out
   * (`lines_left_out`); the whole diff then arrives as a new `diff`.
   */
  onLoadMore?: () => void;
  /**
   * Offered while the change waits for approval: the hunks the user left out, and how they
   * tick one in or out. Each hunk header then has a box, and a left-out hunk is dimmed.
   */
  choice?: DiffChoice;
  /** Offered for a change that went through: undoes this hunk of it. */
  onUndoHunk?: (hunk: Hunk) => void;
  /**
   * Where the change this diff shows stands on disk: undone or rewound, it is drawn faded and
   * struck under its mark, and what it did ("new file") is not said.
   */
  change?: ChangeLook;
}) {
  const { diff, choice, onUndoHunk, change } = props;
  const faded = change?.faded ?? false;
  const maxLines = props.maxLines ?? DIFF_LINES_SHOWN;
  const [mode, setMode] = useState<DiffMode>(props.initialMode ?? "unified");
  // How many lines the user wants to see; grows when they ask for more.
  const [limit, setLimit] = useState(maxLines);
  const [current, setCurrent] = useState(-1);
  const hunkRefs = useRef<(HTMLElement | null)[]>([]);

  const loaded = useMemo(() => diff.hunks.reduce((n, h) => n + h.lines.length, 0), [diff.hunks]);
  // Every line of the diff, including those the engine has not sent yet.
  const total = loaded + diff.lines_left_out;
  // There are lines beyond those the user asked to see: offer them.
  const collapsed = total > limit;
  // The user asked for lines that are still on their way.
  const loading = limit > loaded && diff.lines_left_out > 0;
  const showUpTo = (n: number) => {
    setLimit(n);
    if (n > loaded && diff.lines_left_out > 0) props.onLoadMore?.();
  };
  // Rows drawn so far; grows a frame at a time towards what may be drawn. A long diff is drawn
  // only near the view of its scroll box, so it is not grown.
  const drawable = Math.min(limit, loaded);
  const virtual = drawable > Math.max(VIRTUAL_FROM, maxLines);
  const [drawn, setDrawn] = useState(ROWS_PER_FRAME);
  useEffect(() => {
    if (virtual || drawn >= drawable) return;
    return nextFrame(() => setDrawn((d) => Math.min(drawable, d + growth(d))));
  }, [virtual, drawn, drawable]);
  const budget = virtual ? drawable : Math.min(drawable, drawn);
  // Fewer rows drawn than are here: hunks get their share of `budget` in order.
  const partial = budget < loaded;
  const shownPerHunk = useMemo(
    () => (partial ? allotLines(diff.hunks, budget) : diff.hunks.map((h) => h.lines.length)),
    [partial, diff.hunks, budget],
  );
  const items = useMemo(
    () => (virtual ? diffItems(diff.hunks, shownPerHunk, mode) : []),
    [virtual, diff.hunks, shownPerHunk, mode],
  );
  const virtualApi = useRef<VirtualDiffApi | null>(null);
  // What the user has asked to see so far, and the next step of "Show more".
  const asked = Math.min(limit, total);
  const next = Math.min(total - asked, SHOW_MORE_STEP);
  // Hunks with nothing drawn are hidden; navigation moves between the others.
  const visible = useMemo(
    () => diff.hunks.map((_, i) => i).filter((i) => !partial || (shownPerHunk[i] ?? 0) > 0),
    [diff.hunks, partial, shownPerHunk],
  );
  const visibleHunks = visible.length;

  const goTo = (position: number) => {
    const index = visible[position];
    if (virtual && index !== undefined && virtualApi.current) {
      setCurrent(position);
      virtualApi.current.scrollToHunk(index);
      return;
    }
    const el = index === undefined ? null : hunkRefs.current[index];
    if (!el) return;
    setCurrent(position);
    el.scrollIntoView?.({ block: "start", behavior: "smooth" });
    el.focus({ preventScroll: true });
  };

  return (
    <section
      className={faded ? "diff-view diff-faded" : "diff-view"}
      aria-label={`Diff of ${diff.path}${change?.mark ? `, ${change.mark.toLowerCase()}` : ""}`}
      data-disk={change?.disk ?? undefined}
    >
      <header className="diff-header">
        <span className="diff-path" title={diff.path}>
          {diff.path}
        </span>
        {!faded && <span className={`diff-kind diff-kind-${diff.kind}`}>{KIND_LABEL[diff.kind]}</span>}
        {change?.mark && (
          <span className="diff-mark" data-testid="diff-mark">
            {change.mark}
          </span>
        )}
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
          {choice && (
            <span className="diff-choice-all" role="group" aria-label="Choose every part">
              <button
                type="button"
                className="ghost"
                data-testid="tick-all"
                disabled={choice.skipped.size === 0}
                onClick={() => choice.setAll(true)}
              >
                Tick all
              </button>
              <button
                type="button"
                className="ghost"
                data-testid="untick-all"
                disabled={choice.skipped.size === diff.hunks.length}
                onClick={() => choice.setAll(false)}
              >
                Untick all
              </button>
            </span>
          )}
          <button
            type="button"
            className="ghost diff-nav"
            aria-label="Previous part"
            title="Previous part"
            disabled={visibleHunks === 0 || current <= 0}
            onClick={() => goTo(Math.max(0, current - 1))}
          >
            ↑
          </button>
          <button
            type="button"
            className="ghost diff-nav"
            aria-label="Next part"
            title="Next part"
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
      {virtual ? (
        <VirtualDiffBody
          items={items}
          mode={mode}
          current={visible[current]}
          api={virtualApi}
          hunkRefs={hunkRefs}
          choice={choice}
          onUndoHunk={onUndoHunk}
        />
      ) : (
        <div className="diff-body">
          <table className={`diff-table diff-table-${mode}`}>
            {mode === "split" && <SplitColumns />}
            {diff.hunks.map((hunk, i) => {
              const n = shownPerHunk[i] ?? 0;
              if (partial && n === 0) return null;
              return (
                <tbody
                  key={i}
                  className={choice?.skipped.has(i) ? "diff-hunk diff-hunk-skipped" : "diff-hunk"}
                >
                  <HunkHeaderRow
                    hunk={hunk}
                    number={i + 1}
                    choice={hunkChoice(choice, i)}
                    undo={onUndoHunk}
                    current={i === visible[current]}
                    onHeader={(el) => {
                      hunkRefs.current[i] = el;
                    }}
                  />
                  {mode === "unified" ? (
                    <UnifiedLines lines={hunk.lines} count={n} />
                  ) : (
                    <SplitLines lines={hunk.lines} count={n} />
                  )}
                </tbody>
              );
            })}
          </table>
        </div>
      )}
      {(collapsed || loading || diff.omitted_hunks > 0) && (
        <footer className="diff-footer">
          {loading && (
            <span className="muted" role="status">
              Loading {asked - loaded} more lines…
            </span>
          )}
          {collapsed && !loading && (
            <button type="button" onClick={() => showUpTo(asked + next)}>
              {/* The rest in one step: it is all of it. */}
              {next >= total - asked ? `Show all ${total} lines` : `Show ${next} more lines`}
            </button>
          )}
          {collapsed && !loading && total - asked > next && (
            <button type="button" className="ghost" onClick={() => showUpTo(total)}>
              Show all {total - asked} remaining lines
            </button>
          )}
          {diff.omitted_hunks > 0 && (
            <span className="muted">
              {diff.omitted_hunks} more {diff.omitted_hunks === 1 ? "part" : "parts"} not shown
            </span>
          )}
        </footer>
      )}
    </section>
  );
}
