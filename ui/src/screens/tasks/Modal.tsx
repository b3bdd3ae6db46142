// A dialog over the window for the task actions: it keeps the keys (Tab and Shift+Tab stay in
// it, Esc closes it), focuses its `initial` element (else its first button), and gives the focus
// back where it was when it closes.
import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from "react";

/** What can take the focus inside the dialog, for keeping Tab within it. */
const FOCUSABLE = "button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex='-1'])";

interface Props {
  label: string;
  testId: string;
  onClose(): void;
  /** A selector within the dialog for what takes the focus first. */
  initial?: string;
  /** A large dialog (the review) rather than a question. */
  wide?: boolean;
  children: ReactNode;
}

export function Modal({ label, testId, onClose, initial, wide, children }: Props) {
  const box = useRef<HTMLElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const first = (initial && box.current?.querySelector<HTMLElement>(initial)) || box.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
    // Once, when it opens: `initial` is read then.
  }, []);
  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (e.key === "Escape" && !e.defaultPrevented) {
      e.preventDefault();
      e.stopPropagation();
      close.current();
      return;
    }
    if (e.key !== "Tab" || !box.current) return;
    const all = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const head = all[0];
    const last = all[all.length - 1];
    if (!head || !last) return;
    if (e.shiftKey && document.activeElement === head) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      head.focus();
    }
  };
  return (
    <div className={wide ? "net-change-backdrop" : "dialog-backdrop"} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <section
        ref={box}
        className={wide ? "net-change task-review" : "dialog panel task-dialog"}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        data-testid={testId}
        onKeyDown={onKeyDown}
      >
        {children}
      </section>
    </div>
  );
}
