import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Markdown } from "./Markdown";

const XSS_CORPUS = [
  "<img src=x onerror=alert(1)>",
  "[x](javascript:alert(1))",
  "[y](JaVaScRiPt:alert(1))",
  "[z](java\tscript:alert(1))",
  "[x](data:text/html,<script>alert(1)</script>)",
  "[v](vbscript:msgbox(1))",
  "[f](file:///etc/passwd)",
  "<svg onload=alert(1)>",
  '<iframe src="https://evil.example"></iframe>',
  "<script>alert(1)</script>",
  '<a href="javascript:alert(1)">html link</a>',
  '<div style="x" onclick="alert(1)">div</div>',
  "```html\n<script>alert(1)</script><img src=x onerror=alert(1)>\n```",
  "`<img src=x onerror=alert(1)>`",
  '[https://good.example](https://evil.example "https://good.example")',
  "<javascript:alert(1)>",
  "[ref][bad]\n\n[bad]: javascript:alert(1)",
  "![alt](https://tracker.example/pixel.png)",
  '![x" onerror="alert(1)](javascript:alert(1))',
  "[![img](x)](javascript:alert(1))",
  "<https://autolink.example/path>",
  "www.gfm-autolink.example",
  "<details open ontoggle=alert(1)>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
].join("\n\n");

function assertInert(container: HTMLElement) {
  expect(container.querySelector("script, iframe, svg, img, object, embed, style, math, details, form")).toBeNull();
  for (const el of container.querySelectorAll("*")) {
    for (const attr of el.getAttributeNames()) {
      expect(attr.toLowerCase().startsWith("on")).toBe(false);
      expect(attr).not.toBe("style");
    }
    for (const name of ["href", "src", "action", "formaction", "xlink:href"]) {
      const value = el.getAttribute(name);
      if (value !== null) expect(value).toMatch(/^https?:\/\//);
    }
  }
}

test("an XSS corpus renders inert", () => {
  const { container } = render(<Markdown text={XSS_CORPUS} />);
  assertInert(container);
  // Raw HTML shows as text.
  expect(container).toHaveTextContent("<img src=x onerror=alert(1)>");
  expect(container).toHaveTextContent("<svg onload=alert(1)>");
  // HTML inside a code fence is code text.
  expect(container.querySelector("pre code")).toHaveTextContent("<script>alert(1)</script>");
  // Images are not loaded; they show as text.
  expect(container).toHaveTextContent("[image: alt](https://tracker.example/pixel.png)");
  // Every link that survives points at http(s) only.
  const hrefs = [...container.querySelectorAll("a")].map((a) => a.getAttribute("href"));
  expect(hrefs).toEqual(
    expect.arrayContaining(["https://evil.example/", "https://autolink.example/path", "http://www.gfm-autolink.example/"]),
  );
});

test("every prefix of the corpus renders inert while it streams", () => {
  const { container, rerender } = render(<Markdown text="" />);
  for (let end = 0; end <= XSS_CORPUS.length; end += 19) {
    rerender(<Markdown text={XSS_CORPUS.slice(0, end)} />);
    assertInert(container);
  }
}, 30_000);

test("a link whose text looks like another URL shows its real target", () => {
  render(<Markdown text="[https://good.example](https://evil.example/login)" />);
  const link = screen.getByRole("link");
  expect(link).toHaveAttribute("href", "https://evil.example/login");
  expect(link).toHaveAttribute("title", "https://evil.example/login");
  expect(link).toHaveTextContent("https://good.example (evil.example)");
});

test("an autolink shows no redundant suffix", () => {
  render(<Markdown text="see https://ok.example/docs" />);
  expect(screen.getByRole("link")).toHaveTextContent(/^https:\/\/ok\.example\/docs$/);
});

test("clicking an https link calls onOpenLink; a javascript: one is inert", async () => {
  const user = userEvent.setup();
  const onOpenLink = vi.fn();
  render(<Markdown text={'[ok](https://ok.example "Docs") and [bad](javascript:alert(1)) and [ref][r]\n\n[r]: javascript:alert(2)'} onOpenLink={onOpenLink} />);
  const ok = screen.getByRole("link", { name: /ok/ });
  expect(ok).toHaveAttribute("title", "Docs — https://ok.example/");
  await user.click(ok);
  expect(onOpenLink).toHaveBeenCalledTimes(1);
  expect(onOpenLink).toHaveBeenCalledWith("https://ok.example/");
  // The other links are plain text, with nothing to click.
  expect(screen.getAllByRole("link")).toHaveLength(1);
  await user.click(screen.getByText("bad"));
  await user.click(screen.getByText("ref"));
  expect(onOpenLink).toHaveBeenCalledTimes(1);
});

test("clicking a link never navigates the window", () => {
  render(<Markdown text="[ok](https://ok.example)" />);
  const event = new MouseEvent("click", { bubbles: true, cancelable: true });
  screen.getByRole("link").dispatchEvent(event);
  expect(event.defaultPrevented).toBe(true);
});

test("code blocks are highlighted and labelled; unknown languages are plain", () => {
  const { container } = render(
    <Markdown text={"```rust\nfn main() { let x = 1; }\n```\n\n```toml\n[package]\nname = \"x\"\n```\n\n```brainfuck\n+++\n```"} />,
  );
  const blocks = container.querySelectorAll(".md-code");
  expect(blocks).toHaveLength(3);
  expect(blocks[0]!.querySelector(".md-code-lang")).toHaveTextContent("rust");
  expect(blocks[0]!.querySelector("code.hljs.language-rust")).not.toBeNull();
  expect(blocks[0]!.querySelector(".hljs-keyword")).toHaveTextContent("fn");
  expect(blocks[1]!.querySelector(".hljs-section")).toHaveTextContent("[package]");
  expect(blocks[2]!.querySelector(".md-code-lang")).toHaveTextContent("brainfuck");
  expect(blocks[2]!.querySelector("[class^='hljs-']")).toBeNull();
  expect(blocks[2]).toHaveTextContent("+++");
});

test("the copy button copies the code and says Copied briefly", async () => {
  vi.useFakeTimers();
  const writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  try {
    render(<Markdown text={"```python\nprint('hi')\n```"} />);
    await act(async () => {
      screen.getByRole("button", { name: "Copy code" }).click();
    });
    expect(writeText).toHaveBeenCalledWith("print('hi')");
    expect(screen.getByRole("button", { name: "Copied" })).toHaveTextContent("Copied");
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.getByRole("button", { name: "Copy code" })).toHaveTextContent("Copy");
  } finally {
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, "clipboard");
  }
});

test("copy does nothing without a clipboard", async () => {
  const user = userEvent.setup();
  const saved = Object.getOwnPropertyDescriptor(navigator, "clipboard");
  Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
  try {
    render(<Markdown text={"```\nplain\n```"} />);
    await user.click(screen.getByRole("button", { name: "Copy code" }));
    expect(screen.getByRole("button", { name: "Copy code" })).toBeInTheDocument();
  } finally {
    if (saved) Object.defineProperty(navigator, "clipboard", saved);
    else Reflect.deleteProperty(navigator, "clipboard");
  }
});

test("text cut mid-construct still renders", () => {
  const { container } = render(<Markdown text={"Here is **bold and a [link](https://ok.exa\n\n```rust\nfn main() {"} />);
  expect(container).toHaveTextContent("Here is");
  expect(container.querySelector("pre code")).toHaveTextContent("fn main() {");
});

test("GFM tables and task lists render", () => {
  const { container } = render(<Markdown text={"| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo"} />);
  expect(container.querySelector("table td")).toHaveTextContent("1");
  expect(container.querySelectorAll("input[type=checkbox]")).toHaveLength(2);
});

test("footnote references and mail autolinks are plain text without a blocked-link note", () => {
  const { container } = render(<Markdown text={"Mail me@example.com.\n\nA claim[^1].\n\n[^1]: The source."} />);
  expect(container.querySelector("a")).toBeNull();
  expect(container).not.toHaveTextContent("blocked link");
  expect(container).toHaveTextContent("me@example.com");
  expect(container).toHaveTextContent("The source.");
});

test("a javascript: link says it was blocked", () => {
  render(<Markdown text="[click me](javascript:alert(1))" />);
  expect(screen.getByText("click me").parentElement).toHaveTextContent("click me (blocked link)");
});
