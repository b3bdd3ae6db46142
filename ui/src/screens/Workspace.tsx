// A workspace: its sessions on the left, the conversation with the agent on the right. The
// parts of its work are hooks in ./workspace, one each; tasks (a session with a place to work,
// the inbox, the shown task's panel) are in ./tasks.
import { Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { Backend } from "../backend";
import type { SettingsView } from "../protocol/SettingsView";
import type { WorkspaceView } from "../protocol/WorkspaceView";
import { Composer, type ComposerFocus } from "../components/Composer";
import { FindBar } from "../components/FindBar";
import { ChangesButton } from "../components/ChangesButton";
import { ToolStatsButton } from "../components/ToolStatsButton";
import { sessionChanges } from "../session/changes";
import type { RewindPlan } from "../protocol/RewindPlan";
import { Logo } from "../components/Logo";
import { Sidebar } from "../components/Sidebar";
import { useSidebarCollapse } from "../components/useSidebarCollapse";
import { StatusBar } from "../components/StatusBar";
import { ModePicker } from "../components/ModePicker";
import { AgentSettingsPicker } from "../components/AgentSettingsPicker";
import type { AgentSetting } from "../protocol/AgentSetting";
import { WorkingRow } from "../components/WorkingRow";
import { QueuedMessages } from "../components/QueuedMessages";
import { TodoList } from "../components/TodoList";
import { useSession } from "../session/useSession";
import { draftKey, saveDraft } from "../session/drafts";
import { errorMessage } from "../backend";
import { Banners } from "./workspace/Banners";
import { TurnBanners } from "./workspace/TurnBanners";
import { FirstRun } from "./workspace/FirstRun";
import { HooksConsent } from "./workspace/HooksConsent";
import { approveOnlyWaiting, useApproveShortcut } from "./workspace/useApproveShortcut";
import { useBranch } from "./workspace/useBranch";
import { useCardActions } from "./workspace/useCardActions";
import { useFind } from "./workspace/useFind";
import { useNetChange } from "./workspace/useNetChange";
import { useRetryOffer } from "./workspace/useRetryOffer";
import { useSessionList, type SessionList } from "./workspace/useSessionList";
import { useToolWarnings } from "./workspace/useToolWarnings";
import { useSlashSource } from "./workspace/useSlashSource";
import { openFolderInNewWindow } from "./newWindow";
import { CleanUpMerged } from "./tasks/CleanUpMerged";
import { InboxButton } from "./tasks/InboxButton";
import { useTasks } from "./tasks/useTasks";
import type { TaskSummary } from "../protocol/TaskSummary";
import { lazyPart } from "../lazyPart";

// What an empty workspace does not draw: chunks of their own (../lazyPart.ts). The conversation
// (its cards, diffs and Markdown) is fetched while the page is idle after the first screen.
const Conversation = lazyPart(() => import("../components/Conversation").then((m) => m.Conversation));
const NetChangeDialog = lazyPart(() => import("../components/NetChangeDialog").then((m) => m.NetChangeDialog));
const RewindDialog = lazyPart(() => import("../components/RewindDialog").then((m) => m.RewindDialog));
const NewTask = lazyPart(() => import("./tasks/NewTask").then((m) => m.NewTask));
const TaskPanel = lazyPart(() => import("./tasks/TaskPanel").then((m) => m.TaskPanel));

/**
 * How long after the workspace's first screen the conversation's and the warm-up's code is
 * fetched: compiling it takes the page 20-40 ms, which the first paint and the replies that fill
 * the sidebar come before; the warm-up then starts at once, to be done before a first prompt
 * (warmUp.tsx).
 */
const WARM_UP_LOAD_DELAY_MS = 100;

/** Why Send is off while setup is missing, in a few words under the message box. */
export function sendBlocked(settings: SettingsView | null, missing: string): string {
  const preset = settings?.presets.find((p) => p.preset === settings.settings.provider.preset);
  if (settings && preset?.requires_key && !settings.key_stored) return "Send is off: add the API key first.";
  return `Send is off: ${missing}`;
}

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
  /** Called with the settings after the first-run key field stored a key. */
  onSettings?: (view: SettingsView) => void;
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
  onSettings,
  onSessionShown,
}: Props) {
  const [current, setCurrent] = useState<string | null>(initialSession);
  const [reloadNotice, setReloadNotice] = useState(reloaded);
  // The start-up's last mark (main.tsx): the workspace screen is drawn, before its first paint.
  useLayoutEffect(() => void performance.mark("foreman:workspace"), []);
  const list = useRef<SessionList | null>(null);
  const onStarted = useCallback((id: string) => {
    setCurrent(id);
    list.current?.refresh();
  }, []);
  const defaultMode = settings?.settings.approval_mode ?? "ask";
  const session = useSession(backend, workspace.path, current, defaultMode, onStarted);
  useEffect(() => onSessionShown?.(current), [current, onSessionShown]);
  const { state, op } = session;
  const sessions = useSessionList(backend, workspace.path, state.running);
  list.current = sessions;
  const { refresh, setError: setListError, retitle } = sessions;
  // The open session is named as soon as the engine titles it from its first message.
  const shownId = session.sessionId;
  useEffect(() => {
    if (shownId && state.title) retitle(shownId, state.title);
  }, [shownId, state.title, retitle]);
  const sidebar = useSidebarCollapse();
  const [toolWarnings, dismissWarnings] = useToolWarnings(backend, workspace.path, state.running);
  // Tasks are read again with the session list (which polls while one runs).
  const tasks = useTasks(backend, workspace.path, sessions.sessions);
  const shownTask = current ? tasks.byId.get(current) : undefined;
  // Read again once the shown session has opened: while a task's session opens, its lock is held
  // and it is not listed yet, so the task reads as running in a listing made meanwhile.
  const refreshTasks = tasks.refresh;
  useEffect(() => {
    if (session.sessionId) refreshTasks();
  }, [session.sessionId, refreshTasks]);
  // "New task" asks where it works above the empty conversation, until one is shown.
  const [choosing, setChoosing] = useState(false);
  const [taskModal, setTaskModal] = useState(false);
  const taskStarted = useCallback(
    (task: TaskSummary) => {
      tasks.put(task);
      setChoosing(false);
      setCurrent(task.id);
      refresh();
    },
    [tasks, refresh],
  );

  // While the page is idle, the parts of a first turn are drawn once out of sight, so the turn's
  // own first frame does not pay for the fonts and code it meets first (components/warmUp.tsx).
  const itemCount = useRef(0);
  itemCount.current = state.items.length;
  // The warm-up and the conversation's chunk are fetched once the first screen is on screen.
  useEffect(() => {
    let stop: (() => void) | null = null;
    let gone = false;
    const load = window.setTimeout(() => {
      void Conversation.preload().catch(() => {});
      import("../components/warmUp").then(
        ({ startWarmUp }) => {
          // Its own wait for the first screen is over by now.
          if (!gone) stop = startWarmUp(() => itemCount.current > 0, undefined, 0);
        },
        () => {},
      );
    }, WARM_UP_LOAD_DELAY_MS);
    return () => {
      gone = true;
      window.clearTimeout(load);
      stop?.();
    };
  }, []);

  const actions = useCardActions(op, session.stopped);
  // The open session's badge, from its own events.
  const waitingCount = useMemo(
    () => Object.values(state.calls).filter((c) => c.approval !== null).length,
    [state.calls],
  );
  const currentActivity = useMemo(
    () => ({ running: state.running, waiting: waitingCount }),
    [state.running, waitingCount],
  );
  const net = useNetChange(backend, current);
  // A dialog over the window (a file's net diff) takes the keys: nothing behind it is approved
  // or searched.
  const dialogOpen = useRef(false);
  const [dismissedPlan, setDismissedPlan] = useState<RewindPlan | null>(null);
  const rewinding = state.rewindPlan !== null && state.rewindPlan !== dismissedPlan;
  dialogOpen.current = net.net !== null || rewinding || taskModal;
  useApproveShortcut(state.calls, actions, dialogOpen);
  const find = useFind(state.items, state.calls, current, dialogOpen);

  // The files changed in this session; going to one brings its newest card into view, outlined
  // for a moment.
  const changes = useMemo(
    () => sessionChanges(state.workspaceChanges, state.items, state.calls, state.rewinds),
    [state.workspaceChanges, state.items, state.calls, state.rewinds],
  );
  const composer = useRef<ComposerFocus>(null);
  const modePicker = useRef<{ focus(): void }>(null);
  const retry = useRetryOffer(state, session.retry, composer);

  // What Up recalls in the composer: the user's messages, the waiting ones last.
  const history = useMemo(
    () => [...state.items.flatMap((i) => (i.kind === "user" ? [i.text] : [])), ...state.queued.map((m) => m.text)],
    [state.items, state.queued],
  );
  // Rewinding the workspace to before a message: the engine plans it, the dialog confirms it.
  const rewind = useCallback(
    (index: number) => void op({ op: "rewind", before_message: index, confirm: false }),
    [op],
  );
  const branch = useBranch(backend, workspace.path, current, { refresh, open: setCurrent, failed: setListError });
  const findFiles = useCallback((q: string) => backend.workspaceFiles(workspace.path, q), [backend, workspace.path]);
  const slash = useSlashSource(backend, workspace.path, op, {
    clear: () => {
      setChoosing(false);
      setCurrent(null);
    },
    openSettings: onOpenSettings,
    focusMode: () => modePicker.current?.focus(),
    retry: () => void session.retry(),
  });
  const openLink = useCallback((url: string) => void backend.openExternal(url).catch(() => {}), [backend]);
  const missing = settings?.missing ?? null;
  // Why a stored session is not running is what the setup banner says already, when it shows.
  const problem = session.error ?? sessions.error ?? (missing ? null : session.stopped);
  // Why Send is off is said once: by the banner over a conversation, under the empty one's setup.
  const blocked = missing ? sendBlocked(settings, missing) : null;
  const empty = state.items.length === 0;
  // The external agent that does the shown session's work (null: Foreman's own).
  const agentName = sessions.sessions.find((s) => s.id === current)?.agent ?? null;

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
        <InboxButton
          backend={backend}
          workspace={workspace.path}
          current={current}
          readAgain={sessions.sessions}
          onOpen={(id) => {
            setChoosing(false);
            setCurrent(id);
          }}
          onApprove={() => approveOnlyWaiting(state.calls, actions)}
        />
        <button
          className="ghost"
          data-testid="open-in-new-window"
          title="Open another folder in its own window; this one stays as it is"
          onClick={async () => {
            const error = await openFolderInNewWindow(backend);
            if (error) setListError(error);
          }}
        >
          Open folder in new window…
        </button>
        <button className="ghost" data-testid="open-settings" onClick={onOpenSettings}>
          Settings
        </button>
      </header>
      <div className="workspace-body">
        <Sidebar
          collapsed={sidebar.collapsed}
          onToggle={sidebar.toggle}
          sessions={sessions.sessions}
          current={current}
          currentActivity={currentActivity}
          tasks={tasks.byId}
          footer={<CleanUpMerged backend={backend} workspace={workspace.path} tasks={tasks.tasks} onCleaned={tasks.refresh} />}
          onNew={() => {
            setCurrent(null);
            setChoosing(true);
          }}
          onOpen={(id) => {
            setChoosing(false);
            setCurrent(id);
          }}
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
          <Banners
            sendBlocked={empty ? null : blocked}
            reloaded={reloadNotice}
            onDismissReload={() => setReloadNotice(false)}
            toolWarnings={toolWarnings}
            onDismissWarnings={dismissWarnings}
            problem={problem}
            onDismissProblem={() => {
              session.clearError();
              setListError(null);
              refresh();
            }}
            onOpenSettings={onOpenSettings}
          />
          <Suspense fallback={null}>
            {shownTask && (
              <TaskPanel
                key={shownTask.id}
                backend={backend}
                task={shownTask}
                activity={currentActivity}
                send={session.send}
                onTask={tasks.put}
                refresh={tasks.refresh}
                onModal={setTaskModal}
              />
            )}
          </Suspense>
          <Suspense fallback={null}>{net.net && <NetChangeDialog view={net.net} onClose={net.close} />}</Suspense>
          <Suspense fallback={null}>
            {rewinding && state.rewindPlan && (
              <RewindDialog
                plan={state.rewindPlan}
                onCancel={() => setDismissedPlan(state.rewindPlan)}
                onConfirm={() => {
                  const plan = state.rewindPlan;
                  setDismissedPlan(plan);
                  if (plan) void op({ op: "rewind", before_message: plan.before_message, confirm: true });
                }}
              />
            )}
          </Suspense>
          {find.find && (
            <FindBar
              inputRef={find.input}
              query={find.find.query}
              position={find.position}
              count={find.found.length}
              onQuery={find.query}
              onNext={() => find.step(1)}
              onPrevious={() => find.step(-1)}
              onClose={find.close}
            />
          )}
          {state.items.length === 0 && choosing && current === null && !missing ? (
            <div className="conversation-empty">
              <Suspense fallback={null}>
                <NewTask backend={backend} workspace={workspace.path} onStarted={taskStarted} onCancel={() => setChoosing(false)} />
              </Suspense>
            </div>
          ) : state.items.length === 0 ? (
            <FirstRun
              backend={backend}
              workspacePath={shownTask?.path ?? workspace.path}
              branch={shownTask?.branch}
              mode={state.mode}
              settings={settings}
              onSettings={(view) => onSettings?.(view)}
              onOpenSettings={onOpenSettings}
            />
          ) : (
            <Suspense fallback={<div className="conversation" data-testid="conversation-loading" />}>
              <Conversation
                items={state.items}
                calls={state.calls}
                rewinds={state.rewinds}
                actions={actions}
                onOpenLink={openLink}
                onBranch={current && !state.running ? branch : undefined}
                onRewind={current && !state.running && !session.stopped ? rewind : undefined}
                find={find.shown}
                retry={retry}
                footer={<WorkingRow running={state.running} items={state.items} calls={state.calls} />}
              />
            </Suspense>
          )}
          <TurnBanners
            rewound={state.rewound && !state.running}
            onUndoRewind={() => void op({ op: "undo_rewind" })}
            paused={state.paused}
            onContinue={() => void op({ op: "continue" })}
            onStop={() => void op({ op: "cancel" })}
            hooks={
              state.hookConsent && (
                <HooksConsent
                  view={state.hookConsent}
                  outsideSandbox={settings?.settings.hooks_outside_sandbox ?? false}
                  onAllow={(hash) => void session.answerHooks(hash)}
                  onNotNow={() => void session.answerHooks(null)}
                />
              )
            }
          />
          {state.running && <TodoList todos={state.todos} />}
          <QueuedMessages
            messages={state.queued}
            onTakeBack={session.stopped ? undefined : (index, m) => void session.takeBack(index, m)}
          />
          {blocked && empty && (
            <p className="send-blocked muted small" data-testid="send-blocked" role="status">
              {blocked}
            </p>
          )}
          <Composer
            draftKey={draftKey(workspace.path, current)}
            disabled={Boolean(missing) || shownTask?.state === "queued"}
            running={state.running}
            history={history}
            findFiles={findFiles}
            onSend={session.send}
            slash={slash}
            restore={state.returned}
            focusRef={composer}
            onStop={() => void op({ op: "cancel" })}
            disabledWhy={
              missing
                ? "Set up the model in Settings first"
                : shownTask?.state === "queued"
                  ? "This task is queued: it starts when a slot is free"
                  : undefined
            }
            agentCommands={state.agentCommands}
            controls={
              <>
                <AgentSettingsPicker
                  agent={agentName}
                  settings={state.agentSettings}
                  onChoose={(id, value) => void op({ op: "set_agent_setting", id, value })}
                />
                <ModePicker focusRef={modePicker} mode={state.mode} onMode={(mode) => void op({ op: "set_approval_mode", mode })} />
              </>
            }
          />
          <StatusBar
            provider={agentName ?? session.provider}
            model={agentName ? agentModel(state.agentSettings) : session.model}
            usage={state.usage}
            retrying={state.retrying}
            changes={<ChangesButton files={changes} onGoTo={find.goTo} onShowNet={current ? net.show : undefined} />}
            stats={<ToolStatsButton stats={state.toolStats} />}
          />
        </main>
      </div>
    </div>
  );
}

/** The model an external agent says it runs, by its own name for it. */
function agentModel(settings: readonly AgentSetting[]): string {
  const model = settings.find((s) => s.kind === "model");
  const chosen = model?.choices.find((c) => c.value === model.current);
  return chosen?.name ?? model?.current ?? "its own model";
}
