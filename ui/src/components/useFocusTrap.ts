// The focus of a modal dialog, the same for every dialog: it moves into the dialog when it opens
// (to its `initial` element, else the first that can take it), Tab and Shift+Tab go round within
// it, and it goes back where it was when the dialog closes (to `fallback` when that is gone).
// What Esc does stays with each dialog.
import { useEffect, type KeyboardEvent, type RefObject } from "react";

/** What can take the focus inside a dialog, for keeping Tab within it. */
const FOCUSABLE =
  "button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex='-1'])";

interface Options {
  /** A selector within the dialog for what takes the focus first. */
  initial?: string;
  /** A selector for what takes the focus back when what had it before is gone. */
  fallback?: string;
}

/** Traps the focus in `box` while it is drawn; returns the `onKeyDown` of the dialog's element. */
export function useFocusTrap(box: RefObject<HTMLElement | null>, { initial, fallback }: Options = {}) {
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const root = box.current;
    const first = (initial && root?.querySelector<HTMLElement>(initial)) || root?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      const back = before?.isConnected ? before : fallback ? document.querySelector<HTMLElement>(fallback) : null;
      back?.focus();
    };
    // Once, when it opens: `initial` and `fallback` are read then.
  }, []);
  return (e: KeyboardEvent) => {
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
}
