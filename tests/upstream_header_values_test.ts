/**
 * Upstream header values (docs/decisions.md "Header values"): a field holding a control byte
 * other than HTAB is dropped where it enters the edge (either upstream client), never stored,
 * never merged into a stored copy by a 304, and one an older version left in the Web Cache
 * tier is dropped when read. The edge is called directly here, without the host router's
 * last guard, so what it would hand the runtime is what the test sees.
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture } from "./fakes/upstream.ts";
import { ok, startScriptedUpstream } from "./fakes/scripted_upstream.ts";
import { secondTierUrl } from "../edge/cache/store.ts";
import { apiKey } from "../edge/cache/keys.ts";
import { isSafeHeaderValue } from "../lib/http/header_value.ts";

const BAD = {
  "x-a": "a\x0bb",
  "content-disposition": "attachment; filename=a\x7fb",
  "x-tab": "a\tb",
};

function assertClean(res: Response, what: string) {
  res.headers.forEach((v, k) =>
    assert(isSafeHeaderValue(v), `${what}: ${k}: ${JSON.stringify(v)}`)
  );
  assertEquals(res.headers.get("x-a"), null, what);
  assertEquals(res.headers.get("content-disposition"), null, what);
  assertEquals(res.headers.get("x-tab"), "a\tb", `${what}: HTAB is a legal value byte`);
}

Deno.test("upstream fields holding a control byte are dropped, on a miss and on hits", async () => {
  const up = startScriptedUpstream(() => [
    ok('{"ok":true}', { ...BAD, "content-type": "application/json" }),
  ]);
  const fx = await edgeFixture(up.url);
  try {
    for (const expect of ["MISS", "HIT", "HIT"]) {
      const res = await fx.request("/~api/item");
      assertEquals([res.status, res.headers.get("x-cachely-cache")], [200, expect]);
      assertClean(res, expect);
      assertEquals(await res.json(), { ok: true });
    }
  } finally {
    fx.close();
    up.close();
  }
});

Deno.test("through fetch (EDGE_UPSTREAM_CLIENT=fetch) such an answer is refused by the runtime: 502", async () => {
  const up = startScriptedUpstream(() => [ok("{}", BAD)]);
  const fx = await edgeFixture(up.url, { env: { EDGE_UPSTREAM_CLIENT: "fetch" } });
  try {
    const res = await fx.request("/~api/item");
    assertEquals(res.status, 502);
    res.headers.forEach((v, k) => assert(isSafeHeaderValue(v), k));
    assertEquals((await res.json()).error.code, "upstream_error");
  } finally {
    fx.close();
    up.close();
  }
});

Deno.test("a 304 holding a control byte is not merged into the stored copy, in either tier", async () => {
  const name = `cachely-test-${crypto.randomUUID()}`;
  const up = startScriptedUpstream((_req, n) => [
    n === 1
      ? ok('{"v":1}', { "content-type": "application/json", etag: '"1"' })
      : `HTTP/1.1 304 Not Modified\r\netag: "1"\r\nx-a: a\x0bb\r\nx-tab: a\tb\r\n` +
        `content-disposition: attachment; filename=a\x7fb\r\n\r\n`,
  ]);
  const fx = await edgeFixture(up.url, { webCacheName: name });
  try {
    await (await fx.request("/~api/m")).text();
    fx.clock.advance(61_000); // past the 60 s TTL: revalidated with If-None-Match
    await (await fx.request("/~api/m")).text(); // stale while the refresh runs
    for (let i = 0; i < 100 && up.seen.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert(up.seen[1].head.toLowerCase().includes('if-none-match: "1"'), "a revalidation");
    await new Promise((r) => setTimeout(r, 50)); // the 304 merged and stored
    const res = await fx.request("/~api/m");
    assertEquals(res.headers.get("x-cachely-cache"), "HIT");
    assertClean(res, "after the 304");
    assertEquals(await res.json(), { v: 1 });
    await fx.edge.cache.flush();
    const stored = await (await caches.open(name)).match(
      secondTierUrl(apiKey(1, 1, fx.origin, "/m", "")),
    );
    assert(stored, "the refreshed copy is in the Web Cache tier");
    await stored.body?.cancel();
    assertEquals(stored.headers.get("x-a"), null, "the disk tier holds no control byte");
    fx.edge.cache.lru.clear(); // as after a restart: the next request reads the disk tier
    const again = await fx.request("/~api/m");
    assertClean(again, "from the disk tier");
    await again.text();
  } finally {
    fx.close();
    up.close();
    await caches.delete(name);
  }
});

Deno.test("an object an older version stored with a control byte is cleaned when read", async () => {
  const name = `cachely-test-${crypto.randomUUID()}`;
  const up = startScriptedUpstream(() => [ok('{"from":"origin"}')]);
  const fx = await edgeFixture(up.url, { webCacheName: name });
  try {
    const headers = new Headers({ "content-type": "application/json", ...BAD });
    headers.set("x-cachely-stored-at", String(fx.clock.now()));
    headers.set("x-cachely-ttl-ms", "60000");
    await (await caches.open(name)).put(
      secondTierUrl(apiKey(1, 1, fx.origin, "/old", "")),
      new Response('{"from":"disk"}', { headers }),
    );
    const res = await fx.request("/~api/old");
    assertEquals(res.headers.get("x-cachely-cache"), "HIT");
    assertClean(res, "read from the disk tier");
    assertEquals(await res.json(), { from: "disk" });
    assertEquals(up.seen.length, 0, "served without the origin");
  } finally {
    fx.close();
    up.close();
    await caches.delete(name);
  }
});
