/**
 * cacheMode "origin" (docs/decisions.md "HTTP caching"): assets and site pages
 * follow RFC 9111 — s-maxage / max-age / Expires, no-cache, heuristic freshness only with
 * Last-Modified, a request's no-cache, Vary on the forwarded headers — while the API proxy
 * keeps the fixed TTL. Plus absurd origin headers, which never make the edge throw.
 */
import { assertEquals } from "./assert.ts";
import { cachingFixture, PATH_KINDS, type PathKind } from "./fakes/caching_fixture.ts";

const cacheOf = (r: Response) => r.headers.get("x-cachely-cache");
const ORIGIN_PATHS: readonly PathKind[] = ["asset", "site"];

/** Two requests `gapMs` apart: the second's cache outcome on each path. */
async function secondOutcome(
  t: Awaited<ReturnType<typeof cachingFixture>>,
  name: string,
  gapMs: number,
  kinds: readonly PathKind[] = PATH_KINDS,
): Promise<Record<string, string | null>> {
  for (const kind of kinds) await (await t.get(kind, name)).text();
  t.fx.clock.advance(gapMs);
  const out: Record<string, string | null> = {};
  for (const kind of kinds) {
    const r = await t.get(kind, name);
    await r.text();
    out[kind] = cacheOf(r);
  }
  return out;
}

Deno.test("origin mode: max-age decides on the site and asset paths; the API keeps its TTL", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("short", { headers: { "cache-control": "max-age=10" } });
  assertEquals(await secondOutcome(t, "short", 11_000), {
    api: "HIT",
    asset: "MISS",
    site: "MISS",
  });
  t.origin.script("long", { headers: { "cache-control": "max-age=600" } });
  assertEquals(await secondOutcome(t, "long", 120_000), { api: "MISS", asset: "HIT", site: "HIT" });
});

Deno.test("fixed mode ignores the origin's max-age on every path (today's behaviour)", async () => {
  await using t = await cachingFixture({ cacheMode: "fixed" });
  t.origin.script("short", { headers: { "cache-control": "max-age=10" } });
  assertEquals(await secondOutcome(t, "short", 11_000), { api: "HIT", asset: "HIT", site: "HIT" });
});

Deno.test("origin mode: s-maxage wins over max-age, and Upstream Age counts against it", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("shared", { headers: { "cache-control": "max-age=600, s-maxage=5" } });
  assertEquals(await secondOutcome(t, "shared", 6_000, ORIGIN_PATHS), {
    asset: "MISS",
    site: "MISS",
  });
  t.origin.script("old", { headers: { "cache-control": "max-age=100", age: "95" } });
  assertEquals(await secondOutcome(t, "old", 6_000, ORIGIN_PATHS), { asset: "MISS", site: "MISS" });
});

Deno.test("origin mode: Expires gives the lifetime when there is no max-age", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  const expires = new Date(t.fx.clock.now() + 30_000).toUTCString();
  // Expires counts from the origin's Date (the fake origin's own would be the real clock's)
  const date = new Date(t.fx.clock.now()).toUTCString();
  t.origin.script("exp", { headers: { expires, date } });
  assertEquals(await secondOutcome(t, "exp", 20_000, ORIGIN_PATHS), { asset: "HIT", site: "HIT" });
  t.fx.clock.advance(11_000);
  for (const kind of ORIGIN_PATHS) {
    const r = await t.get(kind, "exp");
    await r.text();
    assertEquals(cacheOf(r), "MISS", kind);
  }
});

Deno.test("origin mode: no-cache is stored but revalidated before every use", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("nc", { headers: { "cache-control": "no-cache", etag: '"n1"' } });
  for (let i = 0; i < 3; i++) {
    for (const kind of ORIGIN_PATHS) {
      const r = await t.get(kind, "nc");
      assertEquals(r.status, 200);
      assertEquals(await r.text(), `nc #${ORIGIN_PATHS.indexOf(kind) + 1}`);
    }
  }
  assertEquals(t.origin.count("nc"), 6, "every use asked the origin");
  assertEquals(t.origin.bodies("nc"), 2, "conditionally: one body per path");
});

Deno.test("origin mode: heuristic freshness only with Last-Modified; no information means not kept", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("bare", {});
  assertEquals(await secondOutcome(t, "bare", 1_000, ORIGIN_PATHS), {
    asset: "MISS",
    site: "MISS",
  });
  // modified 10 days ago: fresh for 10 % of that, capped at one day
  const lm = new Date(t.fx.clock.now() - 10 * 86_400_000).toUTCString();
  t.origin.script("lm", { headers: { "last-modified": lm } });
  assertEquals(await secondOutcome(t, "lm", 3_600_000, ORIGIN_PATHS), {
    asset: "HIT",
    site: "HIT",
  });
});

Deno.test("origin mode: a request's Cache-Control: no-cache revalidates a fresh copy", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("fresh", { headers: { "cache-control": "max-age=600", etag: '"f1"' } });
  for (const kind of ORIGIN_PATHS) await (await t.get(kind, "fresh")).text();
  for (const kind of ORIGIN_PATHS) {
    const r = await t.get(kind, "fresh", { headers: { "cache-control": "no-cache" } });
    assertEquals([r.status, cacheOf(r)], [200, "MISS"], kind);
    await r.text();
  }
  assertEquals(t.origin.count("fresh"), 4);
  assertEquals(t.origin.seen.filter((s) => s.headers.get("if-none-match") === '"f1"').length, 2);
  assertEquals(t.origin.bodies("fresh"), 2);
});

Deno.test("origin mode: Vary on Accept keys variants; asset origins get the visitor's Accept and Accept-Encoding", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("pic", (_n, req) => ({
    headers: { "cache-control": "max-age=600", vary: "Accept" },
    body: req.headers.get("accept")?.includes("image/avif") ? "avif" : "jpeg",
  }));
  const avif = {
    headers: { accept: "image/avif,image/webp,*/*", "accept-encoding": "gzip, br, zstd" },
  };
  const old = { headers: { accept: "image/jpeg,*/*;q=0.8" } };
  for (const want of ["MISS", "HIT"]) {
    for (const [init, body] of [[avif, "avif"], [old, "jpeg"]] as const) {
      const r = await t.get("asset", "pic", init);
      assertEquals([cacheOf(r), await r.text()], [want, body]);
    }
  }
  assertEquals(t.origin.count("pic"), 2);
  const first = t.origin.seen.find((s) => s.name === "pic")!;
  assertEquals(first.headers.get("accept"), "image/avif,image/webp,*/*");
  assertEquals(first.headers.get("accept-encoding"), "gzip, br");
});

Deno.test("origin mode: Vary * means not cached; a header the edge does not forward is ignored", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("cookie-vary", { headers: { "cache-control": "max-age=600", vary: "Cookie" } });
  t.origin.script("star", { headers: { "cache-control": "max-age=600", vary: "*" } });
  t.origin.script("lang", {
    headers: { "cache-control": "max-age=600", vary: "Accept-Encoding, accept-language" },
  });
  assertEquals(await secondOutcome(t, "cookie-vary", 0, ORIGIN_PATHS), {
    asset: "HIT",
    site: "HIT",
  });
  assertEquals(await secondOutcome(t, "star", 0, ORIGIN_PATHS), { asset: "MISS", site: "MISS" });
  assertEquals(await secondOutcome(t, "lang", 0, ORIGIN_PATHS), { asset: "HIT", site: "HIT" });
});

Deno.test("origin mode: the origin's stale-while-revalidate=N gives the window", async () => {
  await using t = await cachingFixture({ cacheMode: "origin", staleWhileRevalidate: 0 });
  t.origin.script("swr", { headers: { "cache-control": "max-age=10, stale-while-revalidate=30" } });
  assertEquals(await secondOutcome(t, "swr", 20_000, ORIGIN_PATHS), {
    asset: "STALE",
    site: "STALE",
  });
  await t.settled();
  t.fx.clock.advance(45_000); // the refreshed copy is past max-age + its window too
  for (const kind of ORIGIN_PATHS) {
    const r = await t.get(kind, "swr");
    await r.text();
    assertEquals(cacheOf(r), "MISS", kind);
  }
});

Deno.test("origin mode with CDN offload: no CDN-Cache-Control, the CDN follows the origin's headers", async () => {
  for (const cacheMode of ["fixed", "origin"] as const) {
    await using t = await cachingFixture({ cacheMode }, {}, { cdnOffload: true, tenantId: 7 });
    t.origin.script("cdn", { headers: { "cache-control": "public, max-age=30" } });
    for (const kind of ORIGIN_PATHS) {
      const r = await t.get(kind, "cdn");
      await r.text();
      const want = cacheMode === "origin" ? null : "max-age=60";
      assertEquals(r.headers.get("cdn-cache-control"), want, `${cacheMode} ${kind}`);
      assertEquals(r.headers.get("cache-control"), "public, max-age=30");
      assertEquals(r.headers.get("cache-tag")?.startsWith("cachely-t7"), true);
    }
  }
});

// ---- bad input ----

Deno.test("contradictory or absurd origin headers never make the edge throw", async () => {
  for (const cacheMode of ["fixed", "origin"] as const) {
    await using t = await cachingFixture({ cacheMode });
    t.origin.script("absurd", {
      headers: {
        "cache-control":
          "max-age=10, max-age=20, s-maxage=-5, stale-if-error=999999999999999999999, stale-while-revalidate=x, =, ,",
        age: "-3",
        expires: "not a date",
        "last-modified": "garbage",
        vary: " , ,",
      },
    });
    t.origin.script("huge", {
      headers: {
        "cache-control": "max-age=99999999999999999999999",
        age: "99999999999999999999",
      },
    });
    for (const name of ["absurd", "huge"]) {
      for (const kind of PATH_KINDS) {
        const r = await t.get(kind, name);
        assertEquals(r.status, 200, `${cacheMode} ${kind} ${name}`);
        await r.text();
      }
    }
    // two different max-ages: treated as stale (RFC 9111 §4.2.1); a negative Age as none
    const again = await t.get("site", "absurd");
    await again.text();
    assertEquals(cacheOf(again), cacheMode === "origin" ? "MISS" : "HIT", cacheMode);
    assertEquals(again.headers.get("age"), null);
  }
});
