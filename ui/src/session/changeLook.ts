// How a change looks, from what is on disk now: the one rule every card that shows a change (a
// file tool's diff, a command's or an external tool's list of changed files) and the changes list
// follow.
// - applied: it went through and is on disk; its diff in full colour, "new file" when it created
//   the file;
// - partly undone: some parts of it were undone; the diff shows what is left, in full colour, and
//   the pill is neutral (not the green of a change that is all there);
// - undone: the person undid it; the diff is faded and struck, with an "Undone" mark;
// - rewound: the workspace went back to before a message this change came after; faded and
//   struck, with a "Rewound" mark.
// A change that never reached the disk (rejected, failed, stopped, still running) has no disk
// state: its card keeps the look of its call state.
import type { CallState } from "../protocol/CallState";
import type { FilePreview } from "../protocol/FilePreview";
import type { ToolKind } from "../protocol/ToolKind";
import type { UndoState } from "../protocol/UndoState";
import type { WorkspaceChange } from "../protocol/WorkspaceChange";

export type DiskState = "applied" | "partly-undone" | "undone" | "rewound";

export interface ChangeLook {
  /** Where the change stands on disk; null for a call that changed nothing on disk. */
  disk: DiskState | null;
  /** Its diff is drawn faded and struck: what it shows is no longer on disk. */
  faded: boolean;
  /**
   * The mark beside its diff and in its pill ("Undone"); null when it is all there. A faded
   * change's mark takes the place of what it did ("new file", "modified"): that is not on disk.
   */
  mark: string | null;
}

/** What decides how a change looks. */
export interface ChangeInput {
  state: CallState;
  kind?: ToolKind;
  /** A file tool's undo state (null for other calls, and in sessions stored before undo). */
  undo?: UndoState | null;
  /** A file tool's change, as proposed or made (null for other calls). */
  preview?: FilePreview | null;
  /** A command's or an external tool's changed files, when the checkpoints saw them. */
  changes?: readonly WorkspaceChange[] | null;
  /** The call came after the message the workspace was rewound to before (and not undone). */
  rewound?: boolean;
}

const NONE: ChangeLook = { disk: null, faded: false, mark: null };

/**
 * Whether the call changed something on disk: a file tool's change (it has a preview or an undo
 * state), a
 * command (a rewind puts back whatever it did, also when the checkpoints did not list it), or a
 * tool whose changed files the checkpoints listed. A command known to have changed nothing is
 * not a change.
 */
export function isChange(call: ChangeInput): boolean {
  if (call.state !== "succeeded") return false;
  if (call.undo || call.preview) return true;
  if (call.changes) return call.changes.length > 0;
  return call.kind === "execute";
}

/** How the change a call made looks now (see the top of this file). */
export function changeLook(call: ChangeInput): ChangeLook {
  if (!isChange(call)) return NONE;
  // An undone change is not on disk whatever came after; a rewind takes back the rest.
  if (call.undo === "done") return { disk: "undone", faded: true, mark: "Undone" };
  if (call.rewound) return { disk: "rewound", faded: true, mark: "Rewound" };
  if (call.undo === "partly") return { disk: "partly-undone", faded: false, mark: "Partly undone" };
  return { disk: "applied", faded: false, mark: null };
}
