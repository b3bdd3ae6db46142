// How a command runs, under its command line: confined (what it may write, whether it may
// reach the network, and that it can still read files that are not hidden), outside the
// sandbox, or not confined because this machine cannot; and what happened in the sandbox: the
// hidden paths the command named or needs, the paths a deny rule keeps from commands that it
// named or printed, a signal to a process outside it that was refused, and the lines of its
// output that show a refusal.
import type { SandboxNote } from "../protocol/SandboxNote";
import { sandboxWords } from "./sandboxWords";

/** What the sandbox does not stop, said wherever its level is shown. */
const GAP = "reads files that are not hidden";

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
  const confined = note.level !== "off";
  return (
    <>
      <div
        className="sandbox-line muted"
        data-testid="sandbox-line"
        title={confined ? "Not covered: reading files that are not hidden. Settings › Sandbox lists the hidden ones." : undefined}
      >
        Sandboxed: {sandboxWords(note.level, note.network)}
        {confined && <span className="sandbox-gap"> · {GAP}</span>}
      </div>
      {note.hidden.length > 0 && (
        <div className="sandbox-hidden" data-testid="sandbox-hidden" role="note">
          <div>
            Hidden from commands:{" "}
            {note.hidden.map((path, i) => (
              <span key={path}>
                {i > 0 && ", "}
                <code>{path}</code>
              </span>
            ))}
          </div>
          <div className="small muted">In the sandbox each is an empty stand-in this command cannot open.</div>
        </div>
      )}
      {note.denied.length > 0 && (
        <div className="sandbox-hidden" data-testid="sandbox-denied" role="note">
          <div>
            Denied by your rules:{" "}
            {note.denied.map((path, i) => (
              <span key={path}>
                {i > 0 && ", "}
                <code>{path}</code>
              </span>
            ))}
          </div>
          <div className="small muted">
            In the sandbox a file a rule denies reading is an empty stand-in this command cannot open, and one it denies
            changing is read-only.
          </div>
        </div>
      )}
      {note.signalled_outside && (
        <div className="sandbox-refused" data-testid="sandbox-signal" role="note">
          Tried to signal a process outside the sandbox (refused)
        </div>
      )}
      {note.refused.length > 0 && (
        <div className="sandbox-refused" data-testid="sandbox-refused" role="note">
          <div>The sandbox refused something this command tried:</div>
          <pre>{note.refused.join("\n")}</pre>
        </div>
      )}
    </>
  );
}
