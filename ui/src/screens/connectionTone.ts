// How "Test connection"'s box looks, decided from what the test found, in this one place: green
// only when everything asked of the server worked, amber when the model answered but something
// needs the person (the models could not be listed, or the model does not call tools the way
// the settings ask), red when the model did not answer.
import type { ConnectionTest } from "../protocol/ConnectionTest";

export type ConnectionTone = "success" | "warning" | "error";

export function connectionTone(result: ConnectionTest): ConnectionTone {
  if (!result.connected) return "error";
  if (result.models_error !== null || result.suggest_text_protocol) return "warning";
  return "success";
}

/** The banner class of each tone. */
export const TONE_CLASS: Record<ConnectionTone, string> = {
  success: "banner-ok",
  warning: "banner-warning",
  error: "banner-error",
};
