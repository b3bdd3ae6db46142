// How hard the model thinks, in the form its provider takes: Anthropic's thinking budget (tokens),
// OpenAI-compatible servers' reasoning effort. Only the field of the chosen provider is shown.
import type { ProviderSettings } from "../protocol/ProviderSettings";
import type { ReasoningEffort } from "../protocol/ReasoningEffort";

/** Anthropic's smallest thinking budget (`MIN_THINKING_BUDGET`). */
export const MIN_THINKING_BUDGET = 1024;

const EFFORTS: ReasoningEffort[] = ["minimal", "low", "medium", "high"];

interface Props {
  provider: ProviderSettings;
  onChange(change: Partial<ProviderSettings>): void;
}

export function ThinkingFields({ provider, onChange }: Props) {
  if (provider.preset === "anthropic") {
    const budget = provider.thinking_budget ?? null;
    return (
      <label className="field">
        <span>Thinking budget (tokens)</span>
        <input
          type="number"
          data-testid="thinking-budget"
          min={MIN_THINKING_BUDGET}
          step={1024}
          value={budget ?? ""}
          placeholder="off"
          onChange={(e) => {
            const tokens = Number(e.target.value);
            onChange({ thinking_budget: e.target.value.trim() && tokens > 0 ? Math.floor(tokens) : null });
          }}
        />
        {budget !== null && budget < MIN_THINKING_BUDGET && (
          <span className="error-text" data-testid="thinking-budget-error">
            At least {MIN_THINKING_BUDGET} tokens, or empty for no thinking.
          </span>
        )}
      </label>
    );
  }
  return (
    <label className="field">
      <span>Reasoning effort</span>
      <select
        data-testid="reasoning-effort"
        value={provider.reasoning_effort ?? ""}
        onChange={(e) => onChange({ reasoning_effort: e.target.value ? (e.target.value as ReasoningEffort) : null })}
      >
        <option value="">Server default</option>
        {EFFORTS.map((effort) => (
          <option key={effort} value={effort}>
            {effort}
          </option>
        ))}
      </select>
    </label>
  );
}
