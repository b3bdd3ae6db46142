// Where the task's merge stands, from the engine's MergeProgress: the step in a sentence, what
// the user should know, the files that conflicted, the check's output in its own scroll box;
// "Cancel merge" while it is under way, and "Ask the agent to fix it" when it stopped on a
// conflict or a failed check.
import type { MergeProgress } from "../../protocol/MergeProgress";
import { lookClass } from "../../components/stateLook";
import { mergeActive, mergeFixable, mergeWords, pastMergeWords } from "./taskWords";

interface Props {
  merge: MergeProgress;
  onCancel(): void;
  /** Offered when the agent can fix what stopped it (absent while the agent works). */
  onAskFix?: () => void;
  /** The merge stopped before the agent's latest work: one muted line, nothing to act on. */
  past?: boolean;
}

function look(merge: MergeProgress) {
  if (mergeActive(merge)) return "running";
  if (merge.step === "merged") return "done";
  if (merge.step === "cancelled") return "by-you";
  return "failed";
}

export function MergeProgressView({ merge, onCancel, onAskFix, past = false }: Props) {
  const active = mergeActive(merge);
  // A landed merge's message says it all (where it landed, what became of the checkout).
  const landed = merge.step === "merged" && Boolean(merge.message);
  if (past) {
    return (
      <p className="task-merge-past muted small" data-testid="merge-progress" data-step={merge.step} data-past="true">
        {pastMergeWords(merge)}
      </p>
    );
  }
  return (
    <div className={`task-merge ${lookClass(look(merge))}`} data-testid="merge-progress" data-step={merge.step}>
      <div className="task-merge-head" role="status">
        {active && <span className="spinner" aria-hidden="true" />}
        <strong>{landed ? merge.message : mergeWords(merge)}</strong>
      </div>
      {/* A conflict's message only repeats the headline and the list of files below it. */}
      {merge.message && !landed && !(merge.step === "conflict" && merge.conflicts.length > 0) && (
        <p className="task-merge-message">{merge.message}</p>
      )}
      {merge.conflicts.length > 0 && (
        <div>
          <span className="muted small">Conflicting files:</span>
          <ul className="task-conflicts" data-testid="merge-conflicts">
            {merge.conflicts.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {merge.output && (
        <pre className="output-text task-check-output" data-testid="merge-output" tabIndex={0} aria-label="The check's output">
          {merge.output}
        </pre>
      )}
      {(active || (onAskFix && mergeFixable(merge))) && (
        <div className="row">
          {active && (
            <button type="button" className="small" data-testid="cancel-merge" onClick={onCancel}>
              Cancel merge
            </button>
          )}
          {onAskFix && mergeFixable(merge) && (
            <button type="button" className="primary small" data-testid="ask-fix" onClick={onAskFix}>
              Ask the agent to fix it
            </button>
          )}
        </div>
      )}
    </div>
  );
}
