// "Working… 12 s" at the end of the conversation while a task runs and nothing else shows it:
// no card is running or waiting, and no text is arriving (the last entry is not text that
// changed in the last moment). The seconds count from the task's start.
import { useEffect, useRef, useState } from "react";
import type { CallView, Item } from "../session/state";

/** Text that changed less than this long ago counts as arriving (ms). */
export const QUIET_MS = 1500;

const ACTIVE: ReadonlySet<CallView["state"]> = new Set([
  "streaming",
  "validating",
  "scheduled",
  "executing",
  "awaiting_approval",
]);

/** True when a card shows that something is happening or waits for the person. */
export function anyCallActive(calls: Record<string, CallView>): boolean {
  return Object.values(calls).some((c) => ACTIVE.has(c.state));
}

export function WorkingRow({
  running,
  items,
  calls,
  now = () => Date.now(),
}: {
  running: boolean;
  items: Item[];
  calls: Record<string, CallView>;
  /** The clock (tests). */
  now?: () => number;
}) {
  const started = useRef<number | null>(null);
  if (running && started.current === null) started.current = now();
  if (!running) started.current = null;
  // When the conversation last changed: text arriving keeps the row away.
  const changed = useRef({ items, at: now() });
  if (changed.current.items !== items) changed.current = { items, at: now() };
  const [, tick] = useState(0);
  useEffect(() => {
    if (!running) return;
    const id = setInterval(() => tick((t) => t + 1), 1000);
    return () => clearInterval(id);
  }, [running]);

  if (!running || started.current === null || anyCallActive(calls)) return null;
  const last = items.at(-1);
  const texting = (last?.kind === "assistant" || last?.kind === "thinking") && now() - changed.current.at < QUIET_MS;
  if (texting) return null;
  const seconds = Math.max(0, Math.floor((now() - started.current) / 1000));
  return (
    <div className="working-row" role="status" data-testid="working" title="The agent is working on your message">
      <span className="spinner" aria-hidden="true" />
      <span>Working… {seconds} s</span>
    </div>
  );
}
