/**
 * The edge cache end to end: miss coalescing, stale-if-error then 502/504,
 * the object-size bound, the Web Cache API tier, and the byte bound.
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture, startRawUpstream, startUpstream } from "./fakes/upstream.ts";
import { secondTierUrl } from "../edge/cache/store.ts";
import { apiKey } from "../edge/cache/keys.ts";

async function setup(env: Record<string, string> = {}, webCacheName: string | null = null) {
  const up = startUpstream();
  const fx = await edgeFixture(up.url, { env, webCacheName });
  return {
    up,
    fx,
    async [Symbol.asyncDispose]() {
      fx.close();
      await up.close();
    },
  };
}

// ---- happy ----

Deno.test("100 concurrent misses of one key make exactly 1 upstream fetch", async () => {
  await using t = await setup();
  const all = Array.from({ length: 100 }, () => t.fx.request("/~api/gate"));
  // hold the upstream until every request is waiting on it
  while (t.up.count("/gate") === 0) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 20));
  t.up.open();
  const responses = await Promise.all(all);
  for (const res of responses) {
    assertEquals(res.status, 200);
    assertEquals((await res.json()).gated, true);
  }
  assertEquals(t.up.count("/gate"), 1);
  // under load a late request may arrive after the fill and hit; none fetches again
  for (const r of responses) assert(["MISS", "HIT"].includes(r.headers.get("x-cachely-cache")!));
  assertEquals(t.fx.edge.cache.inflightCount, 0);
});

Deno.test("stale-if-error: after the TTL an upstream failure serves the last good copy, then 502", async () => {
  await using t = await setup({ STALE_IF_ERROR_SECONDS: "120" });
  let healthy = true;
  t.up.route(
    "/flaky",
    () => healthy ? Response.json({ v: "good" }) : new Response("down", { status: 503 }),
  );
  await (await t.fx.request("/~api/flaky")).text();
  healthy = false;
  t.fx.clock.advance(61_000); // past the 60 s TTL
  const stale = await t.fx.request("/~api/flaky");
  assertEquals(stale.status, 200);
  assertEquals(stale.headers.get("x-cachely-cache"), "STALE");
  assertEquals(stale.headers.get("age"), "61");
  assertEquals((await stale.json()).v, "good");
  t.fx.clock.advance(120_000); // past TTL + stale window
  const gone = await t.fx.request("/~api/flaky");
  assertEquals(gone.status, 502);
  assertEquals((await gone.json()).error.code, "upstream_error");
  healthy = true;
  const back = await t.fx.request("/~api/flaky");
  assertEquals(back.headers.get("x-cachely-cache"), "MISS");
  await back.text();
});

Deno.test("bodies above EDGE_CACHE_MAX_OBJECT_BYTES stream through uncached (BYPASS)", async () => {
  await using t = await setup({ EDGE_CACHE_MAX_OBJECT_BYTES: "2048" });
  // Nothing is cached, so every request reaches the upstream; the first asks twice (the
  // HTTP/1.1 client drops a head declared over the bound and fetch() streams the body,
  // edge/upstream_client.ts), later ones go to fetch at once.
  for (const upstreamRequests of [2, 3]) {
    const res = await t.fx.request("/~api/big?bytes=5000");
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("x-cachely-cache"), "BYPASS");
    assertEquals((await res.arrayBuffer()).byteLength, 5000);
    assertEquals(t.up.count("/big"), upstreamRequests);
  }
  const small = await t.fx.request("/~api/big?bytes=1000");
  assertEquals(small.headers.get("x-cachely-cache"), "MISS");
  assertEquals((await small.arrayBuffer()).byteLength, 1000);
});

Deno.test("the LRU keeps total bytes under EDGE_CACHE_MAX_BYTES, evicting the oldest", async () => {
  await using t = await setup({
    EDGE_CACHE_MAX_BYTES: "20000",
    EDGE_CACHE_MAX_OBJECT_BYTES: "8000",
  });
  for (let i = 0; i < 6; i++) await (await t.fx.request(`/~api/big?bytes=5000&i=${i}`)).text();
  const lru = t.fx.edge.cache.lru;
  assert(lru.bytes <= 20000, `held ${lru.bytes}`);
  assertEquals(lru.count, 3);
  const old = await t.fx.request("/~api/big?bytes=5000&i=0");
  assertEquals(old.headers.get("x-cachely-cache"), "MISS");
  await old.text();
  const recent = await t.fx.request("/~api/big?bytes=5000&i=5");
  assertEquals(recent.headers.get("x-cachely-cache"), "HIT");
  await recent.text();
});

Deno.test("the Web Cache API tier answers after the memory tier lost the entry", async () => {
  const name = `cachely-test-${crypto.randomUUID()}`;
  await using t = await setup({}, name);
  try {
    await (await t.fx.request("/~api/persist")).text();
    await (await t.fx.request("/~api/persist")).text(); // a second request: into the tier
    await t.fx.edge.cache.flush(); // the request does not wait for the second tier
    t.fx.edge.cache.lru.clear();
    const res = await t.fx.request("/~api/persist");
    assertEquals(res.headers.get("x-cachely-cache"), "HIT");
    assertEquals((await res.json()).path, "/persist");
    assertEquals(t.up.count("/persist"), 1);
  } finally {
    await caches.delete(name);
  }
});

Deno.test("the Web Cache tier drops what the memory tier evicts and what is past any use", async () => {
  const name = `cachely-test-${crypto.randomUUID()}`;
  await using t = await setup({
    EDGE_CACHE_MAX_BYTES: "20000",
    EDGE_CACHE_MAX_OBJECT_BYTES: "8000",
    STALE_IF_ERROR_SECONDS: "10",
  }, name);
  try {
    for (let i = 0; i < 6; i++) {
      // the second request (a hit) puts the key into the tier; a later one evicts it
      for (let n = 0; n < 2; n++) await (await t.fx.request(`/~api/big?bytes=5000&i=${i}`)).text();
    }
    await t.fx.edge.cache.flush();
    t.fx.edge.cache.lru.clear();
    const evicted = await t.fx.request("/~api/big?bytes=5000&i=0");
    assertEquals(evicted.headers.get("x-cachely-cache"), "MISS");
    await evicted.text();
    const kept = await t.fx.request("/~api/big?bytes=5000&i=5");
    assertEquals(kept.headers.get("x-cachely-cache"), "HIT");
    await kept.text();
    // an object past TTL + stale window is deleted from the tier when it is found there
    let healthy = true;
    t.up.route("/w", () => healthy ? Response.json({ ok: 1 }) : new Response("", { status: 500 }));
    await (await t.fx.request("/~api/w")).text();
    await (await t.fx.request("/~api/w")).text();
    await t.fx.edge.cache.flush();
    const url = secondTierUrl(apiKey(1, 1, t.fx.origin, "/w", ""));
    const stored = await (await caches.open(name)).match(url);
    assert(stored, "stored in the second tier");
    await stored.body?.cancel(); // Deno 2.5 counts an unread cached body as a leaked resource
    t.fx.edge.cache.lru.clear();
    healthy = false;
    t.fx.clock.advance(121_000); // past TTL (60 s) + the longer stale window (SWR 60 s)
    const gone = await t.fx.request("/~api/w");
    assertEquals(gone.status, 502);
    await gone.text();
    await t.fx.edge.cache.flush();
    assertEquals(await (await caches.open(name)).match(url), undefined);
  } finally {
    await caches.delete(name);
  }
});

Deno.test("the Web Cache tier takes a key on its second request; an eviction deletes only what it put", async () => {
  const name = `cachely-test-${crypto.randomUUID()}`;
  await using t = await setup({ EDGE_CACHE_MAX_BYTES: "20000" }, name);
  const deletes: string[] = [];
  const del = Cache.prototype.delete;
  Cache.prototype.delete = function (this: Cache, req: RequestInfo | URL) {
    deletes.push(String(req));
    return del.call(this, req);
  };
  const tier = await caches.open(name);
  const inTier = async (path: string) => {
    const res = await tier.match(secondTierUrl(apiKey(1, 1, t.fx.origin, path, "")));
    await res?.body?.cancel(); // Deno 2.5 counts an unread cached body as a leaked resource
    return res !== undefined;
  };
  const get = async (path: string) => {
    const res = await t.fx.request(`/~api${path}`);
    await res.text();
    await t.fx.edge.cache.flush();
    return res.headers.get("x-cachely-cache");
  };
  try {
    assertEquals(await get("/once"), "MISS");
    assertEquals(await inTier("/once"), false, "a key requested once stays in memory only");
    assertEquals(await get("/once"), "HIT");
    assert(await inTier("/once"), "its first hit puts it into the tier");
    assertEquals(await get("/again"), "MISS");
    t.fx.edge.cache.lru.clear();
    assertEquals(await get("/again"), "MISS");
    assert(await inTier("/again"), "a key missed twice is put on its second miss");
    // Keys requested once, then pushed out of memory by more of them: no deletes.
    t.fx.edge.cache.lru.clear();
    for (let i = 0; i < 12; i++) assertEquals(await get(`/big?bytes=5000&i=${i}`), "MISS");
    assert(t.fx.edge.cache.lru.evictions >= 8, "evicted");
    assertEquals(deletes, [], "nothing deleted that was never put");
    assertEquals(t.up.count("/once"), 1);
  } finally {
    Cache.prototype.delete = del;
    await caches.delete(name);
  }
});

// ---- errors ----

Deno.test("an upstream that hangs gives 504 within UPSTREAM_TIMEOUT_MS, never a hang", async () => {
  await using t = await setup({ UPSTREAM_TIMEOUT_MS: "200" });
  const res = await t.fx.request("/~api/hang");
  assertEquals(res.status, 504);
  assertEquals((await res.json()).error.code, "upstream_timeout");
});

Deno.test("an upstream that closes early or does not speak HTTP gives 502; nothing cached", async () => {
  const raw = startRawUpstream();
  const fx = await edgeFixture(raw.url);
  try {
    for (const path of ["/~api/close-early", "/~api/not-http"]) {
      const res = await fx.request(path);
      assertEquals(res.status, 502, path);
      assertEquals((await res.json()).error.code, "upstream_error");
    }
    assertEquals(fx.edge.cache.lru.count, 0);
  } finally {
    fx.close();
    raw.close();
  }
});

Deno.test("an unreachable upstream gives 502", async () => {
  const fx = await edgeFixture("http://127.0.0.1:9"); // discard port: connection refused
  try {
    const res = await fx.request("/~api/x");
    assertEquals(res.status, 502);
    assertEquals((await res.json()).error.code, "upstream_error");
  } finally {
    fx.close();
  }
});

Deno.test("a non-200 upstream answer is passed on but not cached", async () => {
  await using t = await setup();
  t.up.route("/nf", () => Response.json({ error: "nope" }, { status: 404 }));
  const a = await t.fx.request("/~api/nf");
  assertEquals(a.status, 404);
  await a.text();
  await (await t.fx.request("/~api/nf")).text();
  assertEquals(t.up.count("/nf"), 2);
});

Deno.test("Cache-Control no-store or private from the upstream is honoured", async () => {
  await using t = await setup();
  t.up.route("/private", () => Response.json({}, { headers: { "cache-control": "private" } }));
  await (await t.fx.request("/~api/private")).text();
  await (await t.fx.request("/~api/private")).text();
  assertEquals(t.up.count("/private"), 2);
});

Deno.test("hits answer from a template: Age per hit, a caller's header change never reaches the next hit", async () => {
  await using t = await setup();
  await (await t.fx.request("/~api/tmpl")).text();
  t.fx.clock.advance(5_000);
  const first = await t.fx.request("/~api/tmpl");
  assertEquals(first.headers.get("x-cachely-cache"), "HIT");
  assertEquals(first.headers.get("age"), "5");
  first.headers.set("x-cachely-cache", "tampered");
  const body = await first.text();
  t.fx.clock.advance(2_000);
  const second = await t.fx.request("/~api/tmpl");
  assertEquals(second.headers.get("x-cachely-cache"), "HIT");
  assertEquals(second.headers.get("age"), "7");
  assertEquals(await second.text(), body);
  const stored = t.fx.edge.cache.lru.peek(t.fx.edge.cache.lru.keys().next().value!);
  // the representation served: the identity view where the runtime needs one (variants.ts)
  const obj = stored?.codings?.identity ?? stored;
  assert(obj?.sent !== undefined, "the object hit twice carries its template");
  assertEquals(obj.sent.used, false, "built by this hit: not yet reused");
  await (await t.fx.request("/~api/tmpl")).text();
  assertEquals(obj.sent.used, true, "reused: kept over unused templates when they are evicted");
});

Deno.test("an object hit once gets no template (a crawl of the long tail keeps the hot ones)", async () => {
  await using t = await setup();
  await (await t.fx.request("/~api/once")).text();
  const hit = await t.fx.request("/~api/once");
  assertEquals(hit.headers.get("x-cachely-cache"), "HIT");
  await hit.text();
  const stored = t.fx.edge.cache.lru.peek(t.fx.edge.cache.lru.keys().next().value!)!;
  const obj = stored.codings?.identity ?? stored; // the identity view, where there is one
  assertEquals([obj.hitBefore, obj.sent], [true, undefined]);
});

Deno.test("an object that leaves the memory tier drops its template", async () => {
  await using t = await setup({
    EDGE_CACHE_MAX_BYTES: "20000",
    EDGE_CACHE_MAX_OBJECT_BYTES: "8000",
  });
  for (let i = 0; i < 3; i++) await (await t.fx.request("/~api/big?bytes=5000&i=0")).text();
  const lru = t.fx.edge.cache.lru;
  const obj = lru.peek([...lru.keys()][0])!;
  assert(obj.sent !== undefined && obj.kept);
  for (let i = 1; i < 6; i++) await (await t.fx.request(`/~api/big?bytes=5000&i=${i}`)).text();
  assertEquals([obj.kept, obj.sent], [false, undefined]);
});

Deno.test("a CORS request on an object templated for plain hits gets the CORS header set, and back", async () => {
  await using t = await setup();
  for (let i = 0; i < 3; i++) await (await t.fx.request("/~api/cors")).text(); // template: plain
  const cors = await t.fx.request("/~api/cors", { headers: { origin: "https://site.example" } });
  assertEquals(cors.headers.get("x-cachely-cache"), "HIT");
  assert(cors.headers.get("access-control-expose-headers")?.includes("x-cachely-cache"));
  await cors.text();
  const plain = await t.fx.request("/~api/cors");
  assertEquals(plain.headers.get("x-cachely-cache"), "HIT");
  assertEquals(plain.headers.get("access-control-expose-headers"), null);
  await plain.text();
});
