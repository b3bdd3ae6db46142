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
