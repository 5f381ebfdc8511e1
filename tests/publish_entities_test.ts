/**
 * Cache-refresh webhooks in "entities" scope against a fake Contentful (tests/fakes/
 * publishing_cms.ts): a publish purges the answers holding the entry and the lists of its
 * content type, and nothing else; a new entry appears in the cached list; an unpublish takes
 * the entry out; a payload naming no entity, and scope "all", still purge everything.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, PROXY_DOMAIN, signUp, type TestApp } from "./harness.ts";
import { type Delivery, type PublishingCms, startPublishingCms } from "./fakes/publishing_cms.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";
import { MAX_PURGE_RECORDS } from "../lib/cache/purge_records.ts";

const ENTRIES = "/~api/environments/master/entries";

async function contentfulTenant(
  app: TestApp,
  cms: PublishingCms,
  scope?: string,
  more: Record<string, unknown> = {},
) {
  const owner = await signUp(app);
  const slug = await createTenant(owner, {
    cms: "contentful",
    spaceId: "pubspace1",
    apiOrigin: cms.apiOrigin,
    token: "tok",
    ...more,
  });
  const created = await owner.post(`/api/tenants/${slug}/cache-refresh-webhooks`, {
    provider: "contentful",
    ...(scope ? { scope } : {}),
  });
  assertEquals(created.status, 201, created.text);
  const visitor = new Client(app);
  const get = async (path: string) => {
    const r = await visitor.get(`http://${slug}.${PROXY_DOMAIN}${path}`);
    return {
      status: r.status,
      cache: r.headers.get("x-cachely-cache"),
      headers: r.headers,
      body: r.body,
    };
  };
  const deliver = async (d: Delivery | { topic?: string; body: unknown }) => {
    app.clock.advance(1);
    const r = await visitor.post(
      new URL(created.body.url).pathname,
      typeof d.body === "string" ? d.body : JSON.stringify(d.body),
      d.topic ? { "x-contentful-topic": d.topic } : {},
    );
    app.clock.advance(1); // what is fetched after the delivery is stored after it
    return r;
  };
  const events = async () =>
    (await owner.get(
      `/api/tenants/${slug}/cache-refresh-webhooks/${created.body.webhook.id}/events`,
    )).body.events;
  return { owner, slug, get, deliver, events, webhook: created.body.webhook };
}

/** The titles and revisions a list answer holds, by id. */
const listed = (body: { items: { sys: { id: string; revision: number } }[] }) =>
  Object.fromEntries(body.items.map((i) => [i.sys.id, i.sys.revision]));

dbTest(
  "entities scope: a publish purges the entry and its type's lists; unrelated answers stay HIT",
  async (app) => {
    await using cms = startPublishingCms();
    cms.publish("alpha", "post", "Alpha");
    cms.publish("beta", "post", "Beta");
    cms.publish("gamma", "page", "Gamma");
    const t = await contentfulTenant(app, cms, "entities");
    const paths = [
      `${ENTRIES}/alpha`,
      `${ENTRIES}/beta`,
      `${ENTRIES}/gamma`,
      `${ENTRIES}?content_type=post`,
      `${ENTRIES}?content_type=page`,
    ];
    for (const p of paths) assertEquals((await t.get(p)).cache, "MISS", p);
    for (const p of paths) assertEquals((await t.get(p)).cache, "HIT", p);

    const r = await t.deliver(cms.publish("alpha", "post", "Alpha 2"));
    assertEquals(r.status, 200, r.text);
    assertEquals(r.body.refreshed, true);
    assertEquals(r.body.purged.firstIds, ["alpha"]);
    assertEquals(r.body.purged.types, ["post"]);
    assertEquals(r.body.purged.revisions, { alpha: 2 });

    // Purged: refetched by the visitor (MISS) or by the prewarm before it came (HIT).
    const alpha = await t.get(`${ENTRIES}/alpha`);
    assert(alpha.cache === "MISS" || alpha.cache === "HIT", `${alpha.cache}`);
    assertEquals(alpha.body.sys.revision, 2, "the published entry");
    const posts = await t.get(`${ENTRIES}?content_type=post`);
    assert(posts.cache === "MISS" || posts.cache === "HIT", `${posts.cache}`);
    assertEquals(listed(posts.body), { alpha: 2, beta: 1 }, "the list of its content type");
    assertEquals((await t.get(`${ENTRIES}/beta`)).cache, "HIT", "an unrelated entry");
    assertEquals((await t.get(`${ENTRIES}/gamma`)).cache, "HIT", "an entry of another type");
    assertEquals((await t.get(`${ENTRIES}?content_type=page`)).cache, "HIT", "another list");
    assertEquals(cms.count("/entries/beta"), 1, "the unrelated entry was fetched once");

    const [e] = await t.events();
    assertEquals(e.status, "synced");
    assertEquals(e.eventType, "ContentManagement.Entry.publish");
    assertEquals(e.refreshType, "entities");
    assertEquals(e.purged.ids, 1);
    assertEquals(e.purged.firstIds, ["alpha"]);
    assertEquals(e.purged.fallback, null);
    assertEquals(e.previousApiCacheVersion, e.nextApiCacheVersion, "no version bump");
  },
);

dbTest(
  "entities scope: a new entry appears in the cached list; an unpublished one leaves it",
  async (app) => {
    await using cms = startPublishingCms();
    cms.publish("alpha", "post", "Alpha");
    cms.publish("gamma", "page", "Gamma");
    const t = await contentfulTenant(app, cms, "entities");
    const posts = `${ENTRIES}?content_type=post`;
    const all = `${ENTRIES}?limit=10`;
    for (const p of [posts, all, `${ENTRIES}?content_type=page`]) await t.get(p);
    assertEquals((await t.get(posts)).cache, "HIT");

    assertEquals((await t.deliver(cms.publish("delta", "post", "Delta"))).status, 200);
    const after = await t.get(posts);
    assert(after.cache === "MISS" || after.cache === "HIT", `${after.cache}`); // HIT: prewarmed
    assertEquals(listed(after.body), { alpha: 1, delta: 1 }, "the new entry is listed");
    assertEquals(
      listed((await t.get(all)).body),
      { alpha: 1, delta: 1, gamma: 1 },
      "untyped list",
    );
    assertEquals((await t.get(`${ENTRIES}?content_type=page`)).cache, "HIT");

    await t.get(`${ENTRIES}/alpha`);
    assertEquals((await t.deliver(cms.unpublish("alpha"))).status, 200);
    assertEquals((await t.get(`${ENTRIES}/alpha`)).status, 404, "the unpublished entry is gone");
    assertEquals(listed((await t.get(posts)).body), { delta: 1 });
    assertEquals((await t.events())[0].purged.action, "unpublish");
  },
);

dbTest("scope all (the default) still purges everything on a publish", async (app) => {
  await using cms = startPublishingCms();
  cms.publish("alpha", "post", "Alpha");
  cms.publish("beta", "post", "Beta");
  const t = await contentfulTenant(app, cms);
  assertEquals(t.webhook.scope, "all");
  await t.get(`${ENTRIES}/beta`);
  const r = await t.deliver(cms.publish("alpha", "post", "Alpha 2"));
  assertEquals(r.status, 200);
  assertEquals(Object.keys(r.body).sort(), ["ok", "refreshed", "versions"], "the SPEC shape");
  assertEquals((await t.get(`${ENTRIES}/beta`)).cache, "MISS", "a version bump");
  const [e] = await t.events();
  assertEquals([e.refreshType, e.purged], ["api", null]);
});

dbTest(
  "entities scope: a payload naming no entity falls back to the version bump, with the reason",
  async (app) => {
    await using cms = startPublishingCms();
    cms.publish("beta", "post", "Beta");
    const t = await contentfulTenant(app, cms, "entities");
    const cases: [{ topic?: string; body: unknown }, string][] = [
      [{ topic: "ContentManagement.Entry.publish", body: "{not json" }, "not JSON"],
      [{ topic: "ContentManagement.Entry.publish", body: [1, 2] }, "no sys"],
      [
        { topic: "ContentManagement.ContentType.publish", body: { sys: { id: "post" } } },
        "names no entry",
      ],
      [{ topic: "ContentManagement.Entry.publish", body: { sys: { id: 7 } } }, "no entity id"],
    ];
    for (const [d, reason] of cases) {
      await t.get(`${ENTRIES}/beta`);
      assertEquals((await t.get(`${ENTRIES}/beta`)).cache, "HIT");
      const r = await t.deliver(d);
      assertEquals(r.status, 200, r.text);
      assert(r.body.purged.fallback.includes(reason), r.body.purged.fallback);
      assertEquals((await t.get(`${ENTRIES}/beta`)).cache, "MISS", reason);
      const [e] = await t.events();
      assertEquals(e.refreshType, "api");
      assert(e.message.includes(reason), e.message);
      assertEquals(e.nextApiCacheVersion, e.previousApiCacheVersion + 1);
    }
    const big = await t.deliver({
      topic: "x",
      body: JSON.stringify({ pad: "x".repeat(70_000) }),
    });
    assertEquals(big.status, 413);
  },
);

dbTest(
  "a generic webhook in entities scope bumps the version (it names no entities)",
  async (app) => {
    await using cms = startPublishingCms();
    cms.publish("beta", "post", "Beta");
    const owner = await signUp(app);
    const slug = await createTenant(owner, {
      cms: "contentful",
      spaceId: "pubspace1",
      apiOrigin: cms.apiOrigin,
      token: "tok",
    });
    const w = await owner.post(`/api/tenants/${slug}/cache-refresh-webhooks`, {
      provider: "generic",
      scope: "entities",
    });
    assertEquals(w.status, 201, w.text);
    const visitor = new Client(app);
    const url = `http://${slug}.${PROXY_DOMAIN}${ENTRIES}/beta`;
    await visitor.get(url);
    app.clock.advance(1);
    const r = await visitor.post(new URL(w.body.url).pathname, { sys: { id: "beta" } });
    assertEquals(r.body.purged.fallback, "generic webhooks name no entities");
    assertEquals((await visitor.get(url)).headers.get("x-cachely-cache"), "MISS");
  },
);

dbTest(
  "scope: 400 naming scope for a bad value; PATCH changes it; the listing shows it",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const base = `/api/tenants/${slug}/cache-refresh-webhooks`;
    for (const scope of ["some", 1, null]) {
      const r = await owner.post(base, { provider: "sanity", scope });
      assertEquals(r.status, 400);
      assertEquals(r.body.error.details.fields[0].path, "scope", r.text);
    }
    const w = await owner.post(base, { provider: "sanity", scope: "entities" });
    assertEquals(w.body.webhook.scope, "entities");
    const p = await owner.patch(`${base}/${w.body.webhook.id}`, { scope: "all" });
    assertEquals(p.status, 200, p.text);
    assertEquals(p.body.webhook.scope, "all");
    const bad = await owner.patch(`${base}/${w.body.webhook.id}`, { scope: "every" });
    assertEquals(bad.body.error.details.fields[0].path, "scope");
    assertEquals((await owner.get(base)).body.webhooks[0].scope, "all");
  },
);

dbTest(
  "read your publish: no answer older than the published revision once the CMS is fresh",
  async (app) => {
    await using cms = startPublishingCms();
    cms.publish("alpha", "post", "Alpha");
    const t = await contentfulTenant(app, cms, "entities");
    const paths = [`${ENTRIES}/alpha`, `${ENTRIES}?content_type=post`];
    for (const p of paths) await t.get(p);
    cms.lagMs = 400;
    const r = await t.deliver(cms.publish("alpha", "post", "Alpha 2"));
    assertEquals(r.body.purged.revisions, { alpha: 2 });
    assertEquals((await t.deliver(cms.publish("delta", "post", "Delta"))).status, 200);
    const t0 = performance.now();
    const late: string[] = [];
    let behindMarked = 0;
    let last = performance.now();
    while (performance.now() - t0 < cms.lagMs + 1_500) {
      await new Promise((res) => setTimeout(res, 40));
      const now = performance.now();
      app.clock.advance(Math.round(now - last)); // the edge's clock moves with the CDN's
      last = now;
      for (const p of paths) {
        const a = await t.get(p);
        const seen = a.body.items ? JSON.stringify(listed(a.body)) : String(a.body.sys?.revision);
        if (a.headers.get("x-cachely-behind")) behindMarked += 1;
        // The CMS serves both publishes from t0 + lag; a back-off step later every answer does.
        const fresh = seen === "2" || seen === JSON.stringify({ alpha: 2, delta: 1 });
        if (!fresh && performance.now() - t0 > cms.lagMs + 1_000) late.push(`${p} ${seen}`);
      }
    }
    assertEquals(late, [], "answers older than the publish after the CMS was fresh + 1 s");
    assert(behindMarked > 0, "the previous revision was served while the CDN lagged");
  },
);

dbTest(
  "entities scope: many publishes never fold into a full purge; unrelated answers stay HIT",
  async (app) => {
    await using cms = startPublishingCms();
    cms.publish("beta", "post", "Beta");
    const t = await contentfulTenant(app, cms, "entities", { cacheTTL: 3600 });
    assertEquals((await t.get(`${ENTRIES}/beta`)).cache, "MISS");
    for (let i = 0; i < 70; i++) {
      const r = await t.deliver(cms.publish(`e${i}`, "post", `E${i}`));
      assertEquals(r.status, 200, r.text);
      assertEquals(r.body.versions.apiCacheVersion, 1, `publish ${i}: no version bump`);
      app.clock.advance(1_500);
    }
    assertEquals((await t.get(`${ENTRIES}/beta`)).cache, "HIT", "after 70 publishes");
    const snap = await readSnapshot(app.services.kv, t.slug);
    assert(snap!.purges!.length <= MAX_PURGE_RECORDS, `${snap!.purges!.length} records`);
  },
);

dbTest(
  "merging older purge records keeps each entity's time: answers cached between them stay HIT",
  async (app) => {
    await using cms = startPublishingCms();
    cms.publish("alpha", "post", "Alpha");
    cms.publish("beta", "page", "Beta");
    const t = await contentfulTenant(app, cms, "entities", { cacheTTL: 3600 });
    // alpha's own purge comes first; beta (unrelated) and alpha are cached after it and
    // before the later publishes the merge folds in with it.
    assertEquals((await t.deliver(cms.publish("alpha", "post", "Alpha 2"))).status, 200);
    for (let i = 0; i < 5; i++) await t.deliver(cms.publish(`e${i}`, "post", `E${i}`));
    app.clock.advance(1_000);
    for (const p of [`${ENTRIES}/alpha`, `${ENTRIES}/beta`]) await t.get(p);
    const fetched = [cms.count("/entries/alpha"), cms.count("/entries/beta")];
    for (let i = 5; i < 70; i++) {
      assertEquals((await t.deliver(cms.publish(`e${i}`, "post", `E${i}`))).status, 200);
      app.clock.advance(1_500);
    }
    const snap = await readSnapshot(app.services.kv, t.slug);
    assert(snap!.purges!.some((p) => p.tagTimes), "older records were merged");
    assertEquals((await t.get(`${ENTRIES}/beta`)).cache, "HIT", "an unrelated entry");
    assertEquals((await t.get(`${ENTRIES}/alpha`)).cache, "HIT", "refetched after its purge");
    assertEquals(
      [cms.count("/entries/alpha"), cms.count("/entries/beta")],
      fetched,
      "neither was fetched again",
    );
  },
);

dbTest(
  "a bulk publish (120 webhooks in a minute) merges, never folds: the rest stays HIT, each published entry is refetched, read your publish holds",
  async (app) => {
    await using cms = startPublishingCms();
    const N = 120;
    cms.publish("beta", "page", "Beta");
    cms.publish("alpha", "post", "Alpha");
    for (let i = 0; i < N; i++) cms.publish(`e${i}`, "post", `E${i}`);
    const t = await contentfulTenant(app, cms, "entities", { cacheTTL: 3600 });
    const entries = Array.from({ length: N }, (_, i) => `${ENTRIES}/e${i}`);
    for (const p of [`${ENTRIES}/beta`, `${ENTRIES}/alpha`, ...entries]) await t.get(p);
    // No recent traffic: the prewarm refetches none of them.
    app.clock.advance(11 * 60_000);
    const start = app.clock.now();
    // The CMS's CDN serves alpha's revision 1 long after it announced revision 2.
    cms.lagMs = 600_000;
    assertEquals((await t.deliver(cms.publish("alpha", "post", "Alpha 2"))).status, 200);
    cms.lagMs = 0;
    const bumped: number[] = [];
    for (let i = 0; i < N; i++) {
      const r = await t.deliver(cms.publish(`e${i}`, "post", `E${i} 2`));
      assertEquals(r.status, 200, r.text);
      if (r.body.versions.apiCacheVersion !== 1) bumped.push(i);
    }
    assert(app.clock.now() - start < 60_000, "within one minute");
    assertEquals(bumped, [], "no publish folded the records into a version bump");
    assertEquals((await t.get(`${ENTRIES}/beta`)).cache, "HIT", "an unrelated entry");
    assertEquals(cms.count("/entries/beta"), 1);
    const snap = await readSnapshot(app.services.kv, t.slug);
    assert(snap!.purges!.length <= MAX_PURGE_RECORDS, `${snap!.purges!.length} records`);
    const merged = snap!.purges!.find((p) => p.announcements);
    assert(merged?.announcements?.some((a) => a.revisions.alpha === 2), "alpha's announcement");
    const alpha = await t.get(`${ENTRIES}/alpha`);
    assertEquals(alpha.body.sys.revision, 1);
    assert(alpha.headers.get("x-cachely-behind"), "revision 1 is behind the announced 2");
    const stale = [];
    for (const p of entries) if ((await t.get(p)).body.sys.revision !== 2) stale.push(p);
    assertEquals(stale, [], "every published entry refetched");
  },
);
