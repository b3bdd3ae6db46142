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
import { SandboxLine } from "./SandboxLine";
import { CallChanges } from "./CallChanges";
import { ResultView } from "./ResultView";
import { argText as text, formatDuration } from "./toolSummary";
import { callLook, lookClass, type Look } from "./stateLook";
import { changeLook } from "../session/changeLook";
import { ToolParams } from "./ToolParams";
import { CommandOutput, finishedOutput } from "./CommandOutput";
import { commandOutcome, restatesCommand } from "./commandOutcome";
import { argsGist, cardIcon, externalTool, toolLabel } from "./toolName";
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

/** What a `new_task` call's sub-agent said and the cards of its calls, inside the call's card. */
function SubAgent({
  call,
  calls,
  actions,
  rewound,
}: {
  call: CallView;
  calls: Record<string, CallView>;
  actions: CardActions;
  rewound: boolean;
}) {
  return (
    <div className="subtask" data-testid="subtask" aria-label="Sub-agent">
      {call.children.map((item, i) => {
        switch (item.kind) {
          case "tool": {
            const child = calls[item.callId];
            const latest = i === call.children.length - 1;
            return child ? (
              <ToolCard key={item.id} call={child} calls={calls} actions={actions} latest={latest} rewound={rewound} />
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

/** Kinds whose finished card says all in its header line (`read src/a.rs · lines 1–40 of 40`). */
const GLANCED = new Set<CallView["kind"]>(["read", "search", "fetch"]);

/** Whether a finished card shows only its header line until opened (see the top of this file). */
export function folds(call: CallView, latest: boolean, look: Look): boolean {
  if (call.result === null || call.approval !== null) return false;
  // Partly undone, what is left of it is on disk: it folds as a change that went through.
  if (look === "by-you" && call.undo !== "partly") return true;
  if (look !== "done" || call.kind === "complete") return false;
  return !latest || (GLANCED.has(call.kind) && !call.isError && call.summary !== null);
}

/**
 * Whether a finished card shows what the model got: not for a command whose output the card
 * shows (its outcome is in the header), only when it went wrong before it ran or its output is
 * not known apart from the model's text.
 */
function showsResult(call: CallView, isCommand: boolean): boolean {
  if (!isCommand || call.error) return true;
  return finishedOutput(call) === null;
}

function ToolCardInner({
  call,
  actions,
  calls,
  latest = false,
  found = false,
  rewound = false,
}: {
  call: CallView;
  actions: CardActions;
  /** Every call, for the cards of a sub-agent nested in this one (`new_task`). */
  calls?: Record<string, CallView>;
  /** Nothing comes after this card yet: a change or command it made stays open. */
  latest?: boolean;
  /** The find bar shows this card: it opens so what was found is in view. */
  found?: boolean;
  /** The workspace was rewound to before the message this card came after. */
  rewound?: boolean;
}) {
  const look = callLook({ ...call, rewound });
  const change = changeLook({ ...call, rewound });
  // What it acts on names the card (the engine's title, else the gist of its arguments); once
  // done, what it did says more. A command's header says how it went once, in its pill.
  const title = call.title || argsGist(call.args) || "";
  const finished = call.result !== null;
  const command = call.view.as === "command" ? text(call.args, call.view.command) : null;
  const outcome = command !== null && finished ? commandOutcome(call.summary) : null;
  const pillOutcome = outcome !== null && (look.look === "done" || look.look === "failed");
  const summary = outcome ? title : (call.summary ?? title);
  const ext = externalTool(call.name);
  const elapsed = call.startedAt !== null && call.endedAt !== null ? call.endedAt - call.startedAt : null;
  // A duration under a second says nothing to the person ("done · 0 ms" for a write), and the
  // engine's summary may say it already ("exit 0 in 2.5 s").
  const duration =
    elapsed !== null && elapsed >= 1000 && !/\d s\b/.test(call.summary ?? "") ? formatDuration(elapsed) : null;
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
  const headNote = call.decision ? decisionWords(call.decision) : (look.note ?? (outcome && !pillOutcome ? outcome.words : null));
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
  // A change that went through and is on disk: each hunk can be undone on its own.
  const undoable = actions.undoHunk && partlyUndoable(call) && !change.faded ? actions.undoHunk : undefined;
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
      className={`tool-card ${lookClass(look.look)}${open ? "" : " collapsed"}${change.faded ? " change-faded" : ""}`}
      data-testid="tool-card"
      data-tool={call.name}
      data-state={call.state}
      data-look={look.look}
      data-disk={change.disk ?? undefined}
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
          <span className="tool-icon" aria-hidden="true">{cardIcon(call.name, call.kind)}</span>
          <span className="tool-name" title={ext ? `${ext.tool}, a tool of the MCP server ${ext.server}` : undefined}>
            {ext ? ext.tool : call.name}
            {ext && <span className="tool-server"> · {ext.server}</span>}
          </span>
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
          aria-label={pillOutcome ? outcome!.words : duration ? `${look.label}, ${duration}` : look.label}
        >
          {pillOutcome ? outcome!.words : look.label}
          {!pillOutcome && duration && <span className="state-duration"> · {duration}</span>}
        </span>
      </header>
      {open && (
        <div className="tool-body">
          {call.status && !finished && !(command !== null && restatesCommand(call.status, call.title)) && (
            <div className="tool-tip muted">{call.status}</div>
          )}
          {command !== null && command !== call.title && <pre className="tool-command">$ {command}</pre>}
          {call.sandbox && <SandboxLine note={call.sandbox} />}
          <HookLines runs={call.hooks} said={look.note ? blockingHook(call.hooks) : null} />
          <ToolParams call={call} title={title} />
          {call.preview?.diff && (
            <DiffView
              diff={call.preview.diff}
              maxLines={CARD_DIFF_LINES}
              onLoadMore={() => actions.loadPreview?.(call.id)}
              choice={choice}
              onUndoHunk={undoHunk}
              change={change}
            />
          )}
          {call.preview && !call.preview.diff && call.kind === "edit" && (
            <div className="muted preview-counts">
              {call.preview.path}: +{call.preview.lines_added} −{call.preview.lines_removed}
              {call.preview.created && !change.faded ? " (new file)" : ""}
              {change.mark ? ` · ${change.mark}` : ""}
            </div>
          )}
          {calls && call.children.length > 0 && <SubAgent call={call} calls={calls} actions={actions} rewound={rewound} />}
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
          {command !== null && !call.error && <CommandOutput call={call} />}
          {finished && <CallFacts call={call} note={look.note} />}
          {finished && !hidesResult(call) && showsResult(call, command !== null) && (
            <ResultView
              tool={toolLabel(call.name)}
              kind={call.kind}
              text={call.error ? `${call.error.code}: ${call.error.message}` : (call.result ?? "")}
              isError={call.isError}
              onOpenPath={actions.openPath}
              images={call.images}
            />
          )}
          {call.changes && <CallChanges changes={call.changes} change={change} />}
          {call.undo && <UndoBar call={call} onUndo={actions.undo} rewound={change.disk === "rewound"} />}
        </div>
      )}
    </article>
  );
}

export const ToolCard = memo(ToolCardInner);
