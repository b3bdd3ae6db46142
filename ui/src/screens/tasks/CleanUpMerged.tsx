// Under the sidebar's list: "Clean up merged tasks" removes the worktrees of tasks whose changes
// landed (their conversations stay), and says how much disk that freed. Offered while a merged
// task still has a worktree.
import { useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { TaskSummary } from "../../protocol/TaskSummary";
import { formatBytes } from "../../format";

interface Props {
  backend: Backend;
  workspace: string;
  tasks: TaskSummary[];
  /** The task list should be read again. */
  onCleaned(): void;
}

export function CleanUpMerged({ backend, workspace, tasks, onCleaned }: Props) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const merged = tasks.filter((t) => t.state === "merged" && t.place === "worktree" && !t.missing);
  if (merged.length === 0 && !said) return null;
  const clean = async () => {
    setBusy(true);
    try {
      const freed = await backend.cleanUpMerged(workspace);
      setSaid(`Cleaned up: ${formatBytes(freed)} freed.`);
      onCleaned();
    } catch (e) {
      setSaid(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const worktrees = merged.length === 1 ? "the worktree of 1 merged task" : `the worktrees of ${merged.length} merged tasks`;
  return (
    <div className="task-clean-up">
      {merged.length > 0 && (
        <button
          type="button"
          className="ghost small"
          data-testid="clean-up-merged"
          title={`Removes ${worktrees}; their changes landed and their conversations stay`}
          disabled={busy}
          onClick={() => void clean()}
        >
          Clean up merged tasks
        </button>
      )}
      {said && (
        <p className="muted small" role="status" data-testid="clean-up-said">
          {said}
        </p>
      )}
    </div>
  );
}
