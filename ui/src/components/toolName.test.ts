import { argsGist, cardIcon, EXTERNAL_ICON, externalTool, toolLabel } from "./toolName";
import { toolIcon } from "./toolSummary";

test("an external tool is named by its own name and its server", () => {
  expect(externalTool("everything__echo")).toEqual({ server: "everything", tool: "echo" });
  expect(externalTool("my-server__get_tiny_image")).toEqual({ server: "my-server", tool: "get_tiny_image" });
  expect(toolLabel("everything__echo")).toBe("echo · everything");
  expect(toolLabel("todo_write")).toBe("todo_write");
  // Built-ins and odd names stay as they are.
  expect(externalTool("read")).toBeNull();
  expect(externalTool("__x")).toBeNull();
  expect(externalTool("x__")).toBeNull();
});

test("an external tool has its own icon, whatever its kind; a built-in its kind's", () => {
  expect(cardIcon("everything__echo", "read")).toBe(EXTERNAL_ICON);
  expect(cardIcon("everything__add", "other")).toBe(EXTERNAL_ICON);
  expect(cardIcon("read", "read")).toBe(toolIcon("read"));
  expect(EXTERNAL_ICON).not.toBe(toolIcon("read"));
});

test("the gist of the arguments: one value alone, several by name, nothing nested", () => {
  expect(argsGist({ message: "hello from MCP" })).toBe("hello from MCP");
  expect(argsGist({ path: "a.rs", limit: 40, deep: { x: 1 } })).toBe("path: a.rs · limit: 40");
  expect(argsGist({ text: "first line\nsecond" })).toBe("first line");
  expect(argsGist({ items: [1, 2] })).toBeNull();
  expect(argsGist({})).toBeNull();
  expect(argsGist(null)).toBeNull();
  expect(argsGist({ q: "x".repeat(200) })).toBe(`${"x".repeat(120)}…`);
});
