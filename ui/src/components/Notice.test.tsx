import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Notice } from "./Notice";

test("an info notice reads as it is, with no title or details", () => {
  render(<Notice id={1} tone="info" text="Stopped." />);
  const notice = screen.getByTestId("notice");
  expect(notice).toHaveTextContent("Stopped.");
  expect(notice.querySelector("strong")).toBeNull();
  expect(screen.queryByRole("button", { name: "Details" })).toBeNull();
});

test("a raw error gets its plain title; the raw text is one click away", async () => {
  const raw = "error decoding response body: request or response body error: unexpected EOF during chunk size line";
  render(<Notice id={2} tone="error" text={raw} />);
  expect(screen.getByRole("alert")).toHaveTextContent("Connection dropped mid-answer");
  expect(screen.queryByText(raw)).toBeNull();
  await userEvent.click(screen.getByRole("button", { name: "Details" }));
  expect(screen.getByTestId("notice-details")).toHaveTextContent(raw);
});

test("a recovered error is grey and says Reconnected; an unknown error reads as it is", () => {
  const { unmount } = render(<Notice id={3} tone="error" text="The connection to X dropped in the middle of the answer (eof)." recovered />);
  expect(screen.getByTestId("notice")).toHaveClass("notice-recovered");
  expect(screen.getByRole("status")).toHaveTextContent("Reconnected after: Connection dropped mid-answer");
  unmount();
  render(<Notice id={4} tone="error" text="Something nobody foresaw." />);
  expect(screen.getByRole("alert")).toHaveTextContent("Something nobody foresaw.");
  expect(screen.queryByRole("button", { name: "Details" })).toBeNull();
});
