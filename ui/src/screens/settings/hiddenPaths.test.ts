import { hiddenPathProblem, normalHiddenPath } from "./hiddenPaths";

const list = [
  { path: "~/.ssh", enabled: true },
  { path: "/srv/secrets", enabled: false },
];

test("a typed path is trimmed and loses its trailing slashes", () => {
  expect(normalHiddenPath("  ~/.config/tool/ ")).toBe("~/.config/tool");
  expect(normalHiddenPath("/srv//")).toBe("/srv");
  expect(normalHiddenPath("~")).toBe("~/");
  expect(normalHiddenPath("//")).toBe("/");
});

test("only an absolute or home path that is not listed yet can be added", () => {
  expect(hiddenPathProblem("~/.config/tool", list, ["/data"])).toBeNull();
  expect(hiddenPathProblem("/opt/keys", list, ["/data"])).toBeNull();
  expect(hiddenPathProblem("secrets/key", list, [])).toBe("“secrets/key” is relative: start it with / or ~/ (your home folder).");
  expect(hiddenPathProblem("~bob/.ssh", list, [])).toMatch(/is relative/);
  expect(hiddenPathProblem("   ", list, [])).toBe("Type a path to hide.");
  expect(hiddenPathProblem("~", list, [])).toBe("That hides everything: name a folder or a file.");
  expect(hiddenPathProblem("/", list, [])).toBe("That hides everything: name a folder or a file.");
  expect(hiddenPathProblem("~/.ssh/", list, [])).toBe("~/.ssh is already listed.");
  expect(hiddenPathProblem("/srv/secrets", list, [])).toBe("/srv/secrets is already listed.");
  expect(hiddenPathProblem("/data", list, ["/data"])).toBe("/data is one of the app's own folders, always hidden.");
});
