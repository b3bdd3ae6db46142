// The section list on the left of Settings: one button a section, the open one marked.

export type SectionId = "provider" | "agent" | "agents" | "approvals" | "sandbox" | "tasks" | "mcp" | "hooks" | "instructions" | "checkpoints" | "about";

export interface SectionInfo {
  id: SectionId;
  label: string;
  /** What the section holds, for its tooltip. */
  detail: string;
  /** Shown only while a workspace is open. */
  workspaceOnly?: boolean;
  /**
   * Its fields are part of the app's settings, kept by Settings' one Save. The other sections
   * save themselves as they go (MCP servers, project instructions) or only show things (About),
   * so they have no Save.
   */
  saved?: boolean;
}

export const SECTIONS: SectionInfo[] = [
  { id: "provider", label: "Provider", detail: "The model provider, model, API key and connection", saved: true },
  { id: "agent", label: "Agent", detail: "Request limits, timeouts and notifications", saved: true },
  { id: "agents", label: "External agents", detail: "Claude Code, Codex, Gemini CLI and your own ACP agents, which a task can be given" },
  { id: "approvals", label: "Approvals & rules", detail: "The approval mode for new sessions and your allow/ask/deny rules", saved: true },
  { id: "sandbox", label: "Sandbox", detail: "What commands the agent runs may write and reach, and the paths hidden from them", saved: true },
  { id: "tasks", label: "Tasks", detail: "How many tasks run at once, and how the merge queue lands them", saved: true },
  { id: "mcp", label: "MCP servers", detail: "Tool servers the agent can call, and their tools", workspaceOnly: true },
  { id: "hooks", label: "Hooks & skills", detail: "Commands that run on the agent's events, the consent for the workspace's, and the / commands and skills", workspaceOnly: true, saved: true },
  { id: "instructions", label: "Project instructions", detail: "The workspace's AGENTS.md and the files the model is given", workspaceOnly: true },
  { id: "checkpoints", label: "Checkpoints", detail: "Snapshots of the workspace taken before changes, to rewind to", saved: true },
  { id: "about", label: "About", detail: "Where Foreman keeps its settings and recordings, and diagnostics for a bug report" },
];

interface Props {
  sections: SectionInfo[];
  current: SectionId;
  onPick(id: SectionId): void;
}

export function SettingsNav({ sections, current, onPick }: Props) {
  return (
    <nav className="settings-nav" aria-label="Settings sections">
      {sections.map((s) => (
        <button
          key={s.id}
          type="button"
          className={s.id === current ? "settings-nav-item current" : "settings-nav-item"}
          data-testid={`settings-nav-${s.id}`}
          aria-current={s.id === current ? "page" : undefined}
          title={s.detail}
          onClick={() => onPick(s.id)}
        >
          {s.label}
        </button>
      ))}
    </nav>
  );
}
