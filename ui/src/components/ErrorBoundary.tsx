import { Component, type ErrorInfo, type ReactNode } from "react";

interface State {
  error: Error | null;
}

/** Catches rendering bugs so the window never goes blank; offers a reload. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error("Foreman UI error", error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return (
        <main className="centered-page" role="alert">
          <div className="panel">
            <h1>Something went wrong in this window</h1>
            <p className="muted">Your work is safe: the agent and its files live in the backend.</p>
            <pre className="error-detail">{this.state.error.message}</pre>
            <button className="primary" onClick={() => window.location.reload()}>
              Reload the window
            </button>
          </div>
        </main>
      );
    }
    return this.props.children;
  }
}
