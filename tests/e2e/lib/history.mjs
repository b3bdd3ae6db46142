// A stored session written straight into the app's SQLite database (the `sqlite3` command), for
// tests that need a long history without streaming it: `groups` rounds of a request, an answer
// that reads a file, the read's result and a closing answer.
import { execFileSync } from "node:child_process";

/**
 * Writes session `id` of `project` with `groups` rounds (4 messages and 1 tool call each) into
 * the database at `db`. Texts: "Request number i: please look at file_i.rs", "Looking at
 * **file_i.rs** now.", "Done with step i.".
 */
export function seedSession(db, { id, project, title, groups }) {
  // Unix milliseconds, as the app stores them: an hour ago, one step a second since. (Times of
  // 1 and 2 ms made the sidebar say "Jan 1, 1970".)
  const start = Date.now() - 3_600_000;
  const at = (n) => start + n * 1000;
  const sql = [
    "BEGIN;",
    `INSERT INTO sessions (id, workspace_path, title, created_at, updated_at) VALUES ('${id}', '${project}', '${title}', ${at(0)}, ${at(groups * 4)});`,
  ];
  for (let i = 0; i < groups; i += 1) {
    const call = `c${i}`;
    const msgs = [
      ["user", { role: "user", text: `Request number ${i}: please look at file_${i}.rs` }],
      ["assistant", { role: "assistant", text: `Looking at **file_${i}.rs** now.`, tool_calls: [{ id: call, name: "read", arguments: { path: `file_${i}.rs` } }] }],
      ["tool", { role: "tool_result", call_id: call, content: `1\tfn f${i}() {}\n2\t// more`, is_error: false }],
      ["assistant", { role: "assistant", text: `Done with step ${i}.` }],
    ];
    msgs.forEach(([role, content], j) => {
      const json = JSON.stringify(content).replaceAll("'", "''");
      sql.push(`INSERT INTO messages (session_id, seq, role, content, created_at) VALUES ('${id}', ${i * 4 + j}, '${role}', '${json}', ${at(i * 4 + j)});`);
    });
    // As the engine stores a call (its `CallSnapshot`): with its kind, view, title and summary,
    // so the card shows its file and the read icon as a stored session's does.
    const info = JSON.stringify({
      call_id: call, name: "read", state: "succeeded", arguments: { path: `file_${i}.rs` }, preview: null, preview_hash: null,
      status: null, result: `1\tfn f${i}() {}`, is_error: false, decision: null, images: null, parent_call_id: null, undo: null,
      kind: "read", view: { as: "json" }, title: `file_${i}.rs`, summary: `file_${i}.rs · lines 1–2 of 2`, error: null,
      sandbox: null, changes: null, hooks: [],
    });
    sql.push(`INSERT INTO tool_calls (session_id, call_id, name, state, info, created_at, updated_at) VALUES ('${id}', '${call}', 'read', 'succeeded', '${info}', ${at(i * 4 + 1)}, ${at(i * 4 + 2)});`);
  }
  sql.push("COMMIT;");
  execFileSync("sqlite3", [db], { input: sql.join("\n") });
}
