// A settings view for tests: Anthropic with a stored key unless `over` says otherwise.
import type { AppSettings } from "../protocol/AppSettings";
import type { SettingsView } from "../protocol/SettingsView";

export const testSettings: AppSettings = {
  provider: {
    preset: "anthropic", base_url: "https://api.anthropic.com", model: "claude-sonnet-4-5", text_protocol: false,
    connect_timeout_secs: 10, idle_timeout_secs: 120, max_attempts: 5, record_streams: false,
  },
  approval_mode: "ask",
  max_iterations: 25,
  notify_approvals: true,
  sandbox: "workspace-write",
  sandbox_network: false,
  sandbox_hidden: [
    { path: "~/.ssh", enabled: true },
    { path: "~/.aws", enabled: true },
  ],
  checkpoint_max_file_mib: 10,
  checkpoint_keep_ignored: true,
  checkpoint_excluded_folders: ["node_modules", "target"],
  max_tasks: 3,
  merge_commit: false,
  hooks_outside_sandbox: false,
};

export function settingsView(over: Partial<SettingsView> = {}): SettingsView {
  return {
    settings: testSettings,
    key_stored: false,
    keychain_error: null,
    missing: "Add your Anthropic API key to start working.",
    presets: [
      { preset: "anthropic", label: "Anthropic", base_url: "https://api.anthropic.com", model: "claude-sonnet-4-5", requires_key: true },
      { preset: "ollama", label: "Ollama (this computer)", base_url: "http://localhost:11434/v1", model: "qwen2.5-coder:14b", requires_key: false },
    ],
    path: "/cfg/settings.json",
    recordings_path: "/data/recordings",
    sandbox_status: "Commands run confined (Landlock ABI 7, seccomp, a private mount namespace).",
    sandbox_own_dirs: ["/data", "/cfg"],
    sandbox_default_hidden: ["~/.ssh", "~/.aws", "~/.config/gh"],
    sandbox_available: true,
    ...over,
  };
}
