// What the provider form needs to know about where the server is, mirroring the engine
// (foreman_protocol::local_url and ProviderSettings::{requires_key, default_max_tokens}): a base
// URL on this computer or the local network needs no key and gets a smaller answer limit. The
// engine decides; the form only explains.
import type { ProviderSettings } from "../protocol/ProviderSettings";

/** `DEFAULT_MAX_TOKENS`: the answer limit of the hosted presets. */
export const DEFAULT_MAX_TOKENS = 8192;
/** `LOCAL_MAX_TOKENS`: the answer limit of a local server. */
export const LOCAL_MAX_TOKENS = 2048;
/** `MAX_MAX_TOKENS`: the largest answer limit the settings take. */
export const MAX_MAX_TOKENS = 128000;

function localIpv4([a = -1, b = -1]: number[]): boolean {
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}

function ipv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const numbers = parts.map(Number);
  return numbers.every((n) => n <= 255) ? numbers : null;
}

function localIpv6(host: string): boolean {
  const ip = host.toLowerCase();
  if (ip === "::1") return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1] ?? "", 16), parseInt(mapped[2] ?? "", 16)];
    return localIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  const first = ip.startsWith("::") ? 0 : parseInt(ip.split(":")[0] ?? "", 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

/** Whether `url` is an http(s) URL on this computer or a private network. */
export function isLocalUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") && host.endsWith("]")) return localIpv6(host.slice(1, -1));
  const v4 = ipv4(host);
  if (v4) return localIpv4(v4);
  return host === "localhost" || host.endsWith(".localhost");
}

/** The base URL requests go to: the form's, else the preset's. */
export function effectiveBaseUrl(provider: ProviderSettings, presetBaseUrl: string): string {
  return provider.base_url.trim() || presetBaseUrl;
}

/** Whether a request needs a key: the hosted presets' do, unless their URL is local. */
export function keyRequired(provider: ProviderSettings, presetRequiresKey: boolean, presetBaseUrl: string): boolean {
  return presetRequiresKey && !isLocalUrl(effectiveBaseUrl(provider, presetBaseUrl));
}

/** The answer limit when none is set. */
export function defaultMaxTokens(provider: ProviderSettings, presetBaseUrl: string): number {
  switch (provider.preset) {
    case "ollama":
    case "lmstudio":
      return LOCAL_MAX_TOKENS;
    case "custom":
      return isLocalUrl(effectiveBaseUrl(provider, presetBaseUrl)) ? LOCAL_MAX_TOKENS : DEFAULT_MAX_TOKENS;
    default:
      return DEFAULT_MAX_TOKENS;
  }
}

/** What is wrong with an answer limit, for the form; `null` when it can be saved. */
export function maxTokensProblem(tokens: number | null | undefined): string | null {
  if (tokens === null || tokens === undefined) return null;
  if (tokens < 1) return "At least 1 token, or empty for the default.";
  if (tokens > MAX_MAX_TOKENS) return `At most ${MAX_MAX_TOKENS} tokens.`;
  return null;
}
