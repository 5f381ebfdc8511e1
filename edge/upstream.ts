/**
 * The one way the edge talks to an upstream: SSRF re-check of the resolved
 * address (when private upstreams are not allowed) and a connection pinned to the
 * address that passed it (no second lookup: DNS rebinding), no redirect following, a
 * hard timeout covering headers and body, and a body buffered up to the cache's
 * object bound, past which it streams through uncached.
 */
import type { EdgeDeps } from "./types.ts";
import { checkedAddress, UnsafeUrlError } from "../lib/net/ssrf.ts";
import type { UpstreamResult } from "../lib/net/upstream_types.ts";
import { countOrigin } from "./origin_tally.ts";

export type { UpstreamResult } from "../lib/net/upstream_types.ts";

export type UpstreamRequest = {
  url: URL;
  headers: [string, string][];
  /** Bytes buffered before switching to streaming. */
  maxBuffer: number;
  method?: "GET" | "HEAD";
};

/**
 * Upstream request headers as pairs with Headers' `set`: fetch copies an array of pairs
 * without going through a Headers object and its iterator, ~4 µs less per miss
 * (bench/ANALYSIS.md "Misses, the header set, transformed hits").
 */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_VALUE = /[\r\n\0]|[^\0-\u00ff]/;

export class RequestHeaders {
  readonly pairs: [string, string][];
  constructor(init: Record<string, string>) {
    this.pairs = Object.entries(init);
  }
  /**
   * Replaces a header of the same (lower-case) name, or adds it. Throws TypeError, as
   * Headers does, for a name that is not a token or a value with CR, LF, NUL or a character
   * past U+00FF (a credential saved before header-safety checks: the caller answers 502).
   */
  set(name: string, value: string): void {
    if (!HEADER_NAME.test(name) || BAD_VALUE.test(value)) {
      throw new TypeError("Invalid header name or value");
    }
    const k = name.toLowerCase();
    for (const p of this.pairs) {
      if (p[0].toLowerCase() === k) {
        p[1] = value;
        return;
      }
    }
    this.pairs.push([k, value]);
  }
}

/** Per edge (deps): hostname -> a positive address verdict: the address and its expiry (ms). */
type Verdict = { until: number; address: string };
const verdictsByEdge = new WeakMap<EdgeDeps, Map<string, Verdict>>();
const VERDICT_MS = 30_000;
const STRICT = { allowPrivate: false, requireHttps: false };

/**
 * Refuses a non-public upstream when ALLOW_PRIVATE_UPSTREAMS is off. The origin
 * was validated when it was saved; the address is re-checked here because DNS
 * can change after validation (rebinding). Answers the address the connection must use:
 * the one checked, so a name that resolves differently a moment later changes nothing.
 * Positive verdicts (with their address) are kept 30 s.
 */
async function guard(deps: EdgeDeps, url: URL): Promise<string | undefined> {
  if (deps.config.allowPrivateUpstreams) return undefined;
  let verdicts = verdictsByEdge.get(deps);
  if (!verdicts) verdictsByEdge.set(deps, verdicts = new Map());
  const now = deps.clock.now();
  const known = verdicts.get(url.hostname);
  if (known !== undefined && known.until > now) return known.address;
  const address = (await checkedAddress(url, STRICT, (h, t) => deps.resolveDns(h, t)))!;
  if (verdicts.size > 10_000) verdicts.clear();
  verdicts.set(url.hostname, { until: now + VERDICT_MS, address });
  return address;
}

/** Fetches one upstream URL. Never throws: failures come back as 502/504 results. */
export async function fetchUpstream(deps: EdgeDeps, req: UpstreamRequest): Promise<UpstreamResult> {
  let address: string | undefined;
  try {
    address = await guard(deps, req.url);
  } catch (e) {
    const reason = e instanceof UnsafeUrlError ? e.message : "address check failed";
    deps.log.warn("edge upstream refused", { host: req.url.hostname, reason });
    return { kind: "error", status: 502, code: "upstream_refused", message: "Upstream refused" };
  }
  const t0 = performance.now();
  const method = req.method ?? "GET";
  const call = () =>
    deps.upstream.request({
      url: req.url,
      method,
      headers: req.headers,
      maxBuffer: req.maxBuffer,
      timeoutMs: deps.config.upstreamTimeoutMs,
      address,
    });
  const r = deps.tracing ? await deps.tracing.upstream(req.url, method, call) : await call();
  // A streamed body counts its declared length (its bytes flow after this returns).
  const bytes = r.kind === "buffered" ? r.body.byteLength : r.kind === "stream" ? r.length ?? 0 : 0;
  countOrigin(bytes, performance.now() - t0, r.status);
  return r;
}
