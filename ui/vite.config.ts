/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";

/**
 * rehype-highlight falls back to lowlight's `common` grammars (37 languages, ~300 kB) when no
 * languages are given, so the bundle holds them even though Markdown.tsx registers its own
 * short list. This gives rehype-highlight a lowlight whose `common` is empty; the real
 * `createLowlight` is still used, and the unused grammar tables are tree-shaken away.
 */
function lowlightWithoutCommon(): Plugin {
  const id = "\0lowlight-without-common";
  return {
    name: "lowlight-without-common",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "lowlight" && importer && /[\\/]rehype-highlight[\\/]/.test(importer)) return id;
      return null;
    },
    load(loading) {
      if (loading !== id) return null;
      return 'export { createLowlight } from "lowlight";\nexport const common = {};\nexport const all = {};\n';
    },
  };
}

// The app loads the built files from ui/dist through Tauri's custom protocol, never a dev server.
export default defineConfig({
  plugins: [lowlightWithoutCommon(), react()],
  clearScreen: false,
  build: {
    outDir: "dist",
    target: "es2022",
    sourcemap: false,
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
