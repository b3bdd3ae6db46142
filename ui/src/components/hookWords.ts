// A hook's run in the person's words, for the line on its card and the notice in the
// conversation: which hook (its event and its command, shortened), what it decided, how long it
// took, and what it said. The verdict comes from the engine (`HookRun.verdict`); a block reads
// by what it blocked (a call, your message, the agent's end).
import type { HookEvent } from "../protocol/HookEvent";
import type { HookRun } from "../protocol/HookRun";
import { formatDuration } from "./toolSummary";

/** Longest shortened command before it is cut with an ellipsis. */
const COMMAND_CHARS = 40;

/** Events whose block refuses the call the hook ran for. */
const REFUSES_CALL: ReadonlySet<HookEvent> = new Set(["PreToolUse", "PermissionRequest"]);

/** Events whose hooks are for tools, so a matcher names tools. */
const FOR_TOOLS: ReadonlySet<HookEvent> = new Set(["PreToolUse", "PostToolUse", "PermissionRequest"]);

/** What a hook is for, from its event and matcher: the tools it matches, the kind of start,
 * compaction or notification it matches, or a dash for an event that has nothing to match. */
export function hookFor(event: HookEvent, matcher: string | null): string {
  if (matcher) return matcher;
  if (FOR_TOOLS.has(event)) return "every tool";
  switch (event) {
    case "SessionStart":
      return "every start";
    case "PreCompact":
      return "every compaction";
    case "Notification":
      return "every notice";
    default:
      return "—";
  }
}

/** What the hook decided, in a few lower-case words ("blocked", "asked you", "added context"). */
export function verdictWords(run: Pick<HookRun, "event" | "verdict">): string {
  switch (run.verdict) {
    case "continued":
      return "ran";
    case "allowed":
      return "allowed";
    case "blocked":
      switch (run.event) {
        case "UserPromptSubmit":
          return "blocked your message";
        case "Stop":
        case "SubagentStop":
          return "kept the agent going";
        case "PostToolUse":
          return "told the agent";
        default:
          return "blocked";
      }
    case "asked":
      return "asked you";
    case "added_context":
      return "added context";
    case "stopped":
      return "stopped the agent";
    case "failed":
      return "failed";
    case "timed_out":
      return "timed out";
  }
}

/** Whether the verdict is something to notice (a refusal, or the hook going wrong). */
export function verdictTone(run: Pick<HookRun, "verdict">): "warn" | "quiet" {
  return run.verdict === "blocked" || run.verdict === "failed" || run.verdict === "timed_out" || run.verdict === "stopped"
    ? "warn"
    : "quiet";
}

/** A path longer than this is cut to its file name. */
const PATH_CHARS = 20;

/**
 * A hook's command for a line: a long path is cut to its file name (`python3 …/block_rm.py`),
 * and what is still too long ends in an ellipsis. The full command goes in the line's tooltip.
 */
export function shortCommand(command: string): string {
  const words = command.trim().split(/\s+/).map((word) => {
    const bare = word.replace(/^["']+|["']+$/g, "");
    const slash = bare.lastIndexOf("/");
    return slash >= 0 && slash < bare.length - 1 && bare.length > PATH_CHARS ? `…/${bare.slice(slash + 1)}` : word;
  });
  const short = words.join(" ");
  return short.length > COMMAND_CHARS ? `${short.slice(0, COMMAND_CHARS - 1)}…` : short;
}

/** How long it ran: `35 ms`, `1.2 s`. */
export function hookTime(run: Pick<HookRun, "elapsed_ms">): string {
  return formatDuration(run.elapsed_ms);
}

/** The run in one plain sentence (`Hook UserPromptSubmit `python3 …/ctx.py` added context · 35 ms`). */
export function hookSentence(run: HookRun): string {
  const said = run.message ? `: ${run.message}` : "";
  const ended = run.ended ? ` · ${run.ended}` : "";
  return `Hook ${run.event} \`${shortCommand(run.command)}\` ${verdictWords(run)} · ${hookTime(run)}${said}${ended}`;
}

/** The run of `hooks` that refused the call they ran for (a `PreToolUse` block), if any. */
export function blockingHook(hooks: readonly HookRun[] | null | undefined): HookRun | null {
  return hooks?.find((run) => run.verdict === "blocked" && REFUSES_CALL.has(run.event)) ?? null;
}

/** Why a call was refused by a hook, as its card says it. */
export function blockedWords(run: HookRun): string {
  return run.message ? `Blocked by a hook: ${run.message}` : `Blocked by a hook (${shortCommand(run.command)})`;
}
