import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { tauriBackend } from "./backend";
import { markPlatform } from "./platform";
import "./styles.css";

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
