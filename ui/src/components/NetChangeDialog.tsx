// What a file's changes in the session amount to now, in one diff: the file before the oldest of
// them that can still be undone, against the file on disk. Opened from the status bar's list of
// files changed; Esc or Close closes it.
import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent } from "react";
import type { NetChange } from "../protocol/NetChange";
import { DiffView } from "./DiffView";
import { count, WORDS } from "../glossary";

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

/** What can take the focus inside the dialog, for keeping Tab within it. */
const FOCUSABLE = "button:not([disabled]), [href], input, select, textarea, [tabindex]:not([tabindex='-1'])";

export function NetChangeDialog({ view, onClose }: { view: NetChangeView; onClose(): void }) {
  const box = useRef<HTMLElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // The focus comes back where it was (the status bar's button, if what opened it is gone).
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      const back = before?.isConnected ? before : document.querySelector<HTMLElement>('[data-testid="changes-button"]');
      back?.focus();
    };
  }, [onClose]);
  // Tab and Shift+Tab stay in the dialog.
  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (e.key !== "Tab" || !box.current) return;
    const all = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = all[0];
    const last = all[all.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
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
          <button ref={close} type="button" className="ghost" data-testid="net-change-close" onClick={onClose}>
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
