/**
 * CDN offload at the edge (docs/decisions.md "CDN offload"): which asset, website and
 * API answers carry CDN-Cache-Control and Cache-Tag for a tenant that opted in, with the
 * TTL of that kind, and every kind of answer that never does.
 */
import { assertEquals } from "./assert.ts";
import { edgeFixture, startUpstream } from "./fakes/upstream.ts";
import { imageHostFixture } from "./fakes/image_host_fixture.ts";
import type { EdgeAssetSettings } from "../lib/kv/snapshot.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import type { QuotaSnapshot } from "../lib/kv/quota.ts";

const ASSETS: EdgeAssetSettings = {
  ttl: 3600,
  allowedTypes: null,
  blockBots: true,
  allowImageSearchBots: false,
  referer: null,
};

const assetTenant = (cdnOffload: boolean, env: Record<string, string> = {}) =>
  imageHostFixture(env, { cdnOffload, assets: ASSETS, tenantId: 7 });

const cdnOf = (r: Response) => [r.headers.get("cdn-cache-control"), r.headers.get("cache-tag")];
const NONE = [null, null];
const ASSET_CDN = ["max-age=3600", "cachely-t7,cachely-t7-assets"];

Deno.test("asset offload: a miss and a hit carry the asset TTL and the asset tags", async () => {
  await using t = await assetTenant(true);
  for (const want of ["MISS", "HIT"]) {
    const r = await t.fx.request("/image/upload/v1/cat.jpg");
    await r.arrayBuffer();
    assertEquals(r.headers.get("x-cachely-cache"), want);
    assertEquals(cdnOf(r), ASSET_CDN);
  }
  const head = await t.fx.request("/image/upload/v1/cat.jpg", { method: "HEAD" });
  assertEquals(cdnOf(head), ASSET_CDN, "HEAD answers like GET");
});

Deno.test("asset offload off (the default): no CDN headers on a miss or a hit", async () => {
  await using t = await assetTenant(false);
  for (let i = 0; i < 2; i++) {
    const r = await t.fx.request("/image/upload/v1/cat.jpg");
    await r.arrayBuffer();
    assertEquals(cdnOf(r), NONE);
  }
});

Deno.test("asset offload never covers ranges, previews, bots, refused types or errors", async () => {
  await using t = await assetTenant(true);
  await (await t.fx.request("/image/upload/v1/cat.jpg")).arrayBuffer();
  const cases: [string, string, RequestInit, number][] = [
    ["a range from the cached object", "/image/upload/v1/cat.jpg", {
      headers: { range: "bytes=0-9" },
    }, 206],
    ["a range forwarded upstream", "/image/upload/v1/other.jpg", {
      headers: { range: "bytes=0-9" },
    }, 206],
    ["a preview-bypass request", "/image/upload/v1/cat.jpg?cachely-preview=1", {}, 200],
    ["a refused bot", "/image/upload/v1/cat.jpg", { headers: { "user-agent": "GPTBot/1.0" } }, 403],
    ["a type outside the allow-list", "/image/upload/v1/tool.exe", {}, 403],
    ["an upstream 404", "/image/upload/v1/missing.jpg", {}, 404],
  ];
  for (const [what, path, init, status] of cases) {
    const r = await t.fx.request(path, init);
    await r.arrayBuffer();
    assertEquals(r.status, status, what);
    assertEquals(cdnOf(r), NONE, what);
  }
});

Deno.test("a stale copy served because the upstream failed is never offloaded", async () => {
  const up = startUpstream();
  let fail = false;
  up.route(
    "/posts",
    () =>
      fail
        ? new Response("down", { status: 503 })
        : Response.json({ ok: 1 }, { headers: { "cache-control": "max-age=60" } }),
  );
  const fx = await edgeFixture(up.url, {
    env: { STALE_IF_ERROR_SECONDS: "600" },
    snapshot: { cdnOffload: true, tenantId: 7 },
  });
  try {
    const fresh = await fx.request("/~api/posts");
    await fresh.arrayBuffer();
    assertEquals(fresh.headers.get("cdn-cache-control"), "max-age=60");
    fx.clock.advance(120_000);
    fail = true;
    const stale = await fx.request("/~api/posts");
    await stale.arrayBuffer();
    assertEquals(stale.headers.get("x-cachely-cache"), "STALE");
    assertEquals(cdnOf(stale), NONE);
  } finally {
    fx.close();
    await up.close();
  }
});

Deno.test("a response the upstream sent with Set-Cookie is neither stored nor offloaded", async () => {
  const up = startUpstream();
  up.route("/plain", () => Response.json({ ok: 1 }));
  const fx = await edgeFixture(up.url, { snapshot: { cdnOffload: true, tenantId: 7 } });
  try {
    for (const want of ["MISS", "HIT"]) {
      const withCookie = await fx.request("/~api/cookie");
      await withCookie.arrayBuffer();
      assertEquals(withCookie.headers.get("x-cachely-cache"), "MISS", "never stored");
      assertEquals(withCookie.headers.get("set-cookie"), null, "the edge drops the cookie");
      assertEquals(cdnOf(withCookie), NONE, want);
      const plain = await fx.request("/~api/plain");
      await plain.arrayBuffer();
      assertEquals(plain.headers.get("x-cachely-cache"), want);
      assertEquals(cdnOf(plain), ["max-age=60", "cachely-t7,cachely-t7-api"], want);
    }
    assertEquals(up.count("/cookie"), 2);
  } finally {
    fx.close();
    await up.close();
  }
});

Deno.test("ignoreSetCookie: an answer that set a cookie is stored and offloaded, the cookie still dropped", async () => {
  const up = startUpstream();
  const fx = await edgeFixture(up.url, {
    snapshot: {
      cdnOffload: true,
      tenantId: 7,
      caching: { cacheMode: "fixed", staleWhileRevalidate: 60, ignoreSetCookie: true },
    },
  });
  try {
    for (const want of ["MISS", "HIT"]) {
      const r = await fx.request("/~api/cookie");
      await r.arrayBuffer();
      assertEquals(r.headers.get("x-cachely-cache"), want);
      assertEquals(r.headers.get("set-cookie"), null);
      assertEquals(cdnOf(r), ["max-age=60", "cachely-t7,cachely-t7-api"], want);
    }
    assertEquals(up.count("/cookie"), 1);
  } finally {
    fx.close();
    await up.close();
  }
});

Deno.test("site offload: shareable pages carry the html tags; cookies, private and previews do not", async () => {
  const site = startUpstream();
  const html = { "content-type": "text/html" };
  site.route("/", () => new Response("<p>home</p>", { headers: html }));
  site.route(
    "/account",
    () => new Response("<p>you</p>", { headers: { ...html, "cache-control": "private" } }),
  );
  site.route("/gone", () => new Response("<p>gone</p>", { status: 404, headers: html }));
  site.route(
    "/login",
    () => new Response("<p>form</p>", { headers: { ...html, "set-cookie": "csrf=1; Path=/" } }),
  );
  const fx = await edgeFixture(null, {
    snapshot: {
      cdnOffload: true,
      tenantId: 7,
      cacheTtl: 300,
      website: { origin: site.url, siteProxy: true },
    },
  });
  const preview = { surface: "preview" as const, slug: "acme" };
  try {
    for (const want of ["MISS", "HIT"]) {
      const r = await fx.request("/", {}, preview);
      await r.text();
      assertEquals(r.headers.get("x-cachely-cache"), want);
      assertEquals(cdnOf(r), ["max-age=300", "cachely-t7,cachely-t7-html"]);
      for (const path of ["/account", "/login", "/?cachely-preview=1", "/gone"]) {
        const other = await fx.request(path, {}, preview);
        await other.text();
        assertEquals(cdnOf(other), NONE, `${path} (${want})`);
      }
    }
  } finally {
    fx.close();
    await site.close();
  }
});

Deno.test("an answer that set a cookie reaches neither tier: it is fetched again after a restart", async () => {
  const name = `cachely-test-${crypto.randomUUID()}`;
  const up = startUpstream();
  up.route("/plain", () => Response.json({ ok: 1 }));
  const fx = await edgeFixture(up.url, {
    snapshot: { cdnOffload: true, tenantId: 7 },
    webCacheName: name,
  });
  try {
    // twice each: a key's second request puts it into the Web Cache tier
    for (const path of ["/~api/cookie", "/~api/plain"]) {
      for (let n = 0; n < 2; n++) await (await fx.request(path)).text();
    }
    await fx.edge.cache.flush();
    fx.edge.cache.lru.clear();
    const again = await fx.request("/~api/cookie");
    await again.text();
    assertEquals(up.count("/cookie"), 3, "not in the Web Cache tier");
    assertEquals(cdnOf(again), NONE);
    const plain = await fx.request("/~api/plain");
    await plain.text();
    assertEquals(plain.headers.get("x-cachely-cache"), "HIT");
    assertEquals(up.count("/plain"), 1, "answered from the Web Cache tier");
    assertEquals(cdnOf(plain), ["max-age=60", "cachely-t7,cachely-t7-api"]);
    assertEquals(plain.headers.get("x-cachely-no-cdn"), null, "the mark is never sent");
  } finally {
    fx.close();
    await up.close();
    await caches.delete(name);
  }
});

Deno.test("experiment routes are never offloaded; other routes of the tenant are", async () => {
  const up = startUpstream();
  for (const p of ["/posts", "/pages"]) up.route(p, () => Response.json({ p }));
  const fx = await edgeFixture(up.url, {
    snapshot: {
      cdnOffload: true,
      tenantId: 7,
      experiments: [{
        id: 3,
        routePattern: "/posts",
        routeMatch: "prefix",
        variants: [{ id: 30, key: "control", weight: 1, transformProfile: null }],
      }],
    },
  });
  try {
    for (const want of ["MISS", "HIT"]) {
      const exp = await fx.request("/~api/posts");
      await exp.text();
      assertEquals(exp.headers.get("x-cachely-cache"), want);
      assertEquals(exp.headers.get("x-cachely-experiment-id"), "3", "the experiment applied");
      assertEquals(cdnOf(exp), NONE, want);
      const other = await fx.request("/~api/pages");
      await other.text();
      assertEquals(cdnOf(other), ["max-age=60", "cachely-t7,cachely-t7-api"], want);
    }
  } finally {
    fx.close();
    await up.close();
  }
});

Deno.test("a quota 429 of a paused account is never offloaded", async () => {
  await using t = await assetTenant(true, { QUOTAS: "on" });
  await (await t.fx.request("/image/upload/v1/cat.jpg")).arrayBuffer();
  await t.fx.update({ ownerId: "owner-1" });
  const now = t.fx.clock.now();
  const paused: QuotaSnapshot = {
    v: 1,
    userId: "owner-1",
    period: "2026-11",
    plan: "free",
    level: 100,
    paused: true,
    reason: "requests",
    resumesAt: now + 86_400_000,
    publishedAt: now,
  };
  await t.fx.kv.set(kvKeys.quotaSnapshot("owner-1"), paused);
  t.fx.edge.invalidateQuota("owner-1");
  const r = await t.fx.request("/image/upload/v1/cat.jpg");
  await r.arrayBuffer();
  assertEquals(r.status, 429);
  assertEquals(cdnOf(r), NONE);
});
