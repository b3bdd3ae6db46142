// Undoing every file change made after a message: which calls that is, newest first (the order
// the engine can undo them in: changes to one file are undone newest first).
import { canUndo, type CallView, type Item } from "./state";

/** The calls whose change can be undone among `items` (and the sub-agents' calls in them), in order. */
function undoable(items: Item[], calls: Record<string, CallView>, out: string[]) {
  for (const item of items) {
    if (item.kind !== "tool") continue;
    const call = calls[item.callId];
    if (!call) continue;
    if (canUndo(call)) out.push(call.id);
    undoable(call.children, calls, out);
  }
}

/** How many calls of tool item `item` (itself and its sub-agent's) can be undone. */
function countUndoable(item: Item, calls: Record<string, CallView>): number {
  if (item.kind !== "tool") return 0;
  const call = calls[item.callId];
  if (!call) return 0;
  let n = canUndo(call) ? 1 : 0;
  for (const child of call.children) n += countUndoable(child, calls);
  return n;
}

/**
 * For each message of the user, by item id: how many changes after it can be undone. Runs
 * whenever the calls change (each frame of a stream), so it only counts.
 */
export function undoableAfterCounts(items: Item[], calls: Record<string, CallView>): Map<number, number> {
  const counts = new Map<number, number>();
  let after = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "user") counts.set(item.id, after);
    else after += countUndoable(item, calls);
  }
  return counts;
}

/** The calls after the item `id` whose change can be undone, newest first. */
export function undoableAfter(items: Item[], calls: Record<string, CallView>, id: number): string[] {
  const at = items.findIndex((item) => item.id === id);
  if (at < 0) return [];
  const found: string[] = [];
  undoable(items.slice(at + 1), calls, found);
  return found.reverse();
}
