// A task's run button: the repository's `run` command (a dev server, say) started in the task's
// worktree, confined with the network on, its port in FOREMAN_PORT. While it runs, its output
// shows below (polled once a second) with a Stop button; when it ends, how it ended.
import { useEffect, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { TaskRun } from "../../protocol/TaskRun";
import type { TaskSummary } from "../../protocol/TaskSummary";

interface Props {
  backend: Backend;
  task: TaskSummary;
}

export function RunButton({ backend, task }: Props) {
  const [run, setRun] = useState<TaskRun | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const command = task.run_command;
  useEffect(() => {
    let live = true;
    const read = () =>
      backend
        .taskRun(task.id)
        .then((r) => live && setRun(r))
        .catch(() => {});
    void read();
    const timer = window.setInterval(read, 1000);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [backend, task.id]);
  if (!command || task.place !== "worktree" || task.missing) return null;
  const start = async () => {
    setProblem(null);
    try {
      setRun(await backend.startTaskRun(task.id));
    } catch (e) {
      setProblem(errorMessage(e));
    }
  };
  const stop = async () => {
    try {
      await backend.stopTaskRun(task.id);
    } catch (e) {
      setProblem(errorMessage(e));
    }
  };
  const ended = run && !run.running ? (run.exit_code === undefined ? "stopped" : `exited with ${run.exit_code}`) : null;
  return (
    <div className="task-run" data-testid="task-run">
      <div className="task-run-head">
        {run?.running ? (
          <button type="button" onClick={() => void stop()} data-testid="stop-task-run">
            Stop
          </button>
        ) : (
          <button type="button" onClick={() => void start()} title={`Runs ${command} in the worktree`} data-testid="start-task-run">
            Run
          </button>
        )}
        <code className="muted small">{command}</code>
        {task.port !== undefined && <span className="muted small">port {task.port}</span>}
        {ended && <span className="muted small" data-testid="task-run-ended">{ended}</span>}
      </div>
      {problem && <p className="warn-text small">{problem}</p>}
      {run && run.output && (
        <pre className="task-run-output" data-testid="task-run-output">
          {run.output}
        </pre>
      )}
    </div>
  );
}
