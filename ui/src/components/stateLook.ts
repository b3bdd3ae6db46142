// One state, one colour, everywhere: how a call's state (with its undo state and the person's
// decision) looks on a card's edge, its pill, a sidebar badge. Five looks, each a CSS class
// `look-<look>` whose colours are the variables `--state-<look>` and `--state-<look>-soft` in
// state.css:
// - running (blue): the agent is writing, starting or running the call;
// - needs-you (amber): it waits for the person's approval;
// - done (green): it went through, and what it changed is all on disk;
// - failed (red): it went wrong on its own;
// - by-you (grey): the person rejected it, stopped it, undid it (or part of it) or rewound the
//   workspace to before it, or one of their hooks or rules refused it, said in neutral words.
// What a change that went through looks like comes from its state on disk (session/changeLook.ts).
import type { CallState } from "../protocol/CallState";
import type { UndoState } from "../protocol/UndoState";
import type { CallDecision } from "../protocol/CallDecision";
import type { HookRun } from "../protocol/HookRun";
import type { ToolKind } from "../protocol/ToolKind";
import type { WorkspaceChange } from "../protocol/WorkspaceChange";
import { changeLook } from "../session/changeLook";
import { decisionWords } from "./decisionWords";
import { blockedWords, blockingHook } from "./hookWords";

export type Look = "running" | "needs-you" | "done" | "failed" | "by-you";

export interface StateLook {
  look: Look;
  /** The pill's words: a few, lower case. */
  label: string;
  /** The outcome in a sentence for the person, when there is more to say than the label. */
  note: string | null;
}

/** What decides a call's look. */
export interface LookInput {
  state: CallState;
  undo?: UndoState | null;
  /** What the person decided that shaped how it ended (a rejection carries their note). */
  decision?: CallDecision | null;
  /** The hooks that ran for it: a `PreToolUse` hook may have refused it. */
  hooks?: readonly HookRun[] | null;
  kind?: ToolKind;
  /** A command's or an external tool's changed files. */
  changes?: readonly WorkspaceChange[] | null;
  /** The workspace was rewound to before the message this call came after. */
  rewound?: boolean;
}

/** The CSS class of a look. */
export function lookClass(look: Look): string {
  return `look-${look}`;
}

/** How a call in this state looks. */
export function callLook(call: LookInput): StateLook {
  // A hook that refused the call says why, whether the engine ended it rejected or failed.
  const blocked = call.state === "rejected" || call.state === "failed" ? blockingHook(call.hooks) : null;
  if (blocked) return { look: "by-you", label: "blocked by a hook", note: blockedWords(blocked) };
  switch (call.state) {
    case "streaming":
      return { look: "running", label: "writing…", note: null };
    case "validating":
    case "scheduled":
      return { look: "running", label: "starting…", note: null };
    case "awaiting_approval":
      return { look: "needs-you", label: "needs you", note: null };
    case "executing":
      return { look: "running", label: "running", note: null };
    case "succeeded": {
      const change = changeLook(call);
      if (change.mark) return { look: "by-you", label: change.mark.toLowerCase(), note: null };
      return { look: "done", label: "done", note: null };
    }
    case "failed":
      return { look: "failed", label: "failed", note: null };
    case "rejected": {
      if (call.decision?.kind === "rejected") {
        return { look: "by-you", label: "rejected", note: decisionWords(call.decision) };
      }
      // A deny rule or a tool this session does not offer: the policy refused it, not the person.
      return { look: "by-you", label: "not allowed", note: null };
    }
    case "cancelled":
      return { look: "by-you", label: "stopped", note: "Stopped by you" };
    case "interrupted":
      return { look: "by-you", label: "interrupted", note: "The session closed while it ran" };
  }
}
