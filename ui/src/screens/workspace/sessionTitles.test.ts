import type { SessionSummary } from "../../protocol/SessionSummary";
import { named, withTitles } from "./sessionTitles";

const row = (id: string, title: string): SessionSummary => ({ id, workspace_path: "/w", title, created_at: 1, updated_at: 1 });

test("a running session is named by the engine's title until the store has one; the store's wins", () => {
  let titles: ReadonlyMap<string, string> = new Map();
  const stored = [row("s1", ""), row("s2", "Docs")];
  expect(withTitles(stored, titles)).toBe(stored);
  titles = named(titles, "s1", "Fix the parser");
  expect(named(titles, "s1", "Fix the parser")).toBe(titles);
  expect(withTitles(stored, titles).map((s) => s.title)).toEqual(["Fix the parser", "Docs"]);
  // Renamed (or titled by the store) since: the stored title is shown.
  expect(withTitles([row("s1", "Parser work")], titles)[0]!.title).toBe("Parser work");
  // Titled before the list has the session: named as soon as it is listed.
  titles = named(titles, "s3", "New one");
  expect(withTitles([row("s3", "")], titles)[0]!.title).toBe("New one");
});
