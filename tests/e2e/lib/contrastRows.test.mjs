// The contrast table: the worst element of each thing measured, and what counts as short.
// Run with: cd tests/e2e && node --test lib/
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { failures, formatTable, passes, rowOf } from "./contrastRows.mjs";

const on = (background) => [
  { background: "rgba(0, 0, 0, 0)", opacity: "1" },
  { background, opacity: "1" },
];
const sample = (fg, background, extra = {}) => ({ fg, layers: on(background), fontSize: 14, fontWeight: 400, where: `span "${fg}"`, ...extra });

test("the row is the element with the least margin, with the ratio text needs", () => {
  const row = rowOf(
    { what: "Muted text", kind: "text" },
    { samples: [sample("rgb(255, 255, 255)", "rgb(0, 0, 0)"), sample("rgb(118, 118, 118)", "rgb(255, 255, 255)"), sample("rgb(0, 0, 0)", "rgb(255, 255, 255)")] },
  );
  assert.equal(row.what, "Muted text");
  assert.equal(row.fg, "#767676");
  assert.equal(row.bg, "#ffffff");
  assert.equal(row.ratio, 4.54);
  assert.equal(row.needed, 4.5);
  assert.equal(row.seen, 3);
  assert.equal(row.where, 'span "rgb(118, 118, 118)"');
  assert.ok(passes(row));
});

test("large text needs 3:1, so a lower ratio on it can still be the better margin", () => {
  const row = rowOf(
    { what: "Headings", kind: "text" },
    {
      samples: [
        sample("rgb(150, 150, 150)", "rgb(255, 255, 255)", { fontSize: 24, where: "big" }), // 2.96 of 3
        sample("rgb(118, 118, 118)", "rgb(255, 255, 255)", { where: "small" }), // 4.54 of 4.5
      ],
    },
  );
  assert.equal(row.where, "big");
  assert.equal(row.needed, 3);
  assert.equal(passes(row), false);
});

test("controls need 3:1, and a target may set its own bar", () => {
  const fill = rowOf({ what: "Stop fill", kind: "fill" }, { samples: [{ fill: true, layers: [{ background: "rgb(220, 38, 38)", opacity: "1" }, { background: "rgb(26, 28, 37)", opacity: "1" }], where: "button.stop" }] });
  assert.equal(fill.needed, 3);
  assert.equal(fill.fg, "#dc2626");
  assert.ok(passes(fill));
  const disabled = rowOf({ what: "Disabled primary label", kind: "text", needed: 3, note: "our own bar" }, { samples: [sample("rgb(118, 118, 118)", "rgb(255, 255, 255)")] });
  assert.equal(disabled.needed, 3);
  assert.equal(disabled.note, "our own bar");
});

test("nothing on screen, or colours that cannot be read, is a failure that says so", () => {
  const missing = rowOf({ what: "Stop label", kind: "text" }, { samples: [] });
  assert.equal(missing.ratio, null);
  assert.equal(missing.needed, 4.5);
  assert.match(missing.note, /^not on screen/);
  const unread = rowOf({ what: "Placeholders", kind: "placeholder" }, { samples: [sample(null, "rgb(0, 0, 0)", { where: "input.key" })], note: "no ::placeholder rule" });
  assert.equal(unread.ratio, null);
  assert.match(unread.note, /colours not readable \(fg null\) at input\.key; no ::placeholder rule/);
  assert.deepEqual(failures([missing, unread]), [
    "Stop label: not measured (not on screen)",
    `Placeholders: not measured (${unread.note})`,
  ]);
});

test("a short row is listed with its colours and where it is; a passing one is not", () => {
  const short = rowOf({ what: "Line numbers", kind: "text" }, { samples: [sample("rgb(119, 119, 119)", "rgb(255, 255, 255)", { where: "td.diff-num" })] });
  const fine = rowOf({ what: "Body text", kind: "text" }, { samples: [sample("rgb(0, 0, 0)", "rgb(255, 255, 255)")] });
  assert.deepEqual(failures([short, fine]), ["Line numbers: 4.47:1 < 4.5:1 (#777777 on #ffffff at td.diff-num)"]);
});

test("the table has a header and one aligned line per row", () => {
  const rows = [
    rowOf({ what: "Body text", kind: "text" }, { samples: [sample("rgb(0, 0, 0)", "rgb(255, 255, 255)", { where: "p" })] }),
    rowOf({ what: "Stop label", kind: "text" }, { samples: [] }),
  ];
  const table = formatTable("93-dark-diff-approval", rows).split("\n");
  assert.equal(table[0], "contrast: 93-dark-diff-approval");
  assert.match(table[1], /^what\s+fg\s+bg\s+ratio\s+needed\s+worst at$/);
  assert.match(table[2], /^Body text\s+#000000\s+#ffffff\s+21\.00\s+4\.5\s+ok\s+p$/);
  assert.match(table[3], /^Stop label\s+-\s+-\s+-\s+4\.5\s+FAIL\s+not on screen$/);
  assert.equal(table[2].indexOf("#000000"), table[3].indexOf("-"), "columns line up");
});
