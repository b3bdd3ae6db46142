// Events and stored sessions for the reducer's tests: numbered events, a stored session "s",
// and a usage summary.
import type { Event } from "../protocol/Event";
import type { Transcript } from "../protocol/Transcript";
import type { UsageSummary } from "../protocol/UsageSummary";

let seq = 0;

/** Numbers the next event `from + 1` (from 1 again before each test). */
export function resetSeq(from = 0): void {
  seq = from;
}

/** An event with the next `seq`. */
export function ev(msg: Record<string, unknown>): Event {
  seq += 1;
  return { seq, ...msg } as unknown as Event;
}

/** A stored session "s" that shows `items`. */
export function transcriptOf(items: Transcript["items"]): Transcript {
  return { session_id: "s", items, todos: [], usage: { input: 0, output: 0, cache_read: 0, cache_write: 0, requests: 1 } };
}

export function summary(over: Partial<UsageSummary> = {}): UsageSummary {
  return { total_input: 0, total_output: 0, total_cache_read: 0, total_cache_write: 0, cache_saved_usd: 0, cost_usd: 0, context_used: 0, context_window: 200_000, ...over };
}
