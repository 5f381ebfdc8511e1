/**
 * One plain GET of a website surface for the implementation check, through the guarded
 * fetch (lib/net/guarded_fetch.ts): no redirect following, a timeout, the body discarded,
 * and only the service's own x-cachely-* headers kept. Never throws.
 */
import { guardedFetch, type GuardedFetchDeps } from "../net/guarded_fetch.ts";

const USER_AGENT = "Cachely-ImplementationCheck/1";

export type Probe = {
  url: string;
  /** null when no response arrived */
  status: number | null;
  /** a response with status 200-399 */
  ok: boolean;
  /** the x-cachely-* response headers, lower-cased names */
  headers: Record<string, string>;
  error?: "refused" | "timeout" | "unreachable";
};

export type ProbeDeps = GuardedFetchDeps & { timeoutMs: number };

/**
 * Headers only the Cachely edge sets on a page: the edge marker and the experiment
 * headers. `x-cachely-cache` is reported but proves nothing alone (a cache outcome).
 */
export const EDGE_PROOF_HEADERS = [
  "x-cachely-edge",
  "x-cachely-experiment-id",
  "x-cachely-variant-id",
  "x-cachely-variant-key",
  "x-cachely-experiment-profile",
];

export function servedByCachely(p: Probe): boolean {
  return EDGE_PROOF_HEADERS.some((h) => h in p.headers);
}

export async function probeSurface(deps: ProbeDeps, raw: string): Promise<Probe> {
  // The 3xx itself is the answer (a redirect is a healthy surface); the body is not read.
  const res = await guardedFetch(deps, {
    url: raw,
    headers: [["user-agent", USER_AGENT], ["accept", "text/html,*/*;q=0.8"]],
    timeoutMs: deps.timeoutMs,
    maxBytes: 0,
    over: "truncate",
  });
  if (!res.ok) {
    const error = res.error === "unsafe_url"
      ? "refused"
      : res.error === "timeout"
      ? "timeout"
      : "unreachable";
    return { url: raw, status: null, ok: false, headers: {}, error };
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (k.startsWith("x-cachely-") && Object.keys(headers).length < 10) {
      headers[k] = v.slice(0, 200);
    }
  });
  return { url: raw, status: res.status, ok: res.status >= 200 && res.status < 400, headers };
}
