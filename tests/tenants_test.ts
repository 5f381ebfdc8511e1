import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";

// ---- happy ----

dbTest("POST /api/tenants creates a tenant and GET reads it back", async (app) => {
  const owner = await signUp(app);
  const r = await owner.post("/api/tenants", {
    slug: "acme",
    cms: "contentful",
    token: "CANARY-tok",
  });
  assertEquals(r.status, 201);
  assertEquals(r.body, { ok: true, key: "acme", proxyBase: "http://acme.localhost:8000" });
  const got = await owner.get("/api/tenants/acme");
  assertEquals(got.status, 200);
  assertEquals(got.body.key, "acme");
  assertEquals(got.body.value.cms, "contentful");
  assertEquals(got.body.value.apiOrigin, "https://cdn.contentful.com");
  assertEquals(got.body.value.hasToken, true);
  assert(!got.text.includes("CANARY"), "token must never be returned");
  const list = await owner.get("/api/tenants");
  assertEquals(list.body.total, 1);
  const snap = await readSnapshot(app.services.kv, "acme");
  assertEquals(snap?.slug, "acme");
  assert(snap?.api.tokenEnc && !snap.api.tokenEnc.includes("CANARY"), "token is sealed in KV");
});

dbTest(
  "image-host tenant gets {api_host}/v1_1/<cloud> and a Basic token of key:secret",
  async (app) => {
    const owner = await signUp(app);
    await owner.post("/api/tenants", {
      slug: "pics",
      cms: "cloudinary",
      cloudName: "demo",
      apiKey: "k",
      apiSecret: "s",
    });
    const got = await owner.get("/api/tenants/pics");
    assertEquals(got.body.value.apiOrigin, "https://api.cloudinary.com/v1_1/demo");
    assertEquals(got.body.value.apiAuthMode, "basic");
  },
);

dbTest("tenant host answers for an existing tenant and 404s for an unknown one", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const anon = new Client(app);
  const ok = await anon.get(`http://${slug}.localhost:8000/~api/x`);
  assert(ok.status !== 404);
  const missing = await anon.get("http://nosuch.localhost:8000/~api/x");
  assertEquals(missing.status, 404);
});

// ---- errors ----

dbTest(
  "POST /api/tenants: 400 names the field, 409 on a used slug, 401 without a session",
  async (app) => {
    const owner = await signUp(app);
    const bad = await owner.post("/api/tenants", { slug: "-x-", cms: "contentful" });
    assertEquals(bad.status, 400);
    assert(bad.body.error.message.startsWith("Invalid slug"));
    const reserved = await owner.post("/api/tenants", { slug: "admin", cms: "contentful" });
    assertEquals(reserved.status, 400);
    const cms = await owner.post("/api/tenants", { slug: "okay", cms: "wordpress" });
    assertEquals(cms.status, 400);
    assertEquals(cms.body.error.details.fields[0].path, "cms");
    const noCloud = await owner.post("/api/tenants", { slug: "okay", cms: "cloudinary" });
    assertEquals(noCloud.status, 400);
    assert(noCloud.body.error.message.includes("cloudName"));
    const malformed = await owner.post("/api/tenants", "{nope");
    assertEquals(malformed.status, 400);
    await createTenant(owner, { slug: "taken" });
    const dup = await owner.post("/api/tenants", {
      slug: "taken",
      cms: "generic",
      originUrl: "https://assets.example.com",
    });
    assertEquals(dup.status, 409);
    const anon = await new Client(app).post("/api/tenants", { slug: "anon", cms: "generic" });
    assertEquals(anon.status, 401);
  },
);

dbTest("apiOrigin must be https and public when private upstreams are off", async (app) => {
  const owner = await signUp(app);
  for (
    const apiOrigin of [
      "http://example.com",
      "https://127.0.0.1",
      "https://169.254.169.254",
      "ftp://x.com",
    ]
  ) {
    const r = await owner.post("/api/tenants", { slug: "ssrf-t", cms: "generic", apiOrigin });
    assertEquals(r.status, 400, apiOrigin);
    assert(r.body.error.message.startsWith("Invalid apiOrigin"), r.body.error.message);
  }
}, {
  env: { ALLOW_PRIVATE_UPSTREAMS: "false" },
  resolveDns: (() => Promise.resolve(["93.184.215.14"])) as unknown as typeof Deno.resolveDns,
});

// ---- security ----

dbTest(
  "a user who is not a member gets 404 for another tenant on every tenant route",
  async (app) => {
    const a = await signUp(app);
    const b = await signUp(app);
    const slug = await createTenant(a);
    for (
      const [method, path] of [
        ["GET", `/api/tenants/${slug}`],
        ["PUT", `/api/tenants/${slug}`],
        ["DELETE", `/api/tenants/${slug}`],
        ["PUT", `/api/tenants/${slug}/api-config`],
        ["PUT", `/api/tenants/${slug}/api-token`],
      ]
    ) {
      const r = await b.request(method, path, method === "GET" ? undefined : { token: "x" });
      assertEquals(r.status, 404, `${method} ${path}`);
    }
    assertEquals((await b.get("/api/tenants")).body.total, 0);
  },
);

dbTest("cookie-authenticated writes from another origin are refused (CSRF)", async (app) => {
  const owner = await signUp(app);
  const r = await owner.post("/api/tenants", {
    slug: "csrf",
    cms: "generic",
    originUrl: "https://assets.example.com",
  }, {
    origin: "https://evil.example",
  });
  assertEquals(r.status, 403);
  assertEquals(r.body.error.code, "csrf_failed");
});

dbTest(
  "GET /api/tenants/slug-availability: free, taken, reserved; 400 on a malformed slug",
  async (app) => {
    const owner = await signUp(app);
    await createTenant(owner, { slug: "taken-one" });
    const check = (slug: string) =>
      owner.get(`/api/tenants/slug-availability?slug=${encodeURIComponent(slug)}`);
    assertEquals((await check("free-one")).body, { slug: "free-one", available: true });
    assertEquals((await check("taken-one")).body, { slug: "taken-one", available: false });
    assertEquals((await check("admin")).body, { slug: "admin", available: false });
    const bad = await check("-x-");
    assertEquals(bad.status, 400);
    assert(bad.body.error.message.startsWith("Invalid slug"));
    assertEquals((await owner.get("/api/tenants/slug-availability")).status, 400);
    assertEquals(
      (await new Client(app).get("/api/tenants/slug-availability?slug=abc")).status,
      401,
    );
  },
);
