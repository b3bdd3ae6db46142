// Which hunks of a waiting file change the user has left out. The card's diff sets them, and
// whatever approves the call (its approval bar, or Ctrl/Cmd+Enter anywhere in the window) reads
// them, so an approval writes exactly the changes the card shows ticked. A choice belongs to one
// preview: when the file changes on disk and the request comes again with a new hash, every hunk
// starts ticked again.
import { useSyncExternalStore } from "react";
import { canUndo, type CallView } from "./state";
import type { FileDiff } from "../protocol/FileDiff";
import type { Hunk } from "../protocol/Hunk";
import type { HunkRef } from "../protocol/HunkRef";

interface Choice {
  hash: string;
  skipped: ReadonlySet<number>;
}

const NONE: ReadonlySet<number> = new Set();
const choices = new Map<string, Choice>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The hunks left out of call `callId`'s preview `hash` (none unless the user unticked some). */
export function skippedHunks(callId: string, hash: string): ReadonlySet<number> {
  const choice = choices.get(callId);
  return choice && choice.hash === hash ? choice.skipped : NONE;
}

/** Ticks hunk `index` of the preview `hash` of `callId` if it was unticked, and unticks it if not. */
export function toggleHunk(callId: string, hash: string, index: number): void {
  const skipped = new Set(skippedHunks(callId, hash));
  if (!skipped.delete(index)) skipped.add(index);
  choices.set(callId, { hash, skipped });
  for (const listener of listeners) listener();
}

/** Ticks every one of `total` hunks in (`applied`) or out. */
export function setAllHunks(callId: string, hash: string, total: number, applied: boolean): void {
  const skipped = new Set<number>();
  if (!applied) for (let i = 0; i < total; i++) skipped.add(i);
  choices.set(callId, { hash, skipped });
  for (const listener of listeners) listener();
}

/** Forgets the choice for `callId` (it no longer waits for an answer). */
export function forgetHunkChoice(callId: string): void {
  if (choices.delete(callId)) for (const listener of listeners) listener();
}

/** [`skippedHunks`], re-rendering when it changes. */
export function useSkippedHunks(callId: string, hash: string | null): ReadonlySet<number> {
  return useSyncExternalStore(subscribe, () => (hash === null ? NONE : skippedHunks(callId, hash)));
}

/**
 * How many hunks a user may choose among in `diff` (0: the change goes whole): a modified
 * file's exact diff, held whole here, of two or more hunks. The engine's
 * `FileDiff::choosable_hunks`; it refuses anything else too (`approvals.rs`, `undo/hunks.rs`).
 */
function choosable(diff: FileDiff | null | undefined): number {
  if (!diff || diff.kind !== "modify") return 0;
  if (diff.omitted_hunks > 0 || diff.lines_left_out > 0 || diff.approximate || diff.hunks.length < 2) return 0;
  return diff.hunks.length;
}

/** How many hunks the user can choose among in `call`'s waiting preview (0: none waits). */
export function choosableHunks(call: CallView): number {
  return call.approval ? choosable(call.preview?.diff) : 0;
}

/** What approving a preview of `total` hunks with `skipped` left out sends. */
export type HunkApproval = { kind: "whole" } | { kind: "some"; hunks: number[] } | { kind: "none" };

export function hunkApproval(total: number, skipped: ReadonlySet<number>): HunkApproval {
  if (total === 0 || skipped.size === 0) return { kind: "whole" };
  const hunks: number[] = [];
  for (let i = 0; i < total; i++) if (!skipped.has(i)) hunks.push(i);
  return hunks.length === 0 ? { kind: "none" } : { kind: "some", hunks };
}

/**
 * Whether a change that went through can be undone hunk by hunk from its card: it can still be
 * undone and it modified a file (a created one is undone whole). The engine checks again
 * against the file.
 */
export function partlyUndoable(call: CallView): boolean {
  return canUndo(call) && !call.preview?.created && choosable(call.preview?.diff) > 0;
}

const SIGN = { context: " ", added: "+", removed: "-" } as const;

/** How an operation names hunk `h` as the card shows it (the engine's `Hunk::reference`). */
export function hunkRef(h: Hunk): HunkRef {
  let lines = "";
  for (const line of h.lines) lines += SIGN[line.tag] + line.spans.map((s) => s.text).join("") + "\n";
  return { old_start: h.old_start, old_lines: h.old_lines, new_start: h.new_start, new_lines: h.new_lines, lines };
}
