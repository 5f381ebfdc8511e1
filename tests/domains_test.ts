import { assert, assertEquals, assertMatch, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, serveOnLoopback, signUp, type TestApp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { readHostRoute, readSnapshot } from "../lib/kv/snapshot.ts";

/** A DNS zone the test edits; lookups of names it lacks fail like NXDOMAIN does. */
const zone = new Map<string, { TXT?: string[][]; CNAME?: string[] }>();
const fakeDns = ((name: string, type: "TXT" | "CNAME") => {
  const rec = zone.get(name.toLowerCase())?.[type];
  if (!rec) return Promise.reject(new Deno.errors.NotFound(`no ${type} for ${name}`));
  return Promise.resolve(rec);
}) as unknown as typeof Deno.resolveDns;
const opts = { resolveDns: fakeDns };

/**
 * The tenants' website: a loopback origin that echoes the path. Each tenant's
 * websiteOrigin carries its slug as base path, so a page served through the edge's
 * site proxy on a custom domain names the tenant it was routed to.
 */
const site = serveOnLoopback((req) =>
  new Response(`site ${new URL(req.url).pathname}`, { headers: { "content-type": "text/plain" } })
);
globalThis.addEventListener("unload", () => site.close());

async function setup(app: TestApp) {
  zone.clear();
  const owner = await signUp(app);
  const slug = `t-${crypto.randomUUID().slice(0, 8)}`;
  await createTenant(owner, { slug, websiteOrigin: `${site.url}/${slug}` });
  return { owner, slug, base: `/api/tenants/${slug}/domains` };
}

/** The tenant whose website answered a visitor's request with this Host, or null. */
async function edgeTenantFor(app: TestApp, host: string): Promise<string | null> {
  const r = await new Client(app).get(`http://${host}/hello`);
  const m = /^site \/([a-z0-9-]+)\/hello$/.exec(typeof r.body === "string" ? r.body : "");
  return m ? m[1] : null;
}

// ---- happy ----

dbTest("POST domains adds a pending domain and GET lists it with its status", async (app) => {
  const { owner, slug, base } = await setup(app);
  const r = await owner.post(base, { hostname: "WWW.Shop.Example" });
  assertEquals(r.status, 201);
  assertEquals(r.body.hostname, "www.shop.example");
  assertEquals(r.body.status, "pending");
  assertEquals(r.body.failureReason, null);
  assertEquals(r.body.verification.txt.name, "_cachely.www.shop.example");
  assertMatch(r.body.verification.txt.value, /^cachely-verify=[\w-]{20,}$/);
  // the shared target (CNAME_TARGET, default proxy.<PROXY_DOMAIN host>), as the original showed
  assertEquals(r.body.verification.cname.target, "proxy.localhost");
  assertStringIncludes((await owner.get(`/dashboard/${slug}/domains`)).text, "proxy.localhost");
  const list = await owner.get(base);
  assertEquals(list.status, 200);
  assertEquals(
    list.body.domains.map((d: { hostname: string; status: string }) => [d.hostname, d.status]),
    [
      ["www.shop.example", "pending"],
    ],
  );
  assertEquals(await edgeTenantFor(app, "www.shop.example"), null, "pending domains do not route");
}, opts);

dbTest(
  "domains/verify by TXT activates the domain, routes it to the edge, and delete stops it",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const added = await owner.post(base, { hostname: "www.shop.example" });
    zone.set("_cachely.www.shop.example", {
      TXT: [["unrelated"], [added.body.verification.txt.value]],
    });
    const v = await owner.post(`${base}/verify`, { hostname: "www.shop.example" });
    assertEquals(v.status, 200);
    assertEquals(v.body.status, "active");
    assert(v.body.verifiedAt);
    const snap = await readSnapshot(app.services.kv, slug);
    assertEquals(snap?.domains, ["www.shop.example"]);
    assertEquals(await readHostRoute(app.services.kv, "www.shop.example"), slug);
    assertEquals(await edgeTenantFor(app, "www.shop.example"), slug);

    const del = await owner.delete(`${base}?hostname=www.shop.example`);
    assertEquals(del.status, 200);
    assertEquals(del.body.ok, true);
    assertEquals((await readSnapshot(app.services.kv, slug))?.domains, []);
    assertEquals(await readHostRoute(app.services.kv, "www.shop.example"), null);
    assertEquals(await edgeTenantFor(app, "www.shop.example"), null);
    assertEquals((await owner.get(base)).body.domains, []);
  },
  opts,
);

dbTest(
  "domains/verify by CNAME to the tenant host; a TXT split into strings also counts",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const a = await owner.post(base, { hostname: "cdn.shop.example" });
    zone.set("cdn.shop.example", { CNAME: [`${slug.toUpperCase()}.LOCALHOST.`] });
    const v = await owner.post(`${base}/verify`, { id: a.body.id });
    assertEquals(v.body.status, "active");
    const b = await owner.post(base, { hostname: "img.shop.example" });
    const [head, tail] = [
      b.body.verification.txt.value.slice(0, 20),
      b.body.verification.txt.value.slice(20),
    ];
    zone.set("_cachely.img.shop.example", { TXT: [[head, tail]] });
    assertEquals((await owner.post(`${base}/verify?id=${b.body.id}`)).body.status, "active");
    assertEquals((await readSnapshot(app.services.kv, slug))?.domains, [
      "cdn.shop.example",
      "img.shop.example",
    ]);
  },
  opts,
);

dbTest(
  "domains/verify by CNAME to the shared target; CNAME_TARGET names it",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const a = await owner.post(base, { hostname: "live.shop.example" });
    assertEquals(a.body.verification.cname.target, "edge.cachely.example");
    zone.set("live.shop.example", { CNAME: ["Edge.Cachely.Example."] });
    const v = await owner.post(`${base}/verify`, { id: a.body.id });
    assertEquals(v.body.status, "active", v.text);
    assertEquals(await edgeTenantFor(app, "live.shop.example"), slug);
    // the default shared name is not accepted once CNAME_TARGET names another
    const b = await owner.post(base, { hostname: "old.shop.example" });
    zone.set("old.shop.example", { CNAME: ["proxy.localhost."] });
    const f = await owner.post(`${base}/verify`, { id: b.body.id });
    assertEquals(f.body.status, "failed");
    assertStringIncludes(
      f.body.failureReason,
      `expected edge.cachely.example or ${slug}.localhost`,
    );
  },
  { ...opts, env: { CNAME_TARGET: "edge.cachely.example" } },
);

dbTest(
  "domains/verify accepts a CNAME to a legacy target listed in CNAME_TARGETS",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    // the dashboard still shows the shared target
    const a = await owner.post(base, { hostname: "legacy.shop.example" });
    assertEquals(a.body.verification.cname.target, "edge.cachely.example");
    zone.set("legacy.shop.example", { CNAME: ["Proxy.Old-Cachely.example."] });
    const v = await owner.post(`${base}/verify`, { id: a.body.id });
    assertEquals(v.body.status, "active", v.text);
    assertEquals(await edgeTenantFor(app, "legacy.shop.example"), slug);
    const b = await owner.post(base, { hostname: "other.shop.example" });
    zone.set("other.shop.example", { CNAME: ["elsewhere.example."] });
    const f = await owner.post(`${base}/verify`, { id: b.body.id });
    assertEquals(f.body.status, "failed");
    assertStringIncludes(f.body.failureReason, "cdn.old-cachely.example");
  },
  {
    ...opts,
    env: {
      CNAME_TARGET: "edge.cachely.example",
      CNAME_TARGETS: "proxy.old-cachely.example, CDN.old-cachely.example",
    },
  },
);

dbTest(
  "domains/verify fails with the reason, and a failing re-check takes an active domain off the edge",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const d = await owner.post(base, { hostname: "www.shop.example" });
    zone.set("_cachely.www.shop.example", { TXT: [["cachely-verify=wrong"]] });
    zone.set("www.shop.example", { CNAME: ["elsewhere.example."] });
    const v = await owner.post(`${base}/verify`, { hostname: "www.shop.example" });
    assertEquals(v.status, 200);
    assertEquals(v.body.status, "failed");
    assertStringIncludes(v.body.failureReason, "does not contain the token");
    assertStringIncludes(v.body.failureReason, "points to elsewhere.example");
    assertEquals(v.body.verifiedAt, null);

    zone.set("_cachely.www.shop.example", { TXT: [[d.body.verification.txt.value]] });
    assertEquals(
      (await owner.post(`${base}/verify`, { hostname: "www.shop.example" })).body.status,
      "active",
    );
    assertEquals(await edgeTenantFor(app, "www.shop.example"), slug);

    zone.clear(); // the customer removed the records
    const again = await owner.post(`${base}/verify`, { hostname: "www.shop.example" });
    assertEquals(again.body.status, "failed");
    assertStringIncludes(again.body.failureReason, "no such record");
    assertEquals(await edgeTenantFor(app, "www.shop.example"), null);
    assertEquals((await owner.get(base)).body.domains[0].status, "failed");
  },
  opts,
);

dbTest("DELETE domains accepts the id in the body, as a number or its digits", async (app) => {
  const { owner, base } = await setup(app);
  const d = await owner.post(base, { hostname: "a.shop.example" });
  const r = await owner.delete(base, { id: d.body.id });
  assertEquals(r.status, 200);
  assertEquals(r.body.hostname, "a.shop.example");
  // The query's string form works in the body too (decisions.md "Custom domains").
  const e = await owner.post(base, { hostname: "b.shop.example" });
  const s = await owner.delete(base, { id: String(e.body.id) });
  assertEquals([s.status, s.body.hostname], [200, "b.shop.example"]);
  assertEquals((await owner.delete(base, { id: `0${e.body.id}` })).status, 400, "digits only");
}, opts);

// ---- errors ----

dbTest(
  "POST domains: 400 for invalid hostnames, 409 when the hostname exists anywhere",
  async (app) => {
    const { owner, base } = await setup(app);
    for (
      const hostname of [
        "not a host",
        "http://www.shop.example",
        "93.184.215.14",
        "localhost",
        "shop",
        "acme.localhost",
        "-bad-.example.com",
        "a".repeat(64) + ".example.com",
        42,
      ]
    ) {
      const r = await owner.post(base, { hostname });
      assertEquals(r.status, 400, String(hostname));
      assertMatch(r.body.error.message, /^Invalid hostname/);
    }
    assertEquals((await owner.post(base, {})).status, 400);
    assertEquals((await owner.post(base, { hostname: "www.shop.example" })).status, 201);
    const dup = await owner.post(base, { hostname: "www.shop.example" });
    assertEquals(dup.status, 409);
    const other = await signUp(app);
    const otherSlug = await createTenant(other);
    const elsewhere = await other.post(`/api/tenants/${otherSlug}/domains`, {
      hostname: "www.shop.example",
    });
    assertEquals(elsewhere.status, 409, "a hostname belongs to one tenant only");
  },
  opts,
);

dbTest("DELETE and verify: 404 for unknown domains, 400 without an identifier", async (app) => {
  const { owner, base } = await setup(app);
  assertEquals((await owner.delete(`${base}?hostname=none.example.com`)).status, 404);
  assertEquals((await owner.delete(base, { id: 99999 })).status, 404);
  assertEquals((await owner.post(`${base}/verify`, { hostname: "none.example.com" })).status, 404);
  const none = await owner.delete(base);
  assertEquals(none.status, 400);
  assertMatch(none.body.error.message, /hostname or id/);
  assertEquals((await owner.delete(`${base}?id=abc`)).status, 400);
  assertEquals((await owner.post(`${base}/verify`, { hostname: "bad host" })).status, 400);
  assertEquals((await new Client(app).get(base)).status, 401);
  assertEquals((await owner.get("/api/tenants/no-such-tenant/domains")).status, 404);
}, opts);

// ---- security ----

dbTest("domains: viewers and editors read, only admins and owners write", async (app) => {
  const { owner, slug, base } = await setup(app);
  await owner.post(base, { hostname: "www.shop.example" });
  for (const role of ["viewer", "editor"] as const) {
    const m = await memberWithRole(app, owner, slug, role);
    assertEquals((await m.get(base)).status, 200, role);
    assertEquals((await m.post(base, { hostname: "x.shop.example" })).status, 403, role);
    assertEquals((await m.post(`${base}/verify`, { hostname: "www.shop.example" })).status, 403);
    assertEquals((await m.delete(base, { hostname: "www.shop.example" })).status, 403, role);
  }
  const admin = await memberWithRole(app, owner, slug, "admin");
  assertEquals((await admin.post(base, { hostname: "x.shop.example" })).status, 201);
}, opts);

dbTest("a tenant can neither see, verify nor delete another tenant's domain", async (app) => {
  const { owner, base } = await setup(app);
  const d = await owner.post(base, { hostname: "www.shop.example" });
  const other = await signUp(app);
  const otherBase = `/api/tenants/${await createTenant(other)}/domains`;
  assertEquals((await other.get(otherBase)).body.domains, []);
  assertEquals((await other.delete(otherBase, { id: d.body.id })).status, 404);
  assertEquals((await other.delete(otherBase, { hostname: "www.shop.example" })).status, 404);
  assertEquals((await other.post(`${otherBase}/verify`, { id: d.body.id })).status, 404);
  assertEquals((await other.get(base)).status, 404);
  assertEquals((await other.delete(base, { id: d.body.id })).status, 404);
  assertEquals((await owner.get(base)).body.domains.length, 1, "still there");
  // A CNAME to another tenant's host, or to the bare proxy domain, proves nothing for this one.
  zone.set("www.shop.example", { CNAME: [`${otherBase.split("/")[3]}.localhost`] });
  assertEquals((await owner.post(`${base}/verify`, { id: d.body.id })).body.status, "failed");
  zone.set("www.shop.example", { CNAME: ["localhost"] });
  assertEquals((await owner.post(`${base}/verify`, { id: d.body.id })).body.status, "failed");
  assertEquals(await edgeTenantFor(app, "www.shop.example"), null);
}, opts);
