import { render, screen } from "@testing-library/react";
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
