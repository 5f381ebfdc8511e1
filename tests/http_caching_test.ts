/**
 * HTTP caching rules that hold on every path, in both cache modes
 * (docs/decisions.md "HTTP caching"): bodiless statuses, Age, stale-if-error limits,
 * Set-Cookie, revalidation with validators, stale-while-revalidate.
 */
import { assert, assertEquals } from "./assert.ts";
import { cachingFixture, PATH_KINDS } from "./fakes/caching_fixture.ts";

const cacheOf = (r: Response) => r.headers.get("x-cachely-cache");

// ---- every path ----

Deno.test("204, 205 and 304 from an origin pass through without a body on every path", async () => {
  await using t = await cachingFixture();
  for (const status of [204, 205, 304]) {
    t.origin.script(`s${status}`, { status, conditional: false });
    for (const kind of PATH_KINDS) {
      const r = await t.get(kind, `s${status}`);
      assertEquals(r.status, status, `${kind} ${status}`);
      assertEquals(await r.text(), "", `${kind} ${status}`);
    }
  }
});

Deno.test("Age is the upstream Age plus the time held here, on every path", async () => {
  await using t = await cachingFixture();
  t.origin.script("aged", { headers: { age: "100", "cache-control": "max-age=600" } });
  for (const kind of PATH_KINDS) {
    const miss = await t.get(kind, "aged");
    await miss.text();
    assertEquals([cacheOf(miss), miss.headers.get("age")], ["MISS", "100"], kind);
  }
  t.fx.clock.advance(5_000);
  for (const kind of PATH_KINDS) {
    const hit = await t.get(kind, "aged");
    await hit.text();
    assertEquals([cacheOf(hit), hit.headers.get("age")], ["HIT", "105"], kind);
  }
});

Deno.test("stale-if-error never serves a copy marked must-revalidate, proxy-revalidate or no-cache", async () => {
  await using t = await cachingFixture();
  const marks = ["must-revalidate", "proxy-revalidate", "no-cache", "public"];
  let down = false;
  for (const cc of marks) {
    t.origin.script(cc, () => down ? { status: 503 } : { headers: { "cache-control": cc } });
  }
  for (const kind of PATH_KINDS) for (const cc of marks) await (await t.get(kind, cc)).text();
  down = true;
  t.fx.clock.advance(61_000); // past the 60 s TTL, within STALE_IF_ERROR_SECONDS (300)
  for (const kind of PATH_KINDS) {
    for (const cc of marks) {
      const r = await t.get(kind, cc);
      await r.text();
      const want = cc === "public" ? [200, "STALE"] : [502, null];
      assertEquals([r.status, cacheOf(r)], want, `${kind} ${cc}`);
    }
  }
});

Deno.test("stale-if-error=N bounds how long a stale copy is served on an origin failure", async () => {
  await using t = await cachingFixture();
  let down = false;
  t.origin.script(
    "sie",
    () => down ? { status: 503 } : { headers: { "cache-control": "stale-if-error=10" } },
  );
  for (const kind of PATH_KINDS) await (await t.get(kind, "sie")).text();
  down = true;
  t.fx.clock.advance(65_000);
  for (const kind of PATH_KINDS) {
    const r = await t.get(kind, "sie");
    await r.text();
    assertEquals([r.status, cacheOf(r)], [200, "STALE"], kind);
    // X-Cache keeps the original product's three values: a stale-served copy is a HIT there.
    assertEquals(r.headers.get("x-cache"), "HIT", kind);
  }
  t.fx.clock.advance(6_000); // 71 s: past TTL + 10 s, though STALE_IF_ERROR_SECONDS is 300
  for (const kind of PATH_KINDS) {
    const r = await t.get(kind, "sie");
    await r.text();
    assertEquals(r.status, 502, kind);
  }
});

Deno.test("an answer with Set-Cookie is not stored on any path; ignoreSetCookie stores it", async () => {
  for (const ignoreSetCookie of [false, true]) {
    await using t = await cachingFixture({ ignoreSetCookie });
    t.origin.script("cookie", { headers: { "set-cookie": "sid=1; Path=/" } });
    for (const kind of PATH_KINDS) {
      for (let i = 0; i < 2; i++) {
        const r = await t.get(kind, "cookie");
        await r.text();
        assertEquals(r.headers.get("set-cookie"), null, "the cookie is never passed on");
      }
    }
    assertEquals(t.origin.count("cookie"), ignoreSetCookie ? 3 : 6, `ignore ${ignoreSetCookie}`);
  }
});

// ---- revalidation ----

Deno.test("an expired entry with an ETag is revalidated; a 304 refreshes it without a body", async () => {
  await using t = await cachingFixture();
  t.origin.script("tagged", { headers: { etag: '"v1"' } });
  for (const kind of PATH_KINDS) await (await t.get(kind, "tagged")).text();
  t.fx.clock.advance(61_000);
  for (const kind of PATH_KINDS) {
    const r = await t.get(kind, "tagged");
    assertEquals([r.status, await r.text()], [200, `tagged #${PATH_KINDS.indexOf(kind) + 1}`]);
    const again = await t.get(kind, "tagged");
    await again.text();
    assertEquals(cacheOf(again), "HIT", `${kind}: the 304 restarted the TTL`);
  }
  const conditional = t.origin.seen.filter((s) => s.headers.get("if-none-match") === '"v1"');
  assertEquals(conditional.length, 3, "one conditional request per path");
  assertEquals(t.origin.bodies("tagged"), 3, "bodies only on the first fetches");
});

Deno.test("an expired entry with only Last-Modified is revalidated with If-Modified-Since", async () => {
  await using t = await cachingFixture();
  const lm = "Wed, 21 Oct 2026 07:28:00 GMT";
  t.origin.script("dated", { headers: { "last-modified": lm } });
  for (const kind of PATH_KINDS) await (await t.get(kind, "dated")).text();
  t.fx.clock.advance(61_000);
  for (const kind of PATH_KINDS) {
    const r = await t.get(kind, "dated");
    assertEquals(await r.text(), `dated #${PATH_KINDS.indexOf(kind) + 1}`, kind);
  }
  assertEquals(t.origin.seen.filter((s) => s.headers.get("if-modified-since") === lm).length, 3);
  assertEquals(t.origin.bodies("dated"), 3);
});

// ---- stale-while-revalidate ----

Deno.test("stale-while-revalidate: the first request after expiry gets the stale copy at once; one refresh replaces it", async () => {
  await using t = await cachingFixture({ staleWhileRevalidate: 60 });
  let slow = false;
  t.origin.script("slow", () => ({ delayMs: slow ? 400 : 0 }));
  for (const kind of PATH_KINDS) await (await t.get(kind, "slow")).text();
  slow = true;
  t.fx.clock.advance(61_000);
  for (const kind of PATH_KINDS) {
    const started = performance.now();
    const rs = await Promise.all([1, 2, 3].map(() => t.get(kind, "slow")));
    for (const r of rs) {
      assertEquals(cacheOf(r), "STALE", kind);
      assertEquals(await r.text(), `slow #${PATH_KINDS.indexOf(kind) + 1}`, kind);
    }
    assert(performance.now() - started < 300, `${kind}: answered without waiting for the origin`);
  }
  await t.settled();
  assertEquals(t.origin.count("slow"), 6, "one background refresh per key");
  for (const kind of PATH_KINDS) {
    const r = await t.get(kind, "slow");
    assertEquals(cacheOf(r), "HIT", kind);
    assert((await r.text()).startsWith("slow #"), kind);
  }
  assertEquals(t.origin.count("slow"), 6);
});

Deno.test("a background refresh is counted as an origin request, not as a visitor request", async () => {
  await using t = await cachingFixture({ staleWhileRevalidate: 60 });
  t.origin.script("counted", { headers: { etag: '"c1"' } });
  await (await t.get("api", "counted")).text();
  t.fx.clock.advance(61_000);
  const stale = await t.get("api", "counted");
  await stale.text();
  assertEquals(cacheOf(stale), "STALE");
  await t.settled();
  const records = t.fx.usage.filter((r) => r.path === "/~api/counted");
  assertEquals(
    records.map((r) => [r.cache, r.background ?? false, r.originRequests ?? 0]),
    [["MISS", false, 1], ["STALE", false, 0], [null, true, 1]],
  );
  assertEquals(t.origin.count("counted"), 2);
});

Deno.test("stale-while-revalidate ends with its window, and a version bump purges at once", async () => {
  await using t = await cachingFixture({ staleWhileRevalidate: 30 });
  for (const kind of PATH_KINDS) await (await t.get(kind, "w")).text();
  t.fx.clock.advance(91_000); // past TTL + window: the request waits for the origin
  for (const kind of PATH_KINDS) {
    const r = await t.get(kind, "w");
    await r.text();
    assertEquals(cacheOf(r), "MISS", kind);
  }
  t.fx.clock.advance(61_000); // expired again, within the window
  await t.fx.update({ versions: { api: 2, assets: 2, html: 2 } });
  for (const kind of PATH_KINDS) {
    const r = await t.get(kind, "w");
    await r.text();
    assertEquals(cacheOf(r), "MISS", `${kind}: no stale copy of an old version`);
  }
});

Deno.test("a stale-while-revalidate window of 0 turns it off; must-revalidate never goes stale", async () => {
  await using t = await cachingFixture({ staleWhileRevalidate: 0 });
  for (const kind of PATH_KINDS) await (await t.get(kind, "off")).text();
  await using u = await cachingFixture({ staleWhileRevalidate: 60 });
  u.origin.script("strict", { headers: { "cache-control": "must-revalidate" } });
  for (const kind of PATH_KINDS) await (await u.get(kind, "strict")).text();
  t.fx.clock.advance(61_000);
  u.fx.clock.advance(61_000);
  for (const kind of PATH_KINDS) {
    const off = await t.get(kind, "off");
    const strict = await u.get(kind, "strict");
    assertEquals([cacheOf(off), cacheOf(strict)], ["MISS", "MISS"], kind);
    await off.text();
    await strict.text();
  }
});
