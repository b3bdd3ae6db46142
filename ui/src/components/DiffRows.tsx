// The rows of a diff table, shared by the body drawn in the page's flow and the virtualised one:
// one line of the unified view, one pair of the side-by-side view, and how lines pair up. What a
// row offers beyond showing (a hunk's undo words, a comment on a line in a task's review) comes
// from `DiffRowActions`, so the diff's props and its memoised chunks stay as they are.
import { createContext, useContext, useState } from "react";
import type { DiffLine } from "../protocol/DiffLine";
import type { Hunk } from "../protocol/Hunk";

/** `@@ -a,b +c,d @@`, as in a unified diff. */
export function hunkHeader(h: Hunk): string {
  return `@@ -${h.old_start},${h.old_lines} +${h.new_start},${h.new_lines} @@`;
}

/** The words of a hunk's undo: its button, the button's tooltip, the question and its answers. */
export interface UndoWords {
  button: string;
  title: string;
  ask: string;
  confirm: string;
  keep: string;
}

/** What the rows of a diff offer besides showing it. */
export interface DiffRowActions {
  undo: UndoWords;
  /** Offered in a review: a comment on one line (a button on each row). */
  comment?: (line: DiffLine) => void;
}

const UNDO_WORDS: UndoWords = {
  button: "↶ Undo part",
  title: "Puts this part of the file back as it was before this change, if nothing changed the file since",
  ask: "Put this part back as it was?",
  confirm: "Undo part",
  keep: "Keep",
};

/** A card's diff: undo words for its change, no comments. */
export const DiffRowActionsContext = createContext<DiffRowActions>({ undo: UNDO_WORDS });

/** Whether a hunk of a waiting change will be written, and how the user changes that. */
export interface HunkChoice {
  applied: boolean;
  toggle(): void;
}

/** Which hunks are left out of a waiting change, and how to tick one in or out. */
export interface DiffChoice {
  skipped: ReadonlySet<number>;
  toggle(index: number): void;
  /** Ticks every hunk in (`true`) or out. */
  setAll(applied: boolean): void;
}

/** Hunk `index`'s box, when the diff offers a choice. */
export function hunkChoice(choice: DiffChoice | undefined, index: number): HunkChoice | undefined {
  return choice && { applied: !choice.skipped.has(index), toggle: () => choice.toggle(index) };
}

/**
 * The header row of hunk `hunk`: focusable, so navigation can move to it; `current` when the
 * navigation is on it; `onHeader` receives its cell (and null when it goes). With `choice`, a
 * box ticks the hunk in or out of the change being approved.
 */
export function HunkHeaderRow(props: {
  hunk: Hunk;
  current: boolean;
  onHeader(el: HTMLElement | null): void;
  index?: number;
  /** The hunk's number in the diff, from 1 (for the box's label). */
  number?: number;
  choice?: HunkChoice;
  /** Undoes this hunk of a change that went through (after a confirmation). */
  undo?: (hunk: Hunk) => void;
}) {
  const { choice } = props;
  const classes = ["diff-hunk-header"];
  if (props.current) classes.push("diff-hunk-current");
  if (choice && !choice.applied) classes.push("diff-hunk-left-out");
  return (
    <tr className={classes.join(" ")} data-index={props.index}>
      <th colSpan={4} scope="colgroup" tabIndex={-1} ref={props.onHeader}>
        {choice && (
          <input
            type="checkbox"
            className="hunk-choice"
            data-testid="hunk-choice"
            checked={choice.applied}
            onChange={choice.toggle}
            aria-label={`Write part ${props.number ?? ""}`.trim()}
            title={choice.applied ? "Untick to leave this part out" : "Tick to write this part"}
          />
        )}
        {hunkHeader(props.hunk)}
        {choice && !choice.applied && <span className="hunk-left-out-note"> · left out</span>}
        {props.undo && <HunkUndo hunk={props.hunk} onUndo={props.undo} />}
      </th>
    </tr>
  );
}

/**
 * Undo for one hunk of a change that went through: asks first, as the agent's version of it is
 * not kept. The hunk asked about is the one sent, whatever the row shows by then (undoing another
 * hunk moves the later ones up), and the question closes when the row shows another hunk.
 */
function HunkUndo({ hunk, onUndo }: { hunk: Hunk; onUndo(hunk: Hunk): void }) {
  const [asked, setAsked] = useState<Hunk | null>(null);
  const words = useContext(DiffRowActionsContext).undo;
  if (asked !== hunk) {
    return (
      <button type="button" className="ghost hunk-undo" data-testid="undo-hunk" title={words.title} onClick={() => setAsked(hunk)}>
        {words.button}
      </button>
    );
  }
  return (
    <span
      className="hunk-undo-ask"
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          setAsked(null);
        }
      }}
    >
      {words.ask}{" "}
      <button
        type="button"
        data-testid="confirm-undo-hunk"
        autoFocus
        onClick={() => {
          setAsked(null);
          onUndo(asked);
        }}
      >
        {words.confirm}
      </button>
      <button type="button" className="ghost" onClick={() => setAsked(null)}>
        {words.keep}
      </button>
    </span>
  );
}

/** The columns of the side-by-side table: number and code, old then new. */
export function SplitColumns() {
  return (
    <colgroup>
      <col className="diff-col-num" />
      <col />
      <col className="diff-col-num" />
      <col />
    </colgroup>
  );
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

/**
 * The side-by-side rows of a hunk and, for each row `r`, how many of the hunk's lines rows
 * `0..=r` use: the rows that show only the first `count` lines are those with `ends[r] <= count`.
 */
export function pairedRows(lines: DiffLine[]): { rows: SplitRow[]; ends: number[] } {
  const rows = splitRows(lines);
  let used = 0;
  const ends = rows.map((row) => (used += (row.left ? 1 : 0) + (row.right && row.right !== row.left ? 1 : 0)));
  return { rows, ends };
}

/** How many of `rows` show only lines among the first `count` (see [`pairedRows`]). */
export function rowsWithin(ends: number[], count: number): number {
  let drawn = 0;
  while (drawn < ends.length && ends[drawn]! <= count) drawn++;
  return drawn;
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

/** A review's button for a comment on `line`, when the diff offers one. */
function CommentButton({ line }: { line: DiffLine }) {
  const comment = useContext(DiffRowActionsContext).comment;
  if (!comment) return null;
  const n = line.tag === "removed" ? line.old_line : line.new_line;
  const which = line.tag === "removed" ? `removed line ${n ?? ""}` : `line ${n ?? ""}`;
  return (
    <button
      type="button"
      className="diff-line-comment"
      data-testid="comment-line"
      aria-label={`Comment on ${which}`.trim()}
      title={`Comment on ${which}: the agent gets it as a message`}
      onClick={() => comment(line)}
    >
      Comment
    </button>
  );
}

/** One line of the unified view; `index` (optional) names the row for the virtualised body. */
export function UnifiedRow({ line, index, skipped }: { line: DiffLine; index?: number; skipped?: boolean }) {
  return (
    <tr className={`diff-line diff-${line.tag}${skipped ? " diff-line-skipped" : ""}`} data-index={index}>
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
        <CommentButton line={line} />
      </td>
    </tr>
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
        {(side === "new" || line.tag === "removed") && <CommentButton line={line} />}
      </td>
    </>
  );
}

/** One row of the side-by-side view; `skipped` when its hunk is left out of a waiting change. */
export function SplitPairRow({ row, index, skipped }: { row: SplitRow; index?: number; skipped?: boolean }) {
  return (
    <tr className={`diff-line diff-split-row${skipped ? " diff-line-skipped" : ""}`} data-index={index}>
      <SplitSide line={row.left} side="old" />
      <SplitSide line={row.right} side="new" />
    </tr>
  );
}
