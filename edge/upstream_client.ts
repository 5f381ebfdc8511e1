/**
 * Which upstream client the edge uses (docs/decisions.md "Upstream HTTP client"):
 *
 * - bodies the edge buffers (every cacheable response) go through its own HTTP/1.1 client,
 *   which costs less than half of fetch() per request;
 * - bodies too large to buffer go through fetch(), whose body is a runtime resource that
 *   Deno.serve pipes to the visitor in Rust: no JavaScript per chunk, and no chunk garbage
 *   (the same 50 MB stream through JavaScript grew RSS by 45 MiB before a GC). A response
 *   the HTTP/1.1 client finds too large (its declared length is over the bound) is dropped
 *   after its head and asked again through fetch; the URL is remembered, so the next
 *   request for it goes to fetch at once;
 * - an injected fetch (tests that map provider hosts to loopback servers) or
 *   EDGE_UPSTREAM_CLIENT=fetch send everything through fetch(), except a call pinned to its
 *   checked address over https (edge/upstream.ts): fetch cannot connect to one address while
 *   naming another for TLS, so those always take the HTTP/1.1 client, large bodies included
 *   (an injected fetch is test-only and keeps them).
 */
import type { Config } from "../lib/config.ts";
import type { UpstreamCall, UpstreamClient, UpstreamResult } from "../lib/net/upstream_types.ts";
import { createHttp1Client, type Http1Options } from "./http1/client.ts";
import { fetchClient } from "./upstream_fetch.ts";

/** URLs remembered as too large to buffer; cleared when full (a miss costs one re-request). */
const LARGE_URLS_MAX = 4096;

export function upstreamClient(
  config: Pick<Config, "edgeUpstreamClient">,
  injectedFetch?: typeof fetch,
  http1?: Http1Options,
): UpstreamClient {
  if (injectedFetch) return fetchClient(injectedFetch);
  const streaming = fetchClient(globalThis.fetch.bind(globalThis));
  const http1Client = createHttp1Client(http1);
  if (config.edgeUpstreamClient === "fetch") return pinnedTlsVia(http1Client, streaming);
  return splitClient(http1Client, streaming);
}

/**
 * The client for server-side fetches of user-supplied URLs (lib/net/guarded_fetch.ts, built
 * by lib/bootstrap.ts): a pool of its own, every response header kept (the checks read
 * x-cachely-*, Set-Cookie, Server), a connect bound. The HTTP/1.1 client, as the edge's
 * default; with EDGE_UPSTREAM_CLIENT=fetch (an egress proxy) only pinned https calls take it.
 * An injected fetch (tests mapping names to loopback servers) is the network itself: calls
 * reach it by name, unpinned (the pin is tested over real sockets, lib/net/guarded_fetch_test.ts).
 */
export function userUrlClient(
  config: Pick<Config, "edgeUpstreamClient">,
  injectedFetch?: typeof fetch,
  http1: Http1Options = {},
): UpstreamClient {
  if (injectedFetch) {
    const c = fetchClient(injectedFetch, { keepHeaders: true });
    return { request: (call) => c.request({ ...call, address: undefined }), close: c.close };
  }
  const http1Client = createHttp1Client({ connectTimeoutMs: 5_000, ...http1, keepHeaders: true });
  if (config.edgeUpstreamClient === "http1") return http1Client;
  return pinnedTlsVia(
    http1Client,
    fetchClient(globalThis.fetch.bind(globalThis), { keepHeaders: true }),
  );
}

const pinnedTls = (call: UpstreamCall) =>
  call.address !== undefined && call.url.protocol === "https:";

/** Pinned https calls through `http1`, everything else through `other`. */
function pinnedTlsVia(http1: UpstreamClient, other: UpstreamClient): UpstreamClient {
  return {
    request: (call) => pinnedTls(call) ? http1.request(call) : other.request(call),
    close() {
      http1.close();
      other.close();
    },
  };
}

/** Buffered bodies through `buffering`, bodies over the bound through `streaming`. */
export function splitClient(buffering: UpstreamClient, streaming: UpstreamClient): UpstreamClient {
  const large = new Set<string>();
  return {
    async request(call: UpstreamCall): Promise<UpstreamResult> {
      const href = call.url.href;
      const keep = pinnedTls(call); // fetch cannot pin it: stream through this client
      if (!keep && (call.maxBuffer === 0 || large.has(href))) return await streaming.request(call);
      const r = await buffering.request(call);
      if (keep || r.kind !== "stream" || r.length === null) return r;
      // declared over the bound: its head is all that was read
      r.body?.cancel().catch(() => {});
      if (large.size >= LARGE_URLS_MAX) large.clear();
      large.add(href);
      return await streaming.request(call);
    },
    close() {
      buffering.close();
      streaming.close();
    },
  };
}
