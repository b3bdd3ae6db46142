// A question before a task action that is hard to take back (discard, hand back, drop a file):
// what it does in a sentence or two, the action named on its button, and a way out. The way out
// has the focus, so Enter alone never discards anything.
import type { ReactNode } from "react";
import { Modal } from "./Modal";

interface Props {
  title: string;
  children: ReactNode;
  confirm: string;
  testId: string;
  /** The action loses work (styled as such). */
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog({ title, children, confirm, testId, danger, onConfirm, onCancel }: Props) {
  return (
    <Modal label={title} testId={testId} onClose={onCancel} initial="[data-cancel]">
      <h2>{title}</h2>
      <div className="task-dialog-body">{children}</div>
      <div className="row end">
        <button type="button" className="ghost" data-cancel onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={danger ? "danger" : "primary"} data-testid={`${testId}-confirm`} onClick={onConfirm}>
          {confirm}
        </button>
      </div>
    </Modal>
  );
}
