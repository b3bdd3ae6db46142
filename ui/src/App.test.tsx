import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "./App";
import type { Backend } from "./backend";
import type { MenuRequest } from "./protocol/MenuRequest";
import type { RecentWorkspace } from "./protocol/RecentWorkspace";
import type { StartupView } from "./protocol/StartupView";
import { settingsView } from "./test/settingsView";
import { taskCommands } from "./test/taskBackend";

// The conversation is a chunk of its own, loaded when first drawn; its first load (the module
// graph transformed cold) can outlast a query's second on a slow machine, which is not what
// these tests are about.
beforeAll(async () => {
  await import("./components/Conversation");
}, 30_000);

/** A backend with the real command shapes, answering from an in-memory list. */
function backendWith(
  startup: StartupView,
  recent: RecentWorkspace[] = [],
): Backend & {
  opened: string[];
  newWindows: (string | null)[];
  welcomes: number;
  menu: (request: MenuRequest) => void;
} {
  let list = [...recent];
  const opened: string[] = [];
  const newWindows: (string | null)[] = [];
  const listeners: ((request: MenuRequest) => void)[] = [];
  return {
    opened,
    newWindows,
    welcomes: 0,
    menu: (request) => listeners.forEach((l) => l(request)),
    startup: async () => startup,
    openWorkspace: async (path) => {
      if (path.includes("missing")) throw { message: `The folder ${path} does not exist.` };
      opened.push(path);
      return { name: path.split("/").pop() ?? path, path };
    },
    chooseFolder: async () => "/home/me/picked",
    openInNewWindow: async (path) => {
      newWindows.push(path);
    },
    async showWelcome() {
      this.welcomes += 1;
    },
    recentWorkspaces: async () => list,
    forgetWorkspace: async (path) => {
      list = list.filter((w) => w.path !== path);
      return list;
    },
    moveDatabaseAside: async () => ({ screen: "welcome", recent: [], error: null }),
    openSession: async () => {
      throw { message: "no sessions in this test" };
    },
    sendOp: async () => {},
    listSessions: async () => [],
    renameSession: async () => {},
    deleteSession: async () => {},
    branchSession: async () => {
      throw new Error("not used");
    },
    fileNetChange: async () => {
      throw new Error("not used");
    },
    showNewSession: async () => {},
    workspaceFiles: async () => [],
    getSettings: async () => {
      throw { message: "no settings in this test" };
    },
    saveSettings: async () => {
      throw { message: "no settings in this test" };
    },
    setApiKey: async () => {
      throw { message: "no keychain in this test" };
    },
    deleteApiKey: async () => {
      throw { message: "no keychain in this test" };
    },
    testConnection: async () => {
      throw { message: "no provider in this test" };
    },
    listModels: async () => [],
    openExternal: async () => {},
    hooksView: async () => ({ hooks: [], warnings: [], consent_hash: null }),
    consentHooks: async () => {},
    slashCatalog: async () => ({ entries: [], warnings: [] }),
    rulesList: async () => [],
    rulesAdd: async () => [],
    rulesRemove: async () => [],
    ruleFiles: async () => ({ files: [], user_file: "/cfg/AGENTS.md" }),
    checkpointsUsage: async () => 0,
    clearCheckpoints: async () => 0,
    mcpStatus: async () => {
      throw { message: "no MCP in this test" };
    },
    mcpApprove: async () => {
      throw { message: "no MCP in this test" };
    },
    mcpRestart: async () => {
      throw { message: "no MCP in this test" };
    },
    mcpSetEnabled: async () => {
      throw { message: "no MCP in this test" };
    },
    mcpSaveUserConfig: async () => {
      throw { message: "no MCP in this test" };
    },
    onFolderDrop: async () => () => {},
    onMenu: async (onRequest) => {
      listeners.push(onRequest);
      return () => listeners.splice(listeners.indexOf(onRequest), 1);
    },
    copyDiagnostics: async () => "Foreman 0.1.0",
    ...taskCommands(),
  };
}

const recent: RecentWorkspace[] = [
  { path: "/home/me/alpha", name: "alpha", last_opened: Date.now() - 5 * 60_000 },
  { path: "/home/me/missing-one", name: "missing-one", last_opened: Date.now() - 86_400_000 },
];

test("the welcome screen lists recent workspaces and opens one", async () => {
  const backend = backendWith({ screen: "welcome", recent, error: null }, recent);
  render(<App backend={backend} />);
  expect(await screen.findByText("alpha")).toBeInTheDocument();
  expect(screen.getByText("5 minutes ago")).toBeInTheDocument();
  await userEvent.click(screen.getByTitle("Open /home/me/alpha"));
  expect(await screen.findByTestId("workspace-name")).toHaveTextContent("alpha");
  expect(backend.opened).toEqual(["/home/me/alpha"]);
});

test("a folder that cannot be opened shows the reason and stays on the welcome screen", async () => {
  const backend = backendWith({ screen: "welcome", recent, error: null }, recent);
  render(<App backend={backend} />);
  await userEvent.click(await screen.findByTitle("Open /home/me/missing-one"));
  expect(await screen.findByRole("alert")).toHaveTextContent("does not exist");
  expect(screen.getByTestId("welcome")).toBeInTheDocument();
});

test("removing a workspace from the list keeps the others", async () => {
  const backend = backendWith({ screen: "welcome", recent, error: null }, recent);
  render(<App backend={backend} />);
  await userEvent.click(await screen.findByLabelText("Remove alpha from the list"));
  await waitFor(() => expect(screen.queryByText("alpha")).not.toBeInTheDocument());
  expect(screen.getByText("missing-one")).toBeInTheDocument();
});

test("the folder picker opens the chosen folder", async () => {
  const backend = backendWith({ screen: "welcome", recent: [], error: null });
  render(<App backend={backend} />);
  expect(await screen.findByText("Folders you open will be listed here.")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Open folder…" }));
  expect(await screen.findByTestId("workspace-name")).toHaveTextContent("picked");
});

test("a command-line folder opens straight into the workspace, and back leads to welcome", async () => {
  const backend = backendWith(
    { screen: "workspace", workspace: { name: "proj", path: "/p/proj" }, session: null, reloaded: false },
    recent,
  );
  render(<App backend={backend} />);
  expect(await screen.findByTestId("workspace-path")).toHaveTextContent("/p/proj");
  await userEvent.click(screen.getByLabelText("Back to the welcome screen"));
  expect(await screen.findByText("alpha")).toBeInTheDocument();
  expect(backend.welcomes).toBe(1);
});

test("a chosen folder opens in a new window from the welcome screen and from a workspace", async () => {
  const backend = backendWith(
    { screen: "workspace", workspace: { name: "proj", path: "/p/proj" }, session: null, reloaded: false },
    recent,
  );
  render(<App backend={backend} />);
  await userEvent.click(await screen.findByRole("button", { name: "Open folder in new window…" }));
  await waitFor(() => expect(backend.newWindows).toEqual(["/home/me/picked"]));
  // This window stays on its workspace.
  expect(screen.getByTestId("workspace-path")).toHaveTextContent("/p/proj");
  await userEvent.click(screen.getByLabelText("Back to the welcome screen"));
  await userEvent.click(await screen.findByRole("button", { name: "Open folder in new window…" }));
  await waitFor(() => expect(backend.newWindows).toEqual(["/home/me/picked", "/home/me/picked"]));
  expect(screen.getByTestId("welcome")).toBeInTheDocument();
  expect(backend.opened).toEqual([]);
});

test("a window taking focus reads the settings again: a key stored in another window counts", async () => {
  const backend = backendWith({
    screen: "workspace",
    workspace: { name: "proj", path: "/p/proj" },
    session: null,
    reloaded: false,
  });
  backend.getSettings = async () => settingsView({ key_stored: false });
  render(<App backend={backend} />);
  expect(await screen.findByTestId("send-blocked")).toHaveTextContent("add the API key first");
  backend.getSettings = async () => settingsView({ key_stored: true, missing: null });
  window.dispatchEvent(new Event("focus"));
  await waitFor(() => expect(screen.queryByTestId("send-blocked")).toBeNull());
});

test("cancelling the folder picker opens no window", async () => {
  const backend = backendWith({ screen: "welcome", recent: [], error: null });
  backend.chooseFolder = async () => null;
  render(<App backend={backend} />);
  await userEvent.click(await screen.findByRole("button", { name: "Open folder in new window…" }));
  await new Promise((r) => setTimeout(r, 20));
  expect(backend.newWindows).toEqual([]);
});

/** Makes `backend` open the stored session "s-7" (one message); returns the sessions asked for. */
function reopensS7(backend: Backend): (string | null)[] {
  const resumed: (string | null)[] = [];
  backend.openSession = async (_workspace, resume) => {
    resumed.push(resume);
    return {
      session_id: "s-7",
      transcript: {
        session_id: "s-7",
        items: [{ kind: "user", text: "rename the config loader" }],
        todos: [],
        usage: { input: 0, output: 0, cache_read: 0, cache_write: 0, requests: 0 },
      },
      was_running: true,
      model: "m",
      provider: "p",
      stopped: null,
    };
  };
  return resumed;
}

test("a page loaded again after a crash reopens the session it showed, with a notice", async () => {
  const backend = backendWith({
    screen: "workspace",
    workspace: { name: "proj", path: "/p/proj" },
    session: "s-7",
    reloaded: true,
  });
  const resumed = reopensS7(backend);
  render(<App backend={backend} />);
  expect(await screen.findByTestId("reload-notice")).toHaveTextContent("loaded again");
  expect(await screen.findByText("rename the config loader")).toBeInTheDocument();
  expect(resumed).toEqual(["s-7"]);
  await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
  expect(screen.queryByTestId("reload-notice")).toBeNull();
});

test("coming back from Settings shows the conversation that was open, without the reload notice", async () => {
  const backend = backendWith({
    screen: "workspace",
    workspace: { name: "proj", path: "/p/proj" },
    session: "s-7",
    reloaded: true,
  });
  const opened = reopensS7(backend);
  backend.getSettings = async () => settingsView({ key_stored: true, missing: null });
  render(<App backend={backend} />);
  expect(await screen.findByText("rename the config loader")).toBeInTheDocument();
  expect(screen.getByTestId("reload-notice")).toBeInTheDocument();
  await userEvent.click(await screen.findByTestId("open-settings"));
  await userEvent.click(await screen.findByTestId("close-settings"));
  expect(await screen.findByText("rename the config loader")).toBeInTheDocument();
  expect(opened).toEqual(["s-7", "s-7"]);
  expect(screen.queryByTestId("reload-notice")).toBeNull();
});

test("a folder from the command line shows no reload notice", async () => {
  const backend = backendWith({
    screen: "workspace",
    workspace: { name: "proj", path: "/p/proj" },
    session: null,
    reloaded: false,
  });
  render(<App backend={backend} />);
  expect(await screen.findByTestId("workspace-path")).toHaveTextContent("/p/proj");
  expect(screen.queryByTestId("reload-notice")).toBeNull();
});

test("a damaged database gets an error screen that names the file and offers to move it aside", async () => {
  const backend = backendWith({
    screen: "store_error",
    path: "/data/foreman.db",
    message: "file is not a database",
    can_move_aside: true,
  });
  render(<App backend={backend} />);
  expect(await screen.findByText("/data/foreman.db")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Move it aside and start fresh" }));
  expect(await screen.findByTestId("welcome")).toBeInTheDocument();
});

test("File → Open Folder… in the menu asks for a folder and opens it, as the button does", async () => {
  const backend = backendWith({ screen: "welcome", recent, error: null }, recent);
  render(<App backend={backend} />);
  await screen.findByText("alpha");
  backend.menu({ action: "open_folder" });
  expect(await screen.findByTestId("workspace-name")).toHaveTextContent("picked");
  expect(backend.opened).toEqual(["/home/me/picked"]);
});

test("File → Open Recent opens that folder, even from another workspace", async () => {
  const backend = backendWith(
    { screen: "workspace", workspace: { name: "beta", path: "/home/me/beta" }, session: null, reloaded: false },
    recent,
  );
  render(<App backend={backend} />);
  expect(await screen.findByTestId("workspace-name")).toHaveTextContent("beta");
  backend.menu({ action: "open_recent", path: "/home/me/alpha" });
  await waitFor(() => expect(screen.getByTestId("workspace-name")).toHaveTextContent("alpha"));
  backend.menu({ action: "open_recent", path: "/home/me/missing-one" });
  expect(await screen.findByTestId("welcome-error")).toHaveTextContent("does not exist");
});
