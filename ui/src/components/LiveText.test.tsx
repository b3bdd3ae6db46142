import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { LIVE_TAIL_LINES, LiveText } from "./LiveText";
import { LineIndex } from "./lineIndex";

function numbered(n: number): string {
  return Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");
}

test("LineIndex splits incrementally and handles replacements", () => {
  const index = new LineIndex();
  index.update("a\nb");
  expect(index.count).toBe(2);
  index.update("a\nbc\n");
  expect(index.count).toBe(2);
  expect(index.lines(0, 5)).toEqual(["a", "bc"]);
  index.update("a\nbc\nd\r\n");
  expect(index.lines(0, 5)).toEqual(["a", "bc", "d"]);
  index.update("x");
  expect(index.lines(0, 5)).toEqual(["x"]);
  index.update("");
  expect(index.count).toBe(0);
});

test("shows numbered lines of a short text", () => {
  const { container } = render(<LiveText text={"fn main() {}\n<b>not bold</b>\n"} streaming={false} label="src/main.rs" />);
  const rows = container.querySelectorAll(".lt-line");
  expect(rows).toHaveLength(2);
  expect(rows[0]!.querySelector(".lt-num")).toHaveTextContent("1");
  expect(rows[1]!.querySelector(".lt-code")).toHaveTextContent("<b>not bold</b>");
  expect(container.querySelector("b")).toBeNull();
  expect(screen.getByRole("region", { name: "src/main.rs" })).toBeInTheDocument();
});

test("while streaming only the tail is rendered and the view sticks to the bottom", () => {
  const { container, rerender } = render(<LiveText text={numbered(500)} streaming tailLines={50} />);
  const region = screen.getByRole("region");
  Object.defineProperty(region, "scrollHeight", { configurable: true, value: 5000 });
  expect(container.querySelectorAll(".lt-line")).toHaveLength(50);
  expect(screen.getByText("… 450 earlier lines")).toBeInTheDocument();
  expect(container.querySelector(".lt-num")).toHaveTextContent("451");
  rerender(<LiveText text={numbered(510)} streaming tailLines={50} />);
  expect(screen.getByText("… 460 earlier lines")).toBeInTheDocument();
  expect(container.querySelector(".lt-line:last-child")).toHaveTextContent("510line 510");
  expect(region.scrollTop).toBe(5000);
});

test("when complete the text is capped with a Show all button", async () => {
  const user = userEvent.setup();
  const { container } = render(<LiveText text={numbered(250)} streaming={false} maxLines={200} />);
  expect(container.querySelectorAll(".lt-line")).toHaveLength(200);
  expect(screen.queryByText(/earlier lines/)).not.toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Show all 250 lines" }));
  expect(container.querySelectorAll(".lt-line")).toHaveLength(250);
  expect(screen.queryByRole("button", { name: /Show all/ })).not.toBeInTheDocument();
});

test("a 1 MiB text streams quickly and shows its last line", () => {
  const line = "x".repeat(99) + "\n";
  const repeats = Math.ceil((1 << 20) / line.length);
  let text = line.repeat(repeats) + "the very last line";
  expect(text.length).toBeGreaterThanOrEqual(1 << 20);
  const started = performance.now();
  const { container, rerender } = render(<LiveText text={text} streaming />);
  // Grow it chunk by chunk, as a stream would.
  for (let i = 0; i < 20; i++) {
    text += `\nchunk ${i}`;
    rerender(<LiveText text={text} streaming />);
  }
  expect(performance.now() - started).toBeLessThan(4000);
  expect(container.querySelectorAll(".lt-line")).toHaveLength(LIVE_TAIL_LINES);
  expect(container.querySelector(".lt-line:last-child .lt-code")).toHaveTextContent("chunk 19");
  expect(container.querySelector(".lt-line:last-child .lt-num")).toHaveTextContent(String(repeats + 1 + 20));
  expect(screen.getByText("the very last line")).toBeInTheDocument();
});

test("a 1 MiB text that is complete renders the capped head", () => {
  const text = "y".repeat(99).concat("\n").repeat(10_600);
  expect(text.length).toBeGreaterThanOrEqual(1 << 20);
  const { container } = render(<LiveText text={text} streaming={false} maxLines={100} />);
  expect(container.querySelectorAll(".lt-line")).toHaveLength(100);
  expect(screen.getByRole("button", { name: "Show all 10600 lines" })).toBeInTheDocument();
});
