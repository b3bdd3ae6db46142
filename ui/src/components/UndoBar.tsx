// What the person can do about a file change: undo it, or see that it was undone or rewound.
import { useState } from "react";
import type { CallView } from "../session/state";
import { argText as text } from "./toolSummary";

/**
 * What the user can do about a file change: undo it (after a confirmation, as the agent's
 * version is not kept), or see that it was undone or rewound, or why an undo was refused.
 */
export function UndoBar({
  call,
  onUndo,
  rewound = false,
}: {
  call: CallView;
  onUndo?: (callId: string) => void;
  /** The workspace was rewound to before the message this change came after. */
  rewound?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const path =
    call.preview?.path ?? (call.view.as === "file_content" ? text(call.args, call.view.path) : null) ?? "the file";
  if (rewound && call.undo !== "done") {
    return (
      <div className="tool-undo muted" data-testid="undo-rewound">
        Rewound: the workspace went back to before this change.
      </div>
    );
  }
  if (call.undo === "expired") {
    return (
      <div className="tool-undo muted" data-testid="undo-expired">
        This change can no longer be undone: only the 10 latest changes to a file are kept.
      </div>
    );
  }
  if (call.undo === "done") {
    return (
      <div className="tool-undo muted" data-testid="undo-done">
        {call.preview?.created
          ? `Undone: ${path}, which this change created, is removed.`
          : `Undone: ${path} is as it was before this change.`}
      </div>
    );
  }
  return (
    <div className="tool-undo" data-testid="undo-bar">
      {call.undo === "partly" && (
        <span className="muted" data-testid="undo-partly">
          Part of this change was undone; the diff shows what is left of it.
        </span>
      )}
      {asking ? (
        <>
          <span>Put {path} back as it was before this change? The agent's version is not kept.</span>
          <button
            type="button"
            data-testid="confirm-undo"
            onClick={() => {
              setAsking(false);
              onUndo?.(call.id);
            }}
          >
            Undo change
          </button>
          <button type="button" className="ghost" onClick={() => setAsking(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button
          type="button"
          className="ghost"
          data-testid="undo-change"
          disabled={!onUndo}
          title={
            onUndo
              ? "Puts the file back as it was before this change, if nothing changed it since"
              : "The session is not running: set up the model in Settings to undo"
          }
          onClick={() => setAsking(true)}
        >
          ↶ Undo this change
        </button>
      )}
      {call.undoRefused && (
        <span className="tool-undo-refused" role="alert">
          {call.undoRefused}
        </span>
      )}
    </div>
  );
}
