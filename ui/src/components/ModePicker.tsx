// The session's approval mode, beside the composer: one button per mode, the chosen one marked,
// what each allows in its tooltip. `/mode` in the composer puts the focus on the chosen one. It
// stays on one line: in a narrow composer each button shows its short name (layout.css), the
// full one staying its accessible name and the start of its tooltip.
import { useImperativeHandle, useRef, type Ref } from "react";
import type { ApprovalMode } from "../protocol/ApprovalMode";
import { APPROVAL_MODES } from "./approvalModes";

interface Props {
  mode: ApprovalMode;
  onMode(mode: ApprovalMode): void;
  /** Lets the window put the focus on the chosen mode. */
  focusRef?: Ref<{ focus(): void }>;
}

export function ModePicker({ mode, onMode, focusRef }: Props) {
  const group = useRef<HTMLSpanElement>(null);
  useImperativeHandle(
    focusRef,
    () => ({ focus: () => group.current?.querySelector<HTMLButtonElement>('[aria-checked="true"]')?.focus() }),
    [],
  );
  return (
    <div className="mode-picker" data-testid="mode-picker">
      <span className="muted" id="mode-picker-label">
        Approval mode
      </span>
      <span ref={group} className="mode-options" role="radiogroup" aria-labelledby="mode-picker-label">
        {APPROVAL_MODES.map((m) => (
          <button
            key={m.mode}
            type="button"
            role="radio"
            aria-checked={m.mode === mode}
            data-mode={m.mode}
            aria-label={m.name}
            title={`${m.name}: ${m.detail}`}
            onClick={() => m.mode !== mode && onMode(m.mode)}
          >
            <span className="mode-full">{m.name}</span>
            <span className="mode-short" aria-hidden="true">
              {m.short}
            </span>
          </button>
        ))}
      </span>
    </div>
  );
}
