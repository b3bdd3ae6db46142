import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Composer, withReferences, withoutReferences } from "./Composer";
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
  const first = { texts: [withReferences("look at @src/a.rs"), "and then test it"] };
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

test("the list of referenced files comes off only when it is the one the composer added", () => {
  expect(withoutReferences(withReferences("see @a.rs and @b.rs"))).toBe("see @a.rs and @b.rs");
  expect(withoutReferences("no files here")).toBe("no files here");
  const typed = "text\n\nReferenced files: something else";
  expect(withoutReferences(typed)).toBe(typed);
});
