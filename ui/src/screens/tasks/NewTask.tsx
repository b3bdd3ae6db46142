// "New task": where it should work, asked above the empty conversation. In a new worktree (the
// default when the folder is a git repository with a commit: its own copy on a branch of its
// own, from a base branch, with an optional name) or in this folder (only one task at a time
// works there; a second waits). Enter starts it with what is chosen; Esc leaves the choice, and
// a message sent from the composer then starts a plain session in the folder as before. Who
// does the work: Foreman's own agent, or an external one (Claude Code, Codex, Gemini CLI, an
// agent of agents.json) that runs in Foreman's sandbox under the same approvals.
import { useEffect, useRef, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { AgentInfo } from "../../protocol/AgentInfo";
import type { TaskPlace } from "../../protocol/TaskPlace";
import type { TaskPlaces } from "../../protocol/TaskPlaces";
import type { TaskSummary } from "../../protocol/TaskSummary";

interface Props {
  backend: Backend;
  workspace: string;
  onStarted(task: TaskSummary): void;
  onCancel(): void;
}

/** The base select's value for "where the checkout is now" when it is on no branch. */
const HERE = "";
/** The agent select's value for Foreman's own agent. */
const FOREMAN = "";

/** How an external agent reads in the agent select. */
function agentLabel(agent: AgentInfo): string {
  const outside = agent.unsandboxed ? ", outside the sandbox" : "";
  return agent.path ? `${agent.name}${outside}` : `${agent.name} (not installed)`;
}

export function NewTask({ backend, workspace, onStarted, onCancel }: Props) {
  const [places, setPlaces] = useState<TaskPlaces | null>(null);
  const [place, setPlace] = useState<TaskPlace>("worktree");
  const [base, setBase] = useState(HERE);
  const [name, setName] = useState("");
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [agent, setAgent] = useState(FOREMAN);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const startButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    backend.taskPlaces(workspace).then(
      (p) => {
        if (!live) return;
        setPlaces(p);
        setPlace(p.worktree ? "worktree" : "folder");
        setBase(p.current ?? HERE);
      },
      (e: unknown) => {
        if (!live) return;
        setPlaces({ worktree: false, why_not: errorMessage(e), branches: [] });
        setPlace("folder");
      },
    );
    backend.listAgents().then(
      (list) => live && setAgents(list),
      () => live && setAgents([]),
    );
    return () => {
      live = false;
    };
  }, [backend, workspace]);

  // Start task takes the focus once the places are known (so Enter starts it), unless the user
  // went on elsewhere meanwhile: a message being typed in the composer keeps its keys.
  useEffect(() => {
    if (!places) return;
    const active = document.activeElement;
    if (!active || active === document.body || active.closest('[data-testid="new-session"], [data-testid="new-task"]')) {
      startButton.current?.focus();
    }
  }, [places]);

  const start = async () => {
    if (!places || busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const inWorktree = place === "worktree";
      const task = await backend.startTask(
        workspace,
        place,
        inWorktree && name.trim() ? name.trim() : null,
        inWorktree && base ? base : null,
        agent === FOREMAN ? null : agent,
      );
      onStarted(task);
    } catch (e) {
      setProblem(errorMessage(e));
      setBusy(false);
    }
  };

  const branches = places ? [...new Set([...(places.current ? [places.current] : []), ...places.branches])] : [];
  return (
    <section
      className="panel subtle new-task"
      aria-label="New task"
      data-testid="new-task"
      onKeyDown={(e) => {
        if (e.key === "Escape" && !e.defaultPrevented) {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <h2>New task</h2>
      {places === null ? (
        <p className="muted" role="status">
          Looking at the folder…
        </p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void start();
          }}
        >
          <fieldset className="task-places">
            <legend>Where should it work?</legend>
            <label className={places.worktree ? "task-place" : "task-place disabled"}>
              <input
                type="radio"
                name="task-place"
                value="worktree"
                aria-label="In a new worktree"
                data-testid="place-worktree"
                aria-describedby="task-place-worktree-note"
                checked={place === "worktree"}
                disabled={!places.worktree}
                onChange={() => setPlace("worktree")}
              />
              <span>
                <strong>In a new worktree</strong>
                <span className="muted small" id="task-place-worktree-note">
                  {places.worktree
                    ? " Its own copy on a branch of its own; your folder stays as it is until you merge."
                    : ` Not possible here: ${places.why_not ?? "the folder is not a git repository with a commit."}`}
                </span>
              </span>
            </label>
            <label className="task-place">
              <input
                type="radio"
                name="task-place"
                value="folder"
                aria-label="In this folder"
                data-testid="place-folder"
                aria-describedby="task-place-folder-note"
                checked={place === "folder"}
                onChange={() => setPlace("folder")}
              />
              <span>
                <strong>In this folder</strong>
                <span className="muted small" id="task-place-folder-note">
                  {" "}
                  It changes your files directly.
                </span>
              </span>
            </label>
          </fieldset>
          {place === "folder" && places.folder_busy && (
            <p className="task-warn" role="status" data-testid="folder-busy">
              <span aria-hidden="true">⚠ </span>
              “{places.folder_busy}” works in this folder now. Two agents changing the same files would undo each other's
              work, so this task waits until that one is done.
            </p>
          )}
          {place === "worktree" && (
            <div className="row task-worktree-fields">
              <label className="field">
                <span>From</span>
                <select aria-label="Base branch" data-testid="task-base" value={base} onChange={(e) => setBase(e.target.value)}>
                  {!places.current && <option value={HERE}>the current commit</option>}
                  {branches.map((b) => (
                    <option key={b} value={b}>
                      {b}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Name (optional)</span>
                <input
                  aria-label="Task name"
                  data-testid="task-name"
                  placeholder="e.g. fix-login"
                  spellCheck={false}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                />
              </label>
            </div>
          )}
          <label className="field task-agent">
            <span>Agent</span>
            <select aria-label="Agent" data-testid="task-agent" value={agent} onChange={(e) => setAgent(e.target.value)}>
              <option value={FOREMAN}>Foreman</option>
              {agents.map((a) => (
                <option key={a.name} value={a.name} disabled={!a.path} title={a.path ?? a.install ?? `${a.command} was not found`}>
                  {agentLabel(a)}
                </option>
              ))}
            </select>
          </label>
          {agentNote(agents.find((a) => a.name === agent))}
          {problem && (
            <p className="error-text" role="alert">
              {problem}
            </p>
          )}
          <div className="row end">
            <button type="button" className="ghost" onClick={onCancel}>
              Cancel
            </button>
            <button ref={startButton} type="submit" className="primary" data-testid="start-task" disabled={busy}>
              Start task
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** What the person should know about the chosen external agent. */
function agentNote(agent: AgentInfo | undefined) {
  if (!agent) return null;
  return (
    <p className="muted small" data-testid="task-agent-note">
      {agent.unsandboxed
        ? `${agent.name} runs with your full rights, outside Foreman's sandbox. Its edits and commands still show here, and its requests still ask.`
        : `${agent.name} runs in Foreman's sandbox: it writes only where the task works and its own settings. Its edits and commands show here and ask as your approval mode says.`}
    </p>
  );
}
