// What "Test connection" found out, in the provider form, in the colour of how it went
// (connectionTone.ts): whether the model answered and how fast, the models the server lists (a
// click chooses one), whether the model calls tools natively, and, when it does not, a button
// that turns the text protocol on.
import type { ConnectionTest } from "../protocol/ConnectionTest";
import { connectionTone, TONE_CLASS } from "./connectionTone";

/** Models shown before "and N more". */
const SHOWN_MODELS = 24;

interface Props {
  result: ConnectionTest;
  /** Whether the form has the text protocol on now. */
  textProtocol: boolean;
  onUseTextProtocol(): void;
  onChooseModel(id: string): void;
}

function toolLine(result: ConnectionTest): string | null {
  const tools = result.tool_support;
  switch (tools.kind) {
    case "native":
      return "Tools: called natively.";
    case "ignored":
      return tools.answer
        ? `Tools: not used. The model answered in text instead: “${tools.answer}”`
        : "Tools: not used. The model answered without using the test tool.";
    case "refused":
      return `Tools: refused by the server: ${tools.message}`;
    case "unknown":
      return null;
  }
}

export function ConnectionResult({ result, textProtocol, onUseTextProtocol, onChooseModel }: Props) {
  const tools = toolLine(result);
  const models = result.models.slice(0, SHOWN_MODELS);
  const more = result.models.length - models.length;
  const tone = connectionTone(result);
  return (
    <div className={`banner ${TONE_CLASS[tone]} connection-result`} role="status" data-testid="connection-result" data-tone={tone}>
      <p data-testid="connection-message">{result.message}</p>
      {result.latency_ms !== null && (
        <p className="small muted" data-testid="connection-latency">
          Answered in {(result.latency_ms / 1000).toFixed(1)} s.
        </p>
      )}
      {tools && (
        <p className="small" data-testid="connection-tools">
          {tools}
        </p>
      )}
      {result.suggest_text_protocol &&
        (textProtocol ? (
          <p className="small" data-testid="text-protocol-chosen">
            The text protocol is on: save the settings to use it.
          </p>
        ) : (
          <div className="row">
            <span className="small">Models without native tool calling work through the text protocol.</span>
            <button className="primary small" data-testid="use-text-protocol" onClick={onUseTextProtocol}>
              Use the text protocol
            </button>
          </div>
        ))}
      {models.length > 0 && (
        <div className="connection-models">
          <span className="small muted">The server lists {result.models.length} model(s); click one to use it:</span>
          <ul className="chips" data-testid="connection-models">
            {models.map((m) => (
              <li key={m.id}>
                <button className="chip" title={m.display_name ?? m.id} onClick={() => onChooseModel(m.id)}>
                  {m.id}
                </button>
              </li>
            ))}
            {more > 0 && <li className="small muted">and {more} more</li>}
          </ul>
        </div>
      )}
      {result.models_error && (
        <p className="small muted" data-testid="connection-models-error">
          The models could not be listed: {result.models_error}
        </p>
      )}
    </div>
  );
}
