// How a tool call is named on its card: an icon, a verb and the one thing it acts on.
import type { CallState } from "../protocol/CallState";

type Args = Record<string, unknown> | null;

function str(args: Args, key: string): string | null {
  const v = args?.[key];
  return typeof v === "string" ? v : null;
}

export function toolIcon(name: string): string {
  switch (name) {
    case "read":
      return "▤";
    case "write":
      return "✚";
    case "edit":
    case "multi_edit":
      return "✎";
    case "ls":
    case "glob":
      return "▦";
    case "grep":
      return "⌕";
    case "bash":
      return "›_";
    case "http_fetch":
      return "⇣";
    case "todo_write":
      return "☑";
    case "attempt_completion":
      return "✓";
    case "new_task":
      return "⑂";
    default:
      return "◆";
  }
}

/** A one-line summary such as `edit src/main.rs` or `bash: cargo test`. */
export function toolSummary(name: string, raw: unknown): string {
  const args = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : null;
  switch (name) {
    case "read":
    case "write":
    case "edit":
    case "multi_edit":
    case "ls":
      return str(args, "path") ?? "";
    case "glob":
      return str(args, "pattern") ?? "";
    case "grep":
      return [str(args, "pattern"), str(args, "path")].filter(Boolean).join(" in ");
    case "bash":
      return str(args, "command") ?? "";
    case "http_fetch":
      return str(args, "url") ?? "";
    case "todo_write":
      return "task list";
    case "attempt_completion":
      return "task complete";
    case "new_task":
      return str(args, "description") ?? "";
    default:
      return "";
  }
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
