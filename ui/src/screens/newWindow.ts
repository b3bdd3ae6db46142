// "Open folder in new window…": the folder picker, then a new window on the chosen folder (the
// window that already shows it comes to the front instead). This window stays as it is.
import type { Backend } from "../backend";
import { errorMessage } from "../backend";

/** Asks for a folder and opens it in a new window; the error to show, or `null`. */
export async function openFolderInNewWindow(backend: Backend): Promise<string | null> {
  try {
    const path = await backend.chooseFolder();
    if (path) await backend.openInNewWindow(path);
    return null;
  } catch (e) {
    return errorMessage(e);
  }
}
