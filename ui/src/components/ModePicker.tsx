// The session's approval mode, beside the composer: one button per mode, the chosen one marked,
// what each allows in its tooltip.
import type { ApprovalMode } from "../protocol/ApprovalMode";
import { APPROVAL_MODES } from "./approvalModes";

export function ModePicker({ mode, onMode }: { mode: ApprovalMode; onMode(mode: ApprovalMode): void }) {
  return (
    <div className="mode-picker" data-testid="mode-picker">
      <span className="muted" id="mode-picker-label">
        Approval mode
      </span>
      <span className="mode-options" role="radiogroup" aria-labelledby="mode-picker-label">
        {APPROVAL_MODES.map((m) => (
          <button
            key={m.mode}
            type="button"
            role="radio"
            aria-checked={m.mode === mode}
            data-mode={m.mode}
            title={m.detail}
            onClick={() => m.mode !== mode && onMode(m.mode)}
          >
            {m.name}
          </button>
        ))}
      </span>
    </div>
  );
}
