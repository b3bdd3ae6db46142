// The arguments of a call as its tool's view says to show them: a file's content as it streams,
// an edit's old and new text, nothing for a command or a title (the header says it), and the
// parameters of any other tool folded away behind "Parameters" (open while the call waits for
// the person, who decides on them), by name, not as raw JSON.
import type { CallView } from "../session/state";
import { LiveText } from "./LiveText";
import { argsSaidByTitle, argText as text } from "./toolSummary";

/** Longest value shown; beyond it the parameter is cut. */
const VALUE_CHARS = 4000;

function shown(value: unknown): string {
  const s = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
  return s.length > VALUE_CHARS ? `${s.slice(0, VALUE_CHARS)}…` : s;
}

/** Named parameters, folded: each name with its value (text as it is, anything else as JSON). */
function Parameters({ args, open }: { args: Record<string, unknown>; open: boolean }) {
  const entries = Object.entries(args);
  if (entries.length === 0) return null;
  return (
    <details className="tool-params" data-testid="tool-params" open={open}>
      <summary>Parameters</summary>
      <dl>
        {entries.map(([name, value]) => (
          <div key={name} className="tool-param">
            <dt>{name}</dt>
            <dd>
              <pre>{shown(value)}</pre>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export function ToolParams({ call, title }: { call: CallView; title: string | null }) {
  const streaming = call.state === "streaming";
  const view = call.view;
  switch (view.as) {
    case "file_content": {
      const content = text(call.args, view.content);
      if (content === null) return null;
      if (call.preview?.diff && !streaming) return null;
      return <LiveText text={content} streaming={streaming} label={text(call.args, view.path) ?? undefined} />;
    }
    case "replacement": {
      if (call.preview?.diff) return null;
      const oldText = text(call.args, view.old);
      const newText = text(call.args, view.new);
      return (
        <div className="edit-params">
          {oldText !== null && <pre className="edit-old" aria-label="Text to replace">{oldText}</pre>}
          {newText !== null && <pre className="edit-new" aria-label="Replacement">{newText}</pre>}
        </div>
      );
    }
    case "command":
    case "title":
      return null;
    case "json": {
      const args = call.args;
      if (typeof args !== "object" || args === null || Array.isArray(args)) return null;
      if (argsSaidByTitle(args, title)) return null;
      return <Parameters args={args as Record<string, unknown>} open={call.approval !== null} />;
    }
  }
}
