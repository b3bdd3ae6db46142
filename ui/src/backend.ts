// The commands the Rust shell exposes, typed with the generated protocol types.
import { invoke } from "@tauri-apps/api/core";
import type { CommandError } from "./protocol/CommandError";
import type { RecentWorkspace } from "./protocol/RecentWorkspace";
import type { StartupView } from "./protocol/StartupView";
import type { WorkspaceView } from "./protocol/WorkspaceView";

export interface Backend {
  startup(): Promise<StartupView>;
  openWorkspace(path: string): Promise<WorkspaceView>;
  chooseFolder(): Promise<string | null>;
  recentWorkspaces(): Promise<RecentWorkspace[]>;
  forgetWorkspace(path: string): Promise<RecentWorkspace[]>;
  moveDatabaseAside(): Promise<StartupView>;
}

/** The message of an error thrown by `invoke` (a CommandError) or anything else. */
export function errorMessage(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error) {
    const message = (error as CommandError).message;
    if (typeof message === "string") return message;
  }
  return String(error);
}

export const tauriBackend: Backend = {
  startup: () => invoke<StartupView>("startup"),
  openWorkspace: (path) => invoke<WorkspaceView>("open_workspace", { path }),
  chooseFolder: () => invoke<string | null>("choose_folder"),
  recentWorkspaces: () => invoke<RecentWorkspace[]>("recent_workspaces"),
  forgetWorkspace: (path) => invoke<RecentWorkspace[]>("forget_workspace", { path }),
  moveDatabaseAside: () => invoke<StartupView>("move_database_aside"),
};
