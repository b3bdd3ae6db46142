import { emptyServer, entryProblem, parsePairs, parseServers, writeServers } from "./mcpConfig";

const FILE = `{
  "mcpServers": {
    "everything": { "command": "npx", "args": ["-y", "server-everything"], "env": {"TOKEN": "t"}, "timeout": 120, "disabledTools": ["echo"] },
    "remote": { "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}, "disabled": true, "replaces": ["web_fetch"] }
  },
  "discovery": { "command": "tools list", "callCommand": "tools call" }
}`;

test("a file reads as a list of servers, command and URL alike", () => {
  const parsed = parseServers(FILE);
  if (!parsed.ok) throw new Error(parsed.error);
  expect(parsed.servers.map((s) => s.name)).toEqual(["everything", "remote"]);
  expect(parsed.servers[0]).toMatchObject({
    transport: "command", command: "npx", args: ["-y", "server-everything"], env: [["TOKEN", "t"]], enabled: true, timeout: 120,
    rest: { disabledTools: ["echo"] },
  });
  expect(parsed.servers[1]).toMatchObject({ transport: "url", url: "https://example.com/mcp", env: [["Authorization", "Bearer x"]], enabled: false, replaces: ["web_fetch"] });
});

test("writing the list back keeps what the form does not show", () => {
  const parsed = parseServers(FILE);
  if (!parsed.ok) throw new Error(parsed.error);
  const again = JSON.parse(writeServers(FILE, parsed.servers));
  expect(again).toEqual(JSON.parse(FILE));
});

test("an empty file is an empty list, and text that is not JSON says why", () => {
  expect(parseServers("")).toEqual({ ok: true, servers: [] });
  const bad = parseServers("{ nope");
  expect(bad.ok).toBe(false);
  expect(parseServers("[]")).toEqual({ ok: false, error: "The file must hold one JSON object." });
});

test("KEY=value lines become pairs; the value may hold '='", () => {
  expect(parsePairs("A=1\n\n  B = x=y \nnot a pair")).toEqual([["A", "1"], ["B", "x=y"]]);
});

test("a server needs a unique name, a command or an http(s) URL, and a sane timeout", () => {
  const other = { ...emptyServer(), name: "taken", command: "x" };
  expect(entryProblem(emptyServer(), [])).toBe("Give the server a name.");
  expect(entryProblem({ ...emptyServer(), name: "taken", command: "x" }, [other])).toMatch(/exists already/);
  expect(entryProblem({ ...emptyServer(), name: "a" }, [])).toMatch(/command/);
  expect(entryProblem({ ...emptyServer(), name: "a", transport: "url", url: "ftp://x" }, [])).toMatch(/URL/);
  expect(entryProblem({ ...emptyServer(), name: "a", command: "x", timeout: 0 }, [])).toMatch(/1 to 3600/);
  expect(entryProblem({ ...emptyServer(), name: "a", command: "x", timeout: 60 }, [])).toBeNull();
});

test("a command server's sandbox is read, written only when on, and a bad value reads as off", () => {
  const text = `{
  "mcpServers": {
    "boxed": { "command": "x", "sandbox": "workspace-write", "sandboxNetwork": true },
    "frozen": { "command": "y", "sandbox": "read-only" },
    "odd": { "command": "z", "sandbox": "sometimes", "sandboxNetwork": "yes" },
    "plain": { "command": "w" }
  }
}`;
  const parsed = parseServers(text);
  if (!parsed.ok) throw new Error(parsed.error);
  expect(parsed.servers.map((s) => [s.name, s.sandbox, s.sandboxNetwork])).toEqual([
    ["boxed", "workspace-write", true],
    ["frozen", "read-only", false],
    ["odd", "off", false],
    ["plain", "off", false],
  ]);
  const written = JSON.parse(writeServers(text, parsed.servers)).mcpServers;
  expect(written.boxed).toEqual({ command: "x", sandbox: "workspace-write", sandboxNetwork: true });
  expect(written.frozen).toEqual({ command: "y", sandbox: "read-only" });
  expect(written.odd).toEqual({ command: "z" });
  expect(written.plain).toEqual({ command: "w" });
  // A URL server runs elsewhere: no sandbox is written for it.
  const remote = { ...emptyServer(), name: "r", transport: "url" as const, url: "https://x", sandbox: "read-only" as const };
  expect(JSON.parse(writeServers("", [remote])).mcpServers.r).toEqual({ url: "https://x" });
});
