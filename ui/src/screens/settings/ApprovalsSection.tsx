// Settings › Approvals & rules: the approval mode of new sessions and (with a workspace) the
// allow/ask/deny rules. The sandbox commands run in has its own section (SandboxSection.tsx).
import type { ReactNode } from "react";
import type { AppSettings } from "../../protocol/AppSettings";
import type { ApprovalMode } from "../../protocol/ApprovalMode";
import { APPROVAL_MODES, modeDetail } from "../../components/approvalModes";

interface Props {
  draft: AppSettings;
  hidden: boolean;
  onDraft(next: AppSettings): void;
  /** Opens Settings › Sandbox. */
  onSandbox(): void;
  /** The rules panel, when a workspace is open. */
  rules?: ReactNode;
}

export function ApprovalsSection({ draft, hidden, onDraft, onSandbox, rules }: Props) {
  return (
    <div className="settings-stack" hidden={hidden}>
      <section className="panel" data-testid="approval-settings">
        <h2>Approvals</h2>
        <label className="field">
          <span>Mode for new sessions</span>
          <select
            data-testid="default-mode"
            value={draft.approval_mode}
            onChange={(e) => onDraft({ ...draft, approval_mode: e.target.value as ApprovalMode })}
          >
            {APPROVAL_MODES.map((m) => (
              <option key={m.mode} value={m.mode} title={m.detail}>
                {m.name}
              </option>
            ))}
          </select>
          <span className={draft.approval_mode === "yolo" ? "warn-text small" : "muted small"} data-testid="mode-detail">
            {modeDetail(draft.approval_mode)}
          </span>
        </label>
        <p className="muted small">
          What commands may touch is set in{" "}
          <button type="button" className="link-button" data-testid="open-sandbox-section" onClick={onSandbox}>
            Sandbox
          </button>
          .
        </p>
      </section>
      {rules}
    </div>
  );
}
