// A dialog over the window for the task actions: it keeps the keys (Tab and Shift+Tab stay in
// it, Esc closes it), focuses its `initial` element (else its first button), and gives the focus
// back where it was when it closes (the dialogs' one focus trap, useFocusTrap.ts).
import { useRef, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from "react";
import { useFocusTrap } from "../../components/useFocusTrap";

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
  const trap = useFocusTrap(box, { initial });
  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (e.key === "Escape" && !e.defaultPrevented) {
      e.preventDefault();
      e.stopPropagation();
      close.current();
      return;
    }
    trap(e);
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
