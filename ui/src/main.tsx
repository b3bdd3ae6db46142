// The window's entry point. The UI renders the engine's events and never computes what the
// engine knows (diffs, call states, costs); it sends ops back.
//
// Rules that keep frames short when WebKit paints in software (no GPU):
// - no blurred shadow on boxes that change while a call streams (`--shadow-flat`);
// - on Linux, generic font families only (`platform.ts` marks the document): fontconfig lookups
//   of uninstalled families cost 60-100 ms per new size and weight;
// - a streaming write renders only its last 24 lines; a diff draws 25 rows in its first frame
//   and grows a step a frame; past 200 lines it scrolls in its own virtualised box
//   (`VirtualDiffBody.tsx`), as the conversation is virtualised (`Conversation.tsx`);
// - no `Intl` on the path of a starting stream (its first use loads ICU data for 10-25 ms);
// - a warm-up (`warmUp.tsx`) draws the parts of a first turn once, out of sight, while idle.
//
// The start-up leaves marks on the page's timeline (`performance.mark`, read by the e2e install
// test): "foreman:module" once the code is parsed and run, "foreman:startup-reply" when the
// engine has said which screen to show, "foreman:workspace" when the workspace screen is drawn.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { tauriBackend } from "./backend";
import { markPlatform } from "./platform";
import "./styles.css";
import "./state.css";
import "./settings.css";
import "./tasks.css";
import "./hooks.css";
import "./controls.css";
import "./layout.css";

performance.mark("foreman:module");
markPlatform(document.documentElement, navigator.userAgent);
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ErrorBoundary>
        <App backend={tauriBackend} />
      </ErrorBoundary>
    </StrictMode>,
  );
}
