import { attachmentLabel, mentionsIn, withoutMention } from "./attachments";

test("mentions are paths, ranges and folders, without the sentence's punctuation", () => {
  expect(mentionsIn("see @src/a.rs, @src/b.rs:10-40. and @docs/ (and @c.rs) @src/a.rs")).toEqual([
    "src/a.rs",
    "src/b.rs:10-40",
    "docs/",
    "c.rs",
  ]);
  expect(mentionsIn("mail me at a@b.com or @ alone")).toEqual([]);
});

test("a mention taken off keeps the words", () => {
  expect(withoutMention("fix @a.rs and @a.rs. not @a.rsx", "a.rs")).toBe("fix a.rs and a.rs. not @a.rsx");
});

test("labels say what was attached and what was not", () => {
  expect(attachmentLabel({ kind: "file", path: "a.rs", lines: [3, 9], bytes: 10, note: null })).toBe("a.rs:3-9");
  expect(attachmentLabel({ kind: "folder", path: "src/", entries: 1, note: null })).toBe("src/ (1 entry)");
  expect(attachmentLabel({ kind: "unavailable", mention: "@x.rs", reason: "no such file" })).toBe("@x.rs not attached");
});
