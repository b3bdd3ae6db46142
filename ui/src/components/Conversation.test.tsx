import { fireEvent, render, screen } from "@testing-library/react";
import type { Item } from "../session/state";
import { Conversation, PAGE } from "./Conversation";

const actions = { approve: vi.fn(), reject: vi.fn(), editApprove: vi.fn() };

test("a long session renders its latest entries and adds earlier ones on request", () => {
  const items: Item[] = Array.from({ length: PAGE * 2 + 10 }, (_, i) => ({ kind: "user", id: i + 1, text: `message ${i}` }));
  render(<Conversation items={items} calls={{}} actions={actions} onOpenLink={() => {}} />);
  expect(screen.getAllByTestId("user-message")).toHaveLength(PAGE);
  expect(screen.getByText(`message ${PAGE * 2 + 9}`)).toBeInTheDocument();
  expect(screen.queryByText("message 0")).toBeNull();
  fireEvent.click(screen.getByText(`Show ${PAGE} earlier of ${PAGE + 10}`));
  expect(screen.getAllByTestId("user-message")).toHaveLength(PAGE * 2);
  fireEvent.click(screen.getByText("Show 10 earlier of 10"));
  expect(screen.getByText("message 0")).toBeInTheDocument();
});
