import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Composer } from "./Composer";
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
