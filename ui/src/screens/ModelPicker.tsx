// The model field of Settings: a name the user can always type, and the provider's own list
// (asked of its API for the preset, base URL and stored key the form holds) to choose from, with
// each model's context window when the server tells it. When the list cannot be had, the field
// stays free text and says why.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { ModelInfo } from "../protocol/ModelInfo";
import type { ProviderSettings } from "../protocol/ProviderSettings";

interface Props {
  backend: Backend;
  provider: ProviderSettings;
  /** Whether a key is stored for the preset (a new key may open the list). */
  keyStored: boolean;
  /** The model typed or chosen, with the context window the server gives for a chosen one. */
  onChange(model: string, contextWindow?: number | null): void;
}

/** How long typing in the base URL settles before the list is asked for again. */
const SETTLE_MS = 400;

/** 131072 → "131k", 1000000 → "1M". */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toFixed(1))}M`;
  if (tokens >= 1_000) return `${Math.round(tokens / 1_000)}k`;
  return String(tokens);
}

function label(m: ModelInfo): string {
  const name = m.display_name ? ` — ${m.display_name}` : "";
  const window = m.context_window ? ` · ${formatTokens(m.context_window)} tokens` : "";
  return `${m.id}${name}${window}`;
}

export function ModelPicker({ backend, provider, keyStored, onChange }: Props) {
  const [models, setModels] = useState<ModelInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const asked = useRef(0);
  const { preset, base_url: baseUrl } = provider;
  const latest = useRef(provider);
  latest.current = provider;

  const refresh = useCallback(async () => {
    const ask = ++asked.current;
    setLoading(true);
    setError(null);
    try {
      const list = await backend.listModels(latest.current);
      if (ask !== asked.current) return;
      setModels(list);
      if (list.length === 0) setError("the server lists no models");
    } catch (e) {
      if (ask !== asked.current) return;
      setModels(null);
      setError(errorMessage(e));
    } finally {
      if (ask === asked.current) setLoading(false);
    }
  }, [backend]);

  useEffect(() => {
    const timer = setTimeout(() => void refresh(), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [refresh, preset, baseUrl, keyStored]);

  const chosen = models?.find((m) => m.id === provider.model.trim());
  return (
    <div className="field">
      <span>Model</span>
      <div className="key-row">
        <input
          data-testid="model"
          aria-label="Model"
          value={provider.model}
          placeholder="the model's name"
          onChange={(e) => onChange(e.target.value)}
        />
        {models && models.length > 0 && (
          <select
            data-testid="model-list"
            aria-label="The provider's models"
            value={chosen ? chosen.id : ""}
            onChange={(e) => {
              const m = models.find((x) => x.id === e.target.value);
              if (m) onChange(m.id, m.context_window);
            }}
          >
            <option value="" disabled>
              {`${models.length} model${models.length === 1 ? "" : "s"}`}
            </option>
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {label(m)}
              </option>
            ))}
          </select>
        )}
        <button className="ghost" data-testid="refresh-models" disabled={loading} onClick={() => void refresh()}>
          {loading ? "Listing…" : "Refresh"}
        </button>
      </div>
      {chosen?.context_window ? (
        <span className="muted small" data-testid="model-window">
          Context window {chosen.context_window.toLocaleString("en-US")} tokens
        </span>
      ) : null}
      {error && (
        <span className="warn-text small" data-testid="model-list-error">
          Could not list the models: {error}
        </span>
      )}
    </div>
  );
}
