/**
 * Origin mode (docs/decisions.md "HTTP caching") against behaviours an RFC 9111 conformance
 * run found (bench/conformance.ts): directives spelled with whitespace around "=", a
 * CDN-Cache-Control that is no valid Structured Fields Dictionary, and the visitor's
 * end-to-end request fields, which reach the origin and key the answers that vary on them.
 */
import { assert, assertEquals } from "./assert.ts";
import { cachingFixture } from "./fakes/caching_fixture.ts";

const cacheOf = (r: Response) => r.headers.get("x-cachely-cache");

/** The cache outcomes of `n` requests for a site page, bodies read. */
async function outcomes(
  t: Awaited<ReturnType<typeof cachingFixture>>,
  name: string,
  inits: RequestInit[],
): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (const init of inits) {
    const r = await t.get("site", name, init);
    await r.text();
    out.push(cacheOf(r));
  }
  return out;
}

Deno.test("origin mode: a lifetime written `max-age =N` or `max-age= N` is no lifetime", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("before", { headers: { "cache-control": "max-age =600" } });
  t.origin.script("after", { headers: { "cache-control": "public, max-age= 600" } });
  assertEquals(await outcomes(t, "before", [{}, {}]), ["MISS", "MISS"]);
  assertEquals(await outcomes(t, "after", [{}, {}]), ["MISS", "MISS"]);
  assertEquals([t.origin.count("before"), t.origin.count("after")], [2, 2]);
});

Deno.test("origin mode: an invalid CDN-Cache-Control is ignored and Cache-Control governs", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("garbled", {
    headers: { "cdn-cache-control": "max-age=600, %%%", "cache-control": "no-store" },
  });
  t.origin.script("quoted", {
    headers: { "cdn-cache-control": 'max-age="600"', "cache-control": "no-store" },
  });
  t.origin.script("valid", {
    headers: { "cdn-cache-control": "max-age=600", "cache-control": "no-store" },
  });
  assertEquals(await outcomes(t, "garbled", [{}, {}]), ["MISS", "MISS"]);
  assertEquals(await outcomes(t, "quoted", [{}, {}]), ["MISS", "MISS"]);
  // a valid one still governs over Cache-Control (RFC 9213 §2.1)
  assertEquals(await outcomes(t, "valid", [{}, {}]), ["MISS", "HIT"]);
});

Deno.test("origin mode: the visitor's end-to-end fields reach the origin and key its Vary", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("flavour", {
    headers: { "cache-control": "max-age=600", vary: "X-Flavour" },
  });
  const as = (v?: string): RequestInit => ({ headers: v ? { "x-flavour": v } : {} });
  assertEquals(
    await outcomes(t, "flavour", [as("sweet"), as("sour"), as("sweet"), as(), as("sour")]),
    ["MISS", "MISS", "HIT", "MISS", "HIT"],
  );
  const sent = t.origin.seen.filter((s) => s.name === "flavour").map((s) =>
    s.headers.get("x-flavour")
  );
  assertEquals(sent, ["sweet", "sour", null]);
});

Deno.test("origin mode: credentials, identity, routing overrides, partial-page asks never reach the origin", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("guarded", { headers: { "cache-control": "max-age=600" } });
  const r = await t.get("site", "guarded", {
    headers: {
      cookie: "session=1",
      authorization: "Bearer visitor",
      "x-forwarded-host": "evil.example",
      "x-original-url": "/admin",
      "x-http-method-override": "DELETE",
      "x-http-host-override": "evil.example",
      "x-custom-ip-authorization": "127.0.0.1",
      "x-remote-addr": "127.0.0.1",
      "x-requested-with": "XMLHttpRequest",
      "hx-request": "true",
      rsc: "1",
      "user-agent": "visitor-agent",
      "x-trace": "abc",
    },
  });
  await r.text();
  const h = t.origin.seen.find((s) => s.name === "guarded")!.headers;
  const never = ["cookie", "authorization", "x-forwarded-host", "x-original-url"];
  // Header overrides and spoofed client addresses (origins trusting them for routing or access)
  never.push("x-http-host-override", "x-custom-ip-authorization", "x-remote-addr");
  for (const name of [...never, "x-requested-with", "hx-request", "rsc"]) {
    assertEquals(h.get(name), null, name);
  }
  assertEquals(h.get("x-http-method-override"), null);
  assert(h.get("user-agent") !== "visitor-agent");
  assertEquals(h.get("x-trace"), "abc");
});

Deno.test("fixed mode passes no visitor field on (today's behaviour)", async () => {
  await using t = await cachingFixture({ cacheMode: "fixed" });
  t.origin.script("plain", {});
  const r = await t.get("site", "plain", { headers: { "x-trace": "abc" } });
  await r.text();
  assertEquals(t.origin.seen.find((s) => s.name === "plain")!.headers.get("x-trace"), null);
});

Deno.test("origin mode: other final statuses are stored for their explicit lifetime", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  const fresh = { "cache-control": "max-age=600" };
  t.origin.script("gone", { status: 404, headers: fresh, body: "no such page" });
  t.origin.script("moved", { status: 301, headers: { ...fresh, location: "/elsewhere" } });
  t.origin.script("empty", { status: 204, headers: fresh, body: null });
  for (const name of ["gone", "moved", "empty"]) {
    assertEquals(await outcomes(t, name, [{}, {}]), ["MISS", "HIT"], name);
  }
  const again = await t.get("site", "moved", { redirect: "manual" });
  await again.text();
  assertEquals([again.status, again.headers.get("location")], [301, "/elsewhere"]);
  const gone = await t.get("site", "gone");
  assertEquals([gone.status, await gone.text()], [404, "no such page"]);
});

Deno.test("origin mode: the Last-Modified heuristic stores only heuristically cacheable statuses", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  const lastModified = new Date(t.fx.clock.now() - 86_400_000).toUTCString();
  const date = new Date(t.fx.clock.now()).toUTCString();
  t.origin.script("created", { status: 201, headers: { "last-modified": lastModified, date } });
  t.origin.script("denied", { status: 403, headers: { "last-modified": lastModified, date } });
  t.origin.script("missing", { status: 404, headers: { "last-modified": lastModified, date } });
  assertEquals(await outcomes(t, "created", [{}, {}]), ["MISS", "MISS"]);
  assertEquals(await outcomes(t, "denied", [{}, {}]), ["MISS", "MISS"]);
  assertEquals(await outcomes(t, "missing", [{}, {}]), ["MISS", "HIT"]);
});

Deno.test("fixed mode stores 200s only (today's behaviour)", async () => {
  await using t = await cachingFixture({ cacheMode: "fixed" });
  t.origin.script("gone", { status: 404, headers: { "cache-control": "max-age=600" } });
  assertEquals(await outcomes(t, "gone", [{}, {}]), ["MISS", "MISS"]);
});

Deno.test("origin mode passes the origin's own 5xx on; fixed mode answers its 502", async () => {
  for (const cacheMode of ["origin", "fixed"] as const) {
    await using t = await cachingFixture({ cacheMode });
    t.origin.script("down", {
      status: 503,
      headers: { "retry-after": "120", "content-type": "text/html" },
      body: "<p>back soon</p>",
    });
    const r = await t.get("site", "down");
    const body = await r.text();
    const cs = r.headers.get("cache-status");
    assert(cs?.includes("fwd-status=503"), `${cacheMode}: ${cs}`);
    if (cacheMode === "origin") {
      assertEquals([r.status, body, r.headers.get("retry-after")], [
        503,
        "<p>back soon</p>",
        "120",
      ]);
    } else {
      assertEquals([r.status, r.headers.get("retry-after")], [502, null]);
    }
  }
});

Deno.test("origin mode: an answer to a request with Authorization is stored only if allowed", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  const auth: RequestInit = { headers: { authorization: "Basic dmlzaXRvcjpwdw==" } };
  t.origin.script("plain", { headers: { "cache-control": "max-age=600" } });
  t.origin.script("shared", { headers: { "cache-control": "public, max-age=600" } });
  assertEquals(await outcomes(t, "plain", [auth, {}, {}]), ["MISS", "MISS", "HIT"]);
  assertEquals(await outcomes(t, "shared", [auth, {}]), ["MISS", "HIT"]);
  // the credential itself still never reaches the origin
  assert(t.origin.seen.every((s) => s.headers.get("authorization") === null));
});

Deno.test("an answer that sets an obsolete Set-Cookie2 is not stored either", async () => {
  await using t = await cachingFixture({ cacheMode: "origin" });
  t.origin.script("crumb", { headers: { "cache-control": "max-age=600", "set-cookie2": "a=b" } });
  assertEquals(await outcomes(t, "crumb", [{}, {}]), ["MISS", "MISS"]);
});
