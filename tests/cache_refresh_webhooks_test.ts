import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, tenantIdOf } from "./harness.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";
import { sha256Hex } from "../lib/crypto/mod.ts";
import { EVENT_HISTORY_LIMIT } from "../lib/webhooks/cache_refresh.ts";
import type { TestApp } from "./harness.ts";
import { startUpstream } from "./fakes/upstream.ts";

const base = (slug: string) => `/api/tenants/${slug}/cache-refresh-webhooks`;

/** The receiver path of a create/regenerate answer (the URL is absolute on PUBLIC_URL). */
const pathOf = (url: string) => new URL(url).pathname;

async function ownerWithTenant(app: TestApp) {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  return { owner, slug };
}

/** Adds a member with a role through the invite flow's data layer (direct row insert). */
async function memberWithRole(app: TestApp, slug: string, role: string) {
  const user = await signUp(app);
  const id = await tenantIdOf(app, slug);
  await app.services.dbHandle.exec(
    `INSERT INTO tenant_members (tenant_id, user_id, role) VALUES (${id}, '${user.userId}', '${role}')`,
  );
  return user;
}

// ---- happy ----

dbTest(
  "POST cache-refresh-webhooks returns the secret once and stores only its SHA-256",
  async (app) => {
    const { owner, slug } = await ownerWithTenant(app);
    const r = await owner.post(base(slug), { provider: "contentful" });
    assertEquals(r.status, 201);
    const { webhook, secret, url } = r.body;
    assertEquals(webhook.provider, "contentful");
    assertEquals(webhook.refreshApi, true);
    assertEquals(webhook.refreshAssets, false);
    assertEquals(webhook.enabled, true);
    assertEquals(webhook.lastTriggeredAt, null);
    assertEquals(url, `http://localhost:8000/api/webhooks/cache-refresh/${webhook.id}/${secret}`);
    const rows = await app.services.dbHandle.query<{ secret_hash: string }>(
      `SELECT secret_hash FROM cache_refresh_webhooks WHERE id = ${webhook.id}`,
    );
    assertEquals(rows[0].secret_hash, await sha256Hex(secret));
    assert(!JSON.stringify(rows).includes(secret), "raw secret is never stored");

    const list = await owner.get(base(slug));
    assertEquals(list.status, 200);
    assertEquals(list.body.webhooks.length, 1);
    assertEquals(Object.keys(list.body.webhooks[0]).sort(), [
      "createdAt",
      "enabled",
      "id",
      "lastStatus",
      "lastTriggeredAt",
      "provider",
      "refreshApi",
      "refreshAssets",
      "scope",
      "updatedAt",
    ]);
    assertEquals(list.body.webhooks[0].scope, "all", "SPEC: the version bump unless asked");
    assert(!list.text.includes(secret) && !list.text.includes(rows[0].secret_hash));

    const audit = await app.services.dbHandle.query<{ action: string; metadata: unknown }>(
      `SELECT action, metadata FROM audit_events WHERE target = 'webhook:${webhook.id}'`,
    );
    assertEquals(audit.map((a) => a.action), ["cache_refresh_webhook.created"]);
    assert(!JSON.stringify(audit).includes(secret), "audit never holds the secret");
  },
);

dbTest(
  "receiver bumps the api version, re-syncs the snapshot and records a synced event",
  async (app) => {
    const { owner, slug } = await ownerWithTenant(app);
    const before = await readSnapshot(app.services.kv, slug);
    const created = await owner.post(base(slug), { provider: "contentful" });
    const anon = new Client(app);
    const r = await anon.post(pathOf(created.body.url), { sys: { id: "x" } }, {
      "x-contentful-topic": "ContentManagement.Entry.publish",
    });
    assertEquals(r.status, 200);
    assertEquals(r.body, {
      ok: true,
      refreshed: true,
      versions: {
        apiCacheVersion: before!.versions.api + 1,
        assetCacheVersion: before!.versions.assets,
        htmlCacheVersion: before!.versions.html,
      },
    });
    const after = await readSnapshot(app.services.kv, slug);
    assertEquals(after!.versions.api, before!.versions.api + 1);
    assertEquals(after!.versions.assets, before!.versions.assets);

    const ev = await owner.get(`${base(slug)}/${created.body.webhook.id}/events`);
    assertEquals(ev.status, 200);
    assertEquals(ev.body.events.length, 1);
    const e = ev.body.events[0];
    assertEquals(e.status, "synced");
    assertEquals(e.eventType, "ContentManagement.Entry.publish");
    assertEquals(e.refreshType, "api");
    assertEquals(e.previousApiCacheVersion, before!.versions.api);
    assertEquals(e.nextApiCacheVersion, before!.versions.api + 1);
    for (const k of ["receivedAt", "startedAt", "finishedAt", "kvSyncedAt"]) {
      assertMatch(e[k], /^\d{4}-\d\d-\d\dT/, k);
    }
    assert(typeof e.durationMs === "number" && e.durationMs >= 0);
    const list = await owner.get(base(slug));
    assertEquals(list.body.webhooks[0].lastStatus, "synced");
    assert(list.body.webhooks[0].lastTriggeredAt !== null);
  },
);

dbTest("after a webhook the real edge misses the API cache and refetches upstream", async (app) => {
  const upstream = startUpstream();
  try {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { apiOrigin: upstream.url });
    const anon = new Client(app);
    const url = `http://${slug}.localhost:8000/~api/entries`;
    const first = await anon.get(url);
    assertEquals(first.status, 200);
    assertEquals(first.headers.get("x-cachely-cache"), "MISS");
    assertEquals((await anon.get(url)).headers.get("x-cachely-cache"), "HIT");
    assertEquals(upstream.count("/entries"), 1);
    const created = await owner.post(base(slug), { provider: "contentful" });
    assertEquals((await anon.post(pathOf(created.body.url), {})).status, 200);
    const after = await anon.get(url);
    assertEquals(after.headers.get("x-cachely-cache"), "MISS", "new api version, new cache key");
    assertEquals(upstream.count("/entries"), 2);
  } finally {
    await upstream.close();
  }
});

dbTest("concurrent deliveries each bump the version once", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "generic" });
  const anon = new Client(app);
  const rs = await Promise.all(
    Array.from({ length: 5 }, () => anon.post(pathOf(created.body.url), {})),
  );
  assertEquals(rs.map((r) => r.status), [200, 200, 200, 200, 200]);
  assertEquals(
    rs.map((r) => r.body.versions.apiCacheVersion).sort(),
    [2, 3, 4, 5, 6],
    "every delivery got its own step",
  );
  const ev = await owner.get(`${base(slug)}/${created.body.webhook.id}/events`);
  assertEquals(
    ev.body.events.map((e: { nextApiCacheVersion: number }) => e.nextApiCacheVersion).sort(),
    [2, 3, 4, 5, 6],
  );
  assertEquals((await readSnapshot(app.services.kv, slug))!.versions.api, 6);
});

dbTest("refreshAssets webhooks bump the asset version too", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "generic", refreshAssets: true });
  assertEquals(created.body.webhook.refreshAssets, true);
  const r = await new Client(app).post(pathOf(created.body.url), "not json at all");
  assertEquals(r.status, 200);
  assertEquals(r.body.versions.apiCacheVersion, 2);
  assertEquals(r.body.versions.assetCacheVersion, 2);
  assertEquals(r.body.versions.htmlCacheVersion, 1);
  const snap = await readSnapshot(app.services.kv, slug);
  assertEquals(snap!.versions, { api: 2, assets: 2, html: 1 });
  const ev = await owner.get(`${base(slug)}/${created.body.webhook.id}/events`);
  assertEquals(ev.body.events[0].refreshType, "api+assets");
  assertEquals(ev.body.events[0].eventType, null, "generic ignores the event type");
});

dbTest("event type comes from each provider's header or body field", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const cases: [string, unknown, Record<string, string>, string | null][] = [
    ["sanity", { type: "document.publish" }, {}, "document.publish"],
    ["sanity", {}, { "sanity-operation": "update" }, "update"],
    ["storyblok", { action: "published", story_id: 1 }, {}, "published"],
    ["storyblok", { event: "release.merged" }, {}, "release.merged"],
    ["contentful", { type: "Entry" }, {}, "Entry"],
    ["generic", { type: "ignored" }, { "x-contentful-topic": "ignored" }, null],
  ];
  for (const [provider, body, headers, expected] of cases) {
    const created = await owner.post(base(slug), { provider });
    const r = await new Client(app).post(pathOf(created.body.url), body, headers);
    assertEquals(r.status, 200, provider);
    const ev = await owner.get(`${base(slug)}/${created.body.webhook.id}/events`);
    assertEquals(ev.body.events[0].eventType, expected, `${provider} ${JSON.stringify(body)}`);
  }
});

dbTest("a webhook with nothing to refresh answers refreshed:false", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "generic" });
  await app.services.dbHandle.exec(
    `UPDATE cache_refresh_webhooks SET refresh_api = false WHERE id = ${created.body.webhook.id}`,
  );
  const r = await new Client(app).post(pathOf(created.body.url), {});
  assertEquals(r.status, 200);
  assertEquals(r.body, { ok: true, refreshed: false });
  assertEquals((await readSnapshot(app.services.kv, slug))!.versions.api, 1);
});

dbTest("regenerate kills the old URL at once and the new one works", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "sanity" });
  const id = created.body.webhook.id;
  const regen = await owner.post(`${base(slug)}/${id}/regenerate`);
  assertEquals(regen.status, 200);
  assertEquals(regen.body.webhook.id, id);
  assert(regen.body.secret !== created.body.secret);
  const anon = new Client(app);
  assertEquals((await anon.post(pathOf(created.body.url), {})).status, 404);
  assertEquals((await anon.post(pathOf(regen.body.url), {})).status, 200);
  const audit = await app.services.dbHandle.query<{ action: string }>(
    `SELECT action FROM audit_events WHERE target = 'webhook:${id}' ORDER BY id`,
  );
  assertEquals(audit.map((a) => a.action), [
    "cache_refresh_webhook.created",
    "cache_refresh_webhook.regenerated",
  ]);
});

dbTest("delete kills the URL, hides the webhook and keeps its events", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "storyblok" });
  const id = created.body.webhook.id;
  const anon = new Client(app);
  assertEquals((await anon.post(pathOf(created.body.url), { action: "published" })).status, 200);
  const del = await owner.delete(`${base(slug)}/${id}`);
  assertEquals(del.status, 200);
  assertEquals(del.body, { ok: true });
  assertEquals((await anon.post(pathOf(created.body.url), {})).status, 404);
  assertEquals((await owner.get(base(slug))).body.webhooks, []);
  const ev = await owner.get(`${base(slug)}/${id}/events`);
  assertEquals(ev.status, 200);
  assertEquals(ev.body.events.length, 1, "event rows remain after deletion");
  assertEquals((await owner.delete(`${base(slug)}/${id}`)).status, 404);
  assertEquals((await owner.post(`${base(slug)}/${id}/regenerate`)).status, 404);
  const audit = await app.services.dbHandle.query<{ action: string }>(
    `SELECT action FROM audit_events WHERE target = 'webhook:${id}' ORDER BY id`,
  );
  assertEquals(audit.at(-1)?.action, "cache_refresh_webhook.deleted");
});

dbTest("PATCH turns a webhook off and on again; its URL stays the same", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "sanity" });
  const id = created.body.webhook.id;
  const url = pathOf(created.body.url);
  const anon = new Client(app);
  const off = await owner.patch(`${base(slug)}/${id}`, { enabled: false });
  assertEquals(off.status, 200, off.text);
  assertEquals(off.body.webhook.enabled, false);
  assert(!off.text.includes(created.body.secret), "the secret is never returned again");
  assertEquals((await anon.post(url, {})).status, 404, "a disabled webhook answers as unknown");
  assertEquals((await owner.get(`${base(slug)}/${id}/events`)).body.events, [], "no event");
  assertEquals((await readSnapshot(app.services.kv, slug))!.versions.api, 1, "nothing bumped");
  assertEquals((await owner.get(base(slug))).body.webhooks[0].enabled, false, "still listed");
  const on = await owner.patch(`${base(slug)}/${id}`, { enabled: true, refreshAssets: true });
  assertEquals([on.body.webhook.enabled, on.body.webhook.refreshAssets], [true, true]);
  const r = await anon.post(url, {});
  assertEquals(r.status, 200, "the same URL works again");
  assertEquals(r.body.versions.assetCacheVersion, 2, "and now purges assets too");
  const audit = await app.services.dbHandle.query<{ action: string; metadata: unknown }>(
    `SELECT action, metadata FROM audit_events WHERE target = 'webhook:${id}' ORDER BY id`,
  );
  assertEquals(audit.map((a) => a.action), [
    "cache_refresh_webhook.created",
    "cache_refresh_webhook.updated",
    "cache_refresh_webhook.updated",
  ]);
});

dbTest("event history keeps only the most recent events", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "generic" });
  const anon = new Client(app);
  const total = EVENT_HISTORY_LIMIT + 3;
  for (let i = 0; i < total; i++) {
    assertEquals((await anon.post(pathOf(created.body.url), {})).status, 200);
  }
  const ev = await owner.get(`${base(slug)}/${created.body.webhook.id}/events`);
  assertEquals(ev.body.events.length, EVENT_HISTORY_LIMIT);
  assertEquals(ev.body.events[0].nextApiCacheVersion, 1 + total, "newest first");
  const [{ n }] = await app.services.dbHandle.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM webhook_events WHERE webhook_id = ${created.body.webhook.id}`,
  );
  assertEquals(Number(n), EVENT_HISTORY_LIMIT, "older rows are pruned, not just hidden");
});

dbTest("the receiver ignores a session-less Authorization header a CMS may send", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "contentful" });
  const r = await new Client(app).post(pathOf(created.body.url), {}, {
    authorization: "Bearer some-cms-configured-value",
  });
  assertEquals(r.status, 200);
});

// ---- errors ----

dbTest("create: 400 on an unknown provider, extra fields or malformed JSON", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const bad = await owner.post(base(slug), { provider: "wordpress" });
  assertEquals(bad.status, 400);
  assertEquals(bad.body.error.details.fields[0].path, "provider");
  assertEquals((await owner.post(base(slug), {})).status, 400);
  assertEquals((await owner.post(base(slug), { provider: "generic", x: 1 })).status, 400);
  assertEquals(
    (await owner.post(base(slug), { provider: "generic", refreshAssets: "yes" })).status,
    400,
  );
  assertEquals((await owner.post(base(slug), "{nope")).status, 400);
  assertEquals(
    (await owner.post(`/api/tenants/nosuch/cache-refresh-webhooks`, { provider: "generic" }))
      .status,
    404,
  );
});

dbTest("regenerate, delete and events: 400 on a bad id, 404 on an unknown one", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  for (const id of ["abc", "0", "-1", "1.5"]) {
    assertEquals((await owner.post(`${base(slug)}/${id}/regenerate`)).status, 400, id);
    assertEquals((await owner.delete(`${base(slug)}/${id}`)).status, 400, id);
    assertEquals((await owner.get(`${base(slug)}/${id}/events`)).status, 400, id);
  }
  assertEquals((await owner.post(`${base(slug)}/999/regenerate`)).status, 404);
  assertEquals((await owner.delete(`${base(slug)}/999`)).status, 404);
  assertEquals((await owner.get(`${base(slug)}/999/events`)).status, 404);
});

dbTest(
  "PATCH: 400 naming the field on an empty or wrong body, 404 on a deleted webhook",
  async (app) => {
    const { owner, slug } = await ownerWithTenant(app);
    const id = (await owner.post(base(slug), { provider: "generic" })).body.webhook.id;
    for (const body of [{}, { enabled: "no" }, { enabled: true, secret: "x" }]) {
      const r = await owner.patch(`${base(slug)}/${id}`, body);
      assertEquals(r.status, 400, JSON.stringify(body));
      assertEquals(r.body.error.code, "bad_request", r.text);
    }
    const empty = await owner.patch(`${base(slug)}/${id}`, {});
    assertEquals(empty.body.error.details.fields[0].path, "enabled");
    assertEquals((await owner.patch(`${base(slug)}/abc`, { enabled: false })).status, 400);
    assertEquals((await owner.patch(`${base(slug)}/999`, { enabled: false })).status, 404);
    await owner.delete(`${base(slug)}/${id}`);
    assertEquals((await owner.patch(`${base(slug)}/${id}`, { enabled: true })).status, 404);
  },
);

dbTest("receiver: 413 over 64 KB, counted while streaming", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "generic" });
  const url = `http://localhost:8000${pathOf(created.body.url)}`;
  const send = (body: BodyInit, headers: Record<string, string> = {}) =>
    app.handler(new Request(url, { method: "POST", body, headers }));
  const exact = await send("x".repeat(64 * 1024));
  assertEquals(exact.status, 200, "exactly 64 KB is allowed");
  await exact.body?.cancel();
  const over = await send("x".repeat(64 * 1024 + 1));
  assertEquals(over.status, 413);
  await over.body?.cancel();
  // A chunked body with no Content-Length (or a lying one) is still cut off at 64 KB.
  const chunk = new Uint8Array(16 * 1024);
  const stream = new ReadableStream<Uint8Array>({
    start(ctl) {
      for (let i = 0; i < 5; i++) ctl.enqueue(chunk);
      ctl.close();
    },
  });
  const streamed = await send(stream, { "content-length": "10" });
  assertEquals(streamed.status, 413);
  await streamed.body?.cancel();
  const ev = await owner.get(`${base(slug)}/${created.body.webhook.id}/events`);
  assertEquals(ev.body.events.length, 1, "rejected bodies record no event");
  assertEquals((await readSnapshot(app.services.kv, slug))!.versions.api, 2);
});

dbTest("receiver: 500 when the refresh fails, recorded as a failed event", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "generic" });
  // A real database failure of the version bump (the KV step failing is not one: see below).
  await app.services.dbHandle.exec(`
    CREATE FUNCTION cachely_test_refuse() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'Database unavailable'; END $$;
    CREATE TRIGGER cachely_test_refuse BEFORE UPDATE ON tenants
      FOR EACH ROW EXECUTE FUNCTION cachely_test_refuse();`);
  let r;
  try {
    r = await new Client(app).post(pathOf(created.body.url), {});
  } finally {
    await app.services.dbHandle.exec(`
      DROP TRIGGER cachely_test_refuse ON tenants; DROP FUNCTION cachely_test_refuse();`);
  }
  assertEquals(r.status, 500);
  assertEquals(r.body.error.code, "refresh_failed");
  const ev = await owner.get(`${base(slug)}/${created.body.webhook.id}/events`);
  assertEquals(ev.body.events[0].status, "failed");
  assertMatch(ev.body.events[0].message, /^Refresh failed: /);
  assert(ev.body.events[0].finishedAt !== null);
  assertEquals((await owner.get(base(slug))).body.webhooks[0].lastStatus, "failed");
});

dbTest("receiver: a KV failure after the bump committed is no refresh failure", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "generic" });
  const boom = () => {
    throw new Error("KV unavailable");
  };
  app.services.snapshotListeners.add(boom);
  const r = await new Client(app).post(pathOf(created.body.url), {});
  app.services.snapshotListeners.delete(boom);
  assertEquals(r.status, 200, r.text);
  assertEquals(r.body.versions.apiCacheVersion, 2);
  const ev = await owner.get(`${base(slug)}/${created.body.webhook.id}/events`);
  assertEquals(ev.body.events[0].status, "synced");
});

// ---- security ----

dbTest("receiver: every authentication failure is the same 404", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "generic" });
  const { id } = created.body.webhook;
  const secret: string = created.body.secret;
  const disabled = await owner.post(base(slug), { provider: "generic" });
  await app.services.dbHandle.exec(
    `UPDATE cache_refresh_webhooks SET enabled = false WHERE id = ${disabled.body.webhook.id}`,
  );
  const anon = new Client(app);
  const probes = [
    `/api/webhooks/cache-refresh/${id}/${secret.slice(0, -1)}x`,
    `/api/webhooks/cache-refresh/${id}/${await sha256Hex(secret)}`,
    `/api/webhooks/cache-refresh/${id + 1000}/${secret}`,
    `/api/webhooks/cache-refresh/abc/${secret}`,
    `/api/webhooks/cache-refresh/99999999999999999999/${secret}`,
    pathOf(disabled.body.url),
  ];
  const bodies = new Set<string>();
  for (const p of probes) {
    const r = await anon.post(p, {});
    assertEquals(r.status, 404, p);
    bodies.add(r.text);
  }
  assertEquals(bodies.size, 1, "failures are indistinguishable");
  // An unauthenticated oversized body is a 404, not a 413: auth comes first.
  const big = await anon.post(`/api/webhooks/cache-refresh/${id}/wrong`, "x".repeat(70_000));
  assertEquals(big.status, 404);
  assertEquals((await readSnapshot(app.services.kv, slug))!.versions.api, 1, "nothing bumped");
});

dbTest("role matrix: list/events editor+, create/regenerate/update/delete admin+", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "generic" });
  const id = created.body.webhook.id;
  const expect: Record<string, Record<string, number>> = {
    viewer: { list: 403, events: 403, create: 403, regenerate: 403, update: 403, delete: 403 },
    editor: { list: 200, events: 200, create: 403, regenerate: 403, update: 403, delete: 403 },
    admin: { list: 200, events: 200, create: 201, regenerate: 200, update: 200, delete: 200 },
  };
  for (const [role, want] of Object.entries(expect)) {
    const u = await memberWithRole(app, slug, role);
    const fresh = (await owner.post(base(slug), { provider: "generic" })).body.webhook.id;
    assertEquals((await u.get(base(slug))).status, want.list, `${role} list`);
    assertEquals((await u.get(`${base(slug)}/${id}/events`)).status, want.events, `${role} events`);
    assertEquals((await u.post(base(slug), { provider: "generic" })).status, want.create, role);
    assertEquals((await u.post(`${base(slug)}/${fresh}/regenerate`)).status, want.regenerate, role);
    const patched = await u.patch(`${base(slug)}/${fresh}`, { enabled: false });
    assertEquals(patched.status, want.update, `${role} update`);
    assertEquals((await u.delete(`${base(slug)}/${fresh}`)).status, want.delete, `${role} delete`);
  }
  assertEquals((await new Client(app).get(base(slug))).status, 401);
});

dbTest("tenant isolation: another tenant's webhook ids are 404 and unlisted", async (app) => {
  const a = await ownerWithTenant(app);
  const b = await ownerWithTenant(app);
  const hookA = (await a.owner.post(base(a.slug), { provider: "generic" })).body;
  // b owns its own tenant but addresses a's webhook id through it.
  assertEquals((await b.owner.post(`${base(b.slug)}/${hookA.webhook.id}/regenerate`)).status, 404);
  assertEquals((await b.owner.delete(`${base(b.slug)}/${hookA.webhook.id}`)).status, 404);
  const patched = await b.owner.patch(`${base(b.slug)}/${hookA.webhook.id}`, { enabled: false });
  assertEquals(patched.status, 404);
  assertEquals((await b.owner.get(`${base(b.slug)}/${hookA.webhook.id}/events`)).status, 404);
  assertEquals((await b.owner.get(base(b.slug))).body.webhooks, []);
  // Non-members get 404 for the tenant itself.
  assertEquals((await b.owner.get(base(a.slug))).status, 404);
  assertEquals((await b.owner.post(base(a.slug), { provider: "generic" })).status, 404);
  // a's webhook still works: b's attempts changed nothing.
  assertEquals((await new Client(app).post(pathOf(hookA.url), {})).status, 200);
  assertEquals((await readSnapshot(app.services.kv, b.slug))!.versions.api, 1);
});

dbTest("two PATCHes of different fields at once both land (no lost update)", async (app) => {
  const { owner, slug } = await ownerWithTenant(app);
  const created = await owner.post(base(slug), { provider: "sanity" });
  const id = created.body.webhook.id;
  for (let round = 0; round < 5; round++) {
    const enabled = round % 2 === 1;
    const refreshAssets = round % 2 === 0;
    const [a, b] = await Promise.all([
      owner.patch(`${base(slug)}/${id}`, { enabled }),
      owner.patch(`${base(slug)}/${id}`, { refreshAssets }),
    ]);
    assertEquals([a.status, b.status], [200, 200]);
    const [w] = (await owner.get(base(slug))).body.webhooks;
    assertEquals([w.enabled, w.refreshAssets], [enabled, refreshAssets], `round ${round}`);
  }
});
