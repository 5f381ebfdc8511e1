/**
 * The upstream client over fetch(): used when fetch is injected (tests that map provider
 * hosts to loopback servers), when EDGE_UPSTREAM_CLIENT=fetch, and behind an HTTP(S)_PROXY
 * (which fetch honours). The edge's default is edge/http1/client.ts (docs/decisions.md
 * "Upstream HTTP client").
 *
 * A pinned call (`address`, the SSRF-checked IP) over http goes to that IP with the URL's
 * host as Host (a Deno.createHttpClient with allowHost). fetch() cannot connect to one
 * address while naming another for TLS, so pinned https calls never come here: the edge
 * sends them through the HTTP/1.1 client (edge/upstream_client.ts).
 */
import { filterResponseHeaders } from "./http.ts";
import { type Bytes, concatBytes, ownedBytes } from "./cache/store.ts";
import type {
  UpstreamCall,
  UpstreamClient,
  UpstreamFailure,
  UpstreamResult,
} from "../lib/net/upstream_types.ts";

/** `keepHeaders`: every response header as received (lib/net/guarded_fetch.ts), not the edge's set. */
export function fetchClient(
  doFetch: typeof fetch,
  opts: { keepHeaders?: boolean } = {},
): UpstreamClient {
  const keep = opts.keepHeaders === true;
  let hostClient: Deno.HttpClient | undefined;
  const pinned = (call: UpstreamCall): UpstreamCall & { client?: Deno.HttpClient } => {
    if (call.address === undefined || call.url.protocol !== "http:") return call;
    hostClient ??= Deno.createHttpClient({ allowHost: true });
    const ip = call.address.includes(":") ? `[${call.address}]` : call.address;
    const url = new URL(call.url);
    url.hostname = ip;
    return {
      ...call,
      url,
      headers: [...call.headers, ["host", call.url.host]],
      client: hostClient,
    };
  };
  return {
    async request(call) {
      // The timeout covers connecting, headers and a buffered body. A body that
      // streams through (too large to cache) is handed over without it, so a long
      // video is not cut off mid-way; the visitor's own connection bounds it.
      const ctrl = new AbortController();
      const timer = setTimeout(
        () => ctrl.abort(new DOMException("Upstream timed out", "TimeoutError")),
        call.timeoutMs,
      );
      try {
        return await fetchWithin(doFetch, pinned(call), ctrl.signal, keep);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      hostClient?.close();
      hostClient = undefined;
    },
  };
}

// Long: the hot path's fetch and body read: three ways to take the body (declared length within the
// bound in one read, too large handed over as a stream, unknown length read piecewise until the
// bound), kept inline so a hit-or-miss costs no extra await or closure.
async function fetchWithin(
  doFetch: typeof fetch,
  req: UpstreamCall & { client?: Deno.HttpClient },
  signal: AbortSignal,
  keepHeaders: boolean,
): Promise<UpstreamResult> {
  let res: Response;
  try {
    res = await doFetch(req.url, {
      method: req.method,
      headers: req.headers,
      redirect: "manual",
      signal,
      ...(req.client ? { client: req.client } : {}),
    });
  } catch (e) {
    return failure(e, signal);
  }
  const headers = keepHeaders ? [...res.headers] : filterResponseHeaders(res.headers);
  const setCookie = res.headers.has("set-cookie") || res.headers.has("set-cookie2");
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
  return {
    kind: "buffered",
    status: res.status,
    headers,
    body: concatBytes(chunks, total),
    setCookie,
  };
}

function failure(e: unknown, signal: AbortSignal): UpstreamFailure {
  const name = (e as { name?: string })?.name;
  if (signal.aborted || name === "TimeoutError") {
    return { kind: "error", status: 504, code: "upstream_timeout", message: "Upstream timed out" };
  }
  return { kind: "error", status: 502, code: "upstream_error", message: "Upstream unreachable" };
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
