/**
 * The API proxy (`/~api/`): forwarding, credentials per auth mode, caching and
 * keys, rewriting, preview bypass, headers. Runs a real edge against a real
 * loopback upstream; security and bad-input cases are in edge_security_test.ts.
 */
import { assert, assertEquals } from "./assert.ts";
import { CANARY, edgeFixture, type SnapshotOverrides, startUpstream } from "./fakes/upstream.ts";
import { encryptSecret } from "../lib/crypto/mod.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";

async function setup(snapshot?: SnapshotOverrides) {
  const up = startUpstream();
  const fx = await edgeFixture(up.url, { snapshot });
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

Deno.test("GET /~api/<path> forwards to apiOrigin + path with the bearer token injected", async () => {
  await using t = await setup();
  const res = await t.fx.request("/~api/spaces/x/entries?limit=2");
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.path, "/spaces/x/entries");
  assertEquals(body.query, "?limit=2");
  const seen = t.up.seen.at(-1)!;
  assertEquals(seen.headers.get("authorization"), `Bearer ${CANARY}`);
  assertEquals(res.headers.get("x-cachely-cache"), "MISS");
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
});

Deno.test("every API answer carries nosniff: a miss, a hit, a CORS hit", async () => {
  await using t = await setup();
  for (const origin of [null, null, "https://www.example.com"]) {
    const res = await t.fx.request("/~api/n", origin ? { headers: { origin } } : {});
    await res.text();
    assertEquals(res.headers.get("x-content-type-options"), "nosniff", origin ?? "no origin");
  }
});

Deno.test("a second GET is a HIT with Age; the TTL ends it; HEAD has no body", async () => {
  await using t = await setup({ cacheTtl: 30 });
  await (await t.fx.request("/~api/a")).text();
  t.fx.clock.advance(5_000);
  const hit = await t.fx.request("/~api/a");
  assertEquals(hit.headers.get("x-cachely-cache"), "HIT");
  assertEquals(hit.headers.get("age"), "5");
  await hit.text();
  const head = await t.fx.request("/~api/a", { method: "HEAD" });
  assertEquals(head.status, 200);
  assertEquals(await head.text(), "");
  assertEquals(head.headers.get("x-cachely-cache"), "HIT");
  assertEquals(t.up.count("/a"), 1);
  t.fx.clock.advance(90_000); // past the TTL and the 60 s stale-while-revalidate window
  const after = await t.fx.request("/~api/a");
  assertEquals(after.headers.get("x-cachely-cache"), "MISS");
  await after.text();
  assertEquals(t.up.count("/a"), 2);
});

Deno.test("cache key: query order and tracking parameters do not split it; a version bump does", async () => {
  await using t = await setup();
  await (await t.fx.request("/~api/q?b=2&a=1")).text();
  const same = await t.fx.request("/~api/q?a=1&b=2&utm_source=news&fbclid=x");
  assertEquals(same.headers.get("x-cachely-cache"), "HIT");
  await same.text();
  const other = await t.fx.request("/~api/q?a=1&b=3");
  assertEquals(other.headers.get("x-cachely-cache"), "MISS");
  await other.text();
  // the upstream never sees tracking parameters, and sees a normalised order
  assertEquals(t.up.seen.map((s) => s.query), ["a=1&b=2", "a=1&b=3"]);
  await t.fx.update({ versions: { api: 2, assets: 1, html: 1 } });
  const bumped = await t.fx.request("/~api/q?a=1&b=2");
  assertEquals(bumped.headers.get("x-cachely-cache"), "MISS");
  await bumped.text();
});

Deno.test("the preview-bypass parameter skips the cache and is not forwarded", async () => {
  await using t = await setup();
  await (await t.fx.request("/~api/draft")).text();
  const p1 = await t.fx.request("/~api/draft?cachely-preview=1&version=draft");
  assertEquals(p1.headers.get("x-cachely-cache"), "BYPASS");
  await p1.text();
  const p2 = await t.fx.request("/~api/draft?cachely-preview=1&version=draft");
  assertEquals(p2.headers.get("x-cachely-cache"), "BYPASS");
  await p2.text();
  assertEquals(t.up.count("/draft"), 3);
  assertEquals(t.up.seen.at(-1)!.query, "version=draft");
  // `?draft` is seen before and after the parameter changes: parsed queries are memoised,
  // and the memo must be keyed on the tenant's parameter, not the raw query alone.
  await (await t.fx.request("/~api/draft?draft")).text();
  const before = await t.fx.request("/~api/draft?draft");
  assertEquals(before.headers.get("x-cachely-cache"), "HIT");
  await before.text();
  await t.fx.update({ api: { previewParam: "draft" } });
  const custom = await t.fx.request("/~api/draft?draft");
  assertEquals(custom.headers.get("x-cachely-cache"), "BYPASS");
  await custom.text();
  await (await t.fx.request("/~api/draft?cachely-preview=1&version=draft")).text();
  assertEquals(t.up.seen.at(-1)!.query, "cachely-preview=1&version=draft", "now an ordinary param");
});

Deno.test("auth modes: basic, named header, query parameter (visitor's value replaced), none", async () => {
  await using t = await setup();
  const basicTok = btoa("key:secret");
  await t.fx.update({
    api: { authMode: "basic", tokenEnc: await encryptSecret(TEST_ENCRYPTION_KEY, basicTok) },
  });
  await (await t.fx.request("/~api/basic")).text();
  assertEquals(t.up.seen.at(-1)!.headers.get("authorization"), `Basic ${basicTok}`);

  await t.fx.update({ api: { authMode: "header", authParam: "x-api-key" } });
  await (await t.fx.request("/~api/hdr")).text();
  assertEquals(t.up.seen.at(-1)!.headers.get("x-api-key"), basicTok);
  assertEquals(t.up.seen.at(-1)!.headers.get("authorization"), null);

  await t.fx.update({
    api: {
      authMode: "query",
      authParam: "token",
      tokenEnc: await encryptSecret(TEST_ENCRYPTION_KEY, CANARY),
    },
  });
  const q = await t.fx.request("/~api/stories?token=visitor-guess&page=1");
  const text = await q.text();
  const seen = t.up.seen.at(-1)!;
  assertEquals(new URLSearchParams(seen.query).getAll("token"), [CANARY]);
  assertEquals(new URLSearchParams(seen.query).get("page"), "1");
  assert(!text.includes(CANARY), "the upstream echoes its query; the edge must not leak it");

  await t.fx.update({ api: { authMode: "none" } });
  await (await t.fx.request("/~api/open")).text();
  assertEquals(t.up.seen.at(-1)!.headers.get("authorization"), null);
  assert(!t.up.seen.at(-1)!.query.includes("token"));
});

Deno.test("a plain user:secret token in basic mode is base64-encoded", async () => {
  await using t = await setup();
  await t.fx.update({
    api: { authMode: "basic", tokenEnc: await encryptSecret(TEST_ENCRYPTION_KEY, "u:p") },
  });
  await (await t.fx.request("/~api/b")).text();
  assertEquals(t.up.seen.at(-1)!.headers.get("authorization"), `Basic ${btoa("u:p")}`);
});

Deno.test("delivery URLs in JSON are rewritten to the tenant host (incl. protocol-relative)", async () => {
  await using t = await setup({ cms: "contentful" });
  t.up.route("/entries", () =>
    Response.json({
      a: "https://images.ctfassets.net/sp/id/tok/cat.jpg?w=10",
      b: "//assets.ctfassets.net/sp/x.pdf",
      c: "https://images.ctfassets.net.evil.example/x.jpg",
      d: "https://example.org/?u=https://images.ctfassets.net/z",
    }));
  const body = await (await t.fx.request("/~api/entries")).json();
  assertEquals(body.a, `${t.fx.origin}/~assets/images.ctfassets.net/sp/id/tok/cat.jpg?w=10`);
  assertEquals(body.b, `${t.fx.origin}/~assets/assets.ctfassets.net/sp/x.pdf`);
  assertEquals(body.c, "https://images.ctfassets.net.evil.example/x.jpg");
  assertEquals(body.d, `https://example.org/?u=${t.fx.origin}/~assets/images.ctfassets.net/z`);
});

Deno.test("image-host URLs in API JSON become {tenant}/image/upload/… (public and private host)", async () => {
  await using t = await setup({ cms: "cloudinary", cloudName: "demo" });
  const asset = t.fx.config.imageHostAssetOrigin;
  t.up.route("/resources", () =>
    Response.json({
      a: `${asset}/demo/image/upload/w_800,h_600,c_fill/v1/cat.jpg`,
      b: "https://demo-res.cloudinary.com/video/upload/v2/clip.mp4",
      c: `${asset}/other/image/upload/v1/x.jpg`,
    }));
  const body = await (await t.fx.request("/~api/resources")).json();
  assertEquals(body.a, `${t.fx.origin}/image/upload/w_800,h_600,c_fill/v1/cat.jpg`);
  assertEquals(body.b, `${t.fx.origin}/video/upload/v2/clip.mp4`);
  assertEquals(body.c, `${asset}/other/image/upload/v1/x.jpg`);
});

Deno.test("visitor Authorization and Cookie are never forwarded; upstream Set-Cookie never reaches anyone", async () => {
  await using t = await setup();
  const first = await t.fx.request("/~api/c", {
    headers: {
      authorization: "Bearer visitor",
      cookie: "sid=visitor",
      "x-forwarded-for": "1.2.3.4",
    },
  });
  assertEquals(first.headers.get("set-cookie"), null);
  await first.text();
  const seen = t.up.seen.at(-1)!;
  assertEquals(seen.headers.get("authorization"), `Bearer ${CANARY}`);
  assertEquals(seen.headers.get("cookie"), null);
  assertEquals(seen.headers.get("x-forwarded-for"), null);
  const hit = await t.fx.request("/~api/c");
  assertEquals(hit.headers.get("x-cachely-cache"), "HIT");
  assertEquals(hit.headers.get("set-cookie"), null);
  await hit.text();
});

Deno.test("hop-by-hop and Connection-listed headers from the upstream are stripped", async () => {
  await using t = await setup();
  t.up.route("/hop", () =>
    new Response("{}", {
      headers: {
        "content-type": "application/json",
        "keep-alive": "timeout=5",
        connection: "x-secret-hop",
        "x-secret-hop": "1",
        "proxy-authenticate": "Basic",
        "www-authenticate": "Basic realm=upstream",
        "x-kept": "yes",
      },
    }));
  const res = await t.fx.request("/~api/hop");
  await res.text();
  for (const h of ["keep-alive", "x-secret-hop", "proxy-authenticate", "www-authenticate"]) {
    assertEquals(res.headers.get(h), null, h);
  }
  assertEquals(res.headers.get("x-kept"), "yes");
});

Deno.test("a redirect inside the API origin stays on /~api/ and drops the auth parameter", async () => {
  await using t = await setup({ api: { authMode: "query", authParam: "token" } });
  t.up.route(
    "/old",
    (_req, url) =>
      new Response(null, {
        status: 301,
        headers: { location: `${url.origin}/new?token=${CANARY}&a=1` },
      }),
  );
  const res = await t.fx.request("/~api/old");
  assertEquals(res.status, 301);
  assertEquals(res.headers.get("location"), `${t.fx.origin}/~api/new?a=1`);
});

Deno.test("usage is recorded once per request with status, bytes and cache outcome", async () => {
  await using t = await setup();
  const a = await t.fx.request("/~api/u");
  const bytes = (await a.arrayBuffer()).byteLength;
  await (await t.fx.request("/~api/u")).arrayBuffer();
  assertEquals(t.fx.usage.length, 2);
  assertEquals(t.fx.usage.map((u) => [u.kind, u.status, u.cache]), [
    ["api", 200, "MISS"],
    ["api", 200, "HIT"],
  ]);
  assertEquals(t.fx.usage[0].bytes, bytes);
  assertEquals(t.fx.usage[0].tenantId, 1);
  assertEquals(t.fx.usage[0].experiment, null);
});

Deno.test("CORS: OPTIONS preflight answers 204; responses allow any origin", async () => {
  await using t = await setup();
  const pre = await t.fx.request("/~api/x", {
    method: "OPTIONS",
    headers: { "access-control-request-headers": "x-custom" },
  });
  assertEquals(pre.status, 204);
  assertEquals(pre.headers.get("access-control-allow-headers"), "x-custom");
  assertEquals(pre.headers.get("access-control-max-age"), "86400");
  const res = await t.fx.request("/~api/x");
  await res.text();
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
  assertEquals(t.up.count("/x"), 1);
});

Deno.test("edge errors carry x-cachely-edge; proxied responses x-cachely-cache", async () => {
  await using t = await setup();
  const ok = await t.fx.request("/~api/x");
  await ok.text();
  assertEquals(ok.headers.get("x-cachely-cache"), "MISS");
  const err = await t.fx.request("/~api/x", { method: "POST", body: "{}" });
  await err.text();
  assertEquals(err.headers.get("x-cachely-edge"), "1");
});

// ---- errors ----

Deno.test("other methods are 405 with Allow and never reach the upstream", async () => {
  await using t = await setup();
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    const res = await t.fx.request("/~api/x", { method, body: method === "DELETE" ? null : "{}" });
    assertEquals(res.status, 405, method);
    assertEquals(res.headers.get("allow"), "GET, HEAD, OPTIONS");
    assertEquals((await res.json()).error.code, "method_not_allowed");
  }
  assertEquals(t.up.seen.length, 0);
});

Deno.test("unknown tenant is 404; a tenant without API origin is 502 api_not_configured", async () => {
  const fx = await edgeFixture(null);
  try {
    const none = await fx.request("/~api/x");
    assertEquals(none.status, 502);
    assertEquals((await none.json()).error.code, "api_not_configured");
    const unknown = await fx.edge.handle(
      new Request("http://nosuch.localhost:8000/~api/x"),
      { surface: "tenant", slug: "nosuch" },
      { clientIp: "1.1.1.1" },
    );
    assertEquals(unknown.status, 404);
    const root = await fx.request("/");
    assertEquals(root.status, 404);
  } finally {
    fx.close();
  }
});

Deno.test("a sealed token that cannot be opened gives 502 without detail", async () => {
  await using t = await setup({ api: { tokenEnc: "v1.bad.value" } });
  const res = await t.fx.request("/~api/x");
  assertEquals(res.status, 502);
  assertEquals((await res.json()).error.code, "upstream_credentials");
  assertEquals(t.up.seen.length, 0);
});

Deno.test("auth mode token sends Authorization: Token <token> (the synonym customers use)", async () => {
  await using t = await setup();
  await t.fx.update({ api: { authMode: "token" } });
  const r = await t.fx.request("/~api/tok");
  assert(!(await r.text()).includes(CANARY));
  assertEquals(t.up.seen.at(-1)!.headers.get("authorization"), `Token ${CANARY}`);
});

Deno.test("X-Cache mirrors x-cachely-cache; API responses expose both to browsers", async () => {
  await using t = await setup();
  const origin = { origin: "https://www.acme.example" };
  for (
    const [expect, init] of [
      ["MISS", { headers: origin }],
      ["HIT", { headers: origin }],
      ["HIT", { method: "HEAD", headers: origin }],
    ] as const
  ) {
    const r = await t.fx.request("/~api/xc", init);
    await r.body?.cancel();
    assertEquals(r.headers.get("x-cachely-cache"), expect);
    assertEquals(r.headers.get("x-cache"), expect);
    const exposed = (r.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
    assert(exposed.includes("x-cache") && exposed.includes("x-cachely-cache"), String(exposed));
  }
  const bypass = await t.fx.request(`/~api/xc?${t.fx.snapshot.api.previewParam}=1`);
  await bypass.body?.cancel();
  assertEquals(bypass.headers.get("x-cache"), "BYPASS");
});

Deno.test("a token that cannot be a header value gives 502 upstream_credentials, never a fetch", async () => {
  for (const token of ["line\r\nx-injected: 1", "nul\0byte", "wide\u0100char"]) {
    await using t = await setup({
      api: { authMode: "bearer", tokenEnc: await encryptSecret(TEST_ENCRYPTION_KEY, token) },
    });
    const res = await t.fx.request("/~api/x");
    assertEquals(res.status, 502, JSON.stringify(token));
    assertEquals((await res.json()).error.code, "upstream_credentials");
    assertEquals(t.up.seen.length, 0);
  }
});
