// A message of the user in the conversation, with what can be done from it, each after a
// confirmation under it.
import { useState } from "react";
import type { AttachmentView } from "../protocol/AttachmentView";
import { MessageAttachments } from "./AttachmentChips";

/** A question under a message of the user, with the button that goes ahead and one that does not. */
function Confirm({
  testId,
  question,
  yes,
  no,
  onYes,
  onNo,
}: {
  testId: string;
  question: string;
  yes: string;
  no: string;
  onYes(): void;
  onNo(): void;
}) {
  return (
    <div className="msg-confirm" data-testid={testId} role="group" aria-label={question}>
      <span>{question}</span>
      <button type="button" data-testid={`confirm-${testId}`} onClick={onYes} autoFocus>
        {yes}
      </button>
      <button type="button" className="ghost" onClick={onNo}>
        {no}
      </button>
    </div>
  );
}

/**
 * A message of the user, with what can be done from it (shown beside it while it is hovered or
 * a button has focus), each after a confirmation under it:
 * - edit it in a branch: a new session with the conversation before it, the message in its
 *   composer (this conversation and the files stay as they are);
 * - undo the file changes made after it, newest first;
 * - rewind the whole workspace to before it (the engine lists what that changes first).
 */
export function UserMessage({
  text,
  attachments,
  undoAfter,
  onUndoAfter,
  onBranch,
  onRewind,
}: {
  text: string;
  attachments?: AttachmentView[];
  undoAfter: number;
  onUndoAfter?(): void;
  onBranch?(): void;
  onRewind?(): void;
}) {
  const [asking, setAsking] = useState<"branch" | "undo" | null>(null);
  const undo = undoAfter > 0 ? onUndoAfter : undefined;
  const changes = undoAfter === 1 ? "1 file change" : `${undoAfter} file changes`;
  const stay =
    undoAfter === 0
      ? ""
      : undoAfter === 1
        ? " The file change made after it stays on disk; undo it first if you want it gone."
        : ` The ${undoAfter} file changes made after it stay on disk; undo them first if you want them gone.`;
  const done = (action: () => void) => () => {
    setAsking(null);
    action();
  };
  return (
    <div className="msg msg-user" data-testid="user-message">
      <div className="msg-user-row">
        {(onBranch || undo || onRewind) && !asking && (
          <div className="msg-actions">
            {onBranch && (
              <button type="button" className="ghost" data-testid="branch-button" onClick={() => setAsking("branch")}>
                ✎ Edit from here
              </button>
            )}
            {onRewind && (
              <button type="button" className="ghost" data-testid="rewind-button" onClick={onRewind}>
                ⟲ Rewind files to before this
              </button>
            )}
            {undo && (
              <button type="button" className="ghost" data-testid="undo-after-button" onClick={() => setAsking("undo")}>
                ↶ Undo the {changes} after this
              </button>
            )}
          </div>
        )}
        <div className="msg-body">{text}</div>
      </div>
      {attachments && <MessageAttachments attachments={attachments} />}
      {asking === "branch" && onBranch && (
        <Confirm
          testId="branch"
          question={`Edit this message in a new session that has the conversation before it? This conversation stays as it is.${stay}`}
          yes="Edit in a new session"
          no="Cancel"
          onYes={done(onBranch)}
          onNo={() => setAsking(null)}
        />
      )}
      {asking === "undo" && undo && (
        <Confirm
          testId="undo-after"
          question={`Undo the ${changes} made after this message, newest first?`}
          yes={`Undo ${changes}`}
          no="Keep them"
          onYes={done(undo)}
          onNo={() => setAsking(null)}
        />
      )}
    </div>
  );
}
