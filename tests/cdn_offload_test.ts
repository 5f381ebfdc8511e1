/**
 * CDN offload (docs/decisions.md "CDN offload"): tenants that opt in get CDN-Cache-Control
 * and Cache-Tag on shareable API responses, never on previews, experiments or private
 * responses; every cache-version bump POSTs the matching tags to the configured purge
 * hook, here a loopback endpoint standing in for Deno Deploy's invalidation API.
 */
import { assert, assertEquals } from "./assert.ts";
import {
  Client,
  createTenant,
  dbTest,
  serveOnLoopback,
  signUp,
  tenantIdOf,
  type TestApp,
} from "./harness.ts";
import { startUpstream } from "./fakes/upstream.ts";

/** The purge endpoint: records every POSTed body and its Authorization header. */
const purges: { tags: string[]; auth: string | null }[] = [];
const purgeEndpoint = serveOnLoopback(async (req) => {
  purges.push({ ...(await req.json()), auth: req.headers.get("authorization") });
  return Response.json({ ok: true });
});
const env = { CDN_PURGE_URL: `${purgeEndpoint.url}/purge`, CDN_PURGE_TOKEN: "purge-secret" };
globalThis.addEventListener("unload", () => void purgeEndpoint.close());

async function offloadTenant(app: TestApp, cdnOffload: boolean) {
  const up = startUpstream();
  up.route(
    "/posts",
    () => Response.json({ items: [] }, { headers: { "cache-control": "max-age=60" } }),
  );
  up.route("/me", () => Response.json({ me: 1 }, { headers: { "cache-control": "private" } }));
  const owner = await signUp(app);
  const slug = await createTenant(owner, {
    apiOrigin: up.url,
    apiAuthMode: "bearer",
    token: "tok",
    apiCacheTTL: 120,
    cdnOffload,
  });
  const id = await tenantIdOf(app, slug);
  return { up, owner, slug, id, host: `http://${slug}.localhost:8000` };
}

/** Purge bodies received for a tenant since `from`. */
const purgedFor = (id: number, from: number) =>
  purges.slice(from).filter((p) => p.tags.some((t) => t.startsWith(`cachely-t${id}`)));

dbTest(
  "offload on: shareable API responses carry CDN-Cache-Control with the TTL and Cache-Tag",
  async (app) => {
    const t = await offloadTenant(app, true);
    try {
      const visitor = new Client(app);
      for (const want of ["MISS", "HIT"]) {
        const r = await visitor.get(`${t.host}/~api/posts`);
        assertEquals(r.headers.get("x-cachely-cache"), want);
        assertEquals(r.headers.get("cdn-cache-control"), "max-age=120");
        assertEquals(r.headers.get("cache-tag"), `cachely-t${t.id},cachely-t${t.id}-api`);
      }
      const preview = await visitor.get(`${t.host}/~api/posts?preview=1`);
      assertEquals(preview.status, 200);
      assertEquals(preview.headers.get("cdn-cache-control"), null, "previews are never offloaded");
      const priv = await visitor.get(`${t.host}/~api/me`);
      assertEquals(priv.status, 200);
      assertEquals(
        priv.headers.get("cdn-cache-control"),
        null,
        "private responses are never offloaded",
      );
      assertEquals(priv.headers.get("cache-tag"), null);
      const view = await t.owner.get(`/api/tenants/${t.slug}`);
      assertEquals(view.body.value.cdnOffload, true);
    } finally {
      await t.up.close();
    }
  },
  { env },
);

dbTest("offload off (the default): no CDN headers and no purge on a bump", async (app) => {
  const t = await offloadTenant(app, false);
  try {
    const r = await new Client(app).get(`${t.host}/~api/posts`);
    assertEquals(r.headers.get("cdn-cache-control"), null);
    assertEquals(r.headers.get("cache-tag"), null);
    const from = purges.length;
    assertEquals(
      (await t.owner.post(`/api/tenants/${t.slug}/refresh-cache`, { type: "api" })).status,
      200,
    );
    assertEquals(purgedFor(t.id, from), []);
  } finally {
    await t.up.close();
  }
}, { env });

dbTest("every cache-version bump purges the matching tags through the purge hook", async (app) => {
  const t = await offloadTenant(app, true);
  try {
    const base = `/api/tenants/${t.slug}`;
    let from = purges.length;
    assertEquals((await t.owner.post(`${base}/refresh-cache`, { type: "api" })).status, 200);
    assertEquals(purgedFor(t.id, from), [{
      tags: [`cachely-t${t.id}-api`],
      auth: "Bearer purge-secret",
    }]);

    from = purges.length;
    await t.owner.post(`${base}/refresh-cache`, { type: "all" });
    assertEquals(purgedFor(t.id, from).map((p) => p.tags), [[`cachely-t${t.id}`]]);

    // publish webhook: html
    const secret = (await t.owner.post(`${base}/webhook-secret`)).body.secret;
    from = purges.length;
    const pub = await new Client(app).post(
      `${base}/webhook?secret=${encodeURIComponent(secret)}`,
      {},
    );
    assertEquals(pub.status, 200);
    assertEquals(purgedFor(t.id, from).map((p) => p.tags), [[`cachely-t${t.id}-html`]]);

    // cache-refresh webhook: api (and assets when opted in)
    const hook = await t.owner.post(`${base}/cache-refresh-webhooks`, {
      provider: "generic",
      refreshAssets: true,
    });
    from = purges.length;
    const fired = await new Client(app).post(new URL(hook.body.url).pathname, {});
    assertEquals(fired.status, 200);
    assertEquals(purgedFor(t.id, from).map((p) => p.tags), [[
      `cachely-t${t.id}-api`,
      `cachely-t${t.id}-assets`,
    ]]);
  } finally {
    await t.up.close();
  }
}, { env });

dbTest("a purge endpoint that fails does not fail the bump", async (app) => {
  const t = await offloadTenant(app, true);
  try {
    const r = await t.owner.post(`/api/tenants/${t.slug}/refresh-cache`, { type: "api" });
    assertEquals(r.status, 200);
    assert(r.body.versions.apiCacheVersion >= 2);
  } finally {
    await t.up.close();
  }
}, { env: { CDN_PURGE_URL: "http://127.0.0.1:9/unreachable" } });

dbTest("cdnOffload must be a boolean (400 naming the field)", async (app) => {
  const owner = await signUp(app);
  const r = await owner.post("/api/tenants", {
    slug: "cdn-bad",
    cms: "generic",
    cdnOffload: "yes",
  });
  assertEquals(r.status, 400);
  assert(r.body.error.message.includes("cdnOffload"), r.body.error.message);
}, { env });

dbTest(
  "the dashboard's Cache page explains usage with offload and what is never offloaded",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const page = (await owner.get(`/dashboard/${slug}/cache`)).text;
    const usage = /data-testid="cdn-usage-note">([\s\S]*?)<\/p>/.exec(page)?.[1] ?? "";
    assert(usage.includes("counts only the requests that reach Cachely"), usage);
    const never = /data-testid="cdn-never">([\s\S]*?)<\/p>/.exec(page)?.[1] ?? "";
    for (const what of ["experiment", "preview", "cookie", "private", "range", "errors", "quota"]) {
      assert(never.includes(what), `${what} missing from: ${never}`);
    }
  },
);
