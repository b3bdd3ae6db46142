import { render, screen, waitFor } from "@testing-library/react";
import type { Backend } from "../backend";
import type { Event } from "../protocol/Event";
import type { Op } from "../protocol/Op";
import userEvent from "@testing-library/user-event";
import { Workspace } from "./Workspace";
import { draftKey, saveDraft } from "../session/drafts";
import { settingsView } from "../test/settingsView";
import { taskCommands } from "../test/taskBackend";

// The conversation is a chunk of its own, loaded when first drawn; its first load (the module
// graph transformed cold) can outlast a query's second on a slow machine, which is not what
// these tests are about.
beforeAll(async () => {
  await import("../components/Conversation");
}, 30_000);

function backend(warnings: string[]): Backend {
  return {
    listSessions: async () => [],
    mcpStatus: async () => ({
      status: { servers: [], enabled_tools: 52, tool_limit: 40, warnings },
      user_file: "/cfg/mcp.json",
      user_text: "",
      workspace_file: "/w/.foreman/mcp.json",
    }),
    workspaceFiles: async () => [],
    slashCatalog: async () => ({ entries: [], warnings: [] }),
    openExternal: async () => {},
    showNewSession: async () => {},
    ...taskCommands(),
  } as unknown as Backend;
}

test("too many tools is shown in the session header with a way to the settings", async () => {
  const warning = "52 tools are enabled; models choose less accurately above 40.";
  render(
    <Workspace backend={backend([warning])} workspace={{ name: "w", path: "/w" }} settings={null} onClose={() => {}} onOpenSettings={() => {}} />,
  );
  expect(await screen.findByTestId("tool-warning")).toHaveTextContent(warning);
  expect(screen.getByRole("button", { name: "Tool servers…" })).toBeInTheDocument();
});

test("no warning, no banner", async () => {
  render(<Workspace backend={backend([])} workspace={{ name: "w", path: "/w" }} settings={null} onClose={() => {}} onOpenSettings={() => {}} />);
  await screen.findByText("Ready when you are");
  expect(screen.queryByTestId("tool-warning")).toBeNull();
});

test("deleting a session drops its unsent draft", async () => {
  const api = backend([]);
  const deleted: string[] = [];
  api.listSessions = async () =>
    deleted.length > 0 ? [] : [{ id: "s1", workspace_path: "/w", title: "Old work", created_at: 1, updated_at: 2 }];
  api.deleteSession = async (id) => {
    deleted.push(id);
  };
  saveDraft(draftKey("/w", "s1"), "half a thought");
  saveDraft(draftKey("/w", "s2"), "another");
  render(<Workspace backend={api} workspace={{ name: "w", path: "/w" }} settings={null} onClose={() => {}} onOpenSettings={() => {}} />);
  await userEvent.click(await screen.findByLabelText("Delete Old work"));
  await userEvent.click(screen.getByLabelText("Confirm deleting Old work"));
  await waitFor(() => expect(localStorage.getItem(draftKey("/w", "s1"))).toBeNull());
  expect(deleted).toEqual(["s1"]);
  expect(localStorage.getItem(draftKey("/w", "s2"))).toBe("another");
});

/** `backend([])` with a stored session "s1" that opens without running, for `stopped`. */
function stoppedSession(stopped: string): Backend {
  const api = backend([]);
  api.listSessions = async () => [{ id: "s1", workspace_path: "/w", title: "Old work", created_at: 1, updated_at: 2 }];
  api.openSession = async () => ({
    session_id: "s1",
    transcript: {
      session_id: "s1",
      items: [{ kind: "user", text: "the earlier request" }],
      todos: [],
      usage: { input: 0, output: 0, cache_read: 0, cache_write: 0, requests: 0 },
    },
    was_running: false,
    model: "claude-sonnet-4-5",
    provider: "Anthropic",
    stopped,
  });
  return api;
}

/** Renders the workspace with the stored session "s1" of `api` open. */
function openStored(api: Backend, settings = settingsView()) {
  render(
    <Workspace
      backend={api}
      workspace={{ name: "w", path: "/w" }}
      settings={settings}
      initialSession="s1"
      onClose={() => {}}
      onOpenSettings={() => {}}
    />,
  );
}

test("a stored session opened without a key shows its history under the setup banner, not a second error", async () => {
  openStored(stoppedSession("No API key for Anthropic. Add it in Settings."));
  expect(await screen.findByText("the earlier request")).toBeInTheDocument();
  // Said once: the banner is why Send is off, with no second line over the message box.
  expect(screen.getByTestId("setup-banner")).toHaveTextContent("Send is off: add the API key first.Open settings");
  expect(screen.getAllByTestId("send-blocked")).toHaveLength(1);
  expect(screen.getByTestId("setup-banner")).toContainElement(screen.getByTestId("send-blocked"));
  expect(screen.queryByTestId("error-banner")).toBeNull();
  // The banners are a column of their own before the conversation, not inside or over it.
  const banners = screen.getByTestId("banners");
  const conversation = screen.getByTestId("conversation");
  expect(banners.parentElement).toBe(conversation.parentElement);
  expect(banners.compareDocumentPosition(conversation) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
});

test("why a stored session is not running is shown when the setup banner does not say it", async () => {
  const why = "Cannot read the keychain: the Secret Service is not running.";
  openStored(stoppedSession(why), settingsView({ missing: null, key_stored: true }));
  expect(await screen.findByTestId("error-banner")).toHaveTextContent(why);
  await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
  expect(screen.queryByTestId("error-banner")).toBeNull();
});

test("editing an earlier message opens a branch with the message in its composer", async () => {
  const api = stoppedSession("No API key for Anthropic. Add it in Settings.");
  const branched: [string, number, string][] = [];
  const opened: (string | null)[] = [];
  const open = api.openSession;
  api.openSession = async (workspace, resume, onEvent) => {
    opened.push(resume);
    return open(workspace, resume, onEvent);
  };
  api.branchSession = async (sessionId, index, text) => {
    branched.push([sessionId, index, text]);
    return { id: "s2", workspace_path: "/w", title: "↳ Old work", created_at: 3, updated_at: 3 };
  };
  openStored(api);
  await screen.findByText("the earlier request");
  await userEvent.click(screen.getByTestId("branch-button"));
  await userEvent.click(screen.getByTestId("confirm-branch"));
  await waitFor(() => expect(opened).toEqual(["s1", "s2"]));
  expect(branched).toEqual([["s1", 0, "the earlier request"]]);
  expect(screen.getByRole("textbox")).toHaveValue("the earlier request");
});

test("Ctrl+F finds the entries that hold the text, newest first, and steps between them", async () => {
  const api = stoppedSession("No API key for Anthropic. Add it in Settings.");
  const open = api.openSession;
  api.openSession = async (workspace, resume, onEvent) => {
    const opened = await open(workspace, resume, onEvent);
    opened.transcript.items = [
      { kind: "user", text: "first request about the parser" },
      { kind: "assistant", text: "Looked at it." },
      { kind: "user", text: "second request about the Parser" },
      { kind: "assistant", text: "Changed it." },
    ];
    return opened;
  };
  openStored(api);
  await screen.findByText("second request about the Parser");
  await userEvent.keyboard("{Control>}f{/Control}");
  const input = await screen.findByTestId("find-input");
  await waitFor(() => expect(input).toHaveFocus());
  await userEvent.type(input, "parser");
  expect(screen.getByTestId("find-count")).toHaveTextContent("2 of 2");
  const found = () => document.querySelector(".entry-found")?.textContent;
  expect(found()).toContain("second request");
  await userEvent.keyboard("{Enter}");
  expect(screen.getByTestId("find-count")).toHaveTextContent("1 of 2");
  expect(found()).toContain("first request");
  await userEvent.keyboard("{Shift>}{Enter}{/Shift}");
  expect(screen.getByTestId("find-count")).toHaveTextContent("2 of 2");
  await userEvent.clear(input);
  await userEvent.type(input, "nothing like it");
  expect(screen.getByTestId("find-count")).toHaveTextContent("No matches");
  expect(found()).toBeUndefined();
  await userEvent.keyboard("{Escape}");
  expect(screen.queryByTestId("find-bar")).toBeNull();
});

/**
 * Opens the stored session "s1" as one whose engine still runs (a reloaded page): `emit` plays
 * its events, `ops` collects what the window sends.
 */
async function openRunning(api = stoppedSession("")): Promise<{ emit: (event: Event) => void; ops: Op[] }> {
  const session = { emit: (_event: Event) => {}, ops: [] as Op[] };
  const open = api.openSession;
  api.openSession = async (workspace, resume, onEvent) => {
    session.emit = onEvent;
    return { ...(await open(workspace, resume, onEvent)), was_running: true, stopped: null };
  };
  api.sendOp = async (_id, op) => void session.ops.push(op);
  openStored(api, settingsView({ missing: null, key_stored: true }));
  await screen.findByText("the earlier request");
  return { emit: (event) => session.emit(event), ops: session.ops };
}

test("a running session is named in the sidebar as the engine titles it, not Untitled until its task ends", async () => {
  const api = stoppedSession("");
  api.listSessions = async () => [{ id: "s1", workspace_path: "/w", title: "", created_at: 1, updated_at: 2 }];
  const { emit } = await openRunning(api);
  const title = () => screen.getByTestId("session-item").querySelector(".session-title")?.textContent;
  await waitFor(() => expect(title()).toBe("Untitled"));
  emit({ seq: 1, type: "session_titled", title: "Fix the parser" } as unknown as Event);
  await waitFor(() => expect(title()).toBe("Fix the parser"));
});

test("a rewind to undo and a paused task stack under the conversation in a column of their own", async () => {
  const { emit, ops } = await openRunning();
  emit({ seq: 1, type: "rewound", before_message: 0, undone: false, changes: [{ path: "a.txt", kind: "modified", diff: null }] } as unknown as Event);
  emit({ seq: 2, type: "paused", tool: "bash", message: "The command failed three times." } as unknown as Event);
  const banners = await screen.findByTestId("turn-banners");
  await waitFor(() => expect(banners).toHaveTextContent("The command failed three times."));
  expect(banners).toContainElement(screen.getByTestId("rewound-banner"));
  const conversation = screen.getByTestId("conversation");
  expect(banners.parentElement).toBe(conversation.parentElement);
  expect(conversation.compareDocumentPosition(banners) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  // The notice says what was rewound, once, and not what the agent is told.
  expect(conversation).toHaveTextContent("Rewound 1 file to how they were before your message 1.");
  expect(document.body).not.toHaveTextContent("The agent is told");
  await userEvent.click(screen.getByRole("button", { name: "Undo rewind" }));
  expect(ops).toContainEqual({ op: "undo_rewind" });
});

test("messages sent while the agent works wait above the composer until the engine takes each", async () => {
  const { emit, ops } = await openRunning();
  // Reattached to the running engine (a reloaded page): its snapshot names the waiting message.
  const usage = { total_input: 0, total_output: 0, total_cache_read: 0, total_cache_write: 0, cache_saved_usd: null, cost_usd: null, context_used: 0, context_window: 0 };
  emit({ seq: 7, type: "snapshot", session_id: "s1", mode: "ask", running: true, messages: 1, calls: [], usage, queued: ["sent before the reload"] } as unknown as Event);
  const waiting = () => screen.queryAllByTestId("queued-message").map((li) => li.textContent);
  await waitFor(() => expect(waiting()).toEqual(["sent before the reload"]));
  await userEvent.type(screen.getByRole("textbox"), "and one more");
  await userEvent.click(screen.getByRole("button", { name: "Queue" }));
  expect(ops).toContainEqual({ op: "user_message", text: "and one more" });
  await waitFor(() => expect(waiting()).toEqual(["sent before the reload", "and one more"]));
  // Up recalls the newest message, also while it waits.
  await userEvent.click(screen.getByRole("textbox"));
  await userEvent.keyboard("{ArrowUp}");
  expect(screen.getByRole("textbox")).toHaveValue("and one more");
  await userEvent.clear(screen.getByRole("textbox"));
  const said = () => screen.getAllByTestId("user-message").map((m) => m.textContent);
  expect(said().some((t) => t?.includes("and one more"))).toBe(false);
  emit({ seq: 8, type: "user_message_taken", text: "sent before the reload", number: 1 } as unknown as Event);
  await waitFor(() => expect(waiting()).toEqual(["and one more"]));
  expect(said().some((t) => t?.includes("sent before the reload"))).toBe(true);
  // The user stops the task: what still waits comes back into the composer, not run.
  emit({ seq: 9, type: "queued_messages_returned", texts: ["and one more"] } as unknown as Event);
  await waitFor(() => expect(screen.getByRole("textbox")).toHaveValue("and one more"));
  expect(screen.queryByTestId("queued-messages")).toBeNull();
});

test("a task that ended with an error a new attempt may get past offers Retry on its notice", async () => {
  const { emit, ops } = await openRunning();
  const usage = { total_input: 0, total_output: 0, total_cache_read: 0, total_cache_write: 0, cache_saved_usd: null, cost_usd: null, context_used: 0, context_window: 0 };
  emit({ seq: 1, type: "snapshot", session_id: "s1", mode: "ask", running: true, messages: 1, calls: [], usage, queued: [] } as unknown as Event);
  const dropped = "The connection to Anthropic dropped in the middle of the answer (reset). What already arrived is kept; you can retry.";
  emit({ seq: 2, type: "task_ended", reason: { kind: "error", message: dropped, retryable: true } } as unknown as Event);
  const button = await screen.findByRole("button", { name: "Retry" });
  // In plain words, the engine's message behind Details.
  const alert = screen.getByRole("alert");
  expect(alert).toHaveTextContent("Connection dropped mid-answer");
  expect(screen.queryByText(dropped)).toBeNull();
  await userEvent.click(screen.getByRole("button", { name: "Details" }));
  expect(screen.getByText(dropped)).toBeInTheDocument();
  await userEvent.click(button);
  expect(ops).toContainEqual({ op: "retry" });
  // The button goes; the focus goes to the message box rather than to the page.
  expect(screen.getByRole("textbox")).toHaveFocus();
  // Asked once: the offer goes at once, and stays gone when the task it started ends well.
  await waitFor(() => expect(screen.queryByRole("button", { name: "Retry" })).toBeNull());
  emit({ seq: 3, type: "task_started" } as unknown as Event);
  // Once the model answers again the error is past: the notice turns grey, no longer an alert.
  expect(screen.getByTestId("notice")).toHaveClass("notice-error");
  emit({ seq: 4, type: "text_delta", text: "and the rest." } as unknown as Event);
  await waitFor(() => expect(screen.getByTestId("notice")).toHaveClass("notice-recovered"));
  expect(screen.getByTestId("notice")).toHaveTextContent("Reconnected after: Connection dropped mid-answer");
  expect(screen.queryByRole("alert")).toBeNull();
  emit({ seq: 5, type: "task_ended", reason: { kind: "final_answer", text: "done" } } as unknown as Event);
  // A rejected key is not offered a retry: it would fail the same way.
  emit({ seq: 6, type: "task_started" } as unknown as Event);
  emit({ seq: 7, type: "task_ended", reason: { kind: "error", message: "Anthropic rejected the API key (HTTP 401)", retryable: false } } as unknown as Event);
  expect(await screen.findByRole("alert")).toHaveTextContent("The provider refused the key");
  expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  // At the iteration cap the same op continues.
  emit({ seq: 8, type: "task_started" } as unknown as Event);
  emit({ seq: 9, type: "task_ended", reason: { kind: "iteration_cap", max_iterations: 50 } } as unknown as Event);
  await userEvent.click(await screen.findByRole("button", { name: "Continue" }));
  expect(ops.filter((o) => o.op === "retry")).toHaveLength(2);
});

test("on first run the key field is in the empty conversation, not a banner on top of it, and Send says why it is off", async () => {
  const api = backend([]);
  const stored: [string, string][] = [];
  api.setApiKey = async (preset: string, key: string) => (stored.push([preset, key]), settingsView({ key_stored: true, missing: null }));
  const onSettings = vi.fn();
  render(
    <Workspace
      backend={api}
      workspace={{ name: "w", path: "/w" }}
      settings={settingsView()}
      onClose={() => {}}
      onOpenSettings={() => {}}
      onSettings={onSettings}
    />,
  );
  const setup = await screen.findByTestId("setup-banner");
  expect(setup.closest(".conversation-empty")).not.toBeNull();
  expect(screen.queryByText("Ready when you are")).toBeNull();
  expect(screen.getByTestId("send-blocked")).toHaveTextContent("Send is off: add the API key first.");
  await userEvent.type(screen.getByTestId("first-run-key"), "sk-first");
  await userEvent.click(screen.getByTestId("first-run-save-key"));
  expect(stored).toEqual([["anthropic", "sk-first"]]);
  expect(onSettings).toHaveBeenCalledWith(expect.objectContaining({ key_stored: true }));
  expect(screen.getByTestId("first-run-key")).toHaveValue("");
});

test("when setup lacks something other than a key, Send names it and the empty state offers Settings", async () => {
  const open = vi.fn();
  render(
    <Workspace
      backend={backend([])}
      workspace={{ name: "w", path: "/w" }}
      settings={settingsView({ key_stored: true, missing: "Choose a model." })}
      onClose={() => {}}
      onOpenSettings={open}
    />,
  );
  expect(await screen.findByTestId("send-blocked")).toHaveTextContent("Send is off: Choose a model.");
  expect(screen.queryByTestId("first-run-key")).toBeNull();
  await userEvent.click(screen.getByTestId("first-run-settings"));
  expect(open).toHaveBeenCalled();
});

test("the workspace's hooks ask for consent above the composer; Allow sends it, Not now hides it", async () => {
  const { emit, ops } = await openRunning();
  const view = {
    hooks: [
      { event: "PreToolUse", matcher: "Bash", command: "python3 .claude/hooks/block_rm.py", timeout_secs: 60, source: ".claude/settings.json", consent: "waiting" },
      { event: "PostToolUse", matcher: null, command: "./fmt.sh", timeout_secs: 60, source: ".claude/settings.local.json", consent: "waiting" },
      { event: "Stop", matcher: null, command: "notify-send done", timeout_secs: 60, source: "~/.claude/settings.json", consent: "not_needed" },
    ],
    warnings: [],
    consent_hash: "h1",
  };
  emit({ seq: 1, type: "hooks_await_consent", view } as unknown as Event);
  const prompt = await screen.findByTestId("hooks-consent");
  expect(prompt).toHaveTextContent("This workspace has 2 hooks that run commands on your computer");
  // Only the workspace's hooks wait: the user's own need no consent.
  const rows = screen.getAllByTestId("hooks-consent-hook").map((r) => r.textContent);
  expect(rows).toEqual(["PreToolUseBashpython3 .claude/hooks/block_rm.py.claude/settings.json", "PostToolUseevery tool./fmt.sh.claude/settings.local.json"]);
  // The conversation stays in view with it.
  expect(screen.getByText("the earlier request")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Allow these hooks" }));
  expect(ops).toContainEqual({ op: "consent_hooks", hash: "h1" });
  await waitFor(() => expect(screen.queryByTestId("hooks-consent")).toBeNull());
  // A changed set asks again; Not now hides it and sends nothing.
  emit({ seq: 2, type: "hooks_await_consent", view: { ...view, consent_hash: "h2" } } as unknown as Event);
  await userEvent.click(await screen.findByRole("button", { name: "Not now" }));
  await waitFor(() => expect(screen.queryByTestId("hooks-consent")).toBeNull());
  expect(ops.filter((o) => o.op === "consent_hooks")).toHaveLength(1);
});

test("/compact from the / menu asks the engine to compact, and is not sent as a message", async () => {
  const { ops } = await openRunning();
  await userEvent.clear(screen.getByRole("textbox"));
  await userEvent.type(screen.getByRole("textbox"), "/compact");
  await userEvent.keyboard("{Enter}{Enter}");
  await waitFor(() => expect(ops).toContainEqual({ op: "compact" }));
  expect(ops.some((o) => o.op === "user_message")).toBe(false);
});
