// A message of the user in the conversation, with what can be done from it, each after a
// confirmation under it. The labels are the glossary's (../glossary.ts): a branch, a rewind,
// file changes.
import { useState } from "react";
import type { AttachmentView } from "../protocol/AttachmentView";
import { MessageAttachments } from "./AttachmentChips";
import { count, LABELS, WORDS } from "../glossary";

/**
 * A question under a message of the user (a few words), what it leaves alone in a muted line
 * under it when that needs saying, and the button that goes ahead and one that does not.
 */
function Confirm({
  testId,
  question,
  detail,
  yes,
  no,
  onYes,
  onNo,
}: {
  testId: string;
  question: string;
  detail?: string;
  yes: string;
  no: string;
  onYes(): void;
  onNo(): void;
}) {
  return (
    <div className="msg-confirm" data-testid={testId} role="group" aria-label={question}>
      <span className="msg-confirm-text">
        <span className="msg-confirm-question">{question}</span>
        {detail && <span className="msg-confirm-detail muted">{detail}</span>}
      </span>
      <button type="button" data-testid={`confirm-${testId}`} onClick={onYes} autoFocus>
        {yes}
      </button>
      <button type="button" className="ghost" onClick={onNo}>
        {no}
      </button>
    </div>
  );
}

/** What a branch leaves alone, said under its question: this session, and the files. */
export function branchDetail(undoAfter: number): string {
  const kept = `This ${WORDS.session.one} stays as it is.`;
  if (undoAfter === 0) return kept;
  const changes = count(undoAfter, WORDS.fileChange);
  return `${kept} The ${changes} after it stay${undoAfter === 1 ? "s" : ""} on disk.`;
}

/**
 * A message of the user, with what can be done from it (shown beside it while it is hovered or
 * a button has focus), each after a confirmation under it:
 * - branch from it: a new session with the conversation before it, the message in its composer
 *   (this conversation and the files stay as they are);
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
  const changes = count(undoAfter, WORDS.fileChange);
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
              <button
                type="button"
                className="ghost"
                data-testid="branch-button"
                title="A new session with the conversation before this message, to send it again differently"
                onClick={() => setAsking("branch")}
              >
                ↳ {LABELS.branchFromHere}
              </button>
            )}
            {onRewind && (
              <button
                type="button"
                className="ghost"
                data-testid="rewind-button"
                title="Put the workspace's files back to how they were before this message, including what commands did"
                onClick={onRewind}
              >
                ⟲ {LABELS.rewindToHere}
              </button>
            )}
            {undo && (
              <button
                type="button"
                className="ghost"
                data-testid="undo-after-button"
                title={`Undo the ${changes} made after this message, newest first`}
                onClick={() => setAsking("undo")}
              >
                ↶ Undo {changes}
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
          question="Branch from this message?"
          detail={branchDetail(undoAfter)}
          yes={LABELS.branch}
          no={LABELS.cancel}
          onYes={done(onBranch)}
          onNo={() => setAsking(null)}
        />
      )}
      {asking === "undo" && undo && (
        <Confirm
          testId="undo-after"
          question={`Undo the ${changes} after this message?`}
          detail="Newest first."
          yes={`Undo ${changes}`}
          no="Keep them"
          onYes={done(undo)}
          onNo={() => setAsking(null)}
        />
      )}
    </div>
  );
}
