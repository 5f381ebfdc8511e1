/**
 * Origin mode never generates an answer the origin did not allow (docs/decisions.md "HTTP
 * caching: what the origin allows"): stale answers only with the origin's (or the tenant's
 * explicit) permission, ranges under the same rules as whole answers, RFC 9213 targeted
 * fields, Expires against the origin's Date, and Vary on headers the origin never sees.
 * Every rule on a scripted loopback origin.
 */
import { assert, assertEquals } from "./assert.ts";
import { cachingFixture, type PathKind } from "./fakes/caching_fixture.ts";

const cacheOf = (r: Response) => r.headers.get("x-cachely-cache");
const ORIGIN_PATHS: readonly PathKind[] = ["asset", "site"];
type Fixture = Awaited<ReturnType<typeof cachingFixture>>;

async function read(t: Fixture, kind: PathKind, name: string, init: RequestInit = {}) {
  const r = await t.get(kind, name, init);
  return { r, body: await r.text(), cache: cacheOf(r) };
}

// ---- stale answers only with permission ----

Deno.test("origin mode: public, max-age=0 with an ETag revalidates on every request, never served stale", async () => {
  await using t = await cachingFixture({ cacheMode: "origin", staleWhileRevalidate: 60 });
  for (const kind of ORIGIN_PATHS) {
    let version = 1;
    const name = `zero-${kind}`;
    t.origin.script(name, () => ({
      headers: { "cache-control": "public, max-age=0", etag: `"v${version}"` },
      body: `v${version}`,
    }));
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      if (i === 2) version = 2;
      t.fx.clock.advance(1_000);
      const { body, cache } = await read(t, kind, name);
      seen.push(`${cache} ${body}`);
      await t.settled();
    }
    assertEquals(seen, ["MISS v1", "MISS v1", "MISS v2", "MISS v2"], kind);
    assertEquals(t.origin.count(name), 4, "every request asked the origin");
    assertEquals(t.origin.bodies(name), 2, "conditionally: 304 while the ETag held");
  }
});

Deno.test("origin mode: concurrent revalidations of a max-age=0 copy collapse into one origin request", async () => {
  await using t = await cachingFixture({ cacheMode: "origin", staleWhileRevalidate: 60 });
  t.origin.script("busy", {
    headers: { "cache-control": "max-age=0", etag: '"b1"' },
    delayMs: 50,
  });
  await read(t, "site", "busy");
  t.fx.clock.advance(1_000);
  const all = await Promise.all(Array.from({ length: 6 }, () => read(t, "site", "busy")));
  assertEquals(all.map((a) => `${a.cache} ${a.body}`), Array(6).fill("MISS busy #1"));
  assertEquals(t.origin.count("busy"), 2, "one revalidation for six visitors");
});

Deno.test("origin mode: the tenant's window applies only when the origin allows it or the tenant opted in", async () => {
  for (const staleWhenOriginSilent of [false, true]) {
    await using t = await cachingFixture({
      cacheMode: "origin",
      staleWhileRevalidate: 60,
      staleWhenOriginSilent,
    });
    t.origin.script("silent", { headers: { "cache-control": "max-age=10" } });
    t.origin.script("allowed", {
      headers: { "cache-control": "max-age=10, stale-while-revalidate=30" },
    });
    for (const kind of ORIGIN_PATHS) {
      for (const name of ["silent", "allowed"]) await read(t, kind, name);
    }
    t.fx.clock.advance(20_000);
    for (const kind of ORIGIN_PATHS) {
      const silent = await read(t, kind, "silent");
      const allowed = await read(t, kind, "allowed");
      assertEquals(
        [silent.cache, allowed.cache],
        [staleWhenOriginSilent ? "STALE" : "MISS", "STALE"],
        `${kind} opted in: ${staleWhenOriginSilent}`,
      );
      await t.settled();
    }
  }
});

Deno.test("fixed mode: the stale window is bounded by the TTL", async () => {
  await using t = await cachingFixture({ cacheMode: "fixed", staleWhileRevalidate: 60 }, {}, {
    cacheTtl: 10,
  });
  t.origin.script("api", {});
  await read(t, "api", "api");
  t.fx.clock.advance(15_000); // 5 s past the TTL: within a 10 s window
  assertEquals((await read(t, "api", "api")).cache, "STALE");
  await t.settled();
  t.fx.clock.advance(25_000); // the refreshed copy is 15 s past its TTL: beyond the window
  assertEquals((await read(t, "api", "api")).cache, "MISS");
});

// ---- ranges ----

/** A scripted origin answer to a Range request: 206 of the 10-byte body, conditional on the ETag. */
function ranged(headers: Record<string, string>) {
  return (_n: number, req: Request) => {
    const etag = headers.etag;
    if (etag !== undefined && req.headers.get("if-none-match") === etag) {
      return { status: 304, headers, conditional: false };
    }
    return {
      status: req.headers.has("range") ? 206 : 200,
      headers: req.headers.has("range")
        ? { ...headers, "content-range": "bytes 0-9/10", "content-type": "video/mp4" }
        : { ...headers, "content-type": "video/mp4" },
      body: "0123456789",
      conditional: false,
    };
  };
}

Deno.test("origin mode: range requests follow no-cache like whole answers (revalidated each time)", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("clip", ranged({ "cache-control": "no-cache", etag: '"c1"' }));
  t.origin.script("longclip", ranged({ "cache-control": "max-age=600", etag: '"l1"' }));
  for (let i = 0; i < 3; i++) {
    for (const name of ["clip", "longclip"]) {
      const { r, body } = await read(t, "asset", name, { headers: { range: "bytes=2-5" } });
      assertEquals([r.status, body], [206, "2345"], name);
    }
  }
  assertEquals(t.origin.count("clip"), 3, "no-cache: the origin is asked before every use");
  assertEquals(t.origin.bodies("clip"), 1, "conditionally");
  assertEquals(t.origin.count("longclip"), 1, "max-age=600: one fetch");
});

Deno.test("origin mode: a range request's Cache-Control: no-cache revalidates its slice", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("fresh", ranged({ "cache-control": "max-age=600", etag: '"f1"' }));
  const range = { range: "bytes=2-5" };
  await read(t, "asset", "fresh", { headers: range });
  assertEquals((await read(t, "asset", "fresh", { headers: range })).cache, "HIT");
  for (let i = 0; i < 2; i++) {
    const again = await read(t, "asset", "fresh", {
      headers: { ...range, "cache-control": "no-cache" },
    });
    assertEquals([again.r.status, again.body, again.cache], [206, "2345", "MISS"]);
  }
  assertEquals(t.origin.count("fresh"), 3, "each no-cache request asked the origin");
  assertEquals(t.origin.bodies("fresh"), 1, "conditionally");
});

Deno.test("a 206 that sets a cookie is never stored (both modes)", async () => {
  for (const cacheMode of ["fixed", "origin"] as const) {
    await using t = await cachingFixture({ cacheMode });
    t.origin.script("tracked", ranged({ "cache-control": "max-age=600", "set-cookie": "id=1" }));
    for (let i = 0; i < 2; i++) {
      const { r } = await read(t, "asset", "tracked", { headers: { range: "bytes=2-5" } });
      assertEquals([r.status, r.headers.get("set-cookie")], [206, null]);
    }
    assertEquals(t.origin.count("tracked"), 2, cacheMode);
  }
});

// ---- RFC 9213 targeted fields ----

Deno.test("origin mode: CDN-Cache-Control / Surrogate-Control no-store or private means not stored", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  const cases: Record<string, Record<string, string>> = {
    "cdn-nostore": { "cache-control": "max-age=600", "cdn-cache-control": "no-store" },
    "cdn-private": { "cache-control": "max-age=600", "cdn-cache-control": "private" },
    "own-nostore": { "cache-control": "max-age=600", "cachely-cdn-cache-control": "no-store" },
    "surrogate": { "cache-control": "max-age=600", "surrogate-control": "no-store" },
  };
  for (const [name, headers] of Object.entries(cases)) {
    t.origin.script(name, { headers });
    for (const kind of ORIGIN_PATHS) {
      await read(t, kind, name);
      assertEquals((await read(t, kind, name)).cache, "MISS", `${name} ${kind}`);
    }
  }
});

Deno.test("origin mode: a targeted field's lifetime wins over Cache-Control; Cachely's own is not passed on", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("short", {
    headers: { "cache-control": "max-age=600", "cdn-cache-control": "max-age=5" },
  });
  t.origin.script("mine", {
    headers: {
      "cache-control": "no-store",
      "cdn-cache-control": "no-store",
      "cachely-cdn-cache-control": "max-age=600",
    },
  });
  for (const kind of ORIGIN_PATHS) {
    const first = await read(t, kind, "mine");
    assertEquals(first.r.headers.get("cachely-cdn-cache-control"), null, kind);
    assertEquals(first.r.headers.get("cdn-cache-control"), "no-store", "passed on to a CDN");
    await read(t, kind, "short");
  }
  t.fx.clock.advance(6_000);
  for (const kind of ORIGIN_PATHS) {
    assertEquals((await read(t, kind, "short")).cache, "MISS", kind);
    assertEquals((await read(t, kind, "mine")).cache, "HIT", kind);
  }
});

// ---- freshness arithmetic ----

Deno.test("origin mode: Expires counts from the origin's Date, and the Date is kept", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  const now = t.fx.clock.now();
  // the origin's clock is an hour ahead: its Expires is 30 s after its Date
  const ahead = new Date(now + 3_600_000).toUTCString();
  t.origin.script("ahead", {
    headers: { date: ahead, expires: new Date(now + 3_630_000).toUTCString() },
  });
  // an hour behind: two hours after its Date
  const behind = new Date(now - 3_600_000).toUTCString();
  t.origin.script("behind", {
    headers: { date: behind, expires: new Date(now + 3_600_000).toUTCString() },
  });
  for (const kind of ORIGIN_PATHS) {
    assertEquals((await read(t, kind, "ahead")).r.headers.get("date"), ahead, kind);
    await read(t, kind, "behind");
  }
  t.fx.clock.advance(60_000);
  for (const kind of ORIGIN_PATHS) assertEquals((await read(t, kind, "ahead")).cache, "MISS");
  t.fx.clock.advance(4_000_000); // past the edge's clock's Expires, within Date + 2 h
  for (const kind of ORIGIN_PATHS) assertEquals((await read(t, kind, "behind")).cache, "HIT");
});

Deno.test("origin mode: an Expires that is no HTTP-date means already expired", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  for (const [name, expires] of [["iso", "2099-01-01"], ["js", "Thu Jan 01 2099 00:00:00"]]) {
    t.origin.script(name, { headers: { expires } });
    for (const kind of ORIGIN_PATHS) {
      await read(t, kind, name);
      assertEquals((await read(t, kind, name)).cache, "MISS", `${name} ${kind}`);
    }
  }
});

// ---- Vary ----

Deno.test("origin mode: Vary on headers the edge never forwards is ignored for storage", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("s3", { headers: { "cache-control": "max-age=600", vary: "Origin" } });
  t.origin.script("wp", {
    headers: { "cache-control": "max-age=600", vary: "Cookie, User-Agent" },
  });
  t.origin.script("mixed", { headers: { "cache-control": "max-age=600", vary: "Accept, Cookie" } });
  for (const kind of ORIGIN_PATHS) {
    for (const name of ["s3", "wp", "mixed"]) {
      await read(t, kind, name, { headers: { cookie: "a=1", origin: "https://a.example" } });
      const again = await read(t, kind, name, {
        headers: { cookie: "a=2", origin: "https://b.example", "user-agent": "other" },
      });
      assertEquals(again.cache, "HIT", `${name} ${kind}`);
      assert(again.r.headers.get("vary") !== null, "the origin's Vary is passed on");
    }
    // Accept is still keyed
    const other = await read(t, kind, "mixed", { headers: { accept: "image/avif" } });
    assertEquals(other.cache, "MISS", kind);
  }
});
