// MCP warnings (too many tools for the model, configuration problems) for the session header,
// read again whenever no task runs. Reading them starts the workspace's MCP servers, which the
// first screen does not need: the read waits until the page is idle (at most `READ_DELAY_MS`),
// so a workspace's first frame does not share the machine with the servers' start.
import { useEffect, useState } from "react";
import type { Backend } from "../../backend";

/** The longest wait for an idle moment before the warnings are read. */
export const READ_DELAY_MS = 300;

export function useToolWarnings(backend: Backend, workspace: string, running: boolean): [string[], () => void] {
  const [warnings, setWarnings] = useState<string[]>([]);
  useEffect(() => {
    if (running) return;
    let gone = false;
    const read = () =>
      backend.mcpStatus(workspace).then(
        (view) => !gone && setWarnings(view.status.warnings),
        () => !gone && setWarnings([]),
      );
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(read, { timeout: READ_DELAY_MS });
      return () => {
        gone = true;
        window.cancelIdleCallback(handle);
      };
    }
    const handle = window.setTimeout(read, 0);
    return () => {
      gone = true;
      window.clearTimeout(handle);
    };
  }, [backend, workspace, running]);
  return [warnings, () => setWarnings([])];
}
