import { assert, assertEquals } from "../tests/assert.ts";
import { ok, startScriptedUpstream } from "../tests/fakes/scripted_upstream.ts";
import { upstreamClient } from "./upstream_client.ts";
import { ACCEPT_ENCODING } from "./http1/decode.ts";
import type { UpstreamCall } from "../lib/net/upstream_types.ts";

const call = (url: string, maxBuffer: number): UpstreamCall => ({
  url: new URL(url),
  method: "GET",
  headers: [["user-agent", "test"]],
  maxBuffer,
  timeoutMs: 2_000,
});

Deno.test("a body declared over the bound is asked again through fetch, then at once", async () => {
  const big = "b".repeat(50_000);
  const up = startScriptedUpstream((r) => [r.target === "/big" ? ok(big) : ok("small")]);
  const client = upstreamClient({ edgeUpstreamClient: "http1" });
  try {
    const first = await client.request(call(`${up.url}/big`, 1000));
    assert(first.kind === "stream" && first.body);
    assertEquals(first.length, 50_000);
    assertEquals(await new Response(first.body).text(), big);
    assertEquals(up.seen.filter((s) => s.target === "/big").length, 2); // head dropped, asked again
    const second = await client.request(call(`${up.url}/big`, 1000));
    assert(second.kind === "stream" && second.body);
    assertEquals((await new Response(second.body).text()).length, 50_000);
    assertEquals(up.seen.filter((s) => s.target === "/big").length, 3); // remembered: one request
    // fetch sends its own user agent header set; the HTTP/1.1 client ours: tell them apart
    const ours = (head: string) =>
      head.toLowerCase().split(/\r?\n/).includes(`accept-encoding: ${ACCEPT_ENCODING}`);
    assert(!ours(up.seen[1].head));
    const small = await client.request(call(`${up.url}/small`, 1000));
    assertEquals(small.kind, "buffered");
    assert(ours(up.seen.at(-1)!.head));
  } finally {
    client.close();
    up.close();
  }
});
