import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Backend } from "../../backend";
import type { TaskRun } from "../../protocol/TaskRun";
import { sampleTask, taskCommands } from "../../test/taskBackend";
import { RunButton } from "./RunButton";

function backendWith(over: Partial<Backend>): Backend {
  return { ...taskCommands(), ...over } as unknown as Backend;
}

describe("RunButton", () => {
  it("is not there when the repository names no run command", () => {
    const { container } = render(<RunButton backend={backendWith({})} task={sampleTask()} />);
    expect(container.textContent).toBe("");
  });

  it("starts the command, shows its output, and stops it", async () => {
    let current: TaskRun | null = null;
    const startTaskRun = vi.fn(async () => {
      current = { command: "npm run dev", running: true, output: "listening on 41000\n" };
      return current;
    });
    const stopTaskRun = vi.fn(async () => {
      current = { command: "npm run dev", running: false, output: "listening on 41000\n" };
    });
    const backend = backendWith({ startTaskRun, stopTaskRun, taskRun: async () => current });
    render(<RunButton backend={backend} task={sampleTask({ run_command: "npm run dev", port: 41000 })} />);
    expect(screen.getByText("port 41000")).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId("start-task-run")));
    expect(startTaskRun).toHaveBeenCalledWith("t1");
    expect(screen.getByTestId("task-run-output").textContent).toContain("listening on 41000");
    await act(async () => fireEvent.click(screen.getByTestId("stop-task-run")));
    expect(stopTaskRun).toHaveBeenCalledWith("t1");
    await waitFor(() => expect(screen.getByTestId("task-run-ended").textContent).toBe("stopped"), { timeout: 3000 });
  });

  it("says why it could not start", async () => {
    const backend = backendWith({
      startTaskRun: async () => {
        throw { message: "It runs confined, and the sandbox is not available here." };
      },
    });
    render(<RunButton backend={backend} task={sampleTask({ run_command: "make serve" })} />);
    await act(async () => fireEvent.click(screen.getByTestId("start-task-run")));
    expect(screen.getByText(/sandbox is not available/)).toBeTruthy();
  });
});
