/**
 * Every cache-version bump path purges the matching Cache-Tag values (docs/decisions.md
 * "CDN offload"), observed on a loopback purge endpoint: refresh-cache per type, the
 * publish and cache-refresh webhooks, AI regenerate and AI rule changes; and the Deno
 * Deploy adapter's request shape.
 */
import { assertEquals } from "./assert.ts";
import {
  Client,
  createTenant,
  dbTest,
  serveOnLoopback,
  signUp,
  tenantIdOf,
  type TestApp,
} from "./harness.ts";
import { activeRule, aiTest, rulesPath } from "./ai_helpers.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { loadConfig } from "../lib/config.ts";

/** The purge endpoint: every POSTed body with its Authorization header. */
const purges: { tags: string[]; auth: string | null }[] = [];
const purgeEndpoint = serveOnLoopback(async (req) => {
  purges.push({ ...(await req.json()), auth: req.headers.get("authorization") });
  return Response.json({ ok: true });
});
globalThis.addEventListener("unload", () => void purgeEndpoint.close());
const env = { CDN_PURGE_URL: `${purgeEndpoint.url}/purge`, CDN_PURGE_TOKEN: "purge-secret" };

/** Tag lists purged for tenant `id` while `act` ran. */
async function purgedBy(id: number, act: () => Promise<unknown>): Promise<string[][]> {
  const from = purges.length;
  await act();
  return purges.slice(from).filter((p) => p.tags.some((t) => t.startsWith(`cachely-t${id}`)))
    .map((p) => p.tags);
}

async function offloadTenant(app: TestApp, extra: Record<string, unknown> = {}) {
  const up = startUpstream();
  up.route("/posts", () => Response.json({ items: [{ title: "hello" }] }));
  const owner = await signUp(app);
  const slug = await createTenant(owner, {
    cms: "contentful",
    apiOrigin: up.url,
    apiAuthMode: "bearer",
    token: "tok",
    cdnOffload: true,
    ...extra,
  });
  return { up, owner, slug, id: await tenantIdOf(app, slug), base: `/api/tenants/${slug}` };
}

dbTest("refresh-cache purges the tag of each type it bumps (all: the tenant tag)", async (app) => {
  const t = await offloadTenant(app);
  try {
    const cases: [string, string[]][] = [
      ["api", [`cachely-t${t.id}-api`]],
      ["assets", [`cachely-t${t.id}-assets`]],
      ["html", [`cachely-t${t.id}-html`]],
      ["all", [`cachely-t${t.id}`]],
    ];
    for (const [type, tags] of cases) {
      const got = await purgedBy(t.id, async () => {
        const r = await t.owner.post(`${t.base}/refresh-cache`, { type });
        assertEquals(r.status, 200, r.text);
      });
      assertEquals(got, [tags], type);
    }
    assertEquals(purges.at(-1)!.auth, "Bearer purge-secret");
  } finally {
    await t.up.close();
  }
}, { env });

dbTest("the publish webhook purges the html tag", async (app) => {
  const t = await offloadTenant(app);
  try {
    const secret = (await t.owner.post(`${t.base}/webhook-secret`)).body.secret;
    const got = await purgedBy(t.id, async () => {
      const r = await new Client(app).post(
        `${t.base}/webhook?secret=${encodeURIComponent(secret)}`,
        {},
      );
      assertEquals(r.status, 200, r.text);
    });
    assertEquals(got, [[`cachely-t${t.id}-html`]]);
  } finally {
    await t.up.close();
  }
}, { env });

dbTest("a cache-refresh webhook purges api, and assets only when it opts in", async (app) => {
  const t = await offloadTenant(app);
  try {
    for (const [refreshAssets, tags] of [[false, ["api"]], [true, ["api", "assets"]]] as const) {
      const hook = await t.owner.post(`${t.base}/cache-refresh-webhooks`, {
        provider: "generic",
        refreshAssets,
      });
      assertEquals(hook.status, 201, hook.text);
      const got = await purgedBy(t.id, async () => {
        const r = await new Client(app).post(new URL(hook.body.url).pathname, {});
        assertEquals(r.status, 200, r.text);
      });
      assertEquals(
        got,
        [tags.map((k) => `cachely-t${t.id}-${k}`)],
        `refreshAssets ${refreshAssets}`,
      );
    }
  } finally {
    await t.up.close();
  }
}, { env });

const rule = {
  presetId: "rewrite_tone",
  tone: "formal",
  fieldSelector: "items[*].title",
  profile: "formal",
  routePattern: "/posts",
};

aiTest("AI regenerate purges the tenant + profile tag", async (app) => {
  const t = await offloadTenant(app);
  try {
    await activeRule(t.owner, t.slug, rule);
    const got = await purgedBy(t.id, async () => {
      const r = await t.owner.post(`${t.base}/ai-transform/regenerate`, {
        profile: "formal",
        apiPath: "/posts",
      });
      assertEquals(r.status, 200, r.text);
    });
    assertEquals(got, [[`cachely-t${t.id}-p-formal`]]);
  } finally {
    await t.up.close();
  }
}, { env });

aiTest("AI rule changes that change live output purge the profile tags", async (app) => {
  const t = await offloadTenant(app);
  try {
    const { id } = await activeRule(t.owner, t.slug, rule);
    const path = `${rulesPath(t.slug)}/${id}`;
    const moved = await purgedBy(t.id, async () => {
      const r = await t.owner.put(path, { profile: "casual" });
      assertEquals(r.status, 200, r.text);
    });
    assertEquals(moved, [[`cachely-t${t.id}-p-formal`, `cachely-t${t.id}-p-casual`]]);
    const paused = await purgedBy(t.id, async () => {
      assertEquals((await t.owner.post(`${path}/pause`)).status, 200);
    });
    assertEquals(paused, [[`cachely-t${t.id}-p-casual`]]);
    const pausedDeleted = await purgedBy(t.id, async () => {
      assertEquals((await t.owner.delete(path)).status, 200);
    });
    assertEquals(pausedDeleted, [], "a rule that was not live changed no output");
  } finally {
    await t.up.close();
  }
}, { env });

dbTest("Deno Deploy adapter: the documented body, no Authorization header", async (app) => {
  const t = await offloadTenant(app);
  try {
    const got = await purgedBy(t.id, async () => {
      assertEquals((await t.owner.post(`${t.base}/refresh-cache`, { type: "api" })).status, 200);
    });
    assertEquals(got, [[`cachely-t${t.id}-api`]]);
    assertEquals(purges.at(-1)!.auth, null, "the token is for the generic adapter only");
  } finally {
    await t.up.close();
  }
}, { env: { ...env, CDN_PURGE_KIND: "deno-deploy" } });

Deno.test("CDN_PURGE_KIND=deno-deploy defaults to Deno Deploy's invalidation endpoint", () => {
  const base = {
    ENCRYPTION_KEY: btoa("0123456789abcdef0123456789abcdef"),
    PUBLIC_URL: "http://localhost:8000",
  };
  assertEquals(loadConfig({ ...base, CDN_PURGE_KIND: "deno-deploy" }).cdnPurge, {
    url: "http://cache.localhost/invalidate/http",
    token: undefined,
    kind: "deno-deploy",
  });
  assertEquals(loadConfig(base).cdnPurge, undefined, "no URL and the generic kind: no purge");
});

dbTest(
  "settings that change what the CDN may serve purge it; other settings do not",
  async (app) => {
    const t = await offloadTenant(app);
    try {
      const put = (body: Record<string, unknown>) =>
        purgedBy(t.id, async () => {
          const r = await t.owner.put(t.base, body);
          assertEquals(r.status, 200, r.text);
        });
      assertEquals(await put({ cacheTTL: 90 }), [], "a TTL change waits for the CDN's TTL");
      assertEquals(await put({ allowedTypes: ["image"] }), [[`cachely-t${t.id}-assets`]]);
      assertEquals(
        await put({ cdnOffload: false }),
        [[`cachely-t${t.id}`]],
        "offload switched off",
      );
      assertEquals(await put({ allowedTypes: ["image", "video"] }), [], "offload is off now");
    } finally {
      await t.up.close();
    }
  },
  { env },
);

dbTest("a purge's tags reach the CDN in the tenant's namespace", async (app) => {
  const t = await offloadTenant(app);
  try {
    const got = await purgedBy(t.id, async () => {
      const r = await t.owner.post(`${t.base}/purge`, {
        tags: ["post-1", `cachely-t${t.id}-api`, `cachely-t${t.id}`],
      });
      assertEquals(r.status, 200, r.text);
      assertEquals(r.body.purged.tags, ["post-1", `cachely-t${t.id}-api`, `cachely-t${t.id}`]);
    });
    assertEquals(got, [[`cachely-t${t.id}-o-post-1`, `cachely-t${t.id}-api`, `cachely-t${t.id}`]]);
    // The CDN name of an origin tag is that origin tag, at the edge too.
    const named = await purgedBy(t.id, async () => {
      const r = await t.owner.post(`${t.base}/purge`, { tags: [`cachely-t${t.id}-o-post-2`] });
      assertEquals(r.body.purged?.tags, ["post-2"], r.text);
    });
    assertEquals(named, [[`cachely-t${t.id}-o-post-2`]]);
    for (const p of purges) {
      for (const tag of p.tags) {
        assertEquals(/^cachely-t\d+(-|$)/.test(tag), true, `${tag} is namespaced`);
      }
    }
  } finally {
    await t.up.close();
  }
}, { env });

dbTest("a purge of 1,000 tags reaches the CDN in requests of at most 500", async (app) => {
  const t = await offloadTenant(app);
  try {
    const tags = Array.from({ length: 1000 }, (_, i) => `tag-${i}`);
    const got = await purgedBy(t.id, async () => {
      const r = await t.owner.post(`${t.base}/purge`, { tags });
      assertEquals(r.status, 200, r.text.slice(0, 300));
    });
    assertEquals(got.map((g) => g.length), [500, 500]);
    assertEquals(got.flat(), tags.map((x) => `cachely-t${t.id}-o-${x}`));
  } finally {
    await t.up.close();
  }
}, { env: { ...env, CDN_PURGE_KIND: "deno-deploy" } });

dbTest("deleting an offloading tenant purges its tenant tag", async (app) => {
  const t = await offloadTenant(app);
  try {
    const got = await purgedBy(t.id, async () => {
      const r = await t.owner.delete(t.base);
      assertEquals(r.status < 300, true, r.text);
    });
    assertEquals(got, [[`cachely-t${t.id}`]]);
  } finally {
    await t.up.close();
  }
}, { env });
