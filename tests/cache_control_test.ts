import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, type TestApp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { deleteSnapshot, readSnapshot } from "../lib/kv/snapshot.ts";

async function setup(app: TestApp) {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  return { owner, slug, base: `/api/tenants/${slug}` };
}

async function snapVersions(app: TestApp, slug: string) {
  return (await readSnapshot(app.services.kv, slug))?.versions;
}

// ---- happy ----

dbTest("POST refresh-cache bumps the named counters and rewrites the KV snapshot", async (app) => {
  const { owner, slug, base } = await setup(app);
  const steps: Array<[string, [number, number, number]]> = [
    ["api", [2, 1, 1]],
    ["assets", [2, 2, 1]],
    ["html", [2, 2, 2]],
    ["all", [3, 3, 3]],
  ];
  for (const [type, [api, assets, html]] of steps) {
    const r = await owner.post(`${base}/refresh-cache`, { type });
    assertEquals(r.status, 200, type);
    assertEquals(r.body, {
      ok: true,
      versions: { apiCacheVersion: api, assetCacheVersion: assets, htmlCacheVersion: html },
    });
    assertEquals(await snapVersions(app, slug), { api, assets, html }, `snapshot after ${type}`);
  }
  const got = await owner.get(base);
  assertEquals(got.body.value.apiCacheVersion, 3);
});

dbTest(
  "POST edge-config rebuilds the snapshot from stored state and reads it back",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    // Two writers could repair the snapshot before the route does: the tenant's creation (its
    // write can land late under load) and the projector's boot tick. With the projector's
    // interval at 10 min, delete once both are done, so only the route can put it back.
    for (
      let i = 0;
      i < 200 &&
      !(await readSnapshot(app.services.kv, slug) &&
        app.services.projectorStatus?.().lastSuccessAt);
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await deleteSnapshot(app.services.kv, slug);
    assertEquals(await readSnapshot(app.services.kv, slug), null);
    const r = await owner.post(`${base}/edge-config`);
    assertEquals(r.status, 200);
    assertEquals(r.body.ok, true);
    assertEquals(r.body.kv.exists, true);
    assertEquals(r.body.kv.publicOrigin, `http://${slug}.localhost:8000`);
    assertEquals(r.body.kv.wasBehind, true, "the snapshot was gone");
    assertEquals(r.body.kv.repaired, true);
    assertEquals(r.body.summary.slug, slug);
    assertEquals(r.body.summary.versions, {
      apiCacheVersion: 1,
      assetCacheVersion: 1,
      htmlCacheVersion: 1,
    });
    assertEquals((await readSnapshot(app.services.kv, slug))?.slug, slug);
    const again = await owner.post(`${base}/edge-config`);
    assertEquals(again.body.summary.versions, r.body.summary.versions, "no data mutation");
  },
  { env: { EDGE_PROJECTOR_INTERVAL_MS: "600000" } },
);

dbTest(
  "webhook-secret: POST is idempotent, PUT rotates and the old secret dies at once",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const first = await owner.post(`${base}/webhook-secret`);
    assertEquals(first.status, 200);
    assert(typeof first.body.secret === "string" && first.body.secret.length >= 40);
    assertEquals((await owner.post(`${base}/webhook-secret`)).body.secret, first.body.secret);
    const rows = await app.services.dbHandle.query<{ publish_secret_enc: string }>(
      `SELECT publish_secret_enc FROM tenants WHERE slug = '${slug}'`,
    );
    assert(!rows[0].publish_secret_enc.includes(first.body.secret), "stored encrypted");

    const anon = new Client(app);
    const hook = (secret: string) =>
      anon.post(`${base}/webhook?secret=${encodeURIComponent(secret)}`, { ignored: true });
    assertEquals((await hook(first.body.secret)).status, 200);
    const rotated = await owner.put(`${base}/webhook-secret`);
    assertEquals(rotated.status, 200);
    assert(rotated.body.secret !== first.body.secret);
    assertEquals((await hook(first.body.secret)).status, 401, "old secret is dead");
    assertEquals((await hook(rotated.body.secret)).status, 200);
    assertEquals((await owner.post(`${base}/webhook-secret`)).body.secret, rotated.body.secret);
  },
);

dbTest(
  "POST webhook with the secret increments htmlCacheVersion only, without a session",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const { secret } = (await owner.post(`${base}/webhook-secret`)).body;
    const anon = new Client(app);
    const r = await anon.post(`${base}/webhook?secret=${secret}`, "not even json", {
      "content-type": "text/plain",
    });
    assertEquals(r.status, 200);
    assertEquals(r.body, { ok: true, htmlCacheVersion: 2 });
    assertEquals((await anon.post(`${base}/webhook?secret=${secret}`)).body.htmlCacheVersion, 3);
    assertEquals(await snapVersions(app, slug), { api: 1, assets: 1, html: 3 });
    // A CMS that sends its own credentials is judged by the query secret alone.
    const withAuth = await anon.post(`${base}/webhook?secret=${secret}`, "{}", {
      authorization: "Bearer cms-signing-token",
      cookie: "cachely_session=stale",
    });
    assertEquals(withAuth.status, 200);
    assertEquals(withAuth.body.htmlCacheVersion, 4);
  },
);

dbTest(
  "every write that affects the edge rewrites the KV snapshot in the same request",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const snap = () => readSnapshot(app.services.kv, slug);
    const builtAt = async () => (await snap())?.builtAt;
    const steps: Array<
      [string, () => Promise<unknown>, (s: Awaited<ReturnType<typeof snap>>) => boolean]
    > = [
      ["PUT tenant", () => owner.put(base, { apiCacheTTL: 321 }), (s) => s?.cacheTtl === 321],
      [
        "PUT api-config",
        () => owner.put(`${base}/api-config`, { apiOrigin: "https://api.example.com/v2" }),
        (s) => s?.api.origin === "https://api.example.com/v2",
      ],
      [
        "PUT api-token",
        () => owner.put(`${base}/api-token`, { token: "tok-1" }),
        (s) => typeof s?.api.tokenEnc === "string",
      ],
      [
        "refresh-cache",
        () => owner.post(`${base}/refresh-cache`, { type: "assets" }),
        (s) => s?.versions.assets === 2,
      ],
    ];
    for (const [label, write, check] of steps) {
      const before = await builtAt();
      app.clock.advance(1000);
      await write();
      assert(check(await snap()), `${label}: snapshot shows the change`);
      assert((await builtAt()) !== before, `${label}: snapshot rebuilt`);
    }
  },
);

// ---- errors ----

dbTest("POST refresh-cache: 400 for any type but api, assets, html, all", async (app) => {
  const { owner, base } = await setup(app);
  for (const body of [{ type: "css" }, { type: "ALL" }, {}, { type: 1 }, { type: "api", x: 1 }]) {
    const r = await owner.post(`${base}/refresh-cache`, body);
    assertEquals(r.status, 400, JSON.stringify(body));
    assert(r.body.error.message.startsWith("Invalid"), r.body.error.message);
  }
  assertEquals((await owner.post(`${base}/refresh-cache`, "{")).status, 400);
  assertEquals(
    (await owner.post("/api/tenants/no-such/refresh-cache", { type: "api" })).status,
    404,
  );
});

dbTest(
  "POST webhook: 404 unknown project, 403 not configured, 401 missing or invalid secret",
  async (app) => {
    const { owner, base } = await setup(app);
    const anon = new Client(app);
    assertEquals((await anon.post("/api/tenants/no-such-project/webhook?secret=x")).status, 404);
    const unconfigured = await anon.post(`${base}/webhook?secret=whatever`);
    assertEquals(unconfigured.status, 403);
    assertEquals(unconfigured.body.error.code, "webhook_not_configured");
    const { secret } = (await owner.post(`${base}/webhook-secret`)).body;
    assertEquals((await anon.post(`${base}/webhook`)).status, 401);
    assertEquals((await anon.post(`${base}/webhook?secret=`)).status, 401);
    assertEquals((await anon.post(`${base}/webhook?secret=${secret}x`)).status, 401);
    assertEquals((await anon.post(`${base}/webhook?secret=${secret.slice(0, -1)}`)).status, 401);
    assertEquals((await anon.post(`${base}/webhook?secret=${"a".repeat(5000)}`)).status, 401);
    assertEquals((await owner.get(base)).body.value.htmlCacheVersion, 1, "nothing was bumped");
  },
);

dbTest(
  "webhook-secret and edge-config: 404 for an unknown tenant, 401 without a session",
  async (app) => {
    const { owner, base } = await setup(app);
    for (
      const [m, p] of [["POST", "webhook-secret"], ["PUT", "webhook-secret"], [
        "POST",
        "edge-config",
      ]]
    ) {
      assertEquals((await owner.request(m, `/api/tenants/no-such/${p}`)).status, 404, `${m} ${p}`);
      assertEquals((await new Client(app).request(m, `${base}/${p}`)).status, 401, `${m} ${p}`);
    }
  },
);

// ---- security ----

dbTest(
  "cache control roles: viewers read nothing here, editors refresh, admins rotate",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const viewer = await memberWithRole(app, owner, slug, "viewer");
    const editor = await memberWithRole(app, owner, slug, "editor");
    const admin = await memberWithRole(app, owner, slug, "admin");
    assertEquals((await viewer.post(`${base}/refresh-cache`, { type: "api" })).status, 403);
    assertEquals((await viewer.post(`${base}/edge-config`)).status, 403);
    assertEquals((await viewer.post(`${base}/webhook-secret`)).status, 403);
    assertEquals((await editor.post(`${base}/refresh-cache`, { type: "api" })).status, 200);
    assertEquals((await editor.post(`${base}/edge-config`)).status, 200);
    const s = await editor.post(`${base}/webhook-secret`);
    assertEquals(s.status, 200);
    assertEquals((await editor.put(`${base}/webhook-secret`)).status, 403);
    assertEquals((await owner.post(`${base}/webhook-secret`)).body.secret, s.body.secret);
    assertEquals((await admin.put(`${base}/webhook-secret`)).status, 200);
  },
);

dbTest("one tenant's publish secret does not open another tenant's webhook", async (app) => {
  const a = await setup(app);
  const b = await setup(app);
  const secretA = (await a.owner.post(`${a.base}/webhook-secret`)).body.secret;
  await b.owner.post(`${b.base}/webhook-secret`);
  const r = await new Client(app).post(`${b.base}/webhook?secret=${secretA}`);
  assertEquals(r.status, 401);
  // A's owner is not a member of B: every management route of B is a 404.
  assertEquals((await a.owner.post(`${b.base}/refresh-cache`, { type: "all" })).status, 404);
  assertEquals((await a.owner.post(`${b.base}/webhook-secret`)).status, 404);
  assertEquals((await a.owner.put(`${b.base}/webhook-secret`)).status, 404);
  assertEquals((await a.owner.post(`${b.base}/edge-config`)).status, 404);
  assertEquals(await snapVersions(app, b.slug), { api: 1, assets: 1, html: 1 });
});
