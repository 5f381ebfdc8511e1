/**
 * DNS rebinding: the edge connects to the address that passed the SSRF check.
 * The resolver answers a public address, then loopback; the connect step resolves again
 * when it is given no address (as the system would), so an unpinned edge reaches the
 * loopback canary. The fetch fallback sends a pinned http call to the checked IP with the
 * URL's host as Host.
 */
import { assertEquals } from "../tests/assert.ts";
import { serveOnLoopback } from "../tests/harness.ts";
import { fetchUpstream } from "./upstream.ts";
import { createHttp1Client } from "./http1/client.ts";
import { fetchClient } from "./upstream_fetch.ts";
import type { EdgeDeps } from "./types.ts";

const PUBLIC_IP = "93.184.216.34";

Deno.test("the edge connects to the checked address, not a second DNS answer", async () => {
  const canaryHits: string[] = [];
  const canary = serveOnLoopback((req) => {
    canaryHits.push(req.url);
    return new Response("internal secrets");
  });
  const legit = serveOnLoopback((req) => new Response(`public ${req.headers.get("host")}`));
  let lookups = 0;
  // First answer public (what the check sees), every later one loopback (the rebind).
  const resolveDns = ((_host: string, type: string) =>
    Promise.resolve(
      type === "A" ? (lookups++ === 0 ? [PUBLIC_IP] : ["127.0.0.1"]) : [],
    )) as typeof Deno.resolveDns;
  const connected: string[] = [];
  const upstream = createHttp1Client({
    // The network: the public address is the legit server, loopback is the canary. Without
    // an address the name is resolved again, as Deno.connect would.
    connect: async (url: URL, address?: string) => {
      const ip = address ?? (await resolveDns(url.hostname, "A"))[0];
      connected.push(ip);
      const port = ip === PUBLIC_IP ? legit.port : canary.port;
      return await Deno.connect({ hostname: "127.0.0.1", port });
    },
  });
  const deps = {
    config: { allowPrivateUpstreams: false, upstreamTimeoutMs: 3_000 },
    clock: { now: () => Date.now() },
    resolveDns,
    log: { warn() {}, info() {}, error() {}, debug() {} },
    upstream,
  } as unknown as EdgeDeps;
  try {
    for (let i = 0; i < 3; i++) {
      const r = await fetchUpstream(deps, {
        url: new URL(`http://shop.example/post/${i}`),
        headers: [["host", "shop.example"]],
        maxBuffer: 1 << 20,
      });
      assertEquals(r.kind, "buffered");
      if (r.kind === "buffered") {
        assertEquals(new TextDecoder().decode(r.body), "public shop.example");
      }
    }
    assertEquals(canaryHits, [], "no request reached the loopback canary");
    assertEquals([...new Set(connected)], [PUBLIC_IP]);
  } finally {
    upstream.close();
    await canary.close();
    await legit.close();
  }
});

Deno.test("the fetch fallback sends a pinned http call to the checked IP, Host kept", async () => {
  const seen: { url: string; host: string | null }[] = [];
  const fake = ((input: URL | string, init?: RequestInit) => {
    seen.push({ url: String(input), host: new Headers(init?.headers).get("host") });
    return Promise.resolve(new Response("ok"));
  }) as typeof fetch;
  const client = fetchClient(fake);
  try {
    const r = await client.request({
      url: new URL("http://shop.example:8080/a?b=1"),
      method: "GET",
      headers: [],
      maxBuffer: 1024,
      timeoutMs: 1_000,
      address: PUBLIC_IP,
    });
    assertEquals(r.kind, "buffered");
    assertEquals(seen, [{ url: `http://${PUBLIC_IP}:8080/a?b=1`, host: "shop.example:8080" }]);
  } finally {
    client.close();
  }
});
