// How a command runs, under its command line: confined (what it may write, whether it may
// reach the network), outside the sandbox, or not confined because this machine cannot; and,
// when the sandbox refused something, the lines that show what.
import type { SandboxNote } from "../protocol/SandboxNote";
import { sandboxWords } from "./sandboxWords";

export function SandboxLine({ note }: { note: SandboxNote }) {
  if (note.unconfined) {
    return (
      <div className="sandbox-line sandbox-warn" data-testid="sandbox-line" role="note">
        Not sandboxed: {note.unconfined}
      </div>
    );
  }
  if (note.level === null) {
    return (
      <div className="sandbox-line muted" data-testid="sandbox-line">
        Runs outside the sandbox, with your full rights
      </div>
    );
  }
  return (
    <>
      <div className="sandbox-line muted" data-testid="sandbox-line">
        Sandboxed: {sandboxWords(note.level, note.network)}
      </div>
      {note.refused.length > 0 && (
        <div className="sandbox-refused" data-testid="sandbox-refused" role="note">
          <div>The sandbox refused something this command tried:</div>
          <pre>{note.refused.join("\n")}</pre>
        </div>
      )}
    </>
  );
}
