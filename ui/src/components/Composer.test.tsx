import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { fireEvent, waitFor } from "@testing-library/react";
import { Composer } from "./Composer";
import type { AttachInput } from "../protocol/AttachInput";
import { draftKey } from "../session/drafts";

beforeEach(() => localStorage.clear());

function composer(key: string, sent: string[] = [], onSend = async (text: string) => void sent.push(text)) {
  return <Composer draftKey={key} disabled={false} running={false} history={[]} findFiles={async () => []} onSend={onSend} />;
}

const box = () => screen.getByTestId("composer") as HTMLTextAreaElement;

test("an unsent message is kept per conversation, also when the composer is drawn anew", async () => {
  const first = draftKey("/w", "s1");
  const second = draftKey("/w", null);
  const view = render(composer(first));
  await userEvent.type(box(), "rename the loader");
  view.rerender(composer(second));
  expect(box().value).toBe("");
  await userEvent.type(box(), "a new task");
  view.rerender(composer(first));
  expect(box().value).toBe("rename the loader");
  view.unmount();

  // As after Settings, a page loaded again, or a restart: the drafts come back from storage.
  const again = render(composer(second));
  expect(box().value).toBe("a new task");
  again.rerender(composer(first));
  expect(box().value).toBe("rename the loader");
  expect(draftKey("/w", "s1")).not.toBe(draftKey("/other", "s1"));
});

test("sending clears the conversation's draft", async () => {
  const key = draftKey("/w", "s1");
  const sent: string[] = [];
  const view = render(composer(key, sent));
  await userEvent.type(box(), "run the tests{Enter}");
  expect(sent).toEqual(["run the tests"]);
  expect(box().value).toBe("");
  view.unmount();
  render(composer(key, sent));
  expect(box().value).toBe("");
  expect(localStorage.length).toBe(0);
});

test("a send that fails keeps the text", async () => {
  const key = draftKey("/w", null);
  render(
    composer(key, [], async () => {
      throw new Error("no model");
    }),
  );
  await userEvent.type(box(), "hello{Enter}");
  expect(box().value).toBe("hello");
  expect(localStorage.getItem(key)).toBe("hello");
});

test("while the agent works, a message is queued for its next step, by the button or Enter", async () => {
  const sent: string[] = [];
  const onSend = async (text: string) => void sent.push(text);
  render(<Composer draftKey={draftKey("/w", "s1")} disabled={false} running history={[]} findFiles={async () => []} onSend={onSend} />);
  const button = screen.getByTestId("send");
  expect(button).toHaveTextContent("Queue");
  expect(button).toBeDisabled();
  await userEvent.type(box(), "also update the docs");
  expect(button).toBeEnabled();
  await userEvent.click(button);
  await userEvent.type(box(), "and the changelog{Enter}");
  expect(sent).toEqual(["also update the docs", "and the changelog"]);
});

test("messages given back come into the composer once each, before what is being written", async () => {
  const key = draftKey("/w", "s1");
  const props = { draftKey: key, disabled: false, running: false, history: [], findFiles: async () => [], onSend: () => {} };
  const first = { texts: ["look at @src/a.rs", "and then test it"] };
  const view = render(<Composer {...props} restore={[first]} />);
  expect(box().value).toBe("look at @src/a.rs\n\nand then test it");
  expect(box()).toHaveFocus();
  // Drawn again with the same restore (Settings and back, say): nothing is added twice.
  view.rerender(<Composer {...props} restore={[first]} />);
  view.unmount();
  const again = render(<Composer {...props} restore={[first]} />);
  expect(box().value).toBe("look at @src/a.rs\n\nand then test it");
  await userEvent.clear(box());
  await userEvent.type(box(), "a new thought");
  again.rerender(<Composer {...props} restore={[first, { texts: ["an older one"] }]} />);
  expect(box().value).toBe("an older one\n\na new thought");
  // Two returns in one frame (two messages taken back quickly): both come in, in order.
  await userEvent.clear(box());
  again.rerender(<Composer {...props} restore={[first, { texts: ["one"] }, { texts: ["two"] }]} />);
  expect(box().value).toBe("one\n\ntwo");
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

test("mentions and pasted images are chips that can be removed, and go with the message", async () => {
  const sent: [string, AttachInput[]][] = [];
  const onSend = async (text: string, attach: AttachInput[]) => void sent.push([text, attach]);
  render(<Composer draftKey={draftKey("/w", "s1")} disabled={false} running={false} history={[]} findFiles={async () => []} onSend={onSend} />);
  await userEvent.type(box(), "compare @src/a.rs:10-20 with @docs/ and @old.rs.");
  const chips = screen.getByTestId("composer-attachments");
  expect(chips).toHaveTextContent("@src/a.rs:10-20");
  expect(chips).toHaveTextContent("@docs/");
  expect(chips).toHaveTextContent("@old.rs");
  await userEvent.click(screen.getByRole("button", { name: "Do not attach old.rs" }));
  expect(box().value).toBe("compare @src/a.rs:10-20 with @docs/ and old.rs.");
  const file = new File([PNG], "shot.png", { type: "image/png" });
  fireEvent.paste(box(), { clipboardData: { files: [file] } });
  await waitFor(() => expect(screen.getByRole("img", { name: "shot.png" })).toBeInTheDocument());
  await userEvent.click(screen.getByTestId("send"));
  expect(sent).toHaveLength(1);
  const [text, attach] = sent[0]!;
  expect(text).toBe("compare @src/a.rs:10-20 with @docs/ and old.rs.");
  expect(attach).toEqual([
    { kind: "path", path: "src/a.rs:10-20" },
    { kind: "path", path: "docs/" },
    { kind: "image", media_type: "image/png", data: "iVBORw0KGgoAAAAN", name: "shot.png" },
  ]);
  expect(screen.queryByTestId("composer-attachments")).toBeNull();
});

test("an image over the limit or a dropped file that is not an image says why and is not added", async () => {
  render(composer(draftKey("/w", null)));
  const big = new File([new Uint8Array(7_200_000)], "huge.png", { type: "image/png" });
  fireEvent.drop(screen.getByTestId("composer-area"), { dataTransfer: { files: [big] } });
  expect(await screen.findByTestId("composer-problem")).toHaveTextContent("huge.png is 7.2 MB; the limit is 5.0 MB per image.");
  const text = new File(["x"], "notes.txt", { type: "text/plain" });
  fireEvent.drop(screen.getByTestId("composer-area"), { dataTransfer: { files: [text] } });
  expect(await screen.findByTestId("composer-problem")).toHaveTextContent("notes.txt is not an image. To attach a workspace file, mention it with @.");
  expect(screen.queryByTestId("composer-attachments")).toBeNull();
});

test("images of messages given back come back as chips", () => {
  const image = { media_type: "image/png", data: "iVBORw0KGgoAAAAN", name: "shot.png" };
  render(<Composer draftKey={draftKey("/w", "s1")} disabled={false} running={false} history={[]} findFiles={async () => []} onSend={() => {}} restore={[{ texts: ["see this"], images: [image] }]} />);
  expect(box().value).toBe("see this");
  expect(screen.getByRole("img", { name: "shot.png" })).toBeInTheDocument();
});

test("while the agent works, Stop takes Send's place and Esc in the message box stops it", async () => {
  const onStop = vi.fn();
  const props = { draftKey: draftKey("/w", "s2"), disabled: false, history: [], findFiles: async () => [], onSend: () => {}, onStop };
  const { rerender } = render(<Composer {...props} running={false} />);
  expect(screen.getByTestId("send")).toHaveTextContent("Send");
  expect(screen.queryByTestId("stop")).toBeNull();
  rerender(<Composer {...props} running />);
  expect(screen.getByTestId("stop")).toHaveTextContent("Stop");
  // Queue stays a real button that says why it waits.
  expect(screen.getByTestId("send")).toHaveAttribute("title", "Write a message to queue it for the agent's next step");
  await userEvent.click(screen.getByTestId("stop"));
  expect(onStop).toHaveBeenCalledTimes(1);
  await userEvent.type(box(), "{Escape}");
  expect(onStop).toHaveBeenCalledTimes(2);
});

test("a disabled Send says why", () => {
  render(
    <Composer draftKey={draftKey("/w", "s3")} disabled disabledWhy="Set up the model in Settings first" running={false} history={[]} findFiles={async () => []} onSend={() => {}} />,
  );
  expect(screen.getByTestId("send")).toBeDisabled();
  expect(screen.getByTestId("send")).toHaveAttribute("title", "Set up the model in Settings first");
});

describe("the / menu", () => {
  const catalog = {
    entries: [
      { name: "review", kind: "command", description: "Review a pull request", argument_hint: "[pr-number]", source: ".claude/commands/review.md" },
      { name: "pdf-report", kind: "skill", description: "Write a PDF report", argument_hint: null, source: ".claude/skills/pdf-report/SKILL.md" },
    ],
    warnings: [],
  } as const;

  function withSlash(sent: string[], ran: string[], loads: { n: number }) {
    return (
      <Composer
        draftKey={draftKey("/w", "slash")}
        disabled={false}
        running={false}
        history={[]}
        findFiles={async () => []}
        onSend={async (text) => void sent.push(text)}
        slash={{
          load: async () => {
            loads.n += 1;
            return { entries: [...catalog.entries], warnings: [] };
          },
          runBuiltIn: (name) => void ran.push(name),
        }}
      />
    );
  }

  const shown = () => screen.getAllByRole("option").map((o) => o.querySelector(".slash-name")?.textContent);

  test("lists built-ins, commands, then skills, filters as you type, and inserts the pick", async () => {
    const sent: string[] = [];
    const loads = { n: 0 };
    render(withSlash(sent, [], loads));
    await userEvent.type(box(), "/");
    await waitFor(() => expect(shown()).toEqual(["/clear", "/compact", "/mode", "/model", "/retry", "/review", "/pdf-report"]));
    expect(loads.n).toBe(1);
    expect(screen.getByRole("option", { name: /review/ })).toHaveAttribute("title", "From .claude/commands/review.md");
    expect(screen.getByRole("option", { name: /review/ })).toHaveTextContent("/review[pr-number]Review a pull request");
    await userEvent.type(box(), "re");
    expect(shown()).toEqual(["/retry", "/review", "/pdf-report"]);
    await userEvent.keyboard("{ArrowUp}{ArrowUp}");
    expect(screen.getByRole("option", { selected: true })).toHaveTextContent("/review");
    await userEvent.keyboard("{Enter}");
    expect(box().value).toBe("/review ");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(screen.getByTestId("slash-hint")).toHaveTextContent("/review [pr-number]");
    await userEvent.type(box(), "12{Enter}");
    expect(sent).toEqual(["/review 12"]);
  });

  test("Tab picks too, Esc closes the menu, and a built-in runs in the window instead of being sent", async () => {
    const sent: string[] = [];
    const ran: string[] = [];
    render(withSlash(sent, ran, { n: 0 }));
    await userEvent.type(box(), "/comp");
    await waitFor(() => expect(shown()).toEqual(["/compact"]));
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(box().value).toBe("/comp");
    await userEvent.type(box(), "a");
    await waitFor(() => expect(shown()).toEqual(["/compact"]));
    await userEvent.keyboard("{Tab}");
    expect(box().value).toBe("/compact ");
    await userEvent.keyboard("{Enter}");
    expect(ran).toEqual(["compact"]);
    expect(sent).toEqual([]);
    expect(box().value).toBe("");
  });

  test("/ later in a message is text", async () => {
    render(withSlash([], [], { n: 0 }));
    await userEvent.type(box(), "see a/b");
    expect(screen.queryByRole("listbox")).toBeNull();
  });
});
