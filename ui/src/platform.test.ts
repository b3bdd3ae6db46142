import { isApple, markPlatform, shortcutKey } from "./platform";

test("Linux's WebKitGTK is marked; macOS, Windows and Android are not", () => {
  const cases: [string, string | undefined][] = [
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15", "linux"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko)", undefined],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Edg/131.0", undefined],
    ["Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile", undefined],
  ];
  for (const [agent, expected] of cases) {
    const root = document.createElement("html");
    markPlatform(root, agent);
    expect(root.dataset.platform).toBe(expected);
  }
});

test("the shortcut key is Cmd on Apple's systems and Ctrl elsewhere, with no other modifier", () => {
  const mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko)";
  const linux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)";
  const keys = (mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }>) => ({
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });
  expect(isApple(mac)).toBe(true);
  expect(isApple(linux)).toBe(false);
  expect(shortcutKey(keys({ metaKey: true }), mac)).toBe(true);
  // Ctrl+F moves the caret in a text field on macOS: it is left alone.
  expect(shortcutKey(keys({ ctrlKey: true }), mac)).toBe(false);
  expect(shortcutKey(keys({ ctrlKey: true }), linux)).toBe(true);
  expect(shortcutKey(keys({ metaKey: true }), linux)).toBe(false);
  expect(shortcutKey(keys({ ctrlKey: true, shiftKey: true }), linux)).toBe(false);
});
