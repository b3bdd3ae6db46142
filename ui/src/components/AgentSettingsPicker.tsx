// What the session's external agent offers beside the composer (its model, its own mode, how
// hard it thinks, …), as the agent lists them: one labelled choice each, the agent's words for
// each value in its tooltip. Choosing sends `set_agent_setting`; the agent's answer (or why it
// refused) comes back as events, so the choice shown is always the agent's.
import type { AgentSetting } from "../protocol/AgentSetting";

interface Props {
  /** The agent's name (`claude`), for the labels' tooltips. */
  agent: string | null;
  settings: readonly AgentSetting[];
  onChoose(id: string, value: string): void;
}

/** What a setting's tooltip says: the agent's words, and for its mode what Foreman still does. */
function tooltip(setting: AgentSetting, agent: string | null): string {
  const who = agent ?? "The agent";
  const chosen = setting.choices.find((c) => c.value === setting.current);
  const parts = [`${who}'s own setting: ${setting.name}`, setting.description, chosen?.description && `${chosen.name}: ${chosen.description}`];
  if (setting.kind === "mode") {
    parts.push(
      "In a mode that does not ask, its edits land without Foreman's approval; they stay in its sandbox and can be rewound.",
    );
  }
  return parts.filter(Boolean).join("\n");
}

export function AgentSettingsPicker({ agent, settings, onChoose }: Props) {
  if (settings.length === 0) return null;
  return (
    <div className="agent-settings" data-testid="agent-settings" aria-label={`${agent ?? "The agent"}'s settings`} role="group">
      {settings.map((s) => (
        <label key={s.id} className="agent-setting" title={tooltip(s, agent)}>
          <span className="muted">{s.name}</span>
          <select
            data-setting={s.id}
            value={s.current}
            onChange={(e) => e.target.value !== s.current && onChoose(s.id, e.target.value)}
          >
            {s.choices.some((c) => c.value === s.current) || <option value={s.current}>{s.current}</option>}
            {s.choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  );
}
