/**
 * One plain GET of a website surface for the implementation check: no redirect
 * following, a timeout, the body discarded, and only the service's own x-cachely-*
 * headers kept. Never throws.
 */
import { assertPublicHost, checkUrlShape, UnsafeUrlError } from "../net/ssrf.ts";

export type Probe = {
  url: string;
  /** null when no response arrived */
  status: number | null;
  /** a response with status 200–399 */
  ok: boolean;
  /** the x-cachely-* response headers, lower-cased names */
  headers: Record<string, string>;
  error?: "refused" | "timeout" | "unreachable";
};

export type ProbeDeps = {
  fetch: typeof fetch;
  resolveDns: typeof Deno.resolveDns;
  allowPrivate: boolean;
  timeoutMs: number;
};

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
  const fail = (error: NonNullable<Probe["error"]>): Probe => ({
    url: raw,
    status: null,
    ok: false,
    headers: {},
    error,
  });
  try {
    const url = checkUrlShape(raw, { allowPrivate: deps.allowPrivate, requireHttps: false });
    await assertPublicHost(url.hostname, (h, t) => deps.resolveDns(h, t), deps.allowPrivate);
  } catch (e) {
    // UnsafeUrlError, or anything else the check threw: never probe what was not vetted
    void (e instanceof UnsafeUrlError);
    return fail("refused");
  }
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), deps.timeoutMs);
  try {
    const res = await deps.fetch(raw, {
      redirect: "manual",
      signal: ctrl.signal,
      headers: { "user-agent": "Cachely-ImplementationCheck/1", accept: "text/html,*/*;q=0.8" },
    });
    await res.body?.cancel().catch(() => {});
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (k.startsWith("x-cachely-") && Object.keys(headers).length < 10) {
        headers[k] = v.slice(0, 200);
      }
    });
    return { url: raw, status: res.status, ok: res.status >= 200 && res.status < 400, headers };
  } catch {
    return fail(ctrl.signal.aborted ? "timeout" : "unreachable");
  } finally {
    clearTimeout(timer);
  }
}
