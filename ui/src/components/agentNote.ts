// What the engine told the model about the person's decision on a call, read back into facts the
// card words for the person. The texts are the engine's (`agent/approvals.rs`: `rejection_text`,
// `user_version_text`; `agent/jobs.rs`: `NOT_RUN_CANCELLED`); the card shows these facts and
// keeps the model's own text behind "What the agent was told".

export type AgentNote =
  /** The person rejected the call, with the note they gave the agent (if any). */
  | { kind: "rejected"; reason: string | null }
  /** The person edited the change before approving it; `lines` lines differ from the proposal. */
  | { kind: "edited"; lines: number }
  /** The person approved only `written` of the change's `total` parts. */
  | { kind: "parts"; written: number; total: number }
  /** The person's Stop came before the call ran. */
  | { kind: "not_run" };

const REJECTED = /^The user rejected this (?:change|call)(?:: ([\s\S]*?))?\. (?:The file was not modified|Nothing was done)\.$/;
const EDITED = /^The user edited your change before applying it;/;
const PARTS = /^The user applied only part of your change to .*?: hunks? ([\d, ]+) of (\d+) (?:was|were) written/;
const NOT_RUN = "Cancelled by the user before this call ran; nothing was done.";

/** The lines a unified diff adds or removes (its `+`/`-` rows, not its `+++`/`---` header). */
function changedLines(diff: string): number {
  let added = 0;
  let removed = 0;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++") || line.startsWith("---")) continue;
    if (line.startsWith("+")) added++;
    else if (line.startsWith("-")) removed++;
  }
  return Math.max(added, removed);
}

/** The fact in a result the engine wrote about the person's decision; null for any other. */
export function agentNote(result: string | null): AgentNote | null {
  if (!result) return null;
  const text = result.trim();
  const rejected = REJECTED.exec(text);
  if (rejected) return { kind: "rejected", reason: rejected[1]?.trim() || null };
  if (EDITED.test(text)) {
    const at = text.indexOf("\n");
    return { kind: "edited", lines: at < 0 ? 0 : changedLines(text.slice(at + 1)) };
  }
  const parts = PARTS.exec(text);
  if (parts) {
    const written = parts[1]!.split(",").filter((n) => n.trim() !== "").length;
    return { kind: "parts", written, total: Number(parts[2]) };
  }
  if (text === NOT_RUN) return { kind: "not_run" };
  return null;
}

/** The fact in words for the person (`You edited this before approving · 1 line differs`). */
export function noteWords(note: AgentNote): string {
  switch (note.kind) {
    case "rejected":
      return note.reason ? `Rejected by you: ${note.reason}` : "Rejected by you";
    case "edited":
      return `You edited this before approving · ${note.lines} ${note.lines === 1 ? "line differs" : "lines differ"}`;
    case "parts":
      return `${note.written} of ${note.total} parts written`;
    case "not_run":
      return "Stopped by you before it ran";
  }
}
