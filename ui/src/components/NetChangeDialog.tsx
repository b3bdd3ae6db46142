// What a file's changes in the session amount to now, in one diff: the file before the oldest of
// them that can still be undone, against the file on disk. Opened from the status bar's list of
// files changed; Esc or Close closes it.
import { useEffect, useRef } from "react";
import type { NetChange } from "../protocol/NetChange";
import { DiffView } from "./DiffView";
import { count, WORDS } from "../glossary";
import { useFocusTrap } from "./useFocusTrap";

/**
 * What the dialog shows: the request on its way, its answer, or why there is none; for the kept
 * changes `callIds` (oldest first) of the file at `path`.
 */
export type NetChangeView =
  | { path: string; callIds: string[]; state: "loading" }
  | { path: string; callIds: string[]; state: "ready"; change: NetChange }
  | { path: string; callIds: string[]; state: "failed"; error: string };

/**
 * Where the diff starts, in a few words: before which of the file's changes (older ones may no
 * longer be kept).
 */
function baseline(view: NetChangeView): string {
  const total = view.callIds.length;
  const at = view.state === "ready" ? view.callIds.indexOf(view.change.since_call_id) : -1;
  if (at > 0) {
    const older = at === 1 ? "the older one is" : `the ${at} older ones are`;
    return `From before change ${at + 1} of ${total} (${older} no longer kept)`;
  }
  if (at === 0) return total === 1 ? "From before the change" : `From before the first of ${count(total, WORDS.change)}`;
  return "From before the oldest change that can still be undone";
}

export function NetChangeDialog({ view, onClose }: { view: NetChangeView; onClose(): void }) {
  const box = useRef<HTMLElement>(null);
  // Tab and Shift+Tab stay in the dialog; the focus starts on Close and comes back where it was
  // (the status bar's button, if what opened it is gone).
  const onKeyDown = useFocusTrap(box, { initial: '[data-testid="net-change-close"]', fallback: '[data-testid="changes-button"]' });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="net-change-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <section
        ref={box}
        className="net-change"
        role="dialog"
        aria-modal="true"
        aria-label={`Changes to ${view.path}`}
        data-testid="net-change"
        onKeyDown={onKeyDown}
      >
        <header className="net-change-head">
          <div>
            <h2 className="net-change-title">
              Net change <code>{view.path}</code>
            </h2>
            <div
              className="muted"
              data-testid="net-change-since"
              title="Anything else written to the file since (by you, a command or another program) is in it too."
            >
              {baseline(view)} → the file on disk
            </div>
          </div>
          <button type="button" className="ghost" data-testid="net-change-close" onClick={onClose}>
            Close
          </button>
        </header>
        {view.state === "loading" && (
          <p className="muted" role="status">
            Reading the file…
          </p>
        )}
        {view.state === "failed" && (
          <p className="net-change-error" role="alert">
            {view.error}
          </p>
        )}
        {view.state === "ready" &&
          (view.change.diff.hunks.length === 0 && view.change.diff.kind === "modify" ? (
            <p data-testid="net-change-none">No difference: the file is as it was before these changes.</p>
          ) : (
            <DiffView diff={view.change.diff} />
          ))}
      </section>
    </div>
  );
}
