import { plainError } from "./plainError";

test("the engine's provider errors get short titles", () => {
  const cases: [string, string][] = [
    ["The connection to Anthropic dropped in the middle of the answer (error decoding response body). What already arrived is kept; you can retry.", "Connection dropped mid-answer"],
    ["error decoding response body: request or response body error: unexpected EOF during chunk size line", "Connection dropped mid-answer"],
    ["Anthropic rejected the API key (HTTP 401): invalid x-api-key. Check the key in Settings.", "The provider refused the key"],
    ["No API key for Anthropic. Set the key in Settings.", "No API key yet"],
    ["Anthropic is unavailable (HTTP 429) after 5 attempts: slow down", "The provider is rate-limiting requests"],
    ["OpenAI is unavailable (HTTP 503) after 5 attempts: down", "The provider is unavailable"],
    ["Anthropic reported an error: overloaded_error: Overloaded", "The provider is overloaded"],
    ["Cannot reach Ollama after 5 attempts: connection refused", "Cannot reach the provider"],
    ["Anthropic sent nothing for 120s; the request was abandoned. What already arrived is kept; you can retry.", "The model went silent"],
    ["The conversation is too long for the model's context window: 210000 > 200000", "The conversation is too long for the model"],
  ];
  for (const [message, title] of cases) expect(plainError(message)?.title).toBe(title);
});

test("a message that reads well as it is has no title of its own", () => {
  expect(plainError("That message cannot be taken back: the agent has read it already.")).toBeNull();
});
