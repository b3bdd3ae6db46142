// How a tool call is named on its card: an icon by its kind, its name, and the title the engine
// gives it (what it acts on, then what it did).
import type { CallState } from "../protocol/CallState";
import type { ToolKind } from "../protocol/ToolKind";

const ICONS: Record<ToolKind, string> = {
  read: "▤",
  search: "⌕",
  edit: "✎",
  execute: "›_",
  fetch: "⇣",
  plan: "☑",
  delegate: "⑂",
  complete: "✓",
  other: "◆",
};

/** The card's icon for a tool of this kind. */
export function toolIcon(kind: ToolKind): string {
  return ICONS[kind] ?? ICONS.other;
}

export function stateLabel(state: CallState): { label: string; tone: "wait" | "run" | "ok" | "bad" | "off" } {
  switch (state) {
    case "streaming":
      return { label: "writing…", tone: "wait" };
    case "validating":
    case "scheduled":
      return { label: "waiting", tone: "wait" };
    case "awaiting_approval":
      return { label: "needs approval", tone: "wait" };
    case "executing":
      return { label: "running", tone: "run" };
    case "succeeded":
      return { label: "done", tone: "ok" };
    case "failed":
      return { label: "failed", tone: "bad" };
    case "rejected":
      return { label: "rejected", tone: "off" };
    case "cancelled":
      return { label: "cancelled", tone: "off" };
    case "interrupted":
      return { label: "interrupted", tone: "off" };
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The exit code in a bash result (`exit code: 3`), if any. */
export function exitCodeOf(result: string | null): number | null {
  if (!result) return null;
  const m = /exit code:?\s*(-?\d+)/i.exec(result);
  return m ? Number(m[1]) : null;
}
