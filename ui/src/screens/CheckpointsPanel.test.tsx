import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Backend } from "../backend";
import { CheckpointsPanel } from "./CheckpointsPanel";

test("the panel shows what the checkpoints take and clears them after a confirmation", async () => {
  const cleared: string[] = [];
  const backend = {
    checkpointsUsage: async () => 3 * (1 << 20),
    clearCheckpoints: async (ws: string) => (cleared.push(ws), 3 * (1 << 20)),
  } as unknown as Backend;
  render(<CheckpointsPanel backend={backend} workspace="/ws" />);
  expect(await screen.findByText("This workspace's checkpoints take 3.0 MiB.")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Clear…" }));
  expect(cleared).toEqual([]);
  await userEvent.click(screen.getByTestId("confirm-clear-checkpoints"));
  expect(await screen.findByText("Cleared: 3.0 MiB freed.")).toBeInTheDocument();
  expect(cleared).toEqual(["/ws"]);
  expect(screen.getByTestId("checkpoints-usage")).toHaveTextContent("take 0 bytes");
});
