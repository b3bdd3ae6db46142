// The inbox's model: how each kind of item is marked and said, the order (what blocks an agent
// first, then the oldest), and what a key does in the list (j/k or the arrows move, Enter opens
// the task, a approves, Esc closes). Pure, so the panel only draws it.
import type { InboxItem } from "../../protocol/InboxItem";
import type { InboxKind } from "../../protocol/InboxKind";
import type { Look } from "../../components/stateLook";

export interface KindLook {
  /** A mark drawn before the item (hidden from screen readers: `label` says it). */
  icon: string;
  label: string;
  look: Look;
}

const KIND: Record<InboxKind, KindLook> = {
  approval: { icon: "!", label: "Needs your approval", look: "needs-you" },
  merge: { icon: "⇄", label: "Merge stopped", look: "failed" },
  failed: { icon: "✕", label: "Failed", look: "failed" },
  ready: { icon: "✓", label: "Ready to review", look: "done" },
};

export function kindLook(kind: InboxKind): KindLook {
  return KIND[kind];
}

/** Most urgent first: an agent blocked on the user, a stopped merge, a failure, a finished task. */
const RANK: Record<InboxKind, number> = { approval: 0, merge: 1, failed: 2, ready: 3 };

/** The items most urgent first and, within a kind, the one waiting longest first. */
export function orderInbox(items: InboxItem[]): InboxItem[] {
  return [...items].sort((a, b) => RANK[a.kind] - RANK[b.kind] || a.at - b.at);
}

/** A stable key for an item across refreshes (a task has at most one item of a kind). */
export function itemKey(item: InboxItem): string {
  return `${item.task_id}:${item.kind}`;
}

export type InboxAction =
  | { kind: "select"; index: number }
  | { kind: "open" }
  | { kind: "approve" }
  | { kind: "close" };

/**
 * What `key` does with `count` items and item `selected` chosen (-1: none yet); null: nothing,
 * the key is left to the page. Moving stops at the ends.
 */
export function inboxKey(key: string, selected: number, count: number): InboxAction | null {
  if (key === "Escape") return { kind: "close" };
  if (count === 0) return null;
  switch (key) {
    case "j":
    case "ArrowDown":
      return { kind: "select", index: Math.min(count - 1, selected + 1) };
    case "k":
    case "ArrowUp":
      return { kind: "select", index: Math.max(0, selected - 1) };
    case "Home":
      return { kind: "select", index: 0 };
    case "End":
      return { kind: "select", index: count - 1 };
    case "Enter":
      return selected >= 0 ? { kind: "open" } : null;
    case "a":
      return selected >= 0 ? { kind: "approve" } : null;
    default:
      return null;
  }
}

/** The item chosen after the list changed: the same item where it now is, else the same place. */
export function keepSelection(before: InboxItem | undefined, index: number, items: InboxItem[]): number {
  if (items.length === 0) return -1;
  if (before) {
    const at = items.findIndex((i) => itemKey(i) === itemKey(before));
    if (at >= 0) return at;
  }
  return Math.min(Math.max(index, 0), items.length - 1);
}
