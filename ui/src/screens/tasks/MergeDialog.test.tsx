import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Backend } from "../../backend";
import { sampleTask, taskCommands } from "../../test/taskBackend";
import { MergeDialog } from "./MergeDialog";

function backendWith(over: Partial<Backend>): Backend {
  return { ...taskCommands(), ...over } as unknown as Backend;
}

describe("MergeDialog", () => {
  it("asks for a commit message when there are uncommitted changes", async () => {
    const mergeTask = vi.fn(async () => {});
    const backend = backendWith({ draftMergeMessage: async () => "Fix the login\n\n- a.ts\n", mergeTask });
    await act(async () => {
      render(<MergeDialog backend={backend} task={sampleTask({ state: "ready" })} onClose={() => {}} onQueued={() => {}} />);
    });
    const field = screen.getByTestId("merge-message") as HTMLTextAreaElement;
    expect(field.value).toContain("Fix the login");
    fireEvent.change(field, { target: { value: "Fix the login form" } });
    await act(async () => fireEvent.click(screen.getByTestId("confirm-merge")));
    expect(mergeTask).toHaveBeenCalledWith("t1", "Fix the login form");
  });

  it("asks for none when everything is committed on the branch", async () => {
    const mergeTask = vi.fn(async () => {});
    const backend = backendWith({ draftMergeMessage: async () => null, mergeTask });
    await act(async () => {
      render(<MergeDialog backend={backend} task={sampleTask({ state: "ready" })} onClose={() => {}} onQueued={() => {}} />);
    });
    expect(screen.queryByTestId("merge-message")).toBeNull();
    expect(screen.getByTestId("merge-all-committed").textContent).toContain("foreman/fix-login");
    expect(screen.getByTestId("merge-explained").textContent).toMatch(/^Its commits are brought up to date with main/);
    await act(async () => fireEvent.click(screen.getByTestId("confirm-merge")));
    expect(mergeTask).toHaveBeenCalledWith("t1", null);
  });
});
