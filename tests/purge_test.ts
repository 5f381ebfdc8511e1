/**
 * Purge by URL, prefix or tag: each leaves other URLs cached; bad bodies are 400 naming the
 * field; another tenant's and reserved tags are refused; rate limited per tenant; editors and
 * up; audited.
 */
import { assert, assertEquals } from "./assert.ts";
import { createTenant, dbTest, signUp, tenantIdOf } from "./harness.ts";
import { MAX_PURGE_RECORDS } from "../lib/cache/purge_records.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { tenantOnUpstream } from "./edge_traffic.ts";
import { PURGES_PER_MINUTE } from "../lib/cache/purge.ts";
import { MAX_PURGE_BYTES } from "../lib/cache/purge_records.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";

dbTest("purge by URL, prefix and tag drops only what it names", async (app) => {
  const up = startUpstream();
  up.route("/tagged", () => Response.json({ t: 1 }, { headers: { "cache-tag": "post-1,home" } }));
  try {
    const { owner, slug, get } = await tenantOnUpstream(app, up);
    const cache = async (p: string) => (await get(p)).headers.get("x-cachely-cache");
    const paths = ["/~api/a", "/~api/a?x=1", "/~api/b", "/~api/list/1", "/~api/tagged"];
    for (const p of paths) assertEquals(await cache(p), "MISS", p);
    for (const p of paths) assertEquals(await cache(p), "HIT", p);
    const purge = async (body: unknown) => {
      app.clock.advance(1);
      const r = await owner.post(`/api/tenants/${slug}/purge`, body);
      assertEquals(r.status, 200, r.text);
      app.clock.advance(1); // what is fetched after the purge is stored after it
      return r.body;
    };

    const byUrl = await purge({ urls: [`http://${slug}.localhost:8000/~api/a?x=1`] });
    assertEquals(byUrl.purged.urls, ["/~api/a?x=1"]);
    assertEquals(await cache("/~api/a?x=1"), "MISS", "the URL purged");
    assertEquals(await cache("/~api/a"), "HIT", "another query of the path stays");
    assertEquals(await cache("/~api/b"), "HIT");
    await purge({ urls: ["/~api/a"] });
    assertEquals(await cache("/~api/a"), "MISS", "a path without a query purges every query");

    await purge({ prefixes: ["/~api/list/"] });
    assertEquals(await cache("/~api/list/1"), "MISS");
    assertEquals(await cache("/~api/b"), "HIT");

    await purge({ tags: ["post-1"] });
    assertEquals(await cache("/~api/tagged"), "MISS", "by the origin's Cache-Tag");
    assertEquals(await cache("/~api/b"), "HIT");
    assertEquals(await cache("/~api/tagged"), "HIT", "cached again after the purge");

    const audit = await owner.get(`/api/tenants/${slug}/audit-events?limit=200`);
    const purged = audit.body.events?.filter((e: { action: string }) =>
      e.action === "cache.purged"
    );
    assertEquals(purged?.length, 4, audit.text.slice(0, 300));
  } finally {
    await up.close();
  }
});

dbTest("purge refuses bad bodies naming the field, and viewers", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const other = await createTenant(owner);
  const field = async (body: unknown) => {
    const r = await owner.post(`/api/tenants/${slug}/purge`, body);
    assertEquals(r.status, 400, r.text);
    return r.body.error.details?.fields?.[0]?.path;
  };
  assertEquals(await field({ urls: [] }), "urls");
  assertEquals(await field({ tags: [] }), "tags");
  assertEquals(await field({}), "urls");
  assertEquals(await field({ urls: Array.from({ length: 1001 }, (_, i) => `/p${i}`) }), "urls");
  assertEquals(
    await field({ urls: ["/a"], prefixes: Array.from({ length: 1000 }, (_, i) => `/p${i}`) }),
    "prefixes",
  );
  assertEquals(await field({ urls: [`http://${other}.localhost:8000/~api/a`] }), "urls[0]");
  assertEquals(await field({ urls: ["/ok", "https://evil.example/x"] }), "urls[1]");
  assertEquals(await field({ prefixes: ["/a?b=1"] }), "prefixes[0]");
  assertEquals(await field({ tags: ["two words"] }), "tags[0]");

  const viewer = await signUp(app);
  const inv = await owner.post(`/api/tenants/${slug}/members/invite`, {
    email: viewer.email,
    role: "viewer",
  });
  await viewer.post("/api/invites/accept", { token: inv.body.token });
  const refused = await viewer.post(`/api/tenants/${slug}/purge`, { urls: ["/a"] });
  assert(refused.status === 403, refused.text);
});

dbTest(
  "purge refuses another tenant's cachely tags and reserved forms, naming tags[i]",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const id = await tenantIdOf(app, slug);
    const otherId = await tenantIdOf(app, await createTenant(owner));
    const refused = async (tag: string) => {
      const r = await owner.post(`/api/tenants/${slug}/purge`, { tags: ["ok-tag", tag] });
      assertEquals(r.status, 400, `${JSON.stringify(tag)}: ${r.text}`);
      assertEquals(r.body.error.details?.fields?.[0]?.path, "tags[1]", tag);
    };
    for (
      const tag of [
        `cachely-t${otherId}`,
        `cachely-t${otherId}-api`,
        `CACHELY-T${otherId}`,
        `cachely-t${id}${id}`, // another id that starts with this one's digits
        "cachely-admin",
        "*",
        "post-*",
        "a\u0001b",
        "a\u007fb",
        "x".repeat(257),
      ]
    ) await refused(tag);
    for (const tag of [`cachely-t${id}`, `cachely-t${id}-api`, "post-1", "Product:42"]) {
      const r = await owner.post(`/api/tenants/${slug}/purge`, { tags: [tag] });
      assertEquals(r.status, 200, `${tag}: ${r.text}`);
    }
  },
);

dbTest("purges are rate limited per tenant: 429 with Retry-After", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const other = await createTenant(owner);
  const purge = (s: string) => owner.post(`/api/tenants/${s}/purge`, { urls: ["/a"] });
  for (let i = 0; i < PURGES_PER_MINUTE; i++) {
    const r = await purge(slug);
    assertEquals(r.status, 200, `purge ${i + 1}: ${r.text}`);
  }
  const limited = await purge(slug);
  assertEquals(limited.status, 429, limited.text);
  const wait = Number(limited.headers.get("retry-after"));
  assert(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
  assertEquals((await purge(other)).status, 200, "another tenant has its own budget");
  app.clock.advance(wait * 1000);
  assertEquals((await purge(slug)).status, 200, "after Retry-After");
});

dbTest(
  "purge records stay small enough for the snapshot: past the byte bound, a full purge",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    // ~200 KB per purge: five of them would be 1 MB of records, more than one KV write takes.
    const urls = Array.from({ length: 100 }, (_, i) => `/~api/${i}/${"x".repeat(2000)}`);
    const full: boolean[] = [];
    for (let k = 0; k < 5; k++) {
      const r = await owner.post(`/api/tenants/${slug}/purge`, { urls: urls.map((u) => u + k) });
      assertEquals(r.status, 200, r.text.slice(0, 200));
      full.push(r.body.purged.full);
    }
    assertEquals(full, [false, true, false, true, false]);
    const snap = await readSnapshot(app.services.kv, slug);
    assert(snap !== null, "the snapshot is readable");
    const bytes = JSON.stringify(snap.purges ?? []).length;
    assert(bytes <= MAX_PURGE_BYTES, `snapshot purge records: ${bytes} bytes`);
    assertEquals(snap.purges?.length, 1, "the purge after the last full one");
  },
);

dbTest(
  "tag purges past the bounds merge, recent ones too; past the byte bound once merged, a full purge",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const tags = (k: number) =>
      Array.from({ length: 600 }, (_, i) => `t${k}-${i}-${"x".repeat(240)}`);
    const purge = async (body: unknown) => {
      app.clock.advance(1);
      const r = await owner.post(`/api/tenants/${slug}/purge`, body);
      assertEquals(r.status, 200, r.text.slice(0, 200));
      return r.body.purged.full;
    };
    // ~160 KB each: the same tags merge into one record, well under the bound.
    const same: boolean[] = [];
    for (let k = 0; k < 4; k++) same.push(await purge({ tags: tags(0) }));
    assertEquals(same, [false, false, false, false]);
    assertEquals((await readSnapshot(app.services.kv, slug))!.purges!.length, 1);
    // Other tags: merged, twice past the bound.
    assertEquals(await purge({ tags: tags(1) }), true);
    assertEquals(await purge({ tags: tags(2) }), false);
    assertEquals(await purge({ tags: tags(3) }), true);
    const snap = await readSnapshot(app.services.kv, slug);
    assertEquals(snap!.purges ?? [], [], "cleared by the full purge");
  },
);

dbTest("URL and prefix purges past the record bound still fold into a full purge", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const full: boolean[] = [];
  for (let i = 0; i <= MAX_PURGE_RECORDS; i++) {
    if (i % PURGES_PER_MINUTE === 0) app.clock.advance(60_000);
    const body = i === MAX_PURGE_RECORDS
      ? { tags: ["home"] }
      : i % 2
      ? { urls: [`/${i}`] }
      : { prefixes: [`/${i}/`] };
    const r = await owner.post(`/api/tenants/${slug}/purge`, body);
    assertEquals(r.status, 200, r.text);
    full.push(r.body.purged.full);
  }
  assertEquals(full.indexOf(true), MAX_PURGE_RECORDS, "the first record past the bound");
  assertEquals((await readSnapshot(app.services.kv, slug))!.purges ?? [], []);
});
