import { act, renderHook, waitFor } from "@testing-library/react";
import type { Backend } from "../backend";
import type { ApprovalMode } from "../protocol/ApprovalMode";
import { useSession } from "./useSession";

function backend(sent: string[], shown: string[] = []): Backend {
  return {
    showNewSession: async () => {
      shown.push("new");
    },
    openSession: async () => ({
      session_id: "s1",
      transcript: { session_id: "s1", items: [], todos: [], usage: { input: 0, output: 0, cache_read: 0, cache_write: 0, requests: 0 } },
      was_running: false,
      model: "m",
      provider: "p",
      stopped: null,
    }),
    sendOp: async (_id: string, op: { op: string; text?: string }) => {
      sent.push(op.text ?? op.op);
    },
  } as unknown as Backend;
}

test("changing the default approval mode in settings keeps the open conversation", async () => {
  const sent: string[] = [];
  const b = backend(sent);
  const { result, rerender } = renderHook(
    ({ mode }: { mode: ApprovalMode }) => useSession(b, "/w", null, mode, () => {}),
    { initialProps: { mode: "ask" as ApprovalMode } },
  );
  await act(() => result.current.send("hello"));
  expect(result.current.sessionId).toBe("s1");
  rerender({ mode: "yolo" });
  await waitFor(() => expect(result.current.state.items).toHaveLength(1));
  expect(result.current.sessionId).toBe("s1");
  await act(() => result.current.send("again"));
  expect(sent).toEqual(["hello", "again"]);
});

test("a new conversation tells the shell that no session is shown, a stored one does not", async () => {
  const shown: string[] = [];
  const b = backend([], shown);
  const { result, rerender } = renderHook(
    ({ resume }: { resume: string | null }) => useSession(b, "/w", resume, "ask", () => {}),
    { initialProps: { resume: "s1" as string | null } },
  );
  await waitFor(() => expect(result.current.sessionId).toBe("s1"));
  expect(shown).toEqual([]);
  rerender({ resume: null });
  await waitFor(() => expect(shown).toEqual(["new"]));
  expect(result.current.sessionId).toBeNull();
});

test("a message whose sending failed is not shown as sent or waiting (the composer has it back)", async () => {
  const sent: string[] = [];
  const b = backend(sent);
  let fail = false;
  const send = b.sendOp;
  b.sendOp = async (id, op) => {
    if (fail) throw { message: "the engine is gone" };
    return send(id, op);
  };
  const { result } = renderHook(() => useSession(b, "/w", null, "ask", () => {}));
  await act(() => result.current.send("first"));
  fail = true;
  // The task runs, so these would wait; the last has the text of the message shown already,
  // and only the waiting copy goes.
  await act(() => expect(result.current.send("second")).rejects.toMatchObject({ message: "the engine is gone" }));
  expect(result.current.state.queued).toEqual([]);
  expect(result.current.error).toBe("the engine is gone");
  await act(() => result.current.send("first").catch(() => {}));
  expect(result.current.state.items.filter((i) => i.kind === "user").map((i) => (i.kind === "user" ? i.text : ""))).toEqual(["first"]);
  expect(result.current.state.queued).toEqual([]);
  expect(sent).toEqual(["first"]);
});

test("taking back a waiting message asks the engine, and a failed request leaves it waiting", async () => {
  const sent: string[] = [];
  const b = backend(sent);
  const ops: unknown[] = [];
  let fail = false;
  const send = b.sendOp;
  b.sendOp = async (id, op) => {
    if (op.op === "withdraw_message") {
      if (fail) throw { message: "the engine is gone" };
      ops.push(op);
      return;
    }
    return send(id, op);
  };
  const { result } = renderHook(() => useSession(b, "/w", null, "ask", () => {}));
  await act(() => result.current.send("first"));
  await act(() => result.current.send("second"));
  const waiting = result.current.state.queued[0]!;
  await act(() => result.current.takeBack(0, waiting));
  expect(ops).toEqual([{ op: "withdraw_message", index: 0, text: "second" }]);
  expect(result.current.state.queued[0]?.takingBack).toBe(true);
  fail = true;
  await act(() => result.current.takeBack(0, waiting));
  expect(result.current.state.queued.map((m) => [m.text, Boolean(m.takingBack)])).toEqual([["second", false]]);
  expect(result.current.error).toBe("the engine is gone");
});
