// The approval modes, one name each wherever they are shown, with what each lets the agent do
// without asking (for tooltips and longer descriptions).
import type { ApprovalMode } from "../protocol/ApprovalMode";

export interface ModeName {
  mode: ApprovalMode;
  /** The mode's one name. */
  name: string;
  /** What the agent may do without asking, in a sentence. */
  detail: string;
}

export const APPROVAL_MODES: readonly ModeName[] = [
  { mode: "read-only", name: "Read only", detail: "The agent reads and searches; nothing that changes anything runs." },
  { mode: "ask", name: "Ask", detail: "The agent asks before every change, command and fetch." },
  { mode: "auto-edit", name: "Auto-edit", detail: "The agent edits files freely and asks before commands and fetches." },
  { mode: "auto", name: "Auto", detail: "The agent edits files and runs commands in the sandbox without asking." },
  { mode: "yolo", name: "Run everything", detail: "Nothing asks: commands run with your full rights." },
];

/** The name and description of `mode`. */
export function modeName(mode: ApprovalMode): ModeName {
  return APPROVAL_MODES.find((m) => m.mode === mode) ?? APPROVAL_MODES[1]!;
}

/**
 * The engine's reason for asking (`policy.rs`: "ask mode asks for this"), with the mode called by
 * its one name ("Ask mode asks for this").
 */
export function withModeName(reason: string): string {
  const m = /^(read-only|ask|auto-edit|auto|yolo) mode\b/.exec(reason);
  if (!m) return reason;
  return `${modeName(m[1] as ApprovalMode).name} mode${reason.slice(m[0].length)}`;
}
