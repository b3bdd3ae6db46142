// The composer's `/` menu for this workspace: its catalog (read from the shell each time the
// menu opens) and the built-ins the window runs itself: /compact asks the engine to summarise
// the conversation, /clear shows a new session (as "New task" does, without the place chooser),
// /model opens Settings, where the model picker is, /mode puts the focus on the approval mode
// beside the composer, /retry runs the model again after an error.
import { useMemo, useRef } from "react";
import type { Backend } from "../../backend";
import type { Op } from "../../protocol/Op";
import type { SlashSource } from "../../components/Composer";

interface WindowActions {
  /** Shows a new, empty session. */
  clear(): void;
  /** Opens Settings (its first section holds the model picker). */
  openSettings(): void;
  /** Puts the focus on the approval mode picker. */
  focusMode(): void;
  /** Runs the model again after a task that ended with an error. */
  retry(): void;
}

export function useSlashSource(backend: Backend, workspace: string, op: (op: Op) => Promise<void>, actions: WindowActions): SlashSource {
  // The window's actions may be new functions at each render; the source stays the same one,
  // so the composer does not read the catalog again for it.
  const latest = useRef(actions);
  latest.current = actions;
  return useMemo(
    () => ({
      load: () => backend.slashCatalog(workspace),
      runBuiltIn: (name: string) => {
        if (name === "compact") void op({ op: "compact" });
        else if (name === "clear") latest.current.clear();
        else if (name === "model") latest.current.openSettings();
        else if (name === "mode") latest.current.focusMode();
        else if (name === "retry") latest.current.retry();
      },
    }),
    [backend, workspace, op],
  );
}
