// The reducer and hooks: a hook's run on its card or in the conversation, the consent prompt,
// both after a reload, and a broken settings file told in the conversation.
import { answerHookConsent, fromTranscript, initialState, reduceAll } from "./state";
import { ev, resetSeq, summary, transcriptOf } from "../test/events";

beforeEach(() => resetSeq());

const blockRm = {
  event: "PreToolUse", command: "python3 .claude/hooks/block_rm.py", source: ".claude/settings.json", elapsed_ms: 42,
  verdict: "blocked", message: "rm -rf is not allowed here",
} as const;

test("a hook run of a call goes on its card; one of no call is a line in the conversation", () => {
  const s = reduceAll(
    initialState(),
    [
      ev({ type: "tool_call_created", call_id: "b1", name: "bash", state: "streaming" }),
      ev({ type: "hook_ran", call_id: "b1", run: blockRm }),
      ev({ type: "hook_ran", call_id: "b1", run: { ...blockRm, event: "PostToolUse", verdict: "continued", message: null } }),
      ev({ type: "hook_ran", call_id: null, run: { ...blockRm, event: "UserPromptSubmit", verdict: "added_context", message: null } }),
      // A call this window never saw: nothing to put it on (a snapshot brings the call with its hooks).
      ev({ type: "hook_ran", call_id: "unknown", run: blockRm }),
    ],
    0,
  );
  expect(s.calls.b1?.hooks.map((r) => `${r.event} ${r.verdict}`)).toEqual(["PreToolUse blocked", "PostToolUse continued"]);
  expect(s.items.map((i) => i.kind)).toEqual(["tool", "hook"]);
  expect(s.items[1]).toMatchObject({ kind: "hook", run: { event: "UserPromptSubmit", verdict: "added_context" } });
});

test("a sub-agent's hook of no call goes into the card of its new_task call", () => {
  const s = reduceAll(
    initialState(),
    [
      ev({ type: "tool_call_created", call_id: "t1", name: "new_task", state: "executing" }),
      ev({ type: "hook_ran", call_id: null, parent_call_id: "t1", run: { ...blockRm, event: "SubagentStop", verdict: "continued" } }),
    ],
    0,
  );
  expect(s.items.map((i) => i.kind)).toEqual(["tool"]);
  expect(s.calls.t1?.children).toMatchObject([{ kind: "hook", run: { event: "SubagentStop" } }]);
});

test("a snapshot's calls carry their hooks; one without keeps those the window has", () => {
  const snapshotCall = {
    call_id: "b1", name: "bash", state: "rejected", arguments: { command: "rm -rf build" }, preview: null, preview_hash: null,
    status: null, result: "blocked", is_error: true, images: null,
  };
  let s = reduceAll(
    initialState(),
    [ev({ type: "snapshot", session_id: "s", mode: "ask", running: true, messages: 1, usage: summary(), queued: [], calls: [{ ...snapshotCall, hooks: [blockRm] }] })],
    0,
  );
  expect(s.calls.b1?.hooks).toEqual([blockRm]);
  s = reduceAll(s, [ev({ type: "snapshot", session_id: "s", mode: "ask", running: true, messages: 1, usage: summary(), queued: [], calls: [snapshotCall] })], 0);
  expect(s.calls.b1?.hooks).toEqual([blockRm]);
});

test("hooks waiting for consent are kept until you answer; a view with nothing to consent to clears them", () => {
  const view = {
    hooks: [{ event: "PreToolUse", matcher: "Bash", command: "python3 x.py", timeout_secs: 60, source: ".claude/settings.json", consent: "waiting" }],
    warnings: [],
    consent_hash: "h1",
  };
  const waiting = reduceAll(initialState(), [ev({ type: "hooks_await_consent", view })], 0);
  expect(waiting.hookConsent).toEqual(view);
  expect(answerHookConsent(waiting).hookConsent).toBeNull();
  const none = reduceAll(waiting, [ev({ type: "hooks_await_consent", view: { ...view, consent_hash: null } })], 0);
  expect(none.hookConsent).toBeNull();
});

test("a reloaded window asks about the hooks that wait, and a stored hook run shows again", () => {
  const view = {
    hooks: [{ event: "PreToolUse" as const, matcher: "Bash", command: "python3 guard.py", timeout_secs: 60, source: ".claude/settings.json", consent: "waiting" as const }],
    warnings: [],
    consent_hash: "h1",
  };
  const run = { event: "UserPromptSubmit" as const, command: "echo ctx", source: "~/.claude/settings.json", elapsed_ms: 5, verdict: "added_context" as const, message: "ctx" };
  const transcript = transcriptOf([{ kind: "user", text: "go" }, { kind: "hook", run }]);
  const attached = reduceAll(
    fromTranscript(transcript, "ask"),
    [ev({ type: "snapshot", session_id: "s", mode: "ask", running: false, messages: 1, usage: summary(), calls: [], queued: [], hooks_awaiting: view })],
    0,
  );
  expect(attached.items.map((i) => i.kind)).toEqual(["user", "hook"]);
  expect(attached.hookConsent?.consent_hash).toBe("h1");
  // Allowed in Settings meanwhile: a later snapshot drops the prompt.
  const allowed = reduceAll(
    attached,
    [ev({ type: "snapshot", session_id: "s", mode: "ask", running: false, messages: 1, usage: summary(), calls: [], queued: [] })],
    0,
  );
  expect(allowed.hookConsent).toBeNull();
});

test("a configuration warning is a notice in the conversation, in the error tone", () => {
  const message = ".claude/settings.json: not valid JSON (line 1, column 9: EOF while parsing); its hooks do not run.";
  const s = reduceAll(
    initialState(),
    [
      ev({ type: "session_started", session_id: "s", model: "m", workspace: "/w", mode: "ask", usage: summary() }),
      ev({ type: "config_warning", area: "hooks", message }),
    ],
    0,
  );
  expect(s.items).toEqual([{ kind: "notice", id: expect.any(Number), tone: "error", text: message }]);
});
