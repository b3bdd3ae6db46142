import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { cleanTerminalLine, stripAnsi } from "./ansi";
import { OutputView } from "./OutputView";

function fakeLayout(el: HTMLElement, scrollHeight: number, clientHeight: number) {
  Object.defineProperty(el, "scrollHeight", { configurable: true, value: scrollHeight });
  Object.defineProperty(el, "clientHeight", { configurable: true, value: clientHeight });
}

test("ANSI escape sequences and control characters are stripped", () => {
  expect(stripAnsi("\x1b[1;31merror\x1b[0m: bad\n\x1b[2K\x1b[1Gok")).toBe("error: bad\nok");
  expect(cleanTerminalLine("\x1b]0;title\x07done")).toBe("done");
  expect(cleanTerminalLine("\x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\")).toBe("link");
  expect(cleanTerminalLine("\x1b(Bplain\x1b=\x07\x08")).toBe("plain");
  expect(cleanTerminalLine(" 10%\r 50%\r100%")).toBe("100%");
  expect(cleanTerminalLine("tab\there")).toBe("tab\there");
});

test("renders cleaned output as text", () => {
  render(<OutputView text={"\x1b[32mCompiling\x1b[0m foreman\n<script>alert(1)</script>\n"} running />);
  const log = screen.getByRole("log", { name: "Command output" });
  expect(log.textContent).toBe("Compiling foreman\n<script>alert(1)</script>");
  expect(log.querySelector("script")).toBeNull();
  expect(screen.getByText("running…")).toBeInTheDocument();
  expect(screen.queryByText(/^exit/)).not.toBeInTheDocument();
});

test("only the last 2,000 lines are kept", () => {
  const text = Array.from({ length: 2500 }, (_, i) => `out ${i + 1}`).join("\n");
  render(<OutputView text={text} running={false} />);
  const log = screen.getByRole("log");
  expect(screen.getByText("… 500 earlier lines")).toBeInTheDocument();
  expect(log.textContent).not.toContain("out 500\n");
  expect(log.textContent).toContain("out 501\n");
  expect(log.textContent!.endsWith("out 2500")).toBe(true);
});

test("follows the output while running until the user scrolls up", async () => {
  const user = userEvent.setup();
  const { rerender } = render(<OutputView text="a" running />);
  const log = screen.getByRole("log");
  fakeLayout(log, 1000, 100);
  rerender(<OutputView text={"a\nb"} running />);
  expect(log.scrollTop).toBe(1000);

  // Scrolled up: new output does not move the view.
  log.scrollTop = 200;
  fireEvent.scroll(log);
  fakeLayout(log, 1200, 100);
  rerender(<OutputView text={"a\nb\nc"} running />);
  expect(log.scrollTop).toBe(200);

  // The jump button resumes following.
  await user.click(screen.getByRole("button", { name: "Jump to latest output" }));
  expect(log.scrollTop).toBe(1200);
  fakeLayout(log, 1400, 100);
  rerender(<OutputView text={"a\nb\nc\nd"} running />);
  expect(log.scrollTop).toBe(1400);
  expect(screen.queryByRole("button", { name: "Jump to latest output" })).not.toBeInTheDocument();
});

test("scrolling back to the bottom resumes following", () => {
  const { rerender } = render(<OutputView text="a" running />);
  const log = screen.getByRole("log");
  fakeLayout(log, 1000, 100);
  log.scrollTop = 100;
  fireEvent.scroll(log);
  log.scrollTop = 900;
  fireEvent.scroll(log);
  fakeLayout(log, 1100, 100);
  rerender(<OutputView text={"a\nb"} running />);
  expect(log.scrollTop).toBe(1100);
});

test("a finished command's output says nothing of how it ended: its card's header does", () => {
  render(<OutputView text="ok" running={false} />);
  expect(screen.queryByText(/exit/)).not.toBeInTheDocument();
  expect(screen.queryByText("running…")).not.toBeInTheDocument();
});
