/**
 * The one way the edge talks to an upstream: SSRF re-check of the resolved
 * address (when private upstreams are not allowed), no redirect following, a
 * hard timeout covering headers and body, and a body buffered up to the cache's
 * object bound, past which it streams through uncached.
 */
import type { EdgeDeps } from "./types.ts";
import { assertPublicHost, checkUrlShape, UnsafeUrlError } from "../lib/net/ssrf.ts";
import { filterResponseHeaders } from "./http.ts";
import { type Bytes, ownedBytes } from "./cache/store.ts";

/** A failure: 502/504 from the fetch, or a status the proxy decided (e.g. 403 type refused). */
export type UpstreamFailure = { kind: "error"; status: number; code: string; message: string };

/**
 * A fetched response: fully buffered, or streaming because it outgrew the bound.
 * `setCookie`: the upstream sent Set-Cookie (dropped from `headers`; edge/cdn.ts).
 */
export type UpstreamResult =
  | {
    kind: "buffered";
    status: number;
    headers: [string, string][];
    body: Bytes;
    setCookie?: boolean;
  }
  | {
    kind: "stream";
    status: number;
    headers: [string, string][];
    body: ReadableStream<Uint8Array> | null;
    length: number | null;
  }
  | UpstreamFailure;

export type UpstreamRequest = {
  url: URL;
  /** Pairs (RequestHeaders) are cheaper for fetch to copy than a Headers object. */
  headers: Headers | [string, string][];
  /** Bytes buffered before switching to streaming. */
  maxBuffer: number;
  method?: "GET" | "HEAD";
};

/**
 * Upstream request headers as pairs with Headers' `set`: fetch copies an array of pairs
 * without going through a Headers object and its iterator, ~4 µs less per miss
 * (bench/ANALYSIS.md "Session 4").
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

/** Per edge (deps): hostname → expiry (ms) of a positive address verdict. */
const verdictsByEdge = new WeakMap<EdgeDeps, Map<string, number>>();
const VERDICT_MS = 30_000;

/**
 * Refuses a non-public upstream when ALLOW_PRIVATE_UPSTREAMS is off. The origin
 * was validated when it was saved; the address is re-checked here because DNS
 * can change after validation (rebinding). Positive verdicts are kept 30 s.
 */
async function guard(deps: EdgeDeps, url: URL): Promise<void> {
  if (deps.config.allowPrivateUpstreams) return;
  let verdicts = verdictsByEdge.get(deps);
  if (!verdicts) verdictsByEdge.set(deps, verdicts = new Map());
  const now = deps.clock.now();
  const until = verdicts.get(url.hostname);
  if (until !== undefined && until > now) return;
  checkUrlShape(url, { allowPrivate: false, requireHttps: false });
  await assertPublicHost(url.hostname, (h, t) => deps.resolveDns(h, t), false);
  if (verdicts.size > 10_000) verdicts.clear();
  verdicts.set(url.hostname, now + VERDICT_MS);
}

/** Fetches one upstream URL. Never throws: failures come back as 502/504 results. */
export async function fetchUpstream(deps: EdgeDeps, req: UpstreamRequest): Promise<UpstreamResult> {
  try {
    await guard(deps, req.url);
  } catch (e) {
    const reason = e instanceof UnsafeUrlError ? e.message : "address check failed";
    deps.log.warn("edge upstream refused", { host: req.url.hostname, reason });
    return { kind: "error", status: 502, code: "upstream_refused", message: "Upstream refused" };
  }
  // The timeout covers connecting, headers and a buffered body. A body that
  // streams through (too large to cache) is handed over without it, so a long
  // video is not cut off mid-way; the visitor's own connection bounds it.
  const ctrl = new AbortController();
  const timer = setTimeout(
    () => ctrl.abort(new DOMException("Upstream timed out", "TimeoutError")),
    deps.config.upstreamTimeoutMs,
  );
  try {
    return await fetchWithin(deps, req, ctrl.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function fetchWithin(
  deps: EdgeDeps,
  req: UpstreamRequest,
  signal: AbortSignal,
): Promise<UpstreamResult> {
  let res: Response;
  try {
    res = await deps.fetch(req.url, {
      method: req.method ?? "GET",
      headers: req.headers,
      redirect: "manual",
      signal,
    });
  } catch (e) {
    return failure(e, signal);
  }
  const headers = filterResponseHeaders(res.headers);
  const setCookie = res.headers.has("set-cookie");
  if (!res.body || req.method === "HEAD") {
    await res.body?.cancel().catch(() => {});
    return { kind: "buffered", status: res.status, headers, body: new Uint8Array(0), setCookie };
  }
  // fetch decodes content-encoding, so a declared length only counts for identity bodies
  const declared = res.headers.has("content-encoding")
    ? NaN
    : Number(res.headers.get("content-length") ?? NaN);
  if (declared > req.maxBuffer) {
    return { kind: "stream", status: res.status, headers, body: res.body, length: declared };
  }
  if (!Number.isNaN(declared)) {
    // A declared length within the bound: one read of the whole body (Deno collects a
    // fetch body in one op), instead of a reader loop with a promise per chunk.
    let body: Bytes;
    try {
      body = ownedBytes(await res.arrayBuffer());
    } catch (e) {
      return failure(e, signal);
    }
    if (body.byteLength !== declared) {
      // the upstream closed early: a truncated body must never be cached
      return {
        kind: "error",
        status: 502,
        code: "upstream_error",
        message: "Upstream closed early",
      };
    }
    return { kind: "buffered", status: res.status, headers, body, setCookie };
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
      if (total > req.maxBuffer) {
        return {
          kind: "stream",
          status: res.status,
          headers,
          body: resume(chunks, reader),
          length: null,
        };
      }
    }
  } catch (e) {
    reader.cancel().catch(() => {});
    return failure(e, signal);
  }
  if (!Number.isNaN(declared) && declared !== total) {
    // the upstream closed early: a truncated body must never be cached
    return { kind: "error", status: 502, code: "upstream_error", message: "Upstream closed early" };
  }
  return { kind: "buffered", status: res.status, headers, body: concat(chunks, total), setCookie };
}

function failure(e: unknown, signal: AbortSignal): UpstreamFailure {
  const name = (e as { name?: string })?.name;
  if (signal.aborted || name === "TimeoutError") {
    return { kind: "error", status: 504, code: "upstream_timeout", message: "Upstream timed out" };
  }
  return { kind: "error", status: 502, code: "upstream_error", message: "Upstream unreachable" };
}

function concat(chunks: Uint8Array[], total: number): Bytes {
  // Always a copy: a chunk is a view into a larger read buffer, or a buffer whose hidden
  // capacity exceeds its length (ownedBytes); a cached body must hold only its own bytes.
  if (chunks.length === 1) return ownedBytes(chunks[0]);
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

/** A stream that replays the buffered chunks, then continues with the reader. */
function resume(
  chunks: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      if (i < chunks.length) {
        ctrl.enqueue(chunks[i++]);
        return;
      }
      try {
        const { done, value } = await reader.read();
        if (done) ctrl.close();
        else ctrl.enqueue(value);
      } catch (e) {
        ctrl.error(e);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
