import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { findPaths, ResultView } from "./ResultView";

test("short results show in full", () => {
  render(<ResultView tool="read" kind="read" text={"one\ntwo\n"} isError={false} />);
  expect(screen.getByText("one")).toBeInTheDocument();
  expect(screen.queryByRole("button")).not.toBeInTheDocument();
});

test("long results start collapsed and expand", async () => {
  const user = userEvent.setup();
  const text = Array.from({ length: 30 }, (_, i) => `row ${i + 1}`).join("\n");
  const { container } = render(<ResultView tool="bash" kind="execute" text={text} isError={false} />);
  expect(container.querySelectorAll(".result-line")).toHaveLength(20);
  expect(screen.queryByText("row 21")).not.toBeInTheDocument();
  const toggle = screen.getByRole("button", { name: "Show all 30 lines" });
  expect(toggle).toHaveAttribute("aria-expanded", "false");
  await user.click(toggle);
  expect(container.querySelectorAll(".result-line")).toHaveLength(30);
  expect(screen.getByText("row 30")).toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Show less" }));
  expect(container.querySelectorAll(".result-line")).toHaveLength(20);
});

test("grep matches open the file at the line", async () => {
  const user = userEvent.setup();
  const onOpenPath = vi.fn();
  const text = "src/main.rs:12:fn main() {\nsrc/main.rs-13-    run();\n--\nsrc/lib.rs:3:pub mod x;\n… 4 more lines not shown; narrow the pattern, path or glob.\n";
  const { container } = render(<ResultView tool="grep" kind="search" text={text} isError={false} onOpenPath={onOpenPath} />);
  await user.click(screen.getByRole("button", { name: "Open src/main.rs at line 12" }));
  expect(onOpenPath).toHaveBeenLastCalledWith("src/main.rs", 12);
  await user.click(screen.getByRole("button", { name: "Open src/main.rs at line 13" }));
  expect(onOpenPath).toHaveBeenLastCalledWith("src/main.rs", 13);
  await user.click(screen.getByRole("button", { name: "Open src/lib.rs at line 3" }));
  expect(onOpenPath).toHaveBeenLastCalledWith("src/lib.rs", 3);
  expect(screen.getAllByRole("button")).toHaveLength(3);
  // The rest of each line stays text.
  expect(container.querySelector(".result-line")).toHaveTextContent("src/main.rs:12:fn main() {");
});

test("glob and grep file lists open paths without a line; absolute and parent paths do not", async () => {
  const user = userEvent.setup();
  const onOpenPath = vi.fn();
  render(<ResultView tool="glob" kind="search" text={"src/a.ts\n/etc/passwd\n../outside.txt\nsrc/b.ts\n"} isError={false} onOpenPath={onOpenPath} />);
  expect(screen.getAllByRole("button")).toHaveLength(2);
  await user.click(screen.getByRole("button", { name: "Open src/b.ts" }));
  expect(onOpenPath).toHaveBeenCalledWith("src/b.ts", undefined);
  expect(screen.getByText("/etc/passwd")).toBeInTheDocument();
});

test("ls entries are joined to the listed directory", () => {
  expect(findPaths("read", ["sub/", "link@", "main.rs  (120 bytes)", "(empty directory)", "… and 3 more entries not shown."], "src")).toEqual([
    { path: "src/sub", length: 3 },
    { path: "src/link", length: 4 },
    { path: "src/main.rs", length: 7 },
    undefined,
    undefined,
  ]);
  expect(findPaths("search", ["src/x.rs:4", "No matches (3 files searched)."])).toEqual([{ path: "src/x.rs", length: 8 }, undefined]);
  expect(findPaths("read", ["src/x.rs:4:y"])).toEqual([undefined]);
});

test("other tools never link paths", () => {
  render(<ResultView tool="read" kind="read" text={"src/main.rs:12:fn main() {"} isError={false} onOpenPath={vi.fn()} />);
  expect(screen.queryByRole("button")).not.toBeInTheDocument();
});

test("errors are styled as errors and not linked", () => {
  const { container } = render(<ResultView tool="grep" kind="search" text={"src/x.rs:1: regex parse error"} isError onOpenPath={vi.fn()} />);
  expect(container.firstChild).toHaveClass("result-view", "result-error");
  expect(screen.getByText("Error")).toBeInTheDocument();
  expect(screen.queryByRole("button")).not.toBeInTheDocument();
});
