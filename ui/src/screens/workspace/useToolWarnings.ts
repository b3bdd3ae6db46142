// MCP warnings (too many tools for the model, configuration problems) for the session header,
// read again whenever no task runs.
import { useEffect, useState } from "react";
import type { Backend } from "../../backend";

export function useToolWarnings(backend: Backend, workspace: string, running: boolean): [string[], () => void] {
  const [warnings, setWarnings] = useState<string[]>([]);
  useEffect(() => {
    if (running) return;
    backend.mcpStatus(workspace).then(
      (view) => setWarnings(view.status.warnings),
      () => setWarnings([]),
    );
  }, [backend, workspace, running]);
  return [warnings, () => setWarnings([])];
}
