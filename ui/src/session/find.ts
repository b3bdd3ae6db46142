// Finding text in a conversation: which entries hold it. The conversation draws only the entries
// near its view, so the browser's own find cannot see the others; this searches the session's
// state instead: messages, thinking, notices, hooks (their event, command and message) and, for a
// tool card, what it shows or holds (its name, its arguments' text, status, output, result, its
// hooks and its sub-agent's messages and calls).
// Entries and calls are immutable objects, replaced when they change, so each is lower-cased and
// searched once per query; while a stream runs, only the objects it changes are searched again.
import type { CallView, Item } from "./state";
import type { HookRun } from "../protocol/HookRun";

/** The text of an entry, lower-cased, by the (immutable) object it comes from. */
const lowered = new WeakMap<object, string>();

function cached(key: object, text: () => string): string {
  let found = lowered.get(key);
  if (found === undefined) {
    found = text().toLowerCase();
    lowered.set(key, found);
  }
  return found;
}

/** Every string inside a JSON value (arguments), one per line. */
function strings(value: unknown, out: string[]) {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number" || typeof value === "boolean") out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
}

function hookText(run: HookRun): string {
  return [run.event, run.command, run.message ?? ""].join("\n");
}

function callText(call: CallView): string {
  const parts = [call.name];
  strings(call.args, parts);
  for (const part of [call.status, call.output, call.result, call.refused, call.undoRefused]) if (part) parts.push(part);
  for (const run of call.hooks) parts.push(hookText(run));
  return parts.join("\n");
}

/** The last answer for each object: whether its own text holds the query it was asked for. */
const answers = new WeakMap<object, { query: string; hit: boolean }>();

/** Whether the text of `key` holds `query`; an object that did not change is not searched again. */
function ownHit(key: object, text: () => string, query: string): boolean {
  const last = answers.get(key);
  if (last?.query === query) return last.hit;
  const hit = cached(key, text).includes(query);
  answers.set(key, { query, hit });
  return hit;
}

/** Whether `item` (with a tool card's sub-agent entries) holds `query` (lower-cased, not empty). */
function holds(item: Item, calls: Record<string, CallView>, query: string): boolean {
  if (item.kind === "hook") return ownHit(item, () => hookText(item.run), query);
  if (item.kind !== "tool") return ownHit(item, () => item.text, query);
  const call = calls[item.callId];
  if (!call) return false;
  if (ownHit(call, () => callText(call), query)) return true;
  return call.children.some((child) => holds(child, calls, query));
}

/** The ids of the entries of `items` that hold `query` (case-insensitive), in order; none for "". */
export function entriesHolding(items: Item[], calls: Record<string, CallView>, query: string): number[] {
  const q = query.toLowerCase();
  if (q === "") return [];
  return items.filter((item) => holds(item, calls, q)).map((item) => item.id);
}
