// The workspace's tasks, for the sidebar and the task panel: read at once, whenever the engine
// says they changed, and whenever the session list is read again (which polls while a session
// runs). Only the newest answer is kept.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { TaskSummary } from "../../protocol/TaskSummary";
import { useTasksChanged } from "./useTasksChanged";

export interface TaskList {
  tasks: TaskSummary[];
  /** Each task by its id (its session's id). */
  byId: ReadonlyMap<string, TaskSummary>;
  error: string | null;
  refresh(): void;
  /** Shows `task` as an action returned it, until the next read. */
  put(task: TaskSummary): void;
}

/** `readAgain` changes whenever the tasks should be read again (the session list's identity). */
export function useTasks(backend: Backend, workspace: string, readAgain: unknown): TaskList {
  const [tasks, setTasks] = useState<TaskSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  const refresh = useCallback(() => {
    const mine = ++asked.current;
    backend.listTasks(workspace).then(
      (list) => {
        if (mine !== asked.current) return;
        setTasks(list);
        setError(null);
      },
      (e: unknown) => mine === asked.current && setError(errorMessage(e)),
    );
  }, [backend, workspace]);
  useEffect(refresh, [refresh, readAgain]);
  useTasksChanged(backend, (changed) => {
    if (changed === workspace) refresh();
  });
  const put = useCallback((task: TaskSummary) => {
    setTasks((list) => (list.some((t) => t.id === task.id) ? list.map((t) => (t.id === task.id ? task : t)) : [task, ...list]));
  }, []);
  const byId = useMemo(() => new Map(tasks.map((t) => [t.id, t])), [tasks]);
  return { tasks, byId, error, refresh, put };
}
