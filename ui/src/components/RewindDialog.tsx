// The confirmation of a rewind: what it changes (from the engine's plan), what else it
// overwrites, what it leaves alone; Rewind or Cancel. Modal: it keeps the keys (the dialogs' one
// focus trap, useFocusTrap.ts). A short title, the explanation in a muted line under it.
import { useEffect, useRef } from "react";
import type { RewindPlan } from "../protocol/RewindPlan";
import { count, LABELS, WORDS } from "../glossary";
import { useFocusTrap } from "./useFocusTrap";

/** What the rewind does to a file: the plan's changes go from now to the checkpoint. */
const WORD = { added: "brought back", modified: "restored", deleted: "removed" } as const;

export function RewindDialog({ plan, onConfirm, onCancel }: { plan: RewindPlan; onConfirm(): void; onCancel(): void }) {
  const dialog = useRef<HTMLDivElement>(null);
  const onKeyDown = useFocusTrap(dialog, { initial: "button.primary" });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onCancel();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onCancel]);
  const n = plan.changes.length;
  const files = count(n, WORDS.file);
  return (
    <div className="dialog-backdrop">
      <div className="dialog panel" role="dialog" aria-modal="true" aria-labelledby="rewind-title" data-testid="rewind-dialog" ref={dialog} onKeyDown={onKeyDown}>
        <h2 id="rewind-title">Rewind to before message {plan.before_message + 1}?</h2>
        {n === 0 ? (
          <p className="muted rewind-note">Already as it was then: nothing to change.</p>
        ) : (
          <>
            <p className="muted rewind-note">
              {files} go back, including what {WORDS.command.many} changed. You can undo the {WORDS.rewind.one}.
            </p>
            <ul className="rewind-files" data-testid="rewind-files">
              {plan.changes.map((c) => (
                <li key={c.path}>
                  <code>{c.path}</code> <span className="muted small">{WORD[c.kind]}</span>
                </li>
              ))}
            </ul>
          </>
        )}
        {plan.changed_outside.length > 0 && (
          <div className="approval-private" role="note" data-testid="rewind-outside">
            Overwritten too (changed since the agent last looked): {plan.changed_outside.join(", ")}
          </div>
        )}
        {plan.skipped.length > 0 && (
          <p className="muted small">Left alone (not in checkpoints): {plan.skipped.join(", ")}</p>
        )}
        <div className="row end">
          <button type="button" className="ghost" onClick={onCancel}>
            {LABELS.cancel}
          </button>
          <button type="button" className="primary" data-testid="confirm-rewind" onClick={onConfirm} disabled={n === 0}>
            Rewind {files}
          </button>
        </div>
      </div>
    </div>
  );
}
