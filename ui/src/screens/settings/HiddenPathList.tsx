// Settings › Sandbox › Hidden from commands: the app's own folders (always hidden), then each
// entry of the list with a switch (off: commands in the sandbox can read it), a Remove button on
// the ones you added, and a field to add a path. Changes go into the settings draft.
import { useState } from "react";
import type { FormEvent } from "react";
import type { HiddenPath } from "../../protocol/HiddenPath";
import { hiddenPathProblem, normalHiddenPath } from "./hiddenPaths";

interface Props {
  list: HiddenPath[];
  /** The app's own data, config and cache folders. */
  own: string[];
  /** The engine's defaults: they can be turned off, not removed. */
  defaults: string[];
  /** The sandbox is off, so nothing is hidden now. */
  sandboxOff: boolean;
  onChange(next: HiddenPath[]): void;
}

export function HiddenPathList({ list, own, defaults, sandboxOff, onChange }: Props) {
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);

  const add = (e: FormEvent) => {
    e.preventDefault();
    const problem = hiddenPathProblem(typed, list, own);
    setError(problem);
    if (problem) return;
    onChange([...list, { path: normalHiddenPath(typed), enabled: true }]);
    setTyped("");
  };
  const toggle = (at: number, enabled: boolean) => onChange(list.map((e, i) => (i === at ? { ...e, enabled } : e)));
  const remove = (at: number) => onChange(list.filter((_, i) => i !== at));

  return (
    <section className="panel" data-testid="hidden-paths">
      <h2>Hidden from commands</h2>
      <p className="muted small">
        In the sandbox each is replaced by an empty stand-in that commands cannot open. Untick one to let commands read it.
      </p>
      {sandboxOff && (
        <p className="warn-text small" data-testid="hidden-paths-off">
          The sandbox is off: commands can read all of these.
        </p>
      )}
      <ul className="hidden-path-list">
        {own.map((path) => (
          <li key={path} data-testid="hidden-own-dir" title="The app's own data: every workspace's conversations">
            <span className="hidden-path-always">always</span>
            <code>{path}</code>
          </li>
        ))}
        {list.map((entry, i) => (
          <li key={`${i}:${entry.path}`} data-testid="hidden-path-row" data-path={entry.path}>
            <label
              className={entry.enabled ? "hidden-path-entry" : "hidden-path-entry hidden-path-off"}
              title={entry.enabled ? "Commands in the sandbox cannot open it" : "Off: commands in the sandbox can read it"}
            >
              <input
                type="checkbox"
                data-testid="hidden-path-toggle"
                checked={entry.enabled}
                onChange={(e) => toggle(i, e.target.checked)}
              />
              <code>{entry.path}</code>
              {!entry.enabled && <span className="muted small">readable</span>}
            </label>
            {!defaults.includes(entry.path) && (
              <button
                type="button"
                className="ghost"
                data-testid="hidden-path-remove"
                aria-label={`Remove ${entry.path}`}
                onClick={() => remove(i)}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <form className="hidden-path-add row" onSubmit={add}>
        <input
          aria-label="Path to hide"
          data-testid="hidden-path-input"
          placeholder="~/.config/tool or /srv/secrets"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setError(null);
          }}
        />
        <button type="submit" data-testid="hidden-path-add" disabled={!typed.trim()}>
          Add
        </button>
      </form>
      {error && (
        <p className="error-text" role="alert" data-testid="hidden-path-error">
          {error}
        </p>
      )}
    </section>
  );
}
