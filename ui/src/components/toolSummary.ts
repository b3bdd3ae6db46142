// How a tool call is named on its card: an icon by its kind, its name, and the title the engine
// gives it (what it acts on, then what it did).
import type { ToolKind } from "../protocol/ToolKind";

const ICONS: Record<ToolKind, string> = {
  read: "▤",
  search: "⌕",
  edit: "✎",
  execute: "›_",
  fetch: "⇣",
  plan: "☑",
  delegate: "↳",
  complete: "✓",
  other: "◆",
};

/** The card's icon for a tool of this kind. */
export function toolIcon(kind: ToolKind): string {
  return ICONS[kind] ?? ICONS.other;
}

/** The string argument `key` of a call's arguments, if it is one. */
export function argText(args: unknown, key: string): string | null {
  if (typeof args !== "object" || args === null) return null;
  const v = (args as Record<string, unknown>)[key];
  return typeof v === "string" ? v : null;
}

/**
 * True when every argument is a plain value the card's title already shows (`{"path": "a.rs"}`
 * under a header naming a.rs): the arguments would say the same thing again.
 */
export function argsSaidByTitle(args: unknown, title: string | null): boolean {
  if (!title || typeof args !== "object" || args === null) return false;
  return Object.values(args as Record<string, unknown>).every(
    (v) => v === null || ((typeof v === "string" || typeof v === "number") && title.includes(String(v))),
  );
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
