// Listens to the engine's "tasks-changed" (the workspace whose tasks changed) while mounted; the
// listener is registered asynchronously, so one removed before it was ready is removed then.
import { useEffect, useRef } from "react";
import type { Backend } from "../../backend";

export function useTasksChanged(backend: Backend, listener: (workspace: string) => void) {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    let unlisten: (() => void) | null = null;
    let gone = false;
    backend.onTasksChanged((workspace) => latest.current(workspace)).then(
      (off) => (gone ? off() : (unlisten = off)),
      () => {},
    );
    return () => {
      gone = true;
      unlisten?.();
    };
  }, [backend]);
}
