// Undoing every file change made after a message: which calls that is, newest first (the order
// the engine can undo them in: changes to one file are undone newest first).
import type { CallView, Item } from "./state";

/** The calls whose change can be undone among `items` (and the sub-agents' calls in them), in order. */
function undoable(items: Item[], calls: Record<string, CallView>, out: string[]) {
  for (const item of items) {
    if (item.kind !== "tool") continue;
    const call = calls[item.callId];
    if (!call) continue;
    if (call.undo === "available") out.push(call.id);
    undoable(call.children, calls, out);
  }
}

/** For each message of the person, by item id: how many changes after it can be undone. */
export function undoableAfterCounts(items: Item[], calls: Record<string, CallView>): Map<number, number> {
  const counts = new Map<number, number>();
  let after = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "user") counts.set(item.id, after);
    else if (item.kind === "tool") {
      const found: string[] = [];
      undoable([item], calls, found);
      after += found.length;
    }
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
