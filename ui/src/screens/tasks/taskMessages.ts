// The messages the window writes to a task's agent for the user: a review comment on a line,
// changes sent back with a note, and a request to fix what stopped a merge (the conflicting
// files, or the failing check's output). Sent as the user's own message, so the conversation
// shows exactly what the agent was told.
import type { DiffLine } from "../../protocol/DiffLine";
import type { MergeProgress } from "../../protocol/MergeProgress";

/** The line a comment is about: its number in the new file, or in the old one when removed. */
export function commentedLine(line: DiffLine): { number: number; removed: boolean } | null {
  if (line.tag === "removed") return line.old_line === null ? null : { number: line.old_line, removed: true };
  return line.new_line === null ? null : { number: line.new_line, removed: false };
}

/** The line's text, as the diff shows it. */
export function lineText(line: DiffLine): string {
  return line.spans.map((s) => s.text).join("").replace(/\n$/, "");
}

/** "Review comment on `src/app.ts` line 12: …" (a removed line is named by its old number). */
export function reviewComment(path: string, line: DiffLine, comment: string): string {
  const at = commentedLine(line);
  const where = at === null ? "" : at.removed ? ` removed line ${at.number} (old numbering)` : ` line ${at.number}`;
  const quoted = lineText(line).trim();
  const quote = quoted ? `\n> ${quoted}\n` : "\n";
  return `Review comment on \`${path}\`${where}:${quote}\n${comment.trim()}`;
}

/** Changes sent back after a review, with the user's note. */
export function sendBackNote(note: string): string {
  return `I reviewed your changes and am sending them back. Please address this and finish again:\n\n${note.trim()}`;
}

/** How much of a failing check's output goes into the message (its tail). */
export const OUTPUT_TAIL = 4000;

/** Asks the agent to fix what stopped the merge and finish; null when nothing it can fix. */
export function fixMergeRequest(merge: MergeProgress): string | null {
  if (merge.step === "conflict") {
    const files = merge.conflicts.map((f) => `- ${f}`).join("\n");
    const list = files ? ` in these files:\n${files}\n\n` : ".\n\n";
    return (
      `Merging your branch into ${merge.target} stopped on conflicts${list}` +
      `Please bring your branch up to date with ${merge.target}, resolve the conflicts keeping both changes' ` +
      "intent, check that it still works, and finish."
    );
  }
  if (merge.step === "check_failed") {
    const output = (merge.output ?? "").slice(-OUTPUT_TAIL).trimEnd();
    const shown = output ? ` Its output (the end):\n\n\`\`\`\n${output}\n\`\`\`\n\n` : "\n\n";
    return `The check failed when merging your branch into ${merge.target}.${shown}Please fix the cause, run the check again, and finish.`;
  }
  return null;
}
