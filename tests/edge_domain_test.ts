/**
 * `GET /~domain` on a tenant host: the tenant's primary verified custom domain (or null), public
 * and cacheable, read from the edge snapshot alone. The SDK asks it for `customDomain: true`
 * (sdk/tenant_origin.ts).
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture } from "./fakes/upstream.ts";
import { Client, createTenant, dbTest, serveOnLoopback, signUp } from "./harness.ts";

Deno.test("/~domain answers the first verified domain from the snapshot, with no database", async () => {
  // The fixture's edge has no database at all (EdgeDeps carries none): KV snapshots only.
  const fx = await edgeFixture(null, { snapshot: { domains: ["cdn.acme.example", "b.example"] } });
  try {
    const res = await fx.request("/~domain");
    assertEquals(res.status, 200);
    assertEquals(await res.json(), { domain: "cdn.acme.example" });
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(res.headers.get("cache-control"), "public, max-age=300");
    assertEquals(res.headers.get("access-control-allow-origin"), "*");
    // The same on the tenant's other surfaces, and with a query (ignored).
    const viaDomain = await fx.request("/~domain", {}, {
      surface: "domain",
      hostname: "cdn.acme.example",
    });
    assertEquals(await viaDomain.json(), { domain: "cdn.acme.example" });
    assertEquals(await (await fx.request("/~domain?x=<b>")).json(), { domain: "cdn.acme.example" });
    const head = await fx.request("/~domain", { method: "HEAD" });
    assertEquals([head.status, await head.text()], [200, ""]);
    const post = await fx.request("/~domain", { method: "POST", body: "{}" });
    assertEquals(post.status, 405);
    assertEquals(post.headers.get("allow"), "GET, HEAD, OPTIONS");
    await post.body?.cancel();
    await fx.update({ domains: [] });
    const none = await fx.request("/~domain");
    assertEquals([none.status, await none.json()], [200, { domain: null }]);
    // Counted like any other request on the tenant host (kind `other`).
    assert(fx.usage.some((u) => u.path === "/~domain" && u.kind === "other"));
  } finally {
    fx.close();
  }
});

/** A DNS that verifies `*.shop.example` by CNAME to the tenant's host. */
function dnsFor(slug: string) {
  return ((name: string, type: string) =>
    name.endsWith(".shop.example") && type === "CNAME"
      ? Promise.resolve([`${slug}.localhost.`])
      : Promise.reject(new Deno.errors.NotFound(name))) as unknown as typeof Deno.resolveDns;
}

const SLUG = "dom-shop";

dbTest("/~domain: null while the domain is pending, the domain once verified", async (app) => {
  const owner = await signUp(app);
  await createTenant(owner, { slug: SLUG });
  const visitor = new Client(app);
  const ask = async () => {
    const r = await visitor.get(`http://${SLUG}.localhost:8000/~domain`);
    assertEquals(r.status, 200, r.text);
    return r.body;
  };
  assertEquals(await ask(), { domain: null });
  const base = `/api/tenants/${SLUG}/domains`;
  const added = await owner.post(base, { hostname: "cdn.shop.example" });
  assertEquals(added.status, 201, added.text);
  assertEquals(await ask(), { domain: null }, "a pending (unverified) domain does not count");
  assertEquals((await owner.post(`${base}/verify`, { id: added.body.id })).body.status, "active");
  assertEquals(await ask(), { domain: "cdn.shop.example" });
  // A second domain verified later is not the primary, even if it sorts first.
  app.clock.advance(60_000);
  const second = await owner.post(base, { hostname: "aaa.shop.example" });
  assertEquals((await owner.post(`${base}/verify`, { id: second.body.id })).body.status, "active");
  assertEquals(await ask(), { domain: "cdn.shop.example" }, "the first verified stays primary");
}, { resolveDns: dnsFor(SLUG) });

dbTest("/~domain: hostile hosts and paths are 4xx, never 500", async (app) => {
  const owner = await signUp(app);
  await createTenant(owner, { slug: SLUG });
  const visitor = new Client(app);
  const cases = [
    `http://no-such-tenant.localhost:8000/~domain`,
    `http://${SLUG}.localhost:8000/~domain/..%2f..%2fetc`,
    `http://${SLUG}.localhost:8000/~domain/`,
    `http://${SLUG}.localhost:8000/~domain%00`,
    `http://${SLUG}.localhost:8000/~domain/${"a".repeat(9000)}`,
    `http://${SLUG}.localhost:8000/~domain/%2e%2e%2f~api`,
  ];
  for (const url of cases) {
    const r = await visitor.get(url);
    assert(r.status >= 400 && r.status < 500, `${r.status} for ${url.slice(0, 80)}`);
  }
  // A Host header that is not a host, over a real connection: refused, nothing looked up.
  const server = serveOnLoopback((req, info) => app.handler(req, info));
  try {
    for (const host of ["a b", "[::1", "a%0Bb", `${SLUG}.localhost:99999`]) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
      await conn.write(
        new TextEncoder().encode(
          `GET /~domain HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
        ),
      );
      const head = new TextDecoder().decode(await new Response(conn.readable).bytes());
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      assert(status >= 400 && status < 500, `${status} for Host ${JSON.stringify(host)}`);
    }
  } finally {
    await server.close();
  }
  const post = await visitor.request("POST", `http://${SLUG}.localhost:8000/~domain`, {});
  assertEquals(post.status, 405);
});
