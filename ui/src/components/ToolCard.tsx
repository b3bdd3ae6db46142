// One tool call: what it is, its parameters as they stream, its diff, the decision, the result.
// Its state has one look (stateLook.ts) on its edge and pill. A finished card folds to its header
// line (tool, what it acted on, what it did, the state), which opens on click:
// - at once when the person decided on it (rejected, stopped, undone), or for a read, search or
//   fetch whose header says what it did;
// - for a change or a command that went through, once something comes after it, so the newest
//   one's diff or output stays in view while the agent goes on;
// - never when it failed: what went wrong stays in view.
// The card that is live (writing, waiting for the person, running) stays open, and so does the
// one the find bar shows (then until closed). What the person chose (opened, closed) wins while
// the card is not live.
import { memo, useEffect, useMemo, useSyncExternalStore } from "react";
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
import { argsSaidByTitle, argText as text, exitCodeOf, formatDuration, toolIcon } from "./toolSummary";
import { callLook, lookClass, type Look } from "./stateLook";
import { CallFacts, hidesResult } from "./CallFacts";
import { decisionWords } from "./decisionWords";
import { UndoBar } from "./UndoBar";
import { approvalWhat } from "./approvalWhat";
import { HookLine, HookLines } from "./HookLine";
import { blockingHook } from "./hookWords";

/** Lines of a card's diff shown before "Show all": enough to judge the change at a glance. */
export const CARD_DIFF_LINES = 15;

/** Whether the person opened or closed a card themselves, by call id (kept while it scrolls out). */
const chosenOpen = new Map<string, boolean>();
const openListeners = new Set<() => void>();
function setChosenOpen(id: string, open: boolean) {
  chosenOpen.set(id, open);
  for (const l of openListeners) l();
}
function subscribeOpen(l: () => void) {
  openListeners.add(l);
  return () => openListeners.delete(l);
}

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
      if (call.args === null || argsSaidByTitle(call.args, call.title)) return null;
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
      {call.children.map((item, i) => {
        switch (item.kind) {
          case "tool": {
            const child = calls[item.callId];
            const latest = i === call.children.length - 1;
            return child ? (
              <ToolCard key={item.id} call={child} calls={calls} actions={actions} latest={latest} />
            ) : null;
          }
          case "assistant":
            return (
              <div key={item.id} className="msg msg-assistant subtask-text">
                {item.text}
              </div>
            );
          case "hook":
            return <HookLine key={item.id} run={item.run} standalone />;
          default:
            return null;
        }
      })}
    </div>
  );
}

/** Kinds whose finished card says all in its header line (`Read src/a.rs (lines 1–40)`). */
const GLANCED = new Set<CallView["kind"]>(["read", "search", "fetch"]);

/** Whether a finished card shows only its header line until opened (see the top of this file). */
export function folds(call: CallView, latest: boolean, look: Look): boolean {
  if (call.result === null || call.approval !== null) return false;
  if (look === "by-you") return true;
  if (look !== "done" || call.kind === "complete") return false;
  return !latest || (GLANCED.has(call.kind) && !call.isError && call.summary !== null);
}

function ToolCardInner({
  call,
  actions,
  calls,
  latest = false,
  found = false,
}: {
  call: CallView;
  actions: CardActions;
  /** Every call, for the cards of a sub-agent nested in this one (`new_task`). */
  calls?: Record<string, CallView>;
  /** Nothing comes after this card yet: a change or command it made stays open. */
  latest?: boolean;
  /** The find bar shows this card: it opens so what was found is in view. */
  found?: boolean;
}) {
  const look = callLook(call);
  // What it acts on names the card; once done, what it did says more.
  const title = call.title ?? "";
  const summary = call.summary ?? title;
  const elapsed = call.startedAt !== null && call.endedAt !== null ? call.endedAt - call.startedAt : null;
  // A duration under a second says nothing to the person ("done · 0 ms" for a write), and the
  // engine's summary may say it already ("exit 0 in 2.5 s").
  const duration =
    elapsed !== null && elapsed >= 1000 && !/\d s\b/.test(call.summary ?? "") ? formatDuration(elapsed) : null;
  const finished = call.result !== null;
  const command = call.view.as === "command" ? text(call.args, call.view.command) : null;
  const approval = call.approval;
  const chosen = useSyncExternalStore(subscribeOpen, () => chosenOpen.get(call.id));
  const open = approval !== null || found || (chosen ?? !folds(call, latest, look.look));
  // Shown by the find bar or the changes list: the person asked to see it, so it stays open
  // after the outline goes.
  useEffect(() => {
    if (found) setChosenOpen(call.id, true);
  }, [found, call.id]);
  // What the folded header adds: the person's decision, or the outcome in their words, and the
  // size of a change that went through when its summary does not give it (a version of the
  // person's has none). A rejected change's size is not shown: it was never made.
  const headNote = call.decision ? decisionWords(call.decision) : look.note;
  const counts =
    call.kind === "edit" && call.summary === null && call.preview && call.state === "succeeded"
      ? `+${call.preview.lines_added} −${call.preview.lines_removed}`
      : null;
  const setOpen = (next: boolean) => setChosenOpen(call.id, next);
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
      className={`tool-card ${lookClass(look.look)}${open ? "" : " collapsed"}`}
      data-testid="tool-card"
      data-tool={call.name}
      data-state={call.state}
      data-look={look.look}
      data-undo={call.undo ?? undefined}
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
          {!open && counts && <span className="tool-head-counts muted">{counts}</span>}
          {!open && headNote && (
            <span className="tool-head-note muted" title={headNote}>
              {headNote}
            </span>
          )}
        </button>
        <span
          className="tool-state state-pill"
          data-testid="tool-state"
          title={look.note ?? undefined}
          aria-label={duration ? `${look.label}, ${duration}` : look.label}
        >
          {look.label}
          {duration && <span className="state-duration"> · {duration}</span>}
        </span>
      </header>
      {open && (
        <div className="tool-body">
          {call.status && !finished && <div className="tool-tip muted">{call.status}</div>}
          {command !== null && command !== call.title && <pre className="tool-command">$ {command}</pre>}
          {call.sandbox && <SandboxLine note={call.sandbox} />}
          <HookLines runs={call.hooks} said={look.note ? blockingHook(call.hooks) : null} />
          <Params call={call} />
          {call.preview?.diff && (
            <DiffView
              diff={call.preview.diff}
              maxLines={CARD_DIFF_LINES}
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
              what={approvalWhat(call)}
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
          {finished && <CallFacts call={call} note={look.note} />}
          {finished && !hidesResult(call) && !(command !== null && call.output && !call.isError) && (
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

export const ToolCard = memo(ToolCardInner);
