import type { Event } from "../protocol/Event";
import type { Transcript } from "../protocol/Transcript";
import {
  addUserMessage,
  fromTranscript,
  initialState,
  markTakingBack,
  reduceAll,
  startRetry,
  type SessionState,
} from "./state";
import { ev, resetSeq, summary, transcriptOf } from "../test/events";

beforeEach(() => resetSeq());

test("a streamed write call fills in, asks, runs and finishes", () => {
  const events = [
    ev({ type: "session_started", session_id: "s", model: "m", workspace: "/w", mode: "ask", usage: summary() }),
    ev({ type: "task_started" }),
    ev({ type: "text_delta", text: "Writing " }),
    ev({ type: "text_delta", text: "the file." }),
    ev({ type: "tool_call_created", call_id: "c1", name: "write", state: "streaming" }),
    ev({ type: "tool_call_updated", call_id: "c1", args: [{ op: "set", path: [], value: {} }, { op: "set", path: ["path"], value: "a.txt" }] }),
    ev({ type: "tool_call_updated", call_id: "c1", args: [{ op: "set", path: ["content"], value: "hel" }] }),
    ev({ type: "tool_call_updated", call_id: "c1", args: [{ op: "append", path: ["content"], text: "lo" }] }),
  ];
  let s = reduceAll(addUserMessage(initialState(), "write it"), events, 0);
  expect(s.items.map((i) => i.kind)).toEqual(["user", "assistant", "tool"]);
  expect(s.items[1]).toMatchObject({ text: "Writing the file." });
  expect(s.calls.c1?.args).toEqual({ path: "a.txt", content: "hello" });
  s = reduceAll(
    s,
    [
      ev({ type: "tool_call_updated", call_id: "c1", state: "validating", args: [] }),
      ev({
        type: "approval_requested", call_id: "c1", tool: "write", preview_hash: "h1", reason: "write a.txt",
        arguments: { path: "a.txt", content: "hello" }, preview: null, suggested_rule: "write(a.txt)",
      }),
    ],
    1,
  );
  expect(s.calls.c1?.state).toBe("awaiting_approval");
  expect(s.calls.c1?.approval).toMatchObject({ previewHash: "h1", suggestedRule: "write(a.txt)" });
  s = reduceAll(
    s,
    [
      ev({ type: "tool_call_updated", call_id: "c1", state: "scheduled", args: [] }),
      ev({ type: "tool_call_updated", call_id: "c1", state: "executing", args: [], status: "Writing a.txt" }),
      ev({ type: "tool_call_finished", call_id: "c1", state: "succeeded", result: "wrote a.txt", is_error: false }),
      ev({ type: "task_ended", reason: { kind: "final_answer", text: "ok" } }),
    ],
    5,
  );
  expect(s.calls.c1).toMatchObject({ state: "succeeded", result: "wrote a.txt", approval: null, startedAt: 5, endedAt: 5 });
  expect(s.running).toBe(false);
  expect(s.needsSnapshot).toBe(false);
});

test("an approval request without arguments keeps the ones the patches built", () => {
  const diff = { path: "a.txt", kind: "create", added: 1, removed: 0, hunks: [], omitted_hunks: 0, approximate: false, lines_left_out: 0 };
  const s = reduceAll(
    initialState(),
    [
      ev({ type: "tool_call_created", call_id: "c1", name: "write", state: "streaming" }),
      ev({ type: "tool_call_updated", call_id: "c1", args: [{ op: "set", path: [], value: { path: "a.txt", content: "hi" } }] }),
      ev({
        type: "approval_requested", call_id: "c1", tool: "write", preview_hash: "h1", reason: "write a.txt",
        arguments: null, preview: { path: "a.txt", created: true, lines_added: 1, lines_removed: 0, diff }, suggested_rule: null,
      }),
    ],
    0,
  );
  expect(s.calls.c1?.args).toEqual({ path: "a.txt", content: "hi" });
  expect(s.calls.c1?.state).toBe("awaiting_approval");
});

test("a gap in seq asks for a snapshot, and the snapshot restores the calls", () => {
  let s = reduceAll(
    initialState(),
    [
      ev({ type: "session_started", session_id: "s", model: "m", workspace: "/w", mode: "ask", usage: summary() }),
      ev({ type: "task_started" }),
    ],
    0,
  );
  resetSeq(5);
  s = reduceAll(s, [ev({ type: "tool_call_output", call_id: "zz", text: "x" })], 0);
  expect(s.needsSnapshot).toBe(true);
  s = reduceAll(
    s,
    [
      ev({
        type: "snapshot", session_id: "s", mode: "yolo", running: true, messages: 3, usage: summary(), queued: ["sent before the gap"],
        calls: [{ call_id: "b1", name: "bash", state: "executing", arguments: { command: "ls" }, preview: null, preview_hash: null, status: "Running ls", result: null, is_error: false, images: null }],
      }),
    ],
    0,
  );
  expect(s.needsSnapshot).toBe(false);
  expect(s.mode).toBe("yolo");
  expect(s.calls.b1).toMatchObject({ name: "bash", state: "executing", status: "Running ls" });
  expect(s.items.filter((i) => i.kind === "tool")).toHaveLength(1);
  // This window shows the messages it sent already.
  expect(s.items.filter((i) => i.kind === "user")).toHaveLength(0);
});

test("attaching to a running session shows the user's messages that wait for the next request apart", () => {
  const transcript = transcriptOf([{ kind: "user", text: "go" }]);
  const s = reduceAll(
    fromTranscript(transcript, "ask"),
    [
      ev({
        type: "snapshot", session_id: "s", mode: "ask", running: true, messages: 2, usage: summary(),
        calls: [{ call_id: "w1", name: "write", state: "awaiting_approval", arguments: { path: "a.txt" }, preview: null, preview_hash: null, status: null, result: null, is_error: false, images: null }],
        queued: ["and then this", "and this"],
      }),
    ],
    0,
  );
  expect(s.items.map((i) => (i.kind === "user" ? i.text : i.kind))).toEqual(["go", "tool"]);
  expect(s.queued.map((m) => m.text)).toEqual(["and then this", "and this"]);
  const ids = [...s.items.map((i) => i.id), ...s.queued.map((m) => m.id)];
  expect(new Set(ids).size).toBe(4);
  // A later snapshot (a gap) changes nothing here: the window shows them already.
  const again = reduceAll(
    s,
    [ev({ type: "snapshot", session_id: "s", mode: "ask", running: true, messages: 2, usage: summary(), calls: [], queued: ["and then this", "and this"] })],
    0,
  );
  expect(again.queued).toEqual(s.queued);
  expect(again.items).toHaveLength(2);
});

test("a window reattached during a Stop shows the messages it holds waiting, then gives them back", () => {
  const transcript = transcriptOf([{ kind: "user", text: "go" }]);
  let s = reduceAll(
    fromTranscript(transcript, "ask"),
    [ev({ type: "snapshot", session_id: "s", mode: "ask", running: true, messages: 1, usage: summary(), calls: [], queued: ["held by the stop"] })],
    0,
  );
  expect(s.queued.map((m) => m.text)).toEqual(["held by the stop"]);
  s = reduceAll(
    s,
    [
      ev({ type: "task_ended", reason: { kind: "cancelled" } }),
      ev({ type: "queued_messages_returned", texts: ["held by the stop"] }),
    ],
    0,
  );
  expect(s.queued).toEqual([]);
  expect(s.returned.map((r) => r.texts)).toEqual([["held by the stop"]]);
  expect(s.items.at(-1)).toMatchObject({ kind: "notice", text: expect.stringContaining("back in the message box") });
});

test("a reattached window shows a message taken as it attached once: from the transcript or from the event", () => {
  const transcript = (texts: string[]): Transcript => ({
    session_id: "s",
    items: texts.map((text) => ({ kind: "user" as const, text })),
    todos: [],
    usage: { input: 0, output: 0, cache_read: 0, cache_write: 0, requests: 1 },
  });
  const snapshot = (queued: string[]) =>
    ev({ type: "snapshot", session_id: "s", mode: "ask", running: true, messages: 2, usage: summary(), calls: [], queued });
  const users = (s: SessionState) => s.items.flatMap((i) => (i.kind === "user" ? [i.text] : []));
  // The snapshot still listed Q, the transcript was read after Q was stored.
  let s = reduceAll(fromTranscript(transcript(["go", "Q"]), "ask"), [snapshot(["Q", "R"]), ev({ type: "user_message_taken", text: "Q", number: 1 })], 0);
  expect(users(s)).toEqual(["go", "Q"]);
  expect(s.queued.map((m) => m.text)).toEqual(["R"]);
  s = reduceAll(s, [ev({ type: "user_message_taken", text: "R", number: 2 })], 0);
  expect(users(s)).toEqual(["go", "Q", "R"]);
  expect(s.queued).toEqual([]);
  // The transcript was read before Q was stored, and Q was taken before the snapshot.
  resetSeq();
  s = reduceAll(fromTranscript(transcript(["go"]), "ask"), [ev({ type: "user_message_taken", text: "Q", number: 1 }), snapshot([])], 0);
  expect(users(s)).toEqual(["go", "Q"]);
  expect(s.queued).toEqual([]);
  expect(new Set(s.items.map((i) => i.id)).size).toBe(s.items.length);
});

test("a message sent while a task runs waits apart, then joins the conversation where the model read it", () => {
  let s = reduceAll(addUserMessage(initialState(), "first"), [ev({ type: "user_message_taken", text: "first", number: 0 }), ev({ type: "task_started" })], 0);
  expect(s.items).toEqual([{ kind: "user", id: 1, text: "first" }]);
  expect(s.queued).toEqual([]);
  s = addUserMessage(s, "second");
  s = addUserMessage(s, "third");
  expect(s.items).toHaveLength(1);
  expect(s.queued.map((m) => m.text)).toEqual(["second", "third"]);
  s = reduceAll(s, [ev({ type: "text_delta", text: "working on the first" })], 0);
  // A sub-agent's message is its own: nothing of the user's joins.
  s = reduceAll(s, [ev({ type: "user_message_taken", text: "second", number: 0, parent_call_id: "t1" })], 0);
  expect(s.queued).toHaveLength(2);
  s = reduceAll(s, [ev({ type: "user_message_taken", text: "second", number: 1 })], 0);
  expect(s.items.map((i) => (i.kind === "user" || i.kind === "assistant" ? i.text : i.kind))).toEqual([
    "first",
    "working on the first",
    "second",
  ]);
  expect(s.queued.map((m) => m.text)).toEqual(["third"]);
  // The task ends before reading the third, and a fourth is sent right then: it waits behind
  // the third, which the engine takes first, starting the next task with it.
  s = addUserMessage(reduceAll(s, [ev({ type: "task_ended", reason: { kind: "final_answer", text: "done" } })], 0), "fourth");
  expect(s.queued.map((m) => m.text)).toEqual(["third", "fourth"]);
  s = reduceAll(
    s,
    [
      ev({ type: "user_message_taken", text: "third", number: 2 }),
      ev({ type: "task_started" }),
      ev({ type: "user_message_taken", text: "fourth", number: 3 }),
    ],
    0,
  );
  expect(s.queued).toEqual([]);
  expect(s.items.filter((i) => i.kind === "user").map((i) => (i.kind === "user" ? i.text : ""))).toEqual(["first", "second", "third", "fourth"]);
  expect(s.running).toBe(true);
});
test("old and repeated events are ignored", () => {
  const first = ev({ type: "text_delta", text: "a" });
  let s = reduceAll(initialState(), [first, first], 0);
  expect(s.items).toEqual([{ kind: "assistant", id: 1, text: "a" }]);
  s = reduceAll(s, [{ ...first, seq: 0 } as Event], 0);
  expect(s.items).toHaveLength(1);
});

test("files_changed advances the seq and changes nothing else", () => {
  const started = reduceAll(initialState(), [ev({ type: "session_started", session_id: "s", model: "m", workspace: "/w", mode: "ask", usage: summary() })], 0);
  const s = reduceAll(started, [ev({ type: "files_changed", paths: ["src/a.rs"], more: 0 })], 0);
  expect(s).toEqual({ ...started, lastSeq: 2 });
});

test("command output accumulates and todo_write sets the task list", () => {
  const s = reduceAll(
    initialState(),
    [
      ev({ type: "tool_call_created", call_id: "b", name: "bash", state: "streaming" }),
      ev({ type: "tool_call_output", call_id: "b", text: "one\n" }),
      ev({ type: "tool_call_output", call_id: "b", text: "two\n" }),
      ev({ type: "tool_call_created", call_id: "t", name: "todo_write", state: "streaming" }),
      ev({ type: "tool_call_updated", call_id: "t", args: [{ op: "set", path: [], value: { todos: [{ id: "1", content: "Fix it", status: "in_progress" }] } }] }),
      ev({ type: "tool_call_finished", call_id: "t", state: "succeeded", result: "ok", is_error: false }),
      ev({ type: "todos_changed", todos: [{ id: "1", content: "Fix it", status: "in_progress" }] }),
    ],
    0,
  );
  expect(s.calls.b?.output).toBe("one\ntwo\n");
  expect(s.todos).toEqual([{ id: "1", content: "Fix it", status: "in_progress" }]);
});

test("errors and the end of a task become notices", () => {
  const s = reduceAll(
    initialState(),
    [
      ev({ type: "error", message: "could not save" }),
      ev({ type: "task_ended", reason: { kind: "iteration_cap", max_iterations: 3 } }),
    ],
    0,
  );
  expect(s.items).toMatchObject([
    { kind: "notice", tone: "error", text: "could not save" },
    { kind: "notice", tone: "error" },
  ]);
});

test("usage events carry the engine's cost and context; a missing price reads as unknown", () => {
  let s = reduceAll(
    initialState(),
    [
      ev({ type: "session_started", session_id: "s", model: "claude-sonnet-4", workspace: "/w", mode: "ask", usage: summary() }),
      ev({ type: "usage", input: 1200, output: 5, cache_read: 0, cache_write: 30000, ...summary({ total_input: 1200, total_output: 5, total_cache_write: 30000, cache_saved_usd: -0.0225, cost_usd: 0.116175, context_used: 31200 }) }),
    ],
    0,
  );
  expect(s.usage).toEqual({
    input: 1200, output: 5, totalInput: 1200, totalOutput: 5, cost: 0.116175, contextUsed: 31200, contextWindow: 200_000,
    cacheRead: 0, cacheSaved: -0.0225,
  });
  s = reduceAll(s, [ev({ type: "usage", input: 10, output: 1, cache_read: 0, cache_write: 0, ...summary({ cost_usd: null, context_used: 10 }) })], 0);
  expect(s.usage.cost).toBe("unknown");
  expect(s.usage.contextUsed).toBe(10);
});

test("a stored session shows its totals, then the engine's summary when it starts or re-attaches", () => {
  const transcript: Transcript = {
    session_id: "s", items: [], todos: [], usage: { input: 1500, output: 10, cache_read: 30000, cache_write: 31500, requests: 2 },
  };
  let s = fromTranscript(transcript, "ask");
  expect(s.usage).toMatchObject({ totalInput: 1500, totalOutput: 10, cost: null, contextWindow: 0 });
  const resumed = summary({ total_input: 1500, total_output: 10, cost_usd: 0.131775, context_used: 31800, context_window: 100_000 });
  s = reduceAll(s, [ev({ type: "session_started", session_id: "s", model: "m", workspace: "/w", mode: "ask", usage: resumed })], 0);
  expect(s.usage).toMatchObject({ totalInput: 1500, cost: 0.131775, contextUsed: 31800, contextWindow: 100_000 });
  const attached = reduceAll(
    fromTranscript(transcript, "ask"),
    [ev({ type: "snapshot", session_id: "s", mode: "ask", running: true, messages: 4, calls: [], usage: resumed, queued: [] })],
    0,
  );
  expect(attached.usage).toMatchObject({ cost: 0.131775, contextUsed: 31800, contextWindow: 100_000 });
});

test("the images of a call are merged into it, kept by later patches, and restored from a snapshot", () => {
  const images = { shown: [{ mime_type: "image/png", data: "iVBORw0KGgo=" }], left_out: [] };
  let s = reduceAll(
    initialState(),
    [
      ev({ type: "tool_call_created", call_id: "m1", name: "srv__chart", state: "streaming" }),
      ev({ type: "tool_call_updated", call_id: "m1", state: "executing", args: [] }),
      ev({ type: "tool_call_updated", call_id: "m1", args: [], images }),
      ev({ type: "tool_call_finished", call_id: "m1", state: "succeeded", result: "[image image/png, 8 B]", is_error: false }),
    ],
    0,
  );
  expect(s.calls.m1?.images).toEqual(images);
  s = reduceAll(
    initialState(),
    [
      ev({
        type: "snapshot", session_id: "s", mode: "ask", running: false, messages: 2, usage: summary(), queued: [],
        calls: [{ call_id: "m1", name: "srv__chart", state: "succeeded", arguments: {}, preview: null, preview_hash: null, status: null, result: "[image image/png, 8 B]", is_error: false, images }],
      }),
    ],
    0,
  );
  expect(s.calls.m1?.images).toEqual(images);
});

test("the person's decision on a call comes from the finished event and from a stored session; older rows have none", () => {
  const decision = { kind: "rejected", reason: "Keep it" };
  const live = reduceAll(
    initialState(),
    [
      ev({ type: "tool_call_created", call_id: "w1", name: "write", state: "streaming" }),
      ev({ type: "tool_call_finished", call_id: "w1", state: "rejected", result: "The user rejected…", is_error: true, decision }),
    ],
    0,
  );
  expect(live.calls.w1?.decision).toEqual(decision);
  const stored = (extra: Record<string, unknown>) => ({
    kind: "tool" as const,
    call: { call_id: "w1", name: "write", state: "rejected", arguments: {}, preview: null, preview_hash: null, status: null, result: "…", is_error: true, ...extra },
  });
  const reopened = fromTranscript(transcriptOf([stored({ decision })] as unknown as Transcript["items"]), "ask");
  expect(reopened.calls.w1?.decision).toEqual(decision);
  // A session stored before decisions were kept.
  const older = fromTranscript(transcriptOf([stored({})] as unknown as Transcript["items"]), "ask");
  expect(older.calls.w1?.decision).toBeNull();
});

test("compaction shows as notices: the summarising, then what was compacted", () => {
  const s = reduceAll(
    initialState(),
    [
      ev({ type: "context_compacting", messages: 12, tokens_before: 180_400 }),
      ev({ type: "context_compacted", elided_outputs: 3, removed_messages: 12, tokens_before: 180_400, tokens_after: 9_250 }),
      ev({ type: "context_compacted", elided_outputs: 1, removed_messages: 0, tokens_before: 950, tokens_after: 700 }),
    ],
    0,
  );
  expect(s.items).toMatchObject([
    { kind: "notice", tone: "info", text: "Summarising 12 earlier messages to fit the model's context window…" },
    {
      kind: "notice",
      tone: "info",
      text: "Context compacted: 12 earlier messages replaced by a summary, 3 old tool outputs shortened (about 180.4k → 9.3k tokens).",
    },
    { kind: "notice", tone: "info", text: "Context compacted: 1 old tool output shortened (about 950 → 700 tokens)." },
  ]);
});

test("a sub-agent's text and calls nest in its new_task card", () => {
  const child = (msg: Record<string, unknown>) => ev({ ...msg, parent_call_id: "t1" });
  const s = reduceAll(
    addUserMessage(initialState(), "go"),
    [
      ev({ type: "task_started" }),
      ev({ type: "tool_call_created", call_id: "t1", name: "new_task", state: "streaming" }),
      ev({ type: "tool_call_updated", call_id: "t1", state: "executing", args: [] }),
      child({ type: "turn_started", iteration: 1 }),
      child({ type: "text_delta", text: "Reading " }),
      child({ type: "text_delta", text: "first." }),
      child({ type: "tool_call_created", call_id: "c1", name: "write", state: "streaming" }),
      child({
        type: "approval_requested", call_id: "c1", tool: "write", preview_hash: "h1", reason: "ask mode asks",
        arguments: { path: "a.txt", content: "x" }, preview: null, suggested_rule: null,
      }),
      child({ type: "tool_call_finished", call_id: "c1", state: "succeeded", result: "Wrote a.txt", is_error: false }),
      ev({ type: "tool_call_finished", call_id: "t1", state: "succeeded", result: "wrote a.txt", is_error: false }),
    ],
    0,
  );
  // The top level has the user's message and the new_task card only.
  expect(s.items.map((i) => i.kind)).toEqual(["user", "tool"]);
  const t1 = s.calls.t1!;
  expect(t1.children.map((i) => i.kind)).toEqual(["assistant", "tool"]);
  expect(t1.children[0]).toMatchObject({ text: "Reading first." });
  expect(t1.children[1]).toMatchObject({ callId: "c1" });
  expect(s.calls.c1).toMatchObject({ parentId: "t1", state: "succeeded", result: "Wrote a.txt" });
  expect(s.running).toBe(true);
});

test("a stored session nests a sub-agent's calls under its new_task call", () => {
  const snap = (call_id: string, name: string, parent_call_id: string | null) => ({
    call_id, name, state: "succeeded" as const, arguments: {}, preview: null, preview_hash: null, status: null,
    result: "ok", is_error: false, images: null, parent_call_id,
  });
  const t: Transcript = {
    session_id: "s",
    items: [
      { kind: "user", text: "go" },
      { kind: "tool", call: snap("t1", "new_task", null) },
      { kind: "tool", call: snap("c1", "read", "t1") },
      { kind: "tool", call: snap("d", "attempt_completion", null) },
    ],
    todos: [],
    usage: { input: 0, output: 0, cache_read: 0, cache_write: 0, requests: 0 },
  } as unknown as Transcript;
  const s = fromTranscript(t, "ask");
  expect(s.items.map((i) => (i.kind === "tool" ? i.callId : i.kind))).toEqual(["user", "t1", "d"]);
  expect(s.calls.t1!.children).toEqual([{ kind: "tool", id: expect.any(Number), callId: "c1" }]);
  expect(s.calls.c1!.parentId).toBe("t1");
});

test("a file change's undo: offered, refused with a reason, then done", () => {
  let s = reduceAll(
    initialState(),
    [
      ev({ type: "tool_call_created", call_id: "c1", name: "write", state: "streaming" }),
      ev({ type: "tool_call_finished", call_id: "c1", state: "succeeded", result: "wrote a.txt", is_error: false }),
      ev({ type: "undo_changed", call_id: "c1", undo: "available" }),
    ],
    0,
  );
  expect(s.calls.c1).toMatchObject({ undo: "available", undoRefused: null });
  s = reduceAll(s, [ev({ type: "undo_refused", call_id: "c1", reason: "a.txt changed after this call" })], 1);
  expect(s.calls.c1).toMatchObject({ undo: "available", undoRefused: "a.txt changed after this call" });
  // Part of it undone: the rest still undoes, and a snapshot keeps a refusal's reason.
  s = reduceAll(s, [ev({ type: "undo_changed", call_id: "c1", undo: "partly" })], 2);
  s = reduceAll(s, [ev({ type: "undo_refused", call_id: "c1", reason: "a.txt changed again" })], 2);
  const partly = {
    call_id: "c1", name: "write", state: "succeeded", arguments: {}, preview: null, preview_hash: null, status: null,
    result: "wrote a.txt", is_error: false, images: null, parent_call_id: null, undo: "partly",
  };
  s = reduceAll(s, [ev({ type: "snapshot", session_id: "s", mode: "ask", running: false, messages: 2, usage: summary(), calls: [partly], queued: [] })], 2);
  expect(s.calls.c1).toMatchObject({ undo: "partly", undoRefused: "a.txt changed again" });
  s = reduceAll(s, [ev({ type: "undo_changed", call_id: "c1", undo: "done" })], 2);
  expect(s.calls.c1).toMatchObject({ undo: "done", undoRefused: null });
});

test("Stop gives the waiting messages back: they leave the waiting list for the composer", () => {
  let s = reduceAll(addUserMessage(initialState(), "first"), [ev({ type: "user_message_taken", text: "first", number: 0 }), ev({ type: "task_started" })], 0);
  s = addUserMessage(addUserMessage(s, "second"), "third");
  s = reduceAll(s, [ev({ type: "queued_messages_returned", texts: ["second"] })], 0);
  expect(s.queued.map((m) => m.text)).toEqual(["third"]);
  expect(s.returned.map((r) => r.texts)).toEqual([["second"]]);
  const before = s.returned[0];
  s = reduceAll(s, [ev({ type: "queued_messages_returned", texts: ["third"] })], 0);
  expect(s.queued).toEqual([]);
  expect(s.returned.map((r) => r.texts)).toEqual([["second"], ["third"]]);
  expect(s.returned[0]).toBe(before);
  expect(s.items.filter((i) => i.kind === "user")).toHaveLength(1);
  expect(s.items.filter((i) => i.kind === "notice").map((i) => (i.kind === "notice" ? i.text : ""))).toEqual([
    "The message that waited is back in the message box; the agent did not read it.",
    "The message that waited is back in the message box; the agent did not read it.",
  ]);
});

test("a waiting message the user took back leaves the list quietly; of two alike, the one asked for goes", () => {
  let s = reduceAll(addUserMessage(initialState(), "go"), [ev({ type: "user_message_taken", text: "go", number: 0 }), ev({ type: "task_started" })], 0);
  s = addUserMessage(addUserMessage(addUserMessage(addUserMessage(s, "twin"), "other"), "twin"), "last");
  const [oldTwin, other, newTwin, last] = s.queued.map((m) => m.id);
  s = markTakingBack(markTakingBack(s, newTwin!, true), last!, true);
  expect(s.queued.map((m) => Boolean(m.takingBack))).toEqual([false, false, true, true]);
  const entries = s.items.length;
  // Both answers in one frame: both reach the composer, in order, and no notice is added.
  s = reduceAll(
    s,
    [ev({ type: "queued_messages_returned", texts: ["twin"] }), ev({ type: "queued_messages_returned", texts: ["last"] })],
    0,
  );
  expect(s.queued.map((m) => m.id)).toEqual([oldTwin, other]);
  expect(s.returned.map((r) => r.texts)).toEqual([["twin"], ["last"]]);
  expect(s.items).toHaveLength(entries);
});

test("a take-back the model beat: the message joins the conversation as read, the error frees the others", () => {
  let s = reduceAll(addUserMessage(initialState(), "go"), [ev({ type: "user_message_taken", text: "go", number: 0 }), ev({ type: "task_started" })], 0);
  s = addUserMessage(addUserMessage(s, "twin"), "twin");
  const [older, newer] = s.queued.map((m) => m.id);
  s = markTakingBack(s, newer!, true);
  // The engine reads messages in order: the older twin is the one read.
  s = reduceAll(s, [ev({ type: "user_message_taken", text: "twin", number: 1 })], 0);
  expect(s.queued.map((m) => [m.id, Boolean(m.takingBack)])).toEqual([[newer, true]]);
  expect(s.items.some((i) => i.id === older && i.kind === "user")).toBe(true);
  s = reduceAll(s, [ev({ type: "error", message: "That message cannot be taken back: the agent has read it already." })], 0);
  expect(s.queued.map((m) => [m.id, Boolean(m.takingBack)])).toEqual([[newer, false]]);
  expect(s.returned).toEqual([]);
});

test("the notice of a task's end offers a retry only after an error a new attempt may get past, or the cap", () => {
  const ended = (reason: Record<string, unknown>, from = initialState()) =>
    reduceAll(from, [ev({ type: "task_started" }), ev({ type: "task_ended", reason })], 0);
  let s = ended({ kind: "error", message: "dropped", retryable: true });
  const notice = s.items.at(-1)!;
  expect(notice).toMatchObject({ kind: "notice", tone: "error", text: "dropped" });
  expect(s.retryAt).toBe(notice.id);
  // Asking takes the offer away at once, so it is asked once; the engine's task_started follows.
  s = startRetry(s);
  expect(s.retryAt).toBeNull();
  s = reduceAll(s, [ev({ type: "task_started" })], 0);
  expect(s.running).toBe(true);
  s = reduceAll(s, [ev({ type: "task_ended", reason: { kind: "final_answer", text: "ok" } })], 0);
  expect(s.retryAt).toBeNull();
  expect(ended({ kind: "error", message: "bad key", retryable: false }).retryAt).toBeNull();
  expect(ended({ kind: "cancelled" }).retryAt).toBeNull();
  const capped = ended({ kind: "iteration_cap", max_iterations: 5 });
  expect(capped.retryAt).toBe(capped.items.at(-1)!.id);
  // A message of the user's starts the next task instead.
  expect(addUserMessage(capped, "go on").retryAt).toBeNull();
});

test("a window that attaches after a task it may retry ended shows that end with the offer", () => {
  const transcript = transcriptOf([{ kind: "user", text: "go" }, { kind: "assistant", text: "The first half" }]);
  const reason = { kind: "error", message: "The connection dropped. What already arrived is kept; you can retry.", retryable: true };
  const snapshot = (retry: unknown) =>
    ev({ type: "snapshot", session_id: "s", mode: "ask", running: false, messages: 2, usage: summary(), calls: [], queued: [], retry });
  let s = reduceAll(fromTranscript(transcript, "ask"), [snapshot(reason)], 0);
  const notice = s.items.at(-1)!;
  expect(notice).toMatchObject({ kind: "notice", tone: "error", text: reason.message });
  expect(s.retryAt).toBe(notice.id);
  // A later snapshot (a gap) that still offers it changes nothing; one that does not drops it.
  expect(reduceAll(s, [snapshot(reason)], 0).items).toHaveLength(s.items.length);
  s = reduceAll(s, [snapshot(null)], 0);
  expect(s.retryAt).toBeNull();
  expect(s.items).toHaveLength(3);
});

test("a reopened conversation says why its tasks ended and where its context was compacted; a stored end takes the retry offer", () => {
  const dropped = { kind: "error" as const, message: "The connection dropped.", retryable: true };
  const transcript = transcriptOf([
      { kind: "user", text: "go" },
      { kind: "task_ended", reason: { kind: "cancelled" } },
      { kind: "user", text: "again" },
      { kind: "compacted", elided_outputs: 0, removed_messages: 3, tokens_before: 12400, tokens_after: 3100 },
      { kind: "assistant", text: "The first half" },
      { kind: "task_ended", reason: dropped },
    ]);
  const opened = fromTranscript(transcript, "ask");
  const live = reduceAll(initialState(), [ev({ type: "context_compacted", elided_outputs: 0, removed_messages: 3, tokens_before: 12400, tokens_after: 3100 })], 0);
  expect(opened.items.map((i) => (i.kind === "tool" || i.kind === "hook" ? i.kind : `${i.kind}: ${i.text}`))).toEqual([
    "user: go",
    "notice: Stopped.",
    "user: again",
    "notice: Context compacted: 3 earlier messages replaced by a summary (about 12.4k → 3.1k tokens).",
    "assistant: The first half",
    "notice: The connection dropped.",
  ]);
  // Said as the live conversation said it.
  expect(opened.items[3]).toEqual({ ...live.items[0], id: opened.items[3]!.id });
  // A window that read the stored notice as the event arrived shows it once.
  const compacted = ev({ type: "context_compacted", elided_outputs: 0, removed_messages: 3, tokens_before: 12400, tokens_after: 3100 });
  const attaching = fromTranscript(transcriptOf(transcript.items.slice(0, 4)), "ask");
  expect(reduceAll(attaching, [compacted], 0).items).toHaveLength(4);
  // A sub-agent's compaction is not the conversation's.
  const child = { ...compacted, parent_call_id: "t1" } as Event;
  const summarising = { ...ev({ type: "context_compacting", messages: 3, tokens_before: 12400 }), parent_call_id: "t1" } as Event;
  expect(reduceAll(initialState(), [summarising, child], 0).items).toHaveLength(0);
  const s = reduceAll(
    opened,
    [ev({ type: "snapshot", session_id: "s", mode: "ask", running: false, messages: 3, usage: summary(), calls: [], queued: [], retry: dropped })],
    0,
  );
  expect(s.items).toHaveLength(6);
  expect(s.retryAt).toBe(s.items[5]!.id);
});

test("a window attaching as a task ended shows that end once: the transcript read it stored", () => {
  const transcript = transcriptOf([{ kind: "user", text: "go" }, { kind: "task_ended", reason: { kind: "cancelled" } }]);
  const s = reduceAll(fromTranscript(transcript, "ask"), [ev({ type: "task_ended", reason: { kind: "cancelled" } })], 0);
  expect(s.items.map((i) => i.kind)).toEqual(["user", "notice"]);
  // Once attached, every end is a new one.
  const ready = reduceAll(s, [ev({ type: "session_started", session_id: "s", model: "m", workspace: "/w", mode: "ask", usage: summary() })], 0);
  expect(reduceAll(ready, [ev({ type: "task_ended", reason: { kind: "cancelled" } })], 0).items).toHaveLength(3);
});

test("a rewind clears its plan, says what it did and can be undone until the next task", () => {
  let s = reduceAll(initialState(), [{ seq: 1, type: "session_started", session_id: "s", model: "m", workspace: "/w", mode: "ask", usage: { total_input: 0, total_output: 0, cost_usd: null, context_used: 0, context_window: 200000, requests: 0 } } as unknown as Event], 0);
  const plan = { before_message: 0, changes: [{ path: "a.txt", kind: "modified" as const, diff: null }], changed_outside: [], skipped: [] };
  s = reduceAll(s, [{ seq: 2, type: "rewind_planned", plan } as Event], 0);
  expect(s.rewindPlan).toEqual(plan);
  s = reduceAll(s, [{ seq: 3, type: "rewound", before_message: 0, undone: false, changes: plan.changes } as Event], 0);
  expect(s.rewindPlan).toBeNull();
  expect(s.rewound).toBe(true);
  // The notice says what happened to the files, once; what the model is told is not the person's business.
  expect(s.items.at(-1)).toMatchObject({ kind: "notice", text: "Rewound 1 file to how they were before your message 1." });
  s = reduceAll(s, [{ seq: 4, type: "rewound", before_message: 0, undone: true, changes: plan.changes } as Event], 0);
  expect(s.rewound).toBe(false);
  expect(s.items.at(-1)).toMatchObject({ kind: "notice", text: "Undid the rewind: 1 file back as they were before it." });
});

test("the session's title comes with the engine's session_titled, not at the task's end; a sub-agent's is not it", () => {
  let s = initialState();
  expect(s.title).toBeNull();
  const titled = (seq: number, title: string, parent?: string) =>
    ({ seq, type: "session_titled", title, ...(parent ? { parent_call_id: parent } : {}) }) as unknown as Event;
  s = reduceAll(s, [titled(1, "Fix the parser")], 0);
  expect(s.title).toBe("Fix the parser");
  expect(s.items).toEqual([]);
  s = reduceAll(s, [titled(2, "Look around", "t1")], 0);
  expect(s.title).toBe("Fix the parser");
  s = reduceAll(s, [titled(3, "  ")], 0);
  expect(s.title).toBe("Fix the parser");
  // An event newer than the page changes nothing (it used to leave no state at all).
  s = reduceAll(s, [{ seq: 4, type: "something_new" } as unknown as Event], 0);
  expect(s).toMatchObject({ title: "Fix the parser", lastSeq: 4 });
});

test("a message shows what the engine attached: one shown as sent learns it, a stored one keeps it", () => {
  const file = { kind: "file" as const, path: "src/a.rs", lines: null, bytes: 12, note: null };
  const image = { kind: "image" as const, media_type: "image/png", data: "iVBO", name: "shot.png" };
  let s = addUserMessage(initialState(), "look at @src/a.rs");
  s = reduceAll(s, [ev({ type: "user_message_taken", text: "look at @src/a.rs", number: 0, attachments: [file, image] })], 0);
  expect(s.items).toHaveLength(1);
  expect(s.items[0]).toMatchObject({ kind: "user", text: "look at @src/a.rs", attachments: [file, image] });
  const stored = fromTranscript(transcriptOf([{ kind: "user", text: "look", attachments: [file] }, { kind: "assistant", text: "ok" }]), "ask");
  expect(stored.items[0]).toMatchObject({ kind: "user", text: "look", attachments: [file] });
  expect(stored.items[1]).not.toHaveProperty("attachments");
});

test("images of messages given back go back to the composer with their texts", () => {
  const image = { media_type: "image/png", data: "iVBO", name: null };
  const s = reduceAll(initialState(), [ev({ type: "queued_messages_returned", texts: ["see"], images: [image] })], 0);
  expect(s.returned).toEqual([{ texts: ["see"], images: [image] }]);
});

test("a model chosen in Settings shows from the engine's word, with its context window", () => {
  let s = reduceAll(
    initialState(),
    [ev({ type: "session_started", session_id: "s", model: "claude-sonnet-4-5", workspace: "/w", mode: "ask", usage: summary() })],
    0,
  );
  expect(s.model).toBe("claude-sonnet-4-5");
  s = reduceAll(s, [ev({ type: "model_changed", model: "gpt-5", usage: summary({ context_window: 400_000, cost_usd: null }) })], 0);
  expect(s.model).toBe("gpt-5");
  expect(s.usage.contextWindow).toBe(400_000);
  expect(s.usage.cost).toBe("unknown");
  expect(s.items.at(-1)).toMatchObject({ kind: "notice", tone: "info", text: "Model: gpt-5, from the next request." });
});

test("an error notice the retry got past turns into a recovered one, live and when opened again", () => {
  const dropped = { kind: "error", message: "dropped", retryable: true } as const;
  let s = reduceAll(initialState(), [ev({ type: "task_started" }), ev({ type: "task_ended", reason: dropped })], 0);
  const at = s.items.at(-1)!.id;
  s = startRetry(s);
  s = reduceAll(s, [ev({ type: "task_started" })], 0);
  expect(s.items.find((i) => i.id === at)).not.toHaveProperty("recovered");
  s = reduceAll(s, [ev({ type: "text_delta", text: "the rest" })], 0);
  expect(s.items.find((i) => i.id === at)).toMatchObject({ kind: "notice", tone: "error", recovered: true });
  // A retry that fails again leaves the first notice red and adds the new one.
  let again = reduceAll(initialState(), [ev({ type: "task_started" }), ev({ type: "task_ended", reason: dropped })], 0);
  const droppedAgain = { ...dropped, message: "dropped again" };
  again = reduceAll(startRetry(again), [ev({ type: "task_started" }), ev({ type: "task_ended", reason: droppedAgain })], 0);
  expect(again.items.filter((i) => i.kind === "notice" && !i.recovered)).toHaveLength(2);

  // From the store: an answer right after a retryable error is the retry that got past it; a
  // message of the user's in between is not.
  const stored = fromTranscript(
    transcriptOf([
      { kind: "user", text: "go" },
      { kind: "task_ended", reason: dropped },
      { kind: "assistant", text: "the rest" },
      { kind: "task_ended", reason: dropped },
      { kind: "user", text: "again" },
    ]),
    "ask",
  );
  const notices = stored.items.filter((i) => i.kind === "notice");
  expect(notices.map((n) => Boolean(n.kind === "notice" && n.recovered))).toEqual([true, false]);
});

test("a reopened session shows a rewind where it was made: the entries after its message are rewound", () => {
  const transcript = transcriptOf([
    { kind: "user", text: "one" },
    { kind: "assistant", text: "did one" },
    { kind: "user", text: "two" },
    { kind: "assistant", text: "did two" },
    { kind: "rewound", before_message: 1, undone: false, files: 2 },
  ]);
  const s = fromTranscript(transcript, "ask");
  const two = s.items.find((i) => i.kind === "user" && i.text === "two")!;
  expect(s.rewinds).toEqual([{ from: two.id, to: two.id + 1 }]);
  expect(s.items.at(-1)).toMatchObject({ kind: "notice", text: "Rewound 2 files to how they were before your message 2." });
  expect(s.rewound).toBe(true);
  // Undone later, and a message after it: nothing is rewound, and no undo is offered.
  const later = fromTranscript(
    transcriptOf([...transcript.items, { kind: "rewound", before_message: 1, undone: true, files: 2 }, { kind: "user", text: "three" }]),
    "ask",
  );
  expect(later.rewinds).toEqual([]);
  expect(later.rewound).toBe(false);
});
