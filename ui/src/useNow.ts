// The time now, for words that say how long ago something was ("5 minutes ago"): one timer for
// the whole page ticks every 30 seconds while anything reads it, so each relative time moves on
// without a timer of its own.
import { useSyncExternalStore } from "react";

/** How often the shared clock ticks (ms): finer than the minutes relative times show. */
export const TICK_MS = 30_000;

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
}

/** Adds a reader of the clock; the timer runs while there is one. */
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(tick, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const snapshot = () => now;

/** Unix milliseconds, as of the clock's last tick; the component renders again at each tick. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** How many timers the clock runs (0 or 1), for tests. */
export function clockTimers(): number {
  return timer === null ? 0 : 1;
}
