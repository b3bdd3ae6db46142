import { formatBytes, formatWhen } from "./format";

test("recent times read naturally", () => {
  const now = 1_700_000_000_000;
  expect(formatWhen(now - 10_000, now)).toBe("just now");
  expect(formatWhen(now - 60_000, now)).toBe("1 minute ago");
  expect(formatWhen(now - 3 * 3_600_000, now)).toBe("3 hours ago");
  expect(formatWhen(now - 86_400_000, now)).toBe("yesterday");
  expect(formatWhen(now - 3 * 86_400_000, now)).toBe("3 days ago");
  expect(formatWhen(now - 30 * 86_400_000, now)).toMatch(/\d{4}/);
  expect(formatWhen(now + 5_000, now)).toBe("just now");
});

test("a time not known says nothing rather than a date in 1970", () => {
  expect(formatWhen(0, 1_700_000_000_000)).toBe("");
  expect(formatWhen(-1, 1_700_000_000_000)).toBe("");
  expect(formatWhen(Number.NaN, 1_700_000_000_000)).toBe("");
});

test("sizes on disk read in the unit that fits", () => {
  expect(formatBytes(0)).toBe("0 bytes");
  expect(formatBytes(1)).toBe("1 byte");
  expect(formatBytes(1023)).toBe("1023 bytes");
  expect(formatBytes(12 * 1024 + 100)).toBe("12 KiB");
  expect(formatBytes(3.4 * 1024 * 1024)).toBe("3.4 MiB");
  expect(formatBytes(1.25 * 1024 * 1024 * 1024)).toBe("1.3 GiB");
});
