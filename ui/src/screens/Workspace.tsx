// A workspace: its sessions on the left, the conversation with the agent on the right.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Backend } from "../backend";
import { errorMessage } from "../backend";
import type { SessionSummary } from "../protocol/SessionSummary";
import type { SettingsView } from "../protocol/SettingsView";
import type { WorkspaceView } from "../protocol/WorkspaceView";
import { Composer, type ComposerFocus } from "../components/Composer";
import { Conversation, type FindView, type RetryOffer } from "../components/Conversation";
import { FindBar } from "../components/FindBar";
import { ChangesButton } from "../components/ChangesButton";
import { ToolStatsButton } from "../components/ToolStatsButton";
import { sessionChanges, type FileChanges } from "../session/changes";
import { NetChangeDialog, type NetChangeView } from "../components/NetChangeDialog";
import { startWarmUp } from "../components/warmUp";
import { Logo } from "../components/Logo";
import { Sidebar } from "../components/Sidebar";
import { StatusBar } from "../components/StatusBar";
import { QueuedMessages } from "../components/QueuedMessages";
import { TodoList } from "../components/TodoList";
import type { CardActions } from "../components/ToolCard";
import { useSession } from "../session/useSession";
import { draftKey, saveDraft } from "../session/drafts";
import { entriesHolding } from "../session/find";
import { choosableHunks, hunkApproval, skippedHunks } from "../session/hunkChoice";
import { shortcutKey } from "../platform";

interface Props {
  backend: Backend;
  workspace: WorkspaceView;
  /** The session to open at once (the one a reloaded page had open). */
  initialSession?: string | null;
  /** The page was loaded again after its web process ended unexpectedly. */
  reloaded?: boolean;
  settings: SettingsView | null;
  onClose: () => void;
  onOpenSettings: () => void;
  /** Called with the session the conversation shows (`null`: a new one) whenever it changes. */
  onSessionShown?: (session: string | null) => void;
}

export function Workspace({
  backend,
  workspace,
  initialSession = null,
  reloaded = false,
  settings,
  onClose,
  onOpenSettings,
  onSessionShown,
}: Props) {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [current, setCurrent] = useState<string | null>(initialSession);
  const [reloadNotice, setReloadNotice] = useState(reloaded);
  const [listError, setListError] = useState<string | null>(null);
  const [toolWarnings, setToolWarnings] = useState<string[]>([]);

  const refresh = useCallback(() => {
    backend.listSessions(workspace.path).then(
      (list) => {
        setSessions(list);
        setListError(null);
      },
      (e: unknown) => setListError(errorMessage(e)),
    );
  }, [backend, workspace.path]);
  useEffect(refresh, [refresh]);

  const onStarted = useCallback(
    (id: string) => {
      setCurrent(id);
      refresh();
    },
    [refresh],
  );
  const defaultMode = settings?.settings.approval_mode ?? "ask";
  const session = useSession(backend, workspace.path, current, defaultMode, onStarted);
  useEffect(() => onSessionShown?.(current), [current, onSessionShown]);
  const { state, op } = session;

  // While the page is idle, the parts of a first turn are drawn once out of sight, so the turn's
  // own first frame does not pay for the fonts and code it meets first (components/warmUp.tsx).
  const itemCount = useRef(0);
  itemCount.current = state.items.length;
  useEffect(() => startWarmUp(() => itemCount.current > 0), []);

  // The title comes from the first message; refresh the list when a task ends.
  useEffect(() => {
    if (!state.running) refresh();
  }, [state.running, refresh]);

  // MCP warnings (too many tools for the model, configuration problems) in the session header.
  useEffect(() => {
    if (state.running) return;
    backend.mcpStatus(workspace.path).then(
      (view) => setToolWarnings(view.status.warnings),
      () => setToolWarnings([]),
    );
  }, [backend, workspace.path, state.running]);

  const actions = useMemo<CardActions>(
    () => ({
      approve: (call_id, preview_hash, scope) => void op({ op: "approve", call_id, preview_hash, scope }),
      reject: (call_id, feedback) => void op({ op: "reject", call_id, feedback }),
      editApprove: (call_id, preview_hash, new_content) =>
        void op({ op: "edit_and_approve", call_id, preview_hash, new_content }),
      approveHunks: (call_id, preview_hash, hunks) => void op({ op: "approve_hunks", call_id, preview_hash, hunks }),
      loadPreview: (call_id) => void op({ op: "load_preview", call_id }),
      // Only a running session can undo (a stored one shown without its engine cannot).
      undo: session.stopped ? undefined : (call_id) => void op({ op: "undo_change", call_id }),
      undoHunk: session.stopped ? undefined : (call_id, hunk) => void op({ op: "undo_hunks", call_id, hunks: [hunk] }),
    }),
    [op, session.stopped],
  );

  // A dialog over the window (a file's net diff) takes the keys: nothing behind it is approved
  // or searched.
  const dialogOpen = useRef(false);

  // Ctrl/Cmd+Enter approves the only waiting request when focus is not in a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.key === "Enter" && (e.ctrlKey || e.metaKey)) || dialogOpen.current) return;
      const target = e.target as HTMLElement | null;
      // A hunk's box is not a text field: Ctrl+Enter right after ticking approves what is ticked.
      const field = target?.tagName === "TEXTAREA" || (target?.tagName === "INPUT" && !target.classList.contains("hunk-choice"));
      if (target && (field || target.closest(".approval-bar"))) return;
      const waiting = Object.values(state.calls).filter((c) => c.approval);
      const only = waiting.length === 1 ? waiting[0] : undefined;
      if (only?.approval) {
        e.preventDefault();
        // What the card shows ticked: some hunks, all of them, or (all unticked) nothing.
        const hash = only.approval.previewHash;
        const chosen = hunkApproval(choosableHunks(only), skippedHunks(only.id, hash));
        if (chosen.kind === "whole") actions.approve(only.id, hash, { kind: "once" });
        else if (chosen.kind === "some") actions.approveHunks(only.id, hash, chosen.hunks);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [state.calls, actions]);

  // Find in the conversation (Ctrl/Cmd+F): the entries that hold the text, one shown at a time,
  // starting with the newest.
  const [find, setFind] = useState<FindView | null>(null);
  const findInput = useRef<HTMLInputElement>(null);
  /** Where the focus was when the bar opened, to go back to when it closes. */
  const focusBefore = useRef<HTMLElement | null>(null);
  /** Only ever goes up, so each request to bring an entry into view is a new one. */
  const reveals = useRef(0);
  const found = useMemo(
    () => (find ? entriesHolding(state.items, state.calls, find.query) : []),
    [find, state.items, state.calls],
  );
  const position = find?.currentId == null ? 0 : found.indexOf(find.currentId) + 1;
  const latestFind = useRef({ items: state.items, calls: state.calls, found });
  latestFind.current = { items: state.items, calls: state.calls, found };
  const findQuery = useCallback((query: string) => {
    const { items, calls } = latestFind.current;
    const ids = entriesHolding(items, calls, query);
    const reveal = ++reveals.current;
    setFind({ query, currentId: ids.at(-1) ?? null, reveal });
  }, []);
  const findStep = useCallback((step: 1 | -1) => {
    const ids = latestFind.current.found;
    const reveal = ++reveals.current;
    setFind((f) => {
      if (!f || ids.length === 0) return f;
      const at = f.currentId === null ? -1 : ids.indexOf(f.currentId);
      const next = at < 0 ? (step > 0 ? 0 : ids.length - 1) : (at + step + ids.length) % ids.length;
      return { ...f, currentId: ids[next]!, reveal };
    });
  }, []);
  const closeFind = useCallback(() => {
    setFind(null);
    const before = focusBefore.current;
    focusBefore.current = null;
    if (before?.isConnected) before.focus();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.key.toLowerCase() === "f" || e.code === "KeyF") || !shortcutKey(e) || dialogOpen.current) return;
      e.preventDefault();
      if (!findInput.current) focusBefore.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setFind((f) => f ?? { query: "", currentId: null, reveal: reveals.current });
      requestAnimationFrame(() => {
        findInput.current?.focus();
        findInput.current?.select();
      });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  // Another conversation: nothing found in it yet.
  useEffect(() => setFind((f) => (f ? { query: f.query, currentId: null, reveal: f.reveal } : f)), [current]);

  // The files changed in this session; going to one brings its newest card into view, outlined
  // for a moment.
  const changes = useMemo(() => sessionChanges(state.items, state.calls), [state.items, state.calls]);

  // After a task that ended with an error a new attempt may get past (or at the iteration cap),
  // its notice offers to run the model again; not while a message waits (it starts the next task).
  // The button goes once clicked: the focus moves to the message box, where the next step is.
  const { retry: runRetry } = session;
  const composer = useRef<ComposerFocus>(null);
  const retryAt = !state.running && state.queued.length === 0 ? state.retryAt : null;
  const retryLabel = state.ended?.kind === "iteration_cap" ? "Continue" : "Retry";
  const retry = useMemo<RetryOffer | undefined>(
    () =>
      retryAt === null
        ? undefined
        : {
            at: retryAt,
            label: retryLabel,
            run: () => {
              void runRetry();
              composer.current?.focus();
            },
          },
    [retryAt, retryLabel, runRetry],
  );
  const [jump, setJump] = useState<FindView | null>(null);
  const goTo = useCallback((itemId: number) => {
    setJump({ query: "", currentId: itemId, reveal: ++reveals.current });
  }, []);
  useEffect(() => {
    if (!jump) return;
    const id = setTimeout(() => setJump(null), 1500);
    return () => clearTimeout(id);
  }, [jump]);

  // What a file's changes amount to now, in one diff (a stored session's only: the engine reads
  // the checkpoints from the store). Only the newest request's answer is shown.
  const [net, setNet] = useState<NetChangeView | null>(null);
  dialogOpen.current = net !== null;
  const netRequest = useRef(0);
  const showNet = useCallback(
    (file: FileChanges) => {
      if (!current) return;
      const request = ++netRequest.current;
      const base = { path: file.path, callIds: file.callIds };
      setNet({ ...base, state: "loading" });
      backend.fileNetChange(current, file.callIds).then(
        (change) => request === netRequest.current && setNet({ ...base, state: "ready", change }),
        (e) => request === netRequest.current && setNet({ ...base, state: "failed", error: errorMessage(e) }),
      );
    },
    [backend, current],
  );
  const closeNet = useCallback(() => {
    netRequest.current += 1;
    setNet(null);
  }, []);
  // Another conversation: its files are others.
  useEffect(closeNet, [current, closeNet]);

  // What Up recalls in the composer: the person's messages, the waiting ones last.
  const history = useMemo(
    () => [...state.items.flatMap((i) => (i.kind === "user" ? [i.text] : [])), ...state.queued.map((m) => m.text)],
    [state.items, state.queued],
  );
  // Editing an earlier message: a branch with the conversation before it opens, the message in
  // its composer.
  // Offered while no task runs (two agents in one workspace would be a surprise).
  const shownSession = useRef(current);
  shownSession.current = current;
  const branching = useRef(false);
  const branch = useCallback(
    (index: number, text: string) => {
      if (!current || branching.current) return;
      branching.current = true;
      backend.branchSession(current, index, text).then(
        (created) => {
          branching.current = false;
          saveDraft(draftKey(workspace.path, created.id), text);
          refresh();
          // The person may have opened another conversation meanwhile: it stays open.
          if (shownSession.current === current) setCurrent(created.id);
        },
        (e: unknown) => {
          branching.current = false;
          setListError(errorMessage(e));
        },
      );
    },
    [backend, current, workspace.path, refresh],
  );
  const findFiles = useCallback((q: string) => backend.workspaceFiles(workspace.path, q), [backend, workspace.path]);
  const openLink = useCallback((url: string) => void backend.openExternal(url).catch(() => {}), [backend]);
  const missing = settings?.missing ?? null;
  // Why a stored session is not running is what the setup banner says already, when it shows.
  const problem = session.error ?? listError ?? (missing ? null : session.stopped);

  return (
    <div className="workspace" data-testid="workspace">
      <header className="workspace-header">
        <button className="ghost back" onClick={onClose} aria-label="Back to the welcome screen">
          <Logo size={22} /> <span>Workspaces</span>
        </button>
        <div className="workspace-title">
          <h1 data-testid="workspace-name">{workspace.name}</h1>
          <span className="workspace-path muted" data-testid="workspace-path" title={workspace.path}>
            {workspace.path}
          </span>
        </div>
        <button className="ghost" data-testid="open-settings" onClick={onOpenSettings}>
          Settings
        </button>
      </header>
      <div className="workspace-body">
        <Sidebar
          sessions={sessions}
          current={current}
          onNew={() => setCurrent(null)}
          onOpen={(id) => setCurrent(id)}
          onRename={(id, title) => backend.renameSession(id, title).then(refresh, (e: unknown) => setListError(errorMessage(e)))}
          onDelete={(id) => {
            if (id === current) setCurrent(null);
            backend.deleteSession(id).then(() => {
              saveDraft(draftKey(workspace.path, id), "");
              refresh();
            }, (e: unknown) => setListError(errorMessage(e)));
          }}
        />
        <main className="session-pane">
          {missing && (
            <div className="banner banner-action" role="status" data-testid="setup-banner">
              <span>{missing}</span>
              <button className="primary" onClick={onOpenSettings}>
                Open settings
              </button>
            </div>
          )}
          {reloadNotice && (
            <div className="banner banner-action" role="status" data-testid="reload-notice">
              <span>
                The window stopped unexpectedly and was loaded again. Your sessions kept running.
              </span>
              <button className="ghost" onClick={() => setReloadNotice(false)}>
                Dismiss
              </button>
            </div>
          )}
          {toolWarnings.length > 0 && (
            <div className="banner banner-action" role="status" data-testid="tool-warning">
              <span>{toolWarnings.join(" ")}</span>
              <button onClick={onOpenSettings}>Tool servers…</button>
              <button className="ghost" onClick={() => setToolWarnings([])}>
                Dismiss
              </button>
            </div>
          )}
          {problem && (
            <div className="banner banner-error" role="alert" data-testid="error-banner">
              <span>{problem}</span>
              <button
                onClick={() => {
                  session.clearError();
                  setListError(null);
                  refresh();
                }}
              >
                Dismiss
              </button>
            </div>
          )}
          {net && <NetChangeDialog view={net} onClose={closeNet} />}
          {find && (
            <FindBar
              inputRef={findInput}
              query={find.query}
              position={position}
              count={found.length}
              onQuery={findQuery}
              onNext={() => findStep(1)}
              onPrevious={() => findStep(-1)}
              onClose={closeFind}
            />
          )}
          {state.items.length === 0 ? (
            <div className="conversation-empty">
              <div className="panel subtle">
                <h2>Ready when you are</h2>
                <p className="muted">
                  The agent will work inside <code>{workspace.path}</code> and nowhere else. Every edit and command it
                  proposes waits for your approval.
                </p>
              </div>
            </div>
          ) : (
            <Conversation
              items={state.items}
              calls={state.calls}
              actions={actions}
              onOpenLink={openLink}
              onBranch={current && !state.running ? branch : undefined}
              find={find ?? jump ?? undefined}
              retry={retry}
            />
          )}
          {state.paused && (
            <div className="banner banner-error" role="alert">
              <span>{state.paused.message}</span>
              <button className="primary" onClick={() => void op({ op: "continue" })}>
                Continue
              </button>
              <button onClick={() => void op({ op: "cancel" })}>Stop</button>
            </div>
          )}
          {state.running && <TodoList todos={state.todos} />}
          <QueuedMessages
            messages={state.queued}
            onTakeBack={session.stopped ? undefined : (index, m) => void session.takeBack(index, m)}
          />
          <Composer
            draftKey={draftKey(workspace.path, current)}
            disabled={Boolean(missing)}
            running={state.running}
            history={history}
            findFiles={findFiles}
            onSend={session.send}
            restore={state.returned}
            focusRef={composer}
          />
          <StatusBar
            provider={session.provider}
            model={session.model}
            usage={state.usage}
            mode={state.mode}
            running={state.running}
            retrying={state.retrying}
            onMode={(mode) => void op({ op: "set_approval_mode", mode })}
            onStop={() => void op({ op: "cancel" })}
            changes={<ChangesButton files={changes} onGoTo={goTo} onShowNet={current ? showNet : undefined} />}
            stats={<ToolStatsButton stats={state.toolStats} />}
          />
        </main>
      </div>
    </div>
  );
}
