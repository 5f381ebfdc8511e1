// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/**
 * Experiments through the real program: tenant host → edge → assignment → AI transform
 * (fake OpenAI server) → headers → usage aggregator → exposure summary.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, signUp, type TestApp } from "./harness.ts";
import { activeRule, aiTest } from "./ai_helpers.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { assignExperiment, EXPERIMENT_EXPOSE_HEADERS } from "../edge/experiments.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";

const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

async function setUp(app: TestApp) {
  const up = startUpstream();
  up.route("/posts/1", () => Response.json({ title: "hello", body: "keep" }));
  up.route("/other", () => Response.json({ title: "plain" }));
  const owner = await signUp(app);
  const slug = await createTenant(owner, { apiOrigin: up.url });
  await activeRule(owner, slug, {
    presetId: "rewrite_tone",
    fieldSelector: "title",
    tone: "casual",
    profile: "casual",
  });
  const c = await owner.post(`/api/tenants/${slug}/ai-experiments`, {
    name: "Tone",
    routePattern: "/posts",
    variants: [{ key: "control" }, { key: "casual", config: { transformProfile: "casual" } }],
  });
  assertEquals(c.status, 201, c.text);
  const a = await owner.patch(`/api/tenants/${slug}/ai-experiments/${c.body.id}`, {
    status: "active",
  });
  assertEquals(a.status, 200, a.text);
  const host = `http://${slug}.localhost:8000`;
  const anon = new Client(app);
  const get = (path: string, ua = CHROME, headers: Record<string, string> = {}) =>
    anon.get(`${host}${path}`, { "user-agent": ua, ...headers });
  return { up, owner, slug, e: a.body, get };
}

// ---- happy ----

aiTest(
  "an experiment route gets a variant, its headers and its transform at the edge",
  async (app) => {
    const { up, e, get } = await setUp(app);
    try {
      const seen = new Map<string, number>();
      for (let i = 0; i < 24; i++) {
        const r = await get("/~api/posts/1", `${CHROME} visitor/${i}`);
        assertEquals(r.status, 200);
        const key = r.headers.get("x-cachely-variant-key")!;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        const variant = e.variants.find((v: any) => v.key === key);
        assert(variant, `unknown key ${key}`);
        assertEquals(r.headers.get("x-cachely-experiment-id"), String(e.id));
        assertEquals(r.headers.get("x-cachely-variant-id"), String(variant.id));
        const expose = (r.headers.get("access-control-expose-headers") ?? "").toLowerCase();
        for (const h of EXPERIMENT_EXPOSE_HEADERS) assert(expose.includes(h), `${h} exposed`);
        if (key === "control") {
          assertEquals(r.headers.get("x-cachely-experiment-profile"), "control");
          assertEquals(r.headers.get("x-ai-transform"), "skipped");
          assertEquals(r.headers.get("x-ai-transform-skip-reason"), "experiment-control");
          assertEquals(r.body.title, "hello");
        } else {
          assertEquals(r.headers.get("x-cachely-experiment-profile"), "casual");
          assert(r.headers.get("x-ai-transform") !== "skipped");
          assertEquals(r.body.title, "[T] hello", "the variant's profile is applied");
        }
      }
      assertEquals([...seen.keys()].sort(), ["casual", "control"], "both arms are served");
      // Deterministic per visitor, cached responses included.
      const a = await get("/~api/posts/1", `${CHROME} visitor/3`);
      const b = await get("/~api/posts/1", `${CHROME} visitor/3`);
      assertEquals(a.headers.get("x-cachely-variant-id"), b.headers.get("x-cachely-variant-id"));
    } finally {
      await up.close();
    }
  },
);

aiTest(
  "?transform= bypasses the experiment; other routes carry no experiment headers",
  async (app) => {
    const { up, get } = await setUp(app);
    try {
      const t = await get("/~api/posts/1?transform=casual");
      assertEquals(t.status, 200);
      for (
        const h of ["x-cachely-experiment-id", "x-cachely-variant-id", "x-cachely-variant-key"]
      ) {
        assertEquals(t.headers.get(h), null, h);
      }
      assertEquals(t.body.title, "[T] hello");
      const other = await get("/~api/other");
      assertEquals(other.headers.get("x-cachely-experiment-id"), null);
      assertEquals(other.headers.get("x-ai-transform"), null);
    } finally {
      await up.close();
    }
  },
);

aiTest(
  "exposures are counted at the edge per variant, bots excluded, after a flush",
  async (app) => {
    const { up, owner, slug, e, get } = await setUp(app);
    try {
      const counted = new Map<string, number>();
      for (let i = 0; i < 30; i++) {
        const r = await get("/~api/posts/1", `${CHROME} visitor/${i}`);
        const key = r.headers.get("x-cachely-variant-key")!;
        counted.set(key, (counted.get(key) ?? 0) + 1);
      }
      for (let i = 0; i < 5; i++) {
        const bot = await get("/~api/posts/1", `${GOOGLEBOT} ${i}`);
        assertEquals(bot.headers.get("x-cachely-variant-key"), "control", "bots get control");
        assertEquals(bot.body.title, "hello");
      }
      await get("/~api/posts/1?transform=casual"); // bypass: no exposure
      await get("/~api/other"); // no experiment: no exposure
      const before = await app.services.dbHandle.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM exposure_counts WHERE experiment_id = ${e.id}`,
      );
      assertEquals(before[0].n, 0, "nothing is written per request");
      await app.instance.usageAggregator.flush();
      const s = await owner.get(`/api/tenants/${slug}/ai-experiments/${e.id}/exposures`);
      assertEquals(s.status, 200);
      assertEquals(s.body.totalExposures, 30, "bots and bypasses are not exposures");
      for (const v of s.body.variants) {
        assertEquals(v.exposures, counted.get(v.variantKey) ?? 0, v.variantKey);
        assert(v.exposures === 0 || typeof v.lastSeenAt === "string");
      }
    } finally {
      await up.close();
    }
  },
);

aiTest("archiving an experiment stops assignment at the edge at once", async (app) => {
  const { up, owner, slug, e, get } = await setUp(app);
  try {
    assert((await get("/~api/posts/1")).headers.get("x-cachely-experiment-id"));
    const d = await owner.delete(`/api/tenants/${slug}/ai-experiments/${e.id}`);
    assertEquals(d.status, 200);
    const r = await get("/~api/posts/1");
    assertEquals(r.headers.get("x-cachely-experiment-id"), null);
    assertEquals(r.body.title, "hello");
  } finally {
    await up.close();
  }
});

aiTest(
  "the edge assigns by the connection IP and ignores an untrusted X-Forwarded-For",
  async (app) => {
    const { up, slug, get } = await setUp(app);
    try {
      const snap = (await readSnapshot(app.services.kv, slug))!;
      // Find a forwarded IP whose variant differs from the connection address's (127.0.0.1).
      const mine = assignExperiment(snap, "/posts/1", "127.0.0.1", CHROME)!;
      let other = "";
      for (let i = 1; i < 64 && !other; i++) {
        const ip = `192.0.2.${i}`;
        if (assignExperiment(snap, "/posts/1", ip, CHROME)!.variantId !== mine.variantId) {
          other = ip;
        }
      }
      assert(other, "some IP lands on the other arm");
      const r = await get("/~api/posts/1", CHROME, { "x-forwarded-for": other });
      // Not configured: a spoofed X-Forwarded-For does not pick the variant.
      assertEquals(r.headers.get("x-cachely-variant-id"), String(mine.variantId));
    } finally {
      await up.close();
    }
  },
);

aiTest("behind two trusted proxies the edge assigns by the client IP they added", async (app) => {
  const { up, slug, get } = await setUp(app);
  try {
    const snap = (await readSnapshot(app.services.kv, slug))!;
    for (let i = 1; i <= 16; i++) {
      const ip = `192.0.2.${i}`;
      const r = await get("/~api/posts/1", CHROME, {
        "x-forwarded-for": `198.51.100.${i}, ${ip}, 10.0.0.1`, // the leftmost is forged
      });
      const want = assignExperiment(snap, "/posts/1", ip, CHROME)!;
      assertEquals(r.headers.get("x-cachely-variant-id"), String(want.variantId), ip);
    }
  } finally {
    await up.close();
  }
}, { env: { TRUSTED_PROXY_HOPS: "2" } });

// ---- errors ----

aiTest("exposures survive a failed flush and land on the next one", async (app) => {
  const { up, owner, slug, e, get } = await setUp(app);
  try {
    for (let i = 0; i < 6; i++) await get("/~api/posts/1", `${CHROME} visitor/${i}`);
    // A real failure: the table is gone for the first flush.
    await app.services.dbHandle.exec("ALTER TABLE exposure_counts RENAME TO exposure_counts_away");
    await app.instance.usageAggregator.flush();
    assert(app.instance.usageAggregator.pendingEntries > 0, "the failed batch is kept");
    await app.services.dbHandle.exec("ALTER TABLE exposure_counts_away RENAME TO exposure_counts");
    for (let i = 6; i < 10; i++) await get("/~api/posts/1", `${CHROME} visitor/${i}`);
    await app.instance.usageAggregator.flush();
    const s = await owner.get(`/api/tenants/${slug}/ai-experiments/${e.id}/exposures`);
    assertEquals(s.body.totalExposures, 10, "none lost, none doubled");
  } finally {
    await up.close();
  }
});
