/**
 * The edge snapshot is a projection of Postgres: a committed write answers
 * success even when the KV step fails afterwards, the projector loop brings KV up to
 * the latest generation, and edge-config reports a snapshot that was behind.
 */
import { assert, assertEquals } from "./assert.ts";
import { BACKENDS, createTenant, createTestApp, dbTest, signUp, type TestApp } from "./harness.ts";
import { readSnapshot, storedGeneration } from "../lib/kv/snapshot.ts";
import { findTenantBySlug, updateTenant } from "../lib/tenants/service.ts";
import { updateAiSettings } from "../lib/ai/settings.ts";

/** A real KV whose atomic commits fail while `failing` is set (a KV outage after commit). */
function flakyKv(kv: Deno.Kv) {
  const state = { failing: false };
  const wrapOp = (op: Deno.AtomicOperation): Deno.AtomicOperation =>
    new Proxy(op, {
      get(o, q) {
        if (q === "commit") {
          return () =>
            state.failing ? Promise.reject(new Error("Injected KV failure")) : o.commit();
        }
        const v = Reflect.get(o, q);
        if (typeof v !== "function") return v;
        // Builder calls (check, set, delete, sum) return the op itself: keep it wrapped.
        return (...a: unknown[]) => {
          const r = v.apply(o, a);
          return r === o ? wrapOp(o) : r;
        };
      },
    });
  const wrapped = new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") return () => wrapOp(target.atomic());
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { kv: wrapped, state };
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

type Flaky = ReturnType<typeof flakyKv>;

/** Like dbTest, with a fresh flaky KV per run (the app closes its KV). */
function flakyTest(
  name: string,
  env: Record<string, string>,
  fn: (app: TestApp, flaky: Flaky) => Promise<void>,
) {
  for (const backend of BACKENDS) {
    Deno.test({
      name: `${name} [${backend}]`,
      async fn() {
        const flaky = flakyKv(await Deno.openKv(":memory:"));
        const app = await createTestApp(backend, { kv: flaky.kv, env });
        try {
          await fn(app, flaky);
        } finally {
          await app.close();
        }
      },
    });
  }
}

flakyTest(
  "a write whose KV step fails answers 200, and the projector brings KV up to date",
  { EDGE_PROJECTOR_INTERVAL_MS: "50" },
  async (app, flaky) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const base = `/api/tenants/${slug}`;
    const genBefore = await storedGeneration(app.services.kv, slug);
    flaky.state.failing = true;
    let r;
    try {
      r = await owner.put(`${base}/api-config`, { cacheTTL: 321 });
      assertEquals(await storedGeneration(app.services.kv, slug), genBefore, "KV is behind");
    } finally {
      flaky.state.failing = false;
    }
    assertEquals(r.status, 200, r.text);
    assertEquals((await owner.get(base)).body.value.apiCacheTTL, 321, "committed");
    // A projection that read the generation before the write committed and the tenant
    // after it can land first: the new state at the old generation (it is at least that
    // new, projector.ts). The write's own generation follows it.
    await until(
      "the projector",
      async () =>
        (await readSnapshot(app.services.kv, slug))?.cacheTtl === 321 &&
        await storedGeneration(app.services.kv, slug) > genBefore,
    );
    assert(await storedGeneration(app.services.kv, slug) > genBefore);
  },
);

flakyTest(
  "POST edge-config reports a snapshot that was behind and repairs it",
  // The loop is slow here so that edge-config is the one to find KV behind.
  { EDGE_PROJECTOR_INTERVAL_MS: "600000" },
  async (app, flaky) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const base = `/api/tenants/${slug}`;
    // The projector's boot tick (500 ms after start) repairs a behind snapshot; let it pass
    // first, or under load it does the repair edge-config is meant to find (flaky before).
    await new Promise((r) => setTimeout(r, 1_500));
    flaky.state.failing = true;
    try {
      assertEquals((await owner.post(`${base}/refresh-cache`, { type: "api" })).status, 200);
    } finally {
      flaky.state.failing = false;
    }
    assertEquals((await readSnapshot(app.services.kv, slug))?.versions.api, 1, "KV is behind");
    const r = await owner.post(`${base}/edge-config`);
    assertEquals(r.status, 200);
    assertEquals(r.body.kv.wasBehind, true);
    assertEquals(r.body.kv.repaired, true);
    assertEquals(r.body.summary.versions.apiCacheVersion, 2);
    const again = await owner.post(`${base}/edge-config`);
    assertEquals(again.body.kv.wasBehind, false, "up to date now");
  },
);

flakyTest(
  "deleting a tenant while KV fails still answers success and the edge forgets it",
  { EDGE_PROJECTOR_INTERVAL_MS: "50" },
  async (app, flaky) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    flaky.state.failing = true;
    let status: number;
    try {
      status = (await owner.delete(`/api/tenants/${slug}`)).status;
    } finally {
      flaky.state.failing = false;
    }
    assert(status < 300, `delete answered ${status}`);
    await until("the tombstone", async () => (await readSnapshot(app.services.kv, slug)) === null);
  },
);

dbTest(
  "an api-config change never undoes a concurrent AI settings change (key by key)",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const s = app.services;
    const stale = (await findTenantBySlug(s, slug))!; // what the api-config request read
    await updateAiSettings(s, stale, owner.userId, { monthlyTokenCap: 5000 });
    await updateTenant(s, stale, owner.userId, { previewParam: "draft" });
    const t = (await findTenantBySlug(s, slug))!;
    assertEquals(t.settings.monthlyTokenCap, 5000);
    assertEquals(t.settings.previewParam, "draft");
    assertEquals((await readSnapshot(s.kv, slug))?.ai.limits.monthlyTokenCap, 5000);
  },
);

flakyTest(
  "a cache-refresh webhook whose KV step fails records no kvSyncedAt; a synced one does",
  { EDGE_PROJECTOR_INTERVAL_MS: "600000" },
  async (app, flaky) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const hooks = `/api/tenants/${slug}/cache-refresh-webhooks`;
    const created = await owner.post(hooks, { provider: "contentful" });
    assertEquals(created.status, 201, created.text);
    const receiver = new URL(created.body.url).pathname;
    const deliver = () =>
      owner.post(receiver, { sys: { id: "x" } }, {
        "x-contentful-topic": "ContentManagement.Entry.publish",
      });
    flaky.state.failing = true;
    try {
      assertEquals((await deliver()).status, 200, "committed: a success");
    } finally {
      flaky.state.failing = false;
    }
    assertEquals((await deliver()).status, 200);
    const ev = await owner.get(`${hooks}/${created.body.webhook.id}/events`);
    const byVersion = [...ev.body.events].sort((a, b) =>
      a.nextApiCacheVersion - b.nextApiCacheVersion
    );
    assertEquals(byVersion.map((e) => e.status), ["synced", "synced"]);
    assertEquals(byVersion[0].kvSyncedAt, null, "deferred to the projector: not synced to KV");
    assert(typeof byVersion[1].kvSyncedAt === "string", "projected: synced to KV");
  },
);
