// The banners between the conversation and the message box, about the turn at hand: a rewind
// that can be undone, a task paused on a tool, the workspace's hooks waiting for consent. They
// stack in a column of their own (layout.css), so the conversation above keeps its room and
// they never sit over one another. The rewind's banner is its action only: the conversation's
// notice says what was rewound.
import type { ReactNode } from "react";
import { LABELS } from "../../glossary";

interface Props {
  /** The last thing done was a rewind, which can be undone. */
  rewound: boolean;
  onUndoRewind(): void;
  paused: { message: string } | null;
  onContinue(): void;
  onStop(): void;
  /** The hooks' consent prompt, when it shows. */
  hooks: ReactNode;
}

export function TurnBanners({ rewound, onUndoRewind, paused, onContinue, onStop, hooks }: Props) {
  if (!rewound && !paused && !hooks) return null;
  return (
    <div className="pane-banners pane-banners-bottom" data-testid="turn-banners">
      {rewound && (
        <div className="banner banner-action" role="status" data-testid="rewound-banner">
          <span>The workspace as it was before the rewind is kept.</span>
          <button data-testid="undo-rewind" onClick={onUndoRewind}>
            {LABELS.undoRewind}
          </button>
        </div>
      )}
      {paused && (
        <div className="banner banner-error" role="alert">
          <span>{paused.message}</span>
          <button className="primary" onClick={onContinue}>
            Continue
          </button>
          <button onClick={onStop}>Stop</button>
        </div>
      )}
      {hooks}
    </div>
  );
}
