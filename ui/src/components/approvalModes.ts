// The one name of each approval mode, used everywhere the UI names one (the status bar's picker,
// Settings, the approval notes), and what each does in one sentence, for tooltips and helper text.
import type { ApprovalMode } from "../protocol/ApprovalMode";

export interface ModeName {
  mode: ApprovalMode;
  name: string;
  /** A word or two for the picker in a narrow window, where `name` is its tooltip. */
  short: string;
  detail: string;
}

export const APPROVAL_MODES: ModeName[] = [
  { mode: "read-only", name: "Read only", short: "Read", detail: "Reads and searches only: edits, commands and fetches are refused." },
  { mode: "ask", name: "Ask first", short: "Ask", detail: "Reads run freely; edits, commands, fetches and external tools ask you first." },
  { mode: "auto-edit", name: "Auto-edit", short: "Edit", detail: "Edits inside the workspace run freely; commands and fetches ask you first." },
  {
    mode: "auto",
    name: "Auto, sandboxed",
    short: "Sandbox",
    detail:
      "Edits and sandboxed commands run freely; fetches, external tools and commands the sandbox cannot confine ask. Sandboxed commands can still read files that are not hidden.",
  },
  {
    mode: "yolo",
    name: "Run everything",
    short: "All",
    detail:
      "Everything runs without asking, and commands run with your full rights, outside the sandbox. Protected paths and private network targets still ask.",
  },
];

/** The mode's one name: "Ask first". */
export function modeName(mode: ApprovalMode): string {
  return APPROVAL_MODES.find((m) => m.mode === mode)?.name ?? mode;
}

/** What the mode does, in a sentence. */
export function modeDetail(mode: ApprovalMode): string {
  return APPROVAL_MODES.find((m) => m.mode === mode)?.detail ?? "";
}
