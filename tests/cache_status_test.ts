/**
 * RFC 9211 Cache-Status on every edge answer (docs/decisions.md "HTTP caching: Cache-Status"):
 * a hit, or why the edge went to the origin, what the origin answered, whether the answer
 * was stored and for how long, or why not. On a scripted loopback origin.
 */
import { assertEquals } from "./assert.ts";
import { cachingFixture, type PathKind } from "./fakes/caching_fixture.ts";
import { isSafeHeaderValue } from "../lib/http/header_value.ts";

type Fixture = Awaited<ReturnType<typeof cachingFixture>>;

async function status(t: Fixture, kind: PathKind, name: string, init: RequestInit = {}) {
  const r = await t.get(kind, name, init);
  await r.body?.cancel();
  const v = r.headers.get("cache-status");
  if (v !== null && !isSafeHeaderValue(v)) throw new Error(`unsafe value ${v}`);
  return v;
}

Deno.test("Cache-Status: a miss says it was stored and for how long; hits say hit, templated or not", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("page", { headers: { "cache-control": "max-age=600" } });
  for (const kind of ["asset", "site"] as const) {
    assertEquals(
      await status(t, kind, "page"),
      "Cachely; fwd=uri-miss; fwd-status=200; ttl=600; stored",
    );
    // the first hit is built per request, later ones are clones of the hit template
    for (let i = 0; i < 3; i++) assertEquals(await status(t, kind, "page"), "Cachely; hit");
  }
  assertEquals(
    await status(t, "api", "page"),
    "Cachely; fwd=uri-miss; fwd-status=200; ttl=60; stored",
  );
  assertEquals(await status(t, "api", "page"), "Cachely; hit");
  assertEquals(await status(t, "api", "page"), "Cachely; hit");
});

Deno.test("Cache-Status: detail says why an answer was not stored", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  const cases: [string, Record<string, string>, string][] = [
    ["nostore", { "cache-control": "no-store" }, "no-store"],
    ["priv", { "cache-control": "private, max-age=60" }, "private"],
    ["cdnpriv", { "cache-control": "max-age=60", "cdn-cache-control": "private" }, "private"],
    ["cookie", { "cache-control": "max-age=60", "set-cookie": "a=1" }, "set-cookie"],
    ["star", { "cache-control": "max-age=60", vary: "*" }, "vary"],
    ["bare", {}, "no-lifetime"],
  ];
  for (const [name, headers, detail] of cases) {
    t.origin.script(name, { headers });
    assertEquals(
      await status(t, "site", name),
      `Cachely; fwd=uri-miss; fwd-status=200; detail=${detail}`,
      name,
    );
  }
  t.origin.script("moved", { status: 301, headers: { location: "/elsewhere" } });
  assertEquals(
    await status(t, "site", "moved"),
    "Cachely; fwd=uri-miss; fwd-status=301; detail=no-lifetime",
  );
});

Deno.test("Cache-Status: revalidation is fwd=stale with the origin's 304; a request's no-cache is fwd=request", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("etagged", { headers: { "cache-control": "max-age=10", etag: '"e1"' } });
  await status(t, "site", "etagged");
  t.fx.clock.advance(11_000);
  assertEquals(
    await status(t, "site", "etagged"),
    "Cachely; fwd=stale; fwd-status=304; ttl=10; stored",
  );
  assertEquals(
    await status(t, "site", "etagged", { headers: { "cache-control": "no-cache" } }),
    "Cachely; fwd=request; fwd-status=304; ttl=10; stored",
  );
  t.origin.script("swr", { headers: { "cache-control": "max-age=10, stale-while-revalidate=60" } });
  await status(t, "site", "swr");
  t.fx.clock.advance(15_000);
  assertEquals(await status(t, "site", "swr"), "Cachely; hit; ttl=-5; detail=stale");
  await t.settled();
});

Deno.test("Cache-Status: an origin 5xx shows its status; refusals and other methods say so too", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("broken", { status: 500 });
  t.origin.script("down", { status: 503 });
  for (const kind of ["api", "asset", "site"] as const) {
    const r = await t.get(kind, "broken");
    await r.body?.cancel();
    // origin mode passes the origin's own 5xx on; the API proxy (fixed TTL) answers 502
    assertEquals(r.status, kind === "api" ? 502 : 500, kind);
    assertEquals(
      r.headers.get("cache-status"),
      "Cachely; fwd=uri-miss; fwd-status=500; detail=upstream-error",
      kind,
    );
  }
  assertEquals(
    await status(t, "site", "down"),
    "Cachely; fwd=uri-miss; fwd-status=503; detail=upstream-error",
  );
  // a stale copy served because the origin failed says so, with the origin's status
  t.origin.script("flaky", (n) =>
    n === 1 ? { headers: { "cache-control": "max-age=10" } } : {
      status: 500,
    });
  await status(t, "site", "flaky");
  t.fx.clock.advance(20_000); // within STALE_IF_ERROR_SECONDS (300)
  const stale = await t.get("site", "flaky");
  assertEquals([stale.status, await stale.text()], [200, "flaky #1"]);
  assertEquals(
    stale.headers.get("cache-status"),
    "Cachely; fwd=stale; fwd-status=500; detail=stale-if-error",
  );
  assertEquals(await status(t, "site", "form", { method: "POST" }), "Cachely; fwd=method");
  assertEquals(
    await status(t, "asset", "bot", { headers: { "user-agent": "AhrefsBot/7.0" } }),
    "Cachely; fwd=bypass",
  );
});
