// The conversation as the UI shows it, built by one reducer from the engine's events.
import type { ApprovalMode } from "../protocol/ApprovalMode";
import type { CallSnapshot } from "../protocol/CallSnapshot";
import type { UndoState } from "../protocol/UndoState";
import type { CallState } from "../protocol/CallState";
import type { Event } from "../protocol/Event";
import type { TaskEndReason } from "../protocol/TaskEndReason";
import type { ArgsView } from "../protocol/ArgsView";
import type { ToolKind } from "../protocol/ToolKind";
import type { Transcript } from "../protocol/Transcript";
import type { UsageSummary } from "../protocol/UsageSummary";
import { applyPatches } from "./patch";
import { withRewind } from "./rewinds";
import type { CallView, Item, SessionState, Todo, Usage } from "./types";
export type { CallView, Item, PendingApproval, QueuedMessage, Rewind, SessionState, Todo, Usage } from "./types";

export function initialState(mode: ApprovalMode = "ask"): SessionState {
  return {
    lastSeq: 0,
    needsSnapshot: false,
    items: [],
    queued: [],
    returned: [],
    calls: {},
    running: false,
    mode,
    model: null,
    usage: { input: 0, output: 0, totalInput: 0, totalOutput: 0, cost: null, contextUsed: 0, contextWindow: 0, cacheRead: 0, cacheSaved: null },
    todos: [],
    toolStats: {},
    paused: null,
    retrying: null,
    ended: null,
    retryAt: null,
    retriedNotice: null,
    nextId: 1,
    ready: false,
    rewindPlan: null,
    rewound: false,
    rewinds: [],
    hookConsent: null,
    workspaceChanges: null,
    title: null,
    agentSettings: [],
    agentCommands: [],
  };
}

/** A call with nothing known yet but its id, name and state. */
export function newCall(
  id: string,
  name: string,
  state: CallState,
  parentId: string | null,
  kind: ToolKind = "other",
  view: ArgsView = { as: "json" },
): CallView {
  return {
    id,
    name,
    kind,
    view,
    title: null,
    summary: null,
    state,
    args: null,
    preview: null,
    status: null,
    output: "",
    result: null,
    decision: null,
    isError: false,
    error: null,
    images: null,
    approval: null,
    refused: null,
    startedAt: null,
    endedAt: null,
    parentId,
    children: [],
    undo: null,
    sandbox: null,
    changes: null,
    undoRefused: null,
    hooks: [],
  };
}

function callFromSnapshot(c: CallSnapshot, old?: CallView): CallView {
  return {
    id: c.call_id,
    name: c.name,
    kind: c.kind,
    view: c.view,
    title: c.title ?? old?.title ?? null,
    summary: c.summary ?? old?.summary ?? null,
    state: c.state,
    args: c.arguments,
    preview: c.preview,
    status: c.status,
    output: old?.output ?? "",
    result: c.result,
    // Sessions stored before decisions were kept have none.
    decision: c.decision ?? null,
    isError: c.is_error,
    error: c.error ?? null,
    images: c.images ?? null,
    approval:
      c.state === "awaiting_approval" && c.preview_hash
        ? (old?.approval ?? {
            previewHash: c.preview_hash,
            reason: "",
            preview: c.preview,
            suggestedRule: null,
            privateTarget: null,
          })
        : null,
    refused: null,
    startedAt: old?.startedAt ?? null,
    endedAt: old?.endedAt ?? null,
    parentId: c.parent_call_id ?? null,
    children: old?.children ?? [],
    undo: c.undo ?? null,
    sandbox: c.sandbox ?? null,
    changes: c.changes ?? null,
    undoRefused: canUndo(c) ? (old?.undoRefused ?? null) : null,
    hooks: c.hooks ?? old?.hooks ?? [],
  };
}

/** Whether what a call changed in its file can still be undone (whole, or hunk by hunk). */
export function canUndo(call: { undo?: UndoState | null }): boolean {
  return call.undo === "available" || call.undo === "partly";
}

/** Puts the tool item of `call` under its parent call (a sub-agent's), or at the top level. */
function placeCall(state: SessionState, call: CallView): SessionState {
  const item: Item = { kind: "tool", id: state.nextId, callId: call.id };
  const parent = call.parentId ? state.calls[call.parentId] : undefined;
  const calls = { ...state.calls, [call.id]: call };
  if (parent) {
    calls[parent.id] = { ...parent, children: [...parent.children, item] };
    return { ...state, calls, nextId: state.nextId + 1 };
  }
  return { ...state, calls, items: [...state.items, item], nextId: state.nextId + 1 };
}

/** `usage` with the engine's session summary (from a usage, session_started or snapshot event). */
function withSummary(usage: Usage, s: UsageSummary): Usage {
  return {
    ...usage,
    totalInput: s.total_input,
    totalOutput: s.total_output,
    cost: s.cost_usd ?? "unknown",
    contextUsed: s.context_used,
    // 0 when the engine does not know the model's window.
    contextWindow: s.context_window ?? 0,
    cacheRead: s.total_cache_read,
    cacheSaved: s.cache_saved_usd,
  };
}

function todosFrom(value: unknown): Todo[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (t): t is Todo =>
      typeof t === "object" && t !== null && typeof (t as Todo).content === "string",
  );
}

/** The state of a stored session, before any event. */
/** The conversation after a rewind to before message `before` (or its undoing), live or stored. */
function rewoundState(s: SessionState, before: number, undone: boolean, changed: number): SessionState {
  const files = plural(changed, "file");
  const text = undone
    ? `Undid the rewind: ${files} back as they were before it.`
    : `Rewound ${files} to how they were before your message ${before + 1}.`;
  const rewinds = withRewind(s.rewinds, s.items, { before_message: before, undone });
  return notice({ ...s, rewindPlan: null, rewound: !undone, rewinds }, "info", text);
}

export function fromTranscript(t: Transcript, mode: ApprovalMode): SessionState {
  let state = initialState(mode);
  for (const item of t.items) {
    if (item.kind === "tool") {
      state = placeCall(recover(state), callFromSnapshot(item.call));
    } else if (item.kind === "task_ended") {
      const text = describeEnd(item.reason);
      if (text) state = notice(state, text.tone, text.text);
      // An error the user may retry from: the model's next answer, if no message of the user's
      // comes first, is the retry that got past it.
      state = { ...state, retriedNotice: text && mayRetry(item.reason) ? state.nextId - 1 : null };
    } else if (item.kind === "compacted") {
      state = notice(state, "info", describeCompaction(item));
    } else if (item.kind === "rewound") {
      state = rewoundState(state, item.before_message, item.undone, item.files);
    } else if (item.kind === "hook") {
      state = { ...state, items: [...state.items, { kind: "hook", id: state.nextId, run: item.run }], nextId: state.nextId + 1 };
    } else {
      // A message after a rewind: that rewind is no longer the last thing done.
      state = item.kind === "user" ? { ...state, retriedNotice: null, rewound: false } : recover(state);
      const attachments = item.kind === "user" && item.attachments?.length ? { attachments: item.attachments } : {};
      state = {
        ...state,
        items: [...state.items, { kind: item.kind, id: state.nextId, text: item.text, ...attachments }],
        nextId: state.nextId + 1,
      };
    }
  }
  state = { ...state, retriedNotice: null };
  state.todos = todosFrom(t.todos);
  state.usage = {
    ...state.usage,
    totalInput: Number(t.usage.input),
    totalOutput: Number(t.usage.output),
  };
  return state;
}

/**
 * Adds the user's message, shown at once, before the engine answers: in the conversation when
 * it starts a task, or, while a task runs, as waiting for the model's next request. Behind a
 * message still waiting it waits too (the engine takes them in order, even between tasks).
 */
export function addUserMessage(state: SessionState, text: string): SessionState {
  const message = { id: state.nextId, text };
  const waits = state.running || state.queued.length > 0;
  return {
    ...state,
    items: waits ? state.items : [...state.items, { kind: "user", ...message }],
    queued: waits ? [...state.queued, message] : state.queued,
    nextId: state.nextId + 1,
    running: true,
    ended: null,
    retryAt: null,
  };
}

/** Whether a task that ended for `reason` may be run again with the `retry` op. */
export function mayRetry(reason: TaskEndReason): boolean {
  return (reason.kind === "error" && reason.retryable) || reason.kind === "iteration_cap";
}

/**
 * `state` once the user asked to run the model again (`retry`): the offer goes at once, so it
 * is asked once; the engine's `task_started` follows (or an `error`, if it had nothing to retry).
 */
export function startRetry(state: SessionState): SessionState {
  return { ...state, retryAt: null, retriedNotice: state.retryAt };
}

/**
 * `state` once the model answered again after a retry: the error notice it got past turns into
 * a "Reconnected" one (it must not stay red).
 */
function recover(state: SessionState): SessionState {
  const at = state.retriedNotice;
  if (at === null) return state;
  return {
    ...state,
    retriedNotice: null,
    items: state.items.map((i) => (i.id === at && i.kind === "notice" ? { ...i, recovered: true } : i)),
  };
}

/**
 * A snapshot's word on a retry (`retry`: why the last task ended, while the engine may run it
 * again): a window that attaches now gets the offer on that notice (the transcript's, or added
 * when the store did not keep it); one that shows it already drops it once it is no longer
 * offered.
 */
function retryFromSnapshot(s: SessionState, retry: TaskEndReason | null, attached: boolean): SessionState {
  if (!retry || s.running) return s.retryAt === null ? s : { ...s, retryAt: null };
  return attached ? s : showEnd(s, retry, true);
}

/**
 * `s` with the notice of a task's end for `reason` (none for an answer), carrying the retry offer
 * when the reason allows one. With `stored`, a transcript that ends with that very notice (the
 * window attached after the end was stored) has it already: the offer goes there instead.
 */
function showEnd(s: SessionState, reason: TaskEndReason, stored: boolean): SessionState {
  const ended = { ...s, ended: reason, retryAt: null, retriedNotice: null };
  const text = describeEnd(reason);
  if (!text) return ended;
  const last = s.items.at(-1);
  const at = stored && last?.kind === "notice" && last.text === text.text ? last.id : null;
  const retryAt = mayRetry(reason) ? (at ?? s.nextId) : null;
  return at === null ? notice({ ...ended, retryAt }, text.tone, text.text) : { ...ended, retryAt };
}

/** `state` once the user answered the hooks' consent prompt (allowed them, or not now). */
export function answerHookConsent(state: SessionState): SessionState {
  return { ...state, hookConsent: null };
}

/** `state` with its waiting message `id` marked as being taken back by the user, or no longer. */
export function markTakingBack(state: SessionState, id: number, takingBack: boolean): SessionState {
  return { ...state, queued: state.queued.map((m) => (m.id === id ? { ...m, takingBack } : m)) };
}

/** `list` without its entry at `at` (itself when `at` is -1). */
function without<T>(list: T[], at: number): T[] {
  return at < 0 ? list : list.filter((_, i) => i !== at);
}

/**
 * `state` without the user's newest message with `text`, waiting or shown (its sending
 * failed and the composer has it back).
 */
export function withoutUserMessage(state: SessionState, text: string): SessionState {
  const waiting = state.queued.findLastIndex((m) => m.text === text);
  if (waiting >= 0) return { ...state, queued: without(state.queued, waiting) };
  const shown = state.items.findLastIndex((item) => item.kind === "user" && item.text === text);
  return { ...state, items: without(state.items, shown) };
}

function appendTo(items: Item[], kind: "assistant" | "thinking", text: string, nextId: number): Item[] {
  const last = items[items.length - 1];
  if (last && last.kind === kind) {
    const out = items.slice();
    out[out.length - 1] = { ...last, text: last.text + text };
    return out;
  }
  return [...items, { kind, id: nextId, text }];
}

/** Appends text to the conversation, or to the sub-agent of the call `parentId`. */
function appendText(
  state: SessionState,
  kind: "assistant" | "thinking",
  text: string,
  parentId: string | null = null,
): SessionState {
  const parent = parentId ? state.calls[parentId] : undefined;
  if (parent) {
    const children = appendTo(parent.children, kind, text, state.nextId);
    return { ...state, calls: { ...state.calls, [parent.id]: { ...parent, children } }, nextId: state.nextId + 1 };
  }
  return { ...state, items: appendTo(state.items, kind, text, state.nextId), nextId: state.nextId + 1 };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function tokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : `${n}`;
}

/** What a compaction did, as the live event and a reopened conversation's transcript both say it. */
type Compaction = Pick<Extract<Event, { type: "context_compacted" }>, "elided_outputs" | "removed_messages" | "tokens_before" | "tokens_after">;

/** The notice for a compaction: what was elided or summarised, and the estimate before and after. */
export function describeCompaction(event: Compaction): string {
  const parts: string[] = [];
  if (event.removed_messages > 0) parts.push(`${plural(event.removed_messages, "earlier message")} replaced by a summary`);
  if (event.elided_outputs > 0) parts.push(`${plural(event.elided_outputs, "old tool output")} shortened`);
  return `Context compacted: ${parts.join(", ")} (about ${tokens(event.tokens_before)} → ${tokens(event.tokens_after)} tokens).`;
}

function notice(state: SessionState, tone: "info" | "error", text: string): SessionState {
  return {
    ...state,
    items: [...state.items, { kind: "notice", id: state.nextId, tone, text }],
    nextId: state.nextId + 1,
  };
}

function updateCall(
  state: SessionState,
  id: string,
  change: (call: CallView) => CallView,
): SessionState {
  const call = state.calls[id];
  if (!call) return state;
  return { ...state, calls: { ...state.calls, [id]: change(call) } };
}

function describeEnd(reason: TaskEndReason): { tone: "info" | "error"; text: string } | null {
  switch (reason.kind) {
    case "completed":
      return { tone: "info", text: reason.summary ? `Done: ${reason.summary}` : "Done." };
    case "final_answer":
      return null;
    case "cancelled":
      return { tone: "info", text: "Stopped." };
    case "iteration_cap":
      return {
        tone: "error",
        text: `Stopped after ${reason.max_iterations} model requests (the iteration cap).`,
      };
    case "stopped":
      return { tone: "info", text: "Stopped after repeated tool failures." };
    case "error":
      return { tone: "error", text: reason.message };
  }
}

/** How many returns of waiting messages [`SessionState.returned`] keeps. */
const RETURNS_KEPT = 16;

/** Applies one event. */
export function reduce(state: SessionState, event: Event, now: number): SessionState {
  if (event.seq <= state.lastSeq) return state;
  let s: SessionState = {
    ...state,
    lastSeq: event.seq,
    needsSnapshot: state.needsSnapshot || (state.lastSeq > 0 && event.seq !== state.lastSeq + 1),
  };
  // Events of a sub-agent name its `new_task` call: its text and calls go into that card.
  const parentId = event.parent_call_id ?? null;
  switch (event.type) {
    case "session_started":
      return { ...s, mode: event.mode, model: event.model, ready: true, usage: withSummary(s.usage, event.usage) };
    case "model_changed":
      return notice(
        { ...s, model: event.model, usage: withSummary(s.usage, event.usage) },
        "info",
        `Model: ${event.model}, from the next request.`,
      );
    case "user_message_taken": {
      if (parentId) return s;
      // The conversation shows the user's messages in the engine's order: the transcript's,
      // those taken since, and one sent when nothing ran or waited (shown at once). So it shows
      // message `number` already when it holds more than that many.
      const shown = s.items.reduce((n, item) => (item.kind === "user" ? n + 1 : n), 0);
      const attachments = event.attachments?.length ? { attachments: event.attachments } : {};
      if (event.number < shown) {
        // A reattached window read it in the transcript too: the snapshot's copy goes. A message
        // shown as it was sent learns what the engine attached.
        let seen = -1;
        const items = attachments.attachments
          ? s.items.map((item) =>
              item.kind === "user" && ++seen === event.number && item.text === event.text ? { ...item, ...attachments } : item,
            )
          : s.items;
        return { ...s, items, queued: without(s.queued, s.queued.findIndex((m) => m.fromSnapshot && m.text === event.text)) };
      }
      // A waiting message joins here, after what the task did before it was read; one this
      // window does not know (the transcript was read before it was stored) is added.
      const at = s.queued.findIndex((m) => m.text === event.text);
      const waiting = s.queued[at];
      return {
        ...s,
        items: [...s.items, { kind: "user", id: waiting?.id ?? s.nextId, text: event.text, ...attachments }],
        queued: without(s.queued, at),
        nextId: waiting ? s.nextId : s.nextId + 1,
      };
    }
    case "queued_messages_returned": {
      // Of two waiting messages with the same text, the one the user asked for is the one back.
      let left = s.queued;
      let asked = true;
      for (const text of event.texts) {
        const mine = left.findIndex((m) => m.takingBack && m.text === text);
        asked &&= mine >= 0;
        left = without(left, mine >= 0 ? mine : left.findIndex((m) => m.text === text));
      }
      // A handful is plenty: the composer takes them in the frame they arrive.
      const returned = [...s.returned.slice(-(RETURNS_KEPT - 1)), { texts: event.texts, images: event.images ?? [] }];
      // What the user took back is in the message box, where they look: nothing to explain.
      if (asked) return { ...s, queued: left, returned };
      const said =
        event.texts.length === 1 ? "The message that waited is" : `The ${event.texts.length} messages that waited are`;
      return notice(
        { ...s, queued: left, returned },
        "info",
        `${said} back in the message box; the agent did not read ${event.texts.length === 1 ? "it" : "them"}.`,
      );
    }
    case "task_started":
      return { ...s, running: true, ended: null, paused: null, retryAt: null, rewound: false };
    case "turn_started":
    case "turn_ended":
    case "resumed":
      return recover({ ...s, retrying: null, paused: event.type === "resumed" ? null : s.paused });
    case "text_delta":
      return appendText(recover({ ...s, retrying: null }), "assistant", event.text, parentId);
    case "thinking_delta":
      return appendText(s, "thinking", event.text, parentId);
    case "tool_call_created":
      return placeCall(s, newCall(event.call_id, event.name, event.state, parentId, event.kind, event.view));
    case "tool_call_updated":
      return updateCall(s, event.call_id, (c) => ({
        ...c,
        state: event.state ?? c.state,
        args: event.args.length ? applyPatches(c.args, event.args) : c.args,
        // Live previews carry counts only; keep a full diff already received.
        preview: event.preview
          ? event.preview.diff || !c.preview?.diff
            ? event.preview
            : { ...c.preview, lines_added: event.preview.lines_added, lines_removed: event.preview.lines_removed }
          : c.preview,
        status: event.status ?? c.status,
        images: event.images ?? c.images,
        title: event.title ?? c.title,
        startedAt: event.state === "executing" ? now : c.startedAt,
        approval: event.state && event.state !== "awaiting_approval" ? null : c.approval,
      }));
    case "tool_call_output":
      return updateCall(s, event.call_id, (c) => ({ ...c, output: c.output + event.text }));
    case "tool_call_finished":
      return updateCall(s, event.call_id, (c) => ({
        ...c,
        state: event.state,
        result: event.result,
        decision: event.decision ?? null,
        isError: event.is_error,
        error: event.error ?? null,
        summary: event.summary ?? c.summary,
        approval: null,
        endedAt: now,
      }));
    case "todos_changed":
      return { ...s, todos: todosFrom(event.todos) };
    case "tool_stats":
      return { ...s, toolStats: { ...s.toolStats, [event.stats.tool]: event.stats } };
    case "approval_requested":
      return updateCall(s, event.call_id, (c) => ({
        ...c,
        state: "awaiting_approval",
        // Left out when the streamed patches built exactly these arguments.
        args: event.arguments ?? c.args,
        preview: event.preview ?? c.preview,
        refused: null,
        approval: {
          previewHash: event.preview_hash,
          reason: event.reason,
          preview: event.preview,
          suggestedRule: event.suggested_rule,
          // The engine leaves the rule out when no rule can allow the call.
          noRule: event.suggested_rule === null,
          privateTarget: event.private_target ?? null,
        },
      }));
    case "approval_refused":
      return updateCall(s, event.call_id, (c) => ({ ...c, refused: event.reason }));
    case "undo_changed":
      return updateCall(s, event.call_id, (c) => ({ ...c, undo: event.undo, undoRefused: null }));
    case "undo_refused":
      return updateCall(s, event.call_id, (c) => ({ ...c, undoRefused: event.reason }));
    case "sandbox_changed":
      return updateCall(s, event.call_id, (c) => ({ ...c, sandbox: event.sandbox }));
    case "call_changes":
      return updateCall(s, event.call_id, (c) => ({ ...c, changes: event.changes }));
    case "hook_ran": {
      if (event.call_id) return updateCall(s, event.call_id, (c) => ({ ...c, hooks: [...c.hooks, event.run] }));
      // A hook of no call: a line in the conversation, or in the sub-agent's card it ran in.
      const item: Item = { kind: "hook", id: s.nextId, run: event.run };
      const parent = parentId ? s.calls[parentId] : undefined;
      if (parent) {
        return { ...s, calls: { ...s.calls, [parent.id]: { ...parent, children: [...parent.children, item] } }, nextId: s.nextId + 1 };
      }
      return { ...s, items: [...s.items, item], nextId: s.nextId + 1 };
    }
    case "hooks_await_consent":
      return { ...s, hookConsent: event.view.consent_hash ? event.view : null };
    case "session_changes":
      return { ...s, workspaceChanges: event.files };
    // The session's title, as its first message named it (a sub-agent's is not the session's).
    case "session_titled":
      return parentId || event.title.trim() === "" ? s : { ...s, title: event.title };
    case "rewind_planned":
      return { ...s, rewindPlan: event.plan };
    case "rewound":
      return rewoundState(s, event.before_message, event.undone, event.changes.length);
    case "rule_added":
      return notice(s, "info", `Rule added for ${event.scope === "user" ? "every workspace" : `this ${event.scope}`}: ${event.rule}`);
    case "approval_mode_changed":
      return { ...s, mode: event.mode };
    case "agent_settings":
      return { ...s, agentSettings: event.settings, agentCommands: event.commands };
    case "usage":
      return { ...s, usage: withSummary({ ...s.usage, input: event.input, output: event.output }, event) };
    case "retrying":
      return { ...s, retrying: event.message };
    // The task waits for the folder another task works in; it starts by itself.
    case "waiting":
      return notice(s, "info", event.message);
    // Broken configuration (a settings file whose hooks then do not run) is never silent.
    case "config_warning":
      return notice(s, "error", event.message);
    case "error": {
      // A take-back the engine refused (the model read the message first) may be asked again.
      const queued = s.queued.some((m) => m.takingBack) ? s.queued.map((m) => ({ ...m, takingBack: false })) : s.queued;
      return notice({ ...s, queued }, "error", event.message);
    }
    case "paused":
      return { ...s, paused: { tool: event.tool, message: event.message } };
    // A sub-agent's context is its own; the conversation (live or reopened) shows the session's.
    case "context_compacting":
      if (parentId) return s;
      return notice(s, "info", `Summarising ${plural(event.messages, "earlier message")} to fit the model's context window…`);
    case "files_changed":
      // Nothing lists changed files yet; a waiting approval whose file changed arrives as a new
      // approval_requested.
      return s;
    case "context_compacted": {
      if (parentId) return s;
      // A window attaching as the compaction ended may have read its stored notice already.
      const text = describeCompaction(event);
      const last = s.items.at(-1);
      return last?.kind === "notice" && last.text === text ? s : notice(s, "info", text);
    }
    case "task_ended": {
      // A window attaching as the task ended read the stored end in its transcript already.
      return showEnd({ ...s, running: false, paused: null, retrying: null }, event.reason, !s.ready);
    }
    case "snapshot": {
      const calls: Record<string, CallView> = { ...s.calls };
      const items = s.items.slice();
      let nextId = s.nextId;
      for (const c of event.calls) {
        const known = calls[c.call_id] !== undefined;
        calls[c.call_id] = callFromSnapshot(c, calls[c.call_id]);
        if (known) continue;
        const item: Item = { kind: "tool", id: nextId++, callId: c.call_id };
        const parent = c.parent_call_id ? calls[c.parent_call_id] : undefined;
        if (parent) calls[parent.id] = { ...parent, children: [...parent.children, item] };
        else items.push(item);
      }
      // Attaching to a running session (a reloaded window): the user's messages waiting for
      // the next request are not in the stored transcript. A window that sent them shows them
      // already (its snapshot answers a gap and finds it ready).
      const queued = s.ready ? s.queued : event.queued.map((text) => ({ id: nextId++, text, fromSnapshot: true }));
      const next = {
        ...s,
        calls,
        items,
        queued,
        nextId,
        running: event.running,
        mode: event.mode,
        usage: withSummary(s.usage, event.usage),
        needsSnapshot: false,
        ready: true,
        // A window that attaches now asks about the hooks that wait; one that was here keeps
        // the user's "Not now", and drops the prompt once they were allowed elsewhere.
        hookConsent: s.ready ? (event.hooks_awaiting ? s.hookConsent : null) : (event.hooks_awaiting ?? null),
      };
      return retryFromSnapshot(next, event.retry ?? null, s.ready);
    }
    case "shutdown_complete":
      // Nothing waits in a closed session: what did was given back before (queued_messages_returned).
      return { ...s, running: false, queued: [], retryAt: null };
    // An event newer than this page (an engine built after it): nothing to show for it.
    default:
      return s;
  }
}

/** Applies a batch of events (one animation frame's worth). */
export function reduceAll(state: SessionState, events: readonly Event[], now: number): SessionState {
  let s = state;
  for (const e of events) s = reduce(s, e, now);
  return s;
}
