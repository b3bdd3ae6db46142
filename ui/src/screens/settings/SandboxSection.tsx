// Settings › Sandbox: how far commands the agent runs are confined (the level, the network),
// what this machine can enforce and what the sandbox does not cover (the engine's status line),
// and the paths hidden from confined commands.
import type { AppSettings } from "../../protocol/AppSettings";
import type { SandboxLevel } from "../../protocol/SandboxLevel";
import type { SettingsView } from "../../protocol/SettingsView";
import { HiddenPathList } from "./HiddenPathList";

interface Props {
  draft: AppSettings;
  view: SettingsView;
  hidden: boolean;
  onDraft(next: AppSettings): void;
}

export function SandboxSection({ draft, view, hidden, onDraft }: Props) {
  return (
    <div className="settings-stack" hidden={hidden} data-testid="settings-sandbox">
      <section className="panel" data-testid="sandbox-settings">
        <h2>Sandbox</h2>
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
            data-testid="sandbox-network"
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
      <HiddenPathList
        list={draft.sandbox_hidden}
        own={view.sandbox_own_dirs}
        defaults={view.sandbox_default_hidden}
        sandboxOff={draft.sandbox === "off"}
        onChange={(sandbox_hidden) => onDraft({ ...draft, sandbox_hidden })}
      />
    </div>
  );
}
