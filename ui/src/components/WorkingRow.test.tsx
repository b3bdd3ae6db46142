import { render, screen } from "@testing-library/react";
import type { CallView, Item } from "../session/state";
import { ModePicker } from "./ModePicker";
import { QUIET_MS, WorkingRow } from "./WorkingRow";
import userEvent from "@testing-library/user-event";

const user: Item = { kind: "user", id: 1, text: "fix it" };
const text: Item = { kind: "assistant", id: 2, text: "Looking" };

function card(state: CallView["state"]): Record<string, CallView> {
  return { c1: { id: "c1", state } as CallView };
}

test("while a task runs with nothing else moving, the row says Working with the seconds since it started", () => {
  let t = 10_000;
  const now = () => t;
  const { rerender } = render(<WorkingRow running items={[user]} calls={{}} now={now} />);
  expect(screen.getByTestId("working")).toHaveTextContent("Working… 0 s");
  t += 12_400;
  rerender(<WorkingRow running items={[user]} calls={{}} now={now} />);
  expect(screen.getByTestId("working")).toHaveTextContent("Working… 12 s");
  // Idle: no row.
  rerender(<WorkingRow running={false} items={[user]} calls={{}} now={now} />);
  expect(screen.queryByTestId("working")).toBeNull();
});

test("a card that runs or waits, or text arriving, shows the work instead", () => {
  let t = 0;
  const now = () => t;
  const { rerender } = render(<WorkingRow running items={[user]} calls={card("executing")} now={now} />);
  expect(screen.queryByTestId("working")).toBeNull();
  rerender(<WorkingRow running items={[user]} calls={card("awaiting_approval")} now={now} />);
  expect(screen.queryByTestId("working")).toBeNull();
  rerender(<WorkingRow running items={[user]} calls={card("streaming")} now={now} />);
  expect(screen.queryByTestId("working")).toBeNull();
  // The card finished: between steps.
  rerender(<WorkingRow running items={[user]} calls={card("succeeded")} now={now} />);
  expect(screen.getByTestId("working")).toBeInTheDocument();
  // Text just arrived: the text shows the work; once it pauses, the row is back.
  const withText = [user, text];
  rerender(<WorkingRow running items={withText} calls={card("succeeded")} now={now} />);
  expect(screen.queryByTestId("working")).toBeNull();
  t += QUIET_MS;
  rerender(<WorkingRow running items={withText} calls={card("succeeded")} now={now} />);
  expect(screen.getByTestId("working")).toBeInTheDocument();
});

test("the approval mode picker marks the session's mode and names each mode once", async () => {
  const onMode = vi.fn();
  render(<ModePicker mode="ask" onMode={onMode} />);
  const group = screen.getByRole("radiogroup", { name: "Approval mode" });
  expect(group).toBeInTheDocument();
  expect(screen.getByRole("radio", { name: "Ask first" })).toHaveAttribute("aria-checked", "true");
  expect(screen.getAllByRole("radio").map((b) => b.querySelector(".mode-full")?.textContent)).toEqual([
    "Read only",
    "Ask first",
    "Auto-edit",
    "Auto, sandboxed",
    "Run everything",
  ]);
  // A narrow composer shows the short names (layout.css); the full name stays the radio's name
  // and starts its tooltip.
  expect(screen.getAllByRole("radio").map((b) => b.querySelector(".mode-short")?.textContent)).toEqual([
    "Read",
    "Ask",
    "Edit",
    "Sandbox",
    "All",
  ]);
  expect(screen.getByRole("radio", { name: "Run everything" }).title).toMatch(/^Run everything: Everything runs without asking/);
  await userEvent.click(screen.getByRole("radio", { name: "Ask first" }));
  expect(onMode).not.toHaveBeenCalled();
  await userEvent.click(screen.getByRole("radio", { name: "Auto-edit" }));
  expect(onMode).toHaveBeenCalledWith("auto-edit");
});
