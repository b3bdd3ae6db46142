// "Merge…": the commit message the engine drafts for the task's uncommitted change, editable,
// then the task goes into the merge queue (its progress shows in the task panel as the engine
// reports it). A draft that cannot be made leaves the field for the user to write; when
// everything is committed on the task's branch already, there is no message to ask for.
import { useEffect, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { TaskSummary } from "../../protocol/TaskSummary";
import { Modal } from "./Modal";

interface Props {
  backend: Backend;
  task: TaskSummary;
  onClose(): void;
  /** The task is in the merge queue. */
  onQueued(): void;
}

export function MergeDialog({ backend, task, onClose, onQueued }: Props) {
  const [message, setMessage] = useState<string | null>(null);
  /** Everything is committed on the task's branch: its commits land as they are. */
  const [committed, setCommitted] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    backend.draftMergeMessage(task.id).then(
      (draft) => {
        if (!live) return;
        setCommitted(draft === null);
        setMessage(draft ?? "");
      },
      (e: unknown) => {
        if (!live) return;
        setMessage("");
        setProblem(`No message could be drafted: ${errorMessage(e)} Write one yourself.`);
      },
    );
    return () => {
      live = false;
    };
  }, [backend, task.id]);
  const merge = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await backend.mergeTask(task.id, !committed && message?.trim() ? message.trim() : null);
      onQueued();
    } catch (e) {
      setProblem(errorMessage(e));
      setBusy(false);
    }
  };
  const target = task.merge?.target ?? task.base;
  return (
    <Modal label={`Merge ${task.name}`} testId="merge-dialog" onClose={onClose} initial="textarea">
      <h2>Merge {task.name}</h2>
      <p className="muted small" data-testid="merge-explained">
        {committed ? "Its commits are" : "Its changes are committed with this message,"} brought up to date with{" "}
        <code>{target}</code>, checked, and then land on <code>{target}</code>. Nothing lands if a step fails.
      </p>
      {committed ? (
        <p className="muted" data-testid="merge-all-committed">
          Everything is committed on <code>{task.branch}</code> already, so no new commit is made.
        </p>
      ) : message === null ? (
        <p className="muted" role="status">
          Drafting a commit message…
        </p>
      ) : (
        <label className="field">
          <span>Commit message</span>
          <textarea
            className="task-message"
            data-testid="merge-message"
            rows={8}
            autoFocus
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !busy) {
                e.preventDefault();
                void merge();
              }
            }}
          />
        </label>
      )}
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <div className="row end">
        <button type="button" className="ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          data-testid="confirm-merge"
          aria-label="Merge"
          title="Ctrl+Enter in the message"
          disabled={busy || message === null}
          onClick={() => void merge()}
        >
          Merge
        </button>
      </div>
    </Modal>
  );
}
