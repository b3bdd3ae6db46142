// One tool call: what it is, its parameters as they stream, its diff, the decision, the result.
import { memo, useEffect, useMemo, useState } from "react";
import type { ApprovalScope } from "../protocol/ApprovalScope";
import type { CallView } from "../session/state";
import {
  choosableHunks,
  forgetHunkChoice,
  hunkRef,
  partlyUndoable,
  setAllHunks,
  toggleHunk,
  useSkippedHunks,
} from "../session/hunkChoice";
import type { Hunk } from "../protocol/Hunk";
import type { HunkRef } from "../protocol/HunkRef";
import { ApprovalBar } from "./ApprovalBar";
import { DiffView } from "./DiffView";
import { LiveText } from "./LiveText";
import { SandboxLine } from "./SandboxLine";
import { CallChanges } from "./CallChanges";
import { OutputView } from "./OutputView";
import { ResultView } from "./ResultView";
import { exitCodeOf, formatDuration, stateLabel, toolIcon } from "./toolSummary";

export interface CardActions {
  approve(callId: string, previewHash: string, scope: ApprovalScope): void;
  reject(callId: string, feedback: string | null): void;
  editApprove(callId: string, previewHash: string, content: string): void;
  /** Writes only the hunks at `hunks` (0-based) of the waiting preview. */
  approveHunks(callId: string, previewHash: string, hunks: number[]): void;
  /** Asks for the whole diff of a call whose preview came cut short. */
  loadPreview?(callId: string): void;
  openPath?(path: string, line?: number): void;
  /** Undoes what a file-changing call did to its file. */
  undo?(callId: string): void;
  /** Undoes one hunk of what a file-changing call did. */
  undoHunk?(callId: string, hunk: HunkRef): void;
}

function text(args: unknown, key: string): string | null {
  if (typeof args !== "object" || args === null) return null;
  const v = (args as Record<string, unknown>)[key];
  return typeof v === "string" ? v : null;
}

/** The arguments as the tool's view says to show them. */
function Params({ call }: { call: CallView }) {
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
      if (call.args === null) return null;
      const shown = JSON.stringify(call.args, null, 2);
      if (!shown || shown === "{}") return null;
      return <pre className="tool-args">{shown.length > 4000 ? `${shown.slice(0, 4000)}…` : shown}</pre>;
    }
  }
}

/** What a `new_task` call's sub-agent said and the cards of its calls, inside the call's card. */
function SubAgent({
  call,
  calls,
  actions,
}: {
  call: CallView;
  calls: Record<string, CallView>;
  actions: CardActions;
}) {
  return (
    <div className="subtask" data-testid="subtask" aria-label="Sub-agent">
      {call.children.map((item) => {
        switch (item.kind) {
          case "tool": {
            const child = calls[item.callId];
            return child ? <ToolCard key={item.id} call={child} calls={calls} actions={actions} /> : null;
          }
          case "assistant":
            return (
              <div key={item.id} className="msg msg-assistant subtask-text">
                {item.text}
              </div>
            );
          default:
            return null;
        }
      })}
    </div>
  );
}

function ToolCardInner({
  call,
  actions,
  calls,
}: {
  call: CallView;
  actions: CardActions;
  /** Every call, for the cards of a sub-agent nested in this one (`new_task`). */
  calls?: Record<string, CallView>;
}) {
  const [open, setOpen] = useState(true);
  const { label, tone } = stateLabel(call.state);
  // What it acts on names the card; once done, what it did says more.
  const title = call.title ?? "";
  const summary = call.summary ?? title;
  const duration =
    call.startedAt !== null && call.endedAt !== null ? formatDuration(call.endedAt - call.startedAt) : null;
  const finished = call.result !== null;
  const command = call.view.as === "command" ? text(call.args, call.view.command) : null;
  const approval = call.approval;
  // The hunks the user may tick in or out while the change waits (0: no choice offered).
  const hunks = choosableHunks(call);
  const choiceHash = hunks > 0 && approval ? approval.previewHash : null;
  const skipped = useSkippedHunks(call.id, choiceHash);
  const choice = useMemo(
    () =>
      choiceHash === null
        ? undefined
        : {
            skipped,
            toggle: (index: number) => toggleHunk(call.id, choiceHash, index),
            setAll: (applied: boolean) => setAllHunks(call.id, choiceHash, hunks, applied),
          },
    [call.id, choiceHash, skipped, hunks],
  );
  // A change that went through: each hunk can be undone on its own.
  const undoable = actions.undoHunk && partlyUndoable(call) ? actions.undoHunk : undefined;
  const undoHunk = useMemo(
    () => (undoable ? (hunk: Hunk) => undoable(call.id, hunkRef(hunk)) : undefined),
    [undoable, call.id],
  );
  // The choice lasts until the call no longer waits (an answer refused keeps it).
  const waiting = approval !== null;
  useEffect(() => {
    if (!waiting) forgetHunkChoice(call.id);
  }, [waiting, call.id]);
  return (
    <article
      className={`tool-card tone-${tone}`}
      data-testid="tool-card"
      data-tool={call.name}
      data-state={call.state}
      aria-label={`${call.name} ${title}`}
    >
      <header className="tool-head">
        <button
          className="ghost tool-toggle"
          aria-expanded={open}
          aria-label={open ? "Collapse" : "Expand"}
          onClick={() => setOpen(!open)}
        >
          <span className="tool-icon" aria-hidden="true">{toolIcon(call.kind)}</span>
          <span className="tool-name">{call.name}</span>
          <span className="tool-summary" title={summary}>{summary}</span>
        </button>
        <span className={`tool-state state-${tone}`} data-testid="tool-state">
          {label}
          {duration && <span className="muted"> · {duration}</span>}
        </span>
      </header>
      {open && (
        <div className="tool-body">
          {call.status && !finished && <div className="tool-tip muted">{call.status}</div>}
          {command !== null && <pre className="tool-command">$ {command}</pre>}
          {call.sandbox && <SandboxLine note={call.sandbox} />}
          <Params call={call} />
          {call.preview?.diff && (
            <DiffView
              diff={call.preview.diff}
              onLoadMore={() => actions.loadPreview?.(call.id)}
              choice={choice}
              onUndoHunk={undoHunk}
            />
          )}
          {call.preview && !call.preview.diff && call.kind === "edit" && (
            <div className="muted preview-counts">
              {call.preview.path}: +{call.preview.lines_added} −{call.preview.lines_removed}
              {call.preview.created ? " (new file)" : ""}
            </div>
          )}
          {calls && call.children.length > 0 && <SubAgent call={call} calls={calls} actions={actions} />}
          {approval && (
            <ApprovalBar
              key={approval.previewHash}
              tool={call.name}
              reason={approval.reason}
              suggestedRule={approval.suggestedRule}
              privateTarget={approval.privateTarget ?? null}
              noRule={approval.noRule ?? false}
              editableContent={call.view.as === "file_content" ? text(call.args, call.view.content) : null}
              refused={call.refused}
              hunks={choice ? { total: hunks, skipped } : null}
              onApproveHunks={(chosen) => actions.approveHunks(call.id, approval.previewHash, chosen)}
              onApprove={(scope) => actions.approve(call.id, approval.previewHash, scope)}
              onReject={(feedback) => actions.reject(call.id, feedback)}
              onEditApprove={(content) => actions.editApprove(call.id, approval.previewHash, content)}
            />
          )}
          {command !== null && (call.output || call.state === "executing") && (
            <OutputView
              text={call.output}
              running={call.state === "executing"}
              exitCode={finished ? exitCodeOf(call.result) : null}
            />
          )}
          {finished && !(command !== null && call.output && !call.isError) && (
            <ResultView
              tool={call.name}
              kind={call.kind}
              text={call.error ? `${call.error.code}: ${call.error.message}` : (call.result ?? "")}
              isError={call.isError}
              onOpenPath={actions.openPath}
              images={call.images}
            />
          )}
          {call.changes && <CallChanges changes={call.changes} />}
          {call.undo && <UndoBar call={call} onUndo={actions.undo} />}
        </div>
      )}
    </article>
  );
}

/**
 * What the user can do about a file change the call made: undo it (after a confirmation, as
 * the agent's version is not kept), or see that it was undone, or why an undo was refused.
 */
function UndoBar({ call, onUndo }: { call: CallView; onUndo?: (callId: string) => void }) {
  const [asking, setAsking] = useState(false);
  const path =
    call.preview?.path ?? (call.view.as === "file_content" ? text(call.args, call.view.path) : null) ?? "the file";
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
          ? `Change undone: ${path}, which this call created, is removed.`
          : `Change undone: ${path} is as it was before this call.`}
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
          <span>Put {path} back as it was before this call? The agent's version is not kept.</span>
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
              ? "Puts the file back as it was before this call, if nothing changed it since"
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

export const ToolCard = memo(ToolCardInner);
