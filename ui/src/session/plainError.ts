// An error in plain words: a short title a person reads at a glance for the engine's and the
// provider's messages (written in full for a bug report), which stay behind a "Details" toggle.

export interface PlainError {
  /** "Connection dropped mid-answer". */
  title: string;
  /** What to do about it, when there is something. */
  hint?: string;
}

const RULES: [RegExp, PlainError][] = [
  [/dropped in the middle of the answer|error decoding response body|unexpected EOF|chunk size line/i, { title: "Connection dropped mid-answer", hint: "What arrived is kept." }],
  [/rejected the API key/i, { title: "The provider refused the key", hint: "Check the key in Settings." }],
  [/^No API key for/i, { title: "No API key yet", hint: "Add one in Settings." }],
  [/too long for the model's context window/i, { title: "The conversation is too long for the model" }],
  [/is unavailable \(HTTP 429\)/i, { title: "The provider is rate-limiting requests", hint: "Wait a moment, then retry." }],
  [/is unavailable \(HTTP/i, { title: "The provider is unavailable", hint: "Retry in a moment." }],
  [/reported an error: (overloaded_error|rate_limit_error)/i, { title: "The provider is overloaded", hint: "Retry in a moment." }],
  [/reported an error:/i, { title: "The provider reported an error" }],
  [/rejected the request \(HTTP/i, { title: "The provider rejected the request" }],
  [/^Cannot reach /i, { title: "Cannot reach the provider", hint: "Check the base URL and the network." }],
  [/^Connecting to .* timed out/i, { title: "Connecting to the provider timed out" }],
  [/sent nothing for .*; the request was abandoned/i, { title: "The model went silent", hint: "What arrived is kept." }],
  [/^Unexpected data from /i, { title: "Unexpected answer from the provider" }],
  [/settings are not usable/i, { title: "The provider settings do not work", hint: "Check them in Settings." }],
];

/** The plain title of `message`, or null when it reads well as it is. */
export function plainError(message: string): PlainError | null {
  for (const [pattern, plain] of RULES) if (pattern.test(message)) return plain;
  return null;
}
