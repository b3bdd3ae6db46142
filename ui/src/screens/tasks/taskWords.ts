// How a task is said in the window: its state as a pill (words and one of the state looks of
// stateLook.ts), where it started from, its lines changed, what it overlaps with in other tasks,
// and where its merge stands. Pure, so the sidebar, the task panel and the inbox say it alike.
import type { Look } from "../../components/stateLook";
import type { MergeProgress } from "../../protocol/MergeProgress";
import type { MergeStep } from "../../protocol/MergeStep";
import type { TaskOverlap } from "../../protocol/TaskOverlap";
import type { TaskState } from "../../protocol/TaskState";
import type { TaskSummary } from "../../protocol/TaskSummary";

export interface TaskStateLook {
  look: Look;
  /** The pill's words, lower case. */
  label: string;
  /** What it means, in a sentence (the pill's tooltip). */
  tip: string;
}

const STATE: Record<TaskState, TaskStateLook> = {
  new: { look: "by-you", label: "new", tip: "Started: it waits for its first message." },
  queued: { look: "by-you", label: "queued", tip: "Waits for a free slot: it starts when another task is done." },
  running: { look: "running", label: "running", tip: "Its agent is working." },
  waiting: { look: "needs-you", label: "waiting for you", tip: "Its agent waits for you: an approval, a question or a pause." },
  ready: { look: "done", label: "ready", tip: "Its agent finished: review the changes and merge them." },
  merging: { look: "running", label: "merging", tip: "In the merge queue." },
  merged: { look: "done", label: "merged", tip: "Its changes landed." },
  failed: { look: "failed", label: "failed", tip: "It stopped on an error, or its merge was refused." },
  discarded: { look: "by-you", label: "discarded", tip: "You discarded it; it can be restored for a while." },
};

export function taskStateLook(state: TaskState): TaskStateLook {
  return STATE[state];
}

/** A commit rather than a branch name: what a detached checkout gives as the base. */
function isCommit(base: string): boolean {
  return /^[0-9a-f]{7,40}$/.test(base);
}

/** Where the task started from: "from main", or "from commit 1a2b3c4". */
export function baseWords(base: string): string {
  return isCommit(base) ? `from commit ${base.slice(0, 7)}` : `from ${base}`;
}

/** Lines added and removed, "+12 −3", or null while nothing changed. */
export function countWords(task: Pick<TaskSummary, "added" | "removed">): string | null {
  if (task.added === 0 && task.removed === 0) return null;
  return `+${task.added} −${task.removed}`;
}

export interface OverlapWords {
  /** The other task's id, to go to it. */
  taskId: string;
  text: string;
  /** Both change the same lines: merging the second is likely to conflict. */
  conflict: boolean;
}

/**
 * One sentence per other task: "also changed by fix-login: src/app.ts, src/b.ts", and
 * " (likely conflict)" when any of those files is changed on the same lines. Files beyond
 * `maxFiles` are counted, not named.
 */
export function overlapWords(overlaps: TaskOverlap[], maxFiles = 3): OverlapWords[] {
  const byTask = new Map<string, { name: string; paths: string[]; conflict: boolean }>();
  for (const o of overlaps) {
    const entry = byTask.get(o.task_id) ?? { name: o.task_name, paths: [], conflict: false };
    if (!entry.paths.includes(o.path)) entry.paths.push(o.path);
    entry.conflict ||= o.likely_conflict;
    byTask.set(o.task_id, entry);
  }
  return [...byTask.entries()].map(([taskId, e]) => {
    const named = e.paths.slice(0, maxFiles).join(", ");
    const more = e.paths.length - maxFiles;
    const files = more > 0 ? `${named} and ${more} more` : named;
    return { taskId, text: `also changed by ${e.name}: ${files}${e.conflict ? " (likely conflict)" : ""}`, conflict: e.conflict };
  });
}

/** The merge is under way (it can still be cancelled). */
export function mergeActive(merge: MergeProgress | undefined): boolean {
  const active: MergeStep[] = ["queued", "committing", "rebasing", "checking", "landing"];
  return merge !== undefined && active.includes(merge.step);
}

/** The merge stopped on something the agent can fix: a conflict or a failed check. */
export function mergeFixable(merge: MergeProgress | undefined): boolean {
  return merge?.step === "conflict" || merge?.step === "check_failed";
}

/** The merge stopped on something that kept it from landing: a conflict, a failed check, a refusal. */
export function mergeStopped(merge: MergeProgress | undefined): boolean {
  return mergeFixable(merge) || merge?.step === "refused";
}

/** A stopped merge the agent has worked after, in a sentence. */
export function pastMergeWords(merge: MergeProgress): string {
  const why =
    merge.step === "conflict"
      ? `it conflicted with ${merge.target}`
      : merge.step === "check_failed"
        ? "the check failed"
        : "it was refused";
  return `The last merge stopped (${why}); the agent has worked on it since. Merge again when it is ready.`;
}

function files(n: number): string {
  return n === 1 ? "1 file" : `${n} files`;
}

/** Where the merge stands, in a sentence. */
export function mergeWords(merge: MergeProgress): string {
  const target = merge.target;
  switch (merge.step) {
    case "queued":
      if (merge.ahead === 0) return `Next to merge into ${target}.`;
      return merge.ahead === 1 ? `Waiting: 1 merge before it.` : `Waiting: ${merge.ahead} merges before it.`;
    case "committing":
      return "Committing the changes…";
    case "rebasing":
      return `Bringing it up to date with ${target}…`;
    case "checking":
      return "Running the check…";
    case "landing":
      return `Landing on ${target}…`;
    case "merged":
      return merge.commit ? `Merged into ${target} as ${merge.commit.slice(0, 7)}.` : `Merged into ${target}.`;
    case "conflict":
      return merge.conflicts.length > 0
        ? `Stopped: it conflicts with ${target} in ${files(merge.conflicts.length)}. Nothing landed.`
        : `Stopped: it conflicts with ${target}. Nothing landed.`;
    case "check_failed":
      return "Stopped: the check failed. Nothing landed.";
    case "refused":
      return "Stopped before merging. Nothing landed.";
    case "cancelled":
      return "Merge cancelled. Nothing landed.";
  }
}

/** Until when a discarded task can be restored: "restorable until 3 May 2026". */
export function restorableWords(until: number | undefined): string {
  if (until === undefined) return "Its changes are kept for a while: it can be restored.";
  const date = new Date(until).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
  return `Its changes are kept until ${date}: it can be restored until then.`;
}

/**
 * The state to show for a task whose session's own events are fresher than the list (the open
 * one): an agent that works or waits says so at once. Other states are the engine's.
 */
export function liveState(state: TaskState, activity: { running: boolean; waiting: number } | undefined): TaskState {
  if (!activity || (state !== "running" && state !== "waiting")) return state;
  if (activity.waiting > 0) return "waiting";
  return activity.running ? "running" : state;
}
