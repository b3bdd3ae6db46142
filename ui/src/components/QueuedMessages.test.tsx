import { fireEvent, render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { QueuedMessages } from "./QueuedMessages";

test("nothing is shown while no message waits", () => {
  const { container } = render(<QueuedMessages messages={[]} />);
  expect(container).toBeEmptyDOMElement();
});

test("waiting messages are listed in the order sent, with what happens to them", () => {
  render(
    <QueuedMessages
      messages={[
        { id: 4, text: "also add tests" },
        { id: 5, text: "and\nupdate the README" },
      ]}
    />,
  );
  const region = screen.getByRole("region", { name: "Messages waiting for the agent" });
  expect(region).toHaveTextContent("the agent reads these 2 before its next step");
  expect(screen.getAllByTestId("queued-message").map((li) => li.textContent)).toEqual([
    "also add tests",
    "and\nupdate the README",
  ]);
});

test("each waiting message can be taken back, once, with its place in the list", () => {
  const asked: [number, string][] = [];
  const messages = [
    { id: 4, text: "also add tests" },
    { id: 5, text: "and update the README", takingBack: true },
  ];
  const { rerender } = render(<QueuedMessages messages={messages} onTakeBack={(i, m) => asked.push([i, m.text])} />);
  const buttons = screen.getAllByRole("button");
  expect(buttons.map((b) => [b.textContent, b.getAttribute("aria-disabled")])).toEqual([
    ["Take back", null],
    ["Taking back…", "true"],
  ]);
  // Each button says which message it takes back.
  expect(buttons[1]).toHaveAccessibleDescription("and update the README");
  fireEvent.click(buttons[1]!);
  fireEvent.click(buttons[0]!);
  expect(asked).toEqual([[0, "also add tests"]]);
  // A stopped session cannot be asked: no buttons.
  rerender(<QueuedMessages messages={messages} />);
  expect(screen.queryAllByRole("button")).toEqual([]);
});
