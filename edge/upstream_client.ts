/**
 * Which upstream client the edge uses: an injected fetch (tests that map provider hosts
 * to loopback servers) or EDGE_UPSTREAM_CLIENT=fetch go through fetch(); otherwise the
 * edge's own HTTP/1.1 client (docs/decisions.md "Upstream HTTP client").
 */
import type { Config } from "../lib/config.ts";
import type { UpstreamClient } from "./upstream_types.ts";
import { createHttp1Client } from "./http1/client.ts";
import { fetchClient } from "./upstream_fetch.ts";

export function upstreamClient(
  config: Pick<Config, "edgeUpstreamClient">,
  injectedFetch?: typeof fetch,
): UpstreamClient {
  if (injectedFetch) return fetchClient(injectedFetch);
  if (config.edgeUpstreamClient === "fetch") return fetchClient(globalThis.fetch.bind(globalThis));
  return createHttp1Client();
}
