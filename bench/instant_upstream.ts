/**
 * An upstream client that answers every request at once from memory (no sockets), for the
 * in-process path benches: what Cachely's own JavaScript costs, without the network.
 */
import type { UpstreamClient } from "../lib/net/upstream_types.ts";

/** A 200 with `headers` and a fresh copy of `body` per request (the edge may keep it). */
export function instantUpstream(body: Uint8Array, headers: [string, string][]): UpstreamClient {
  return {
    request: () => Promise.resolve({ kind: "buffered", status: 200, headers, body: body.slice() }),
    close() {},
  };
}
