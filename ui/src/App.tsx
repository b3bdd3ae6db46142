import { Suspense, useCallback, useEffect, useState } from "react";
import type { Backend } from "./backend";
import { errorMessage } from "./backend";
import type { RecentWorkspace } from "./protocol/RecentWorkspace";
import type { WorkspaceView } from "./protocol/WorkspaceView";
import { Welcome } from "./screens/Welcome";
import { Workspace } from "./screens/Workspace";
import { StoreError } from "./screens/StoreError";
import { lazyPart } from "./lazyPart";
import type { SettingsView } from "./protocol/SettingsView";

/** Settings, with the MCP servers' panel: a chunk of its own, loaded when first opened. */
const Settings = lazyPart(() => import("./screens/Settings").then((m) => m.Settings));

type Screen =
  | { kind: "loading" }
  | { kind: "welcome"; recent: RecentWorkspace[]; error: string | null }
  | { kind: "workspace"; workspace: WorkspaceView; session?: string | null; reloaded?: boolean }
  | { kind: "store_error"; path: string; message: string; canMoveAside: boolean };

export function App({ backend }: { backend: Backend }) {
  const [screen, setScreen] = useState<Screen>({ kind: "loading" });
  const [settings, setSettings] = useState<SettingsView | null>(null);
  const [showSettings, setShowSettings] = useState(false);

  useEffect(() => {
    backend.getSettings().then(setSettings, () => setSettings(null));
  }, [backend]);

  // Settings are the app's, and another window may have changed them (a key stored there): a
  // window taking focus reads them again, unless its own Settings screen is open with your edits.
  useEffect(() => {
    if (showSettings) return;
    const reread = () => void backend.getSettings().then(setSettings, () => {});
    window.addEventListener("focus", reread);
    return () => window.removeEventListener("focus", reread);
  }, [backend, showSettings]);

  // A folder dropped on the window, or chosen from File → Open Folder… or Open Recent in the
  // native menu, opens as the workspace; one that cannot be opened leads to welcome with why.
  const openFolder = useCallback(
    async (path: string) => {
      try {
        setScreen({ kind: "workspace", workspace: await backend.openWorkspace(path) });
      } catch (e) {
        setScreen({ kind: "welcome", recent: await backend.recentWorkspaces().catch(() => []), error: errorMessage(e) });
      }
    },
    [backend],
  );

  useEffect(() => {
    const unlisten: (() => void)[] = [];
    let gone = false;
    const keep = (u: () => void) => (gone ? u() : unlisten.push(u));
    backend.onFolderDrop(openFolder).then(keep, () => {});
    backend
      .onMenu(async (request) => {
        switch (request.action) {
          case "open_folder": {
            // The same flow as the welcome screen's "Open folder…" button.
            const path = await backend.chooseFolder().catch(() => null);
            if (path) await openFolder(path);
            break;
          }
          case "open_recent":
            await openFolder(request.path);
            break;
        }
      })
      .then(keep, () => {});
    return () => {
      gone = true;
      unlisten.forEach((u) => u());
    };
  }, [backend, openFolder]);

  const showStartup = useCallback(
    (view: Awaited<ReturnType<Backend["startup"]>>) => {
      switch (view.screen) {
        case "workspace":
          setScreen({ kind: "workspace", workspace: view.workspace, session: view.session, reloaded: view.reloaded });
          break;
        case "welcome":
          setScreen({ kind: "welcome", recent: view.recent, error: view.error });
          break;
        case "store_error":
          setScreen({
            kind: "store_error",
            path: view.path,
            message: view.message,
            canMoveAside: view.can_move_aside,
          });
          break;
      }
    },
    [],
  );

  useEffect(() => {
    backend.startup().then(
      (view) => {
        performance.mark("foreman:startup-reply");
        showStartup(view);
      },
      (e: unknown) => setScreen({ kind: "welcome", recent: [], error: errorMessage(e) }),
    );
  }, [backend, showStartup]);

  // The workspace screen is left for Settings and drawn anew after it: it comes back to the
  // conversation it showed (and a reload notice, once seen, does not come back with it).
  const rememberSession = useCallback((session: string | null) => {
    setScreen((s) =>
      s.kind === "workspace" && (s.session !== session || s.reloaded) ? { ...s, session, reloaded: false } : s,
    );
  }, []);

  const backToWelcome = useCallback(async () => {
    // The window's title and a page loaded again follow what it shows.
    backend.showWelcome().catch(() => {});
    try {
      setScreen({ kind: "welcome", recent: await backend.recentWorkspaces(), error: null });
    } catch (e) {
      setScreen({ kind: "welcome", recent: [], error: errorMessage(e) });
    }
  }, [backend]);

  if (showSettings && settings) {
    return (
      <Suspense fallback={<div className="loading" aria-busy="true" />}>
        <Settings
          backend={backend}
          view={settings}
          workspace={screen.kind === "workspace" ? screen.workspace.path : null}
          sessionId={screen.kind === "workspace" ? screen.session : null}
          onChange={setSettings}
          onClose={() => setShowSettings(false)}
        />
      </Suspense>
    );
  }

  switch (screen.kind) {
    case "loading":
      return <div className="loading" aria-busy="true" />;
    case "welcome":
      return (
        <Welcome
          backend={backend}
          recent={screen.recent}
          initialError={screen.error}
          onOpened={(workspace) => setScreen({ kind: "workspace", workspace })}
        />
      );
    case "workspace":
      return (
        <Workspace
          backend={backend}
          workspace={screen.workspace}
          initialSession={screen.session ?? null}
          reloaded={screen.reloaded ?? false}
          settings={settings}
          onClose={backToWelcome}
          onSessionShown={rememberSession}
          onSettings={setSettings}
          onOpenSettings={() =>
            backend.getSettings().then(
              (view) => {
                setSettings(view);
                setShowSettings(true);
              },
              () => setShowSettings(true),
            )
          }
        />
      );
    case "store_error":
      return (
        <StoreError
          path={screen.path}
          message={screen.message}
          canMoveAside={screen.canMoveAside}
          onMoveAside={async () => showStartup(await backend.moveDatabaseAside())}
        />
      );
  }
}
