// Settings › Tasks: how many tasks run at once (more wait in line), and how the merge queue brings
// a task onto its target branch (rebase, or a merge commit).
import type { AppSettings } from "../../protocol/AppSettings";

interface Props {
  draft: AppSettings;
  hidden: boolean;
  onDraft(next: AppSettings): void;
}

const limit = (value: string) => Math.min(64, Math.max(1, Number(value) || 1));

export function TasksSection({ draft, hidden, onDraft }: Props) {
  return (
    <section className="panel" hidden={hidden} data-testid="settings-tasks">
      <h2>Tasks</h2>
      <label className="field" title="Tasks started beyond this wait in line until one finishes">
        <span>Tasks at once</span>
        <input type="number" min={1} max={64} value={draft.max_tasks} onChange={(e) => onDraft({ ...draft, max_tasks: limit(e.target.value) })} />
      </label>
      <h3>When a task merges</h3>
      <label className="field check">
        <input type="radio" name="merge-strategy" checked={!draft.merge_commit} onChange={() => onDraft({ ...draft, merge_commit: false })} />
        <span>Rebase it onto the branch (a straight history)</span>
      </label>
      <label className="field check">
        <input type="radio" name="merge-strategy" checked={draft.merge_commit} onChange={() => onDraft({ ...draft, merge_commit: true })} />
        <span>Merge the branch into it (a merge commit)</span>
      </label>
      <p className="muted small">
        The merge queue takes one task at a time: it commits the task's changes, brings them onto the branch, runs the
        repository's check confined, and moves the branch only when the check passes. Your uncommitted work is never touched.
      </p>
    </section>
  );
}
