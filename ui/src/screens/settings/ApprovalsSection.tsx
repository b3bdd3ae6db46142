// Settings › Approvals & rules: the approval mode of new sessions, the sandbox commands run in,
// and (with a workspace) the allow/ask/deny rules.
import type { ReactNode } from "react";
import type { AppSettings } from "../../protocol/AppSettings";
import type { ApprovalMode } from "../../protocol/ApprovalMode";
import type { SandboxLevel } from "../../protocol/SandboxLevel";
import type { SettingsView } from "../../protocol/SettingsView";
import { APPROVAL_MODES, modeDetail } from "../../components/approvalModes";

interface Props {
  draft: AppSettings;
  view: SettingsView;
  hidden: boolean;
  onDraft(next: AppSettings): void;
  /** The rules panel, when a workspace is open. */
  rules?: ReactNode;
}

export function ApprovalsSection({ draft, view, hidden, onDraft, rules }: Props) {
  return (
    <div className="settings-stack" hidden={hidden}>
      <section className="panel" data-testid="sandbox-settings">
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
        <label className="field" title="What a command the agent runs may touch. The sandbox applies in every mode but “Run everything”.">
          <span>Sandbox for commands</span>
          <select data-testid="sandbox-level" value={draft.sandbox} onChange={(e) => onDraft({ ...draft, sandbox: e.target.value as SandboxLevel })}>
            <option value="workspace-write">Workspace only (.git read-only)</option>
            <option value="read-only">Temporary folder only</option>
            <option value="off">Off: your full rights</option>
          </select>
        </label>
        <label className="field check" title="Whether sandboxed commands may open network connections">
          <input
            type="checkbox"
            checked={draft.sandbox_network}
            disabled={draft.sandbox === "off"}
            onChange={(e) => onDraft({ ...draft, sandbox_network: e.target.checked })}
          />
          <span>Network for sandboxed commands</span>
        </label>
        <p className={view.sandbox_available || view.settings.sandbox === "off" ? "muted small" : "warn-text small"} data-testid="sandbox-status">
          {view.sandbox_status}
        </p>
        <p className="muted small">
          In every mode but “Run everything”, commands run in the sandbox; when it refuses something a command needs, you are
          asked whether to run it outside. “Auto, sandboxed” runs sandboxed commands without asking.
        </p>
      </section>
      {rules}
    </div>
  );
}
