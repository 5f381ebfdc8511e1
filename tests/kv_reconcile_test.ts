/**
 * KV against the database it came from: a KV wiped under
 * a running instance is rebuilt in full at the next projector tick; ghost tenants and host
 * routes with no database row are removed; a foreign KV, or a database restored behind KV,
 * is detected at boot and KV is rebuilt before the edge serves, after which later changes
 * reach KV again.
 */
import { assert, assertEquals } from "./assert.ts";
import { createTenant, dbTest, secondInstance, signUp } from "./harness.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import {
  type EdgeSnapshot,
  readHostRoute,
  readSnapshot,
  storedGeneration,
  writeSnapshot,
} from "../lib/kv/snapshot.ts";
import { kvState, reconcileKv } from "../lib/edge_config/reconcile.ts";
import { installationId } from "../lib/edge_config/installation.ts";

/** The loop's interval is long: only the boot check can repair KV. */
const SLOW = { EDGE_PROJECTOR_INTERVAL_MS: "600000" };

async function wipe(kv: Deno.Kv): Promise<void> {
  for await (const e of kv.list({ prefix: [] })) await kv.delete(e.key);
}

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < ms) {
    if (await check()) return performance.now() - start;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const ghost = (slug: string, domains: string[]) =>
  ({ v: 1, slug, tenantId: 999, domains, versions: { api: 7 } }) as unknown as EdgeSnapshot;

dbTest("KV wiped under a running instance: every tenant is back within a tick", async (app) => {
  const owner = await signUp(app);
  const slugs = [await createTenant(owner), await createTenant(owner), await createTenant(owner)];
  const kv = app.services.kv;
  await new Promise((r) => setTimeout(r, 700)); // the boot pass is over
  await wipe(kv);
  const ms = await until("every snapshot and the marker", async () => {
    for (const slug of slugs) if (!await readSnapshot(kv, slug)) return false;
    return (await kv.get(kvKeys.installation())).value !== null;
  }, 5_000);
  console.log(`kv_reconcile_test: ${slugs.length} tenants back ${Math.round(ms)} ms after a wipe`);
  assertEquals((await kv.get(kvKeys.installation())).value, {
    id: await installationId(app.services.dbHandle),
  });
}, { env: { EDGE_PROJECTOR_INTERVAL_MS: "200" } });

dbTest(
  "the reconcile pass removes ghost tenants and host routes no snapshot lists",
  async (app) => {
    const owner = await signUp(app);
    const real = await createTenant(owner);
    const kv = app.services.kv;
    await writeSnapshot(kv, ghost("ghost", ["ghost.example"]), 5);
    await kv.set(kvKeys.hostRoute("stray.example"), real); // real exists, but not this domain
    assertEquals((await readSnapshot(kv, "ghost"))?.tenantId, 999);
    const r = await reconcileKv(
      app.services,
      await installationId(app.services.dbHandle),
      "current",
    );
    assertEquals([r.ghosts, r.routesDeleted], [1, 1]);
    assertEquals(await readSnapshot(kv, "ghost"), null);
    assertEquals(await readHostRoute(kv, "ghost.example"), null);
    assertEquals(await readHostRoute(kv, "stray.example"), null);
    assert((await readSnapshot(kv, real)) !== null, "the real tenant stays");
    // the edge answers 404 for the ghost at once (its memo was invalidated)
    const res = await app.handler(
      new Request("http://ghost.localhost:8000/~api/x", {
        headers: { host: "ghost.localhost:8000" },
      }),
      { remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 1 } } as never,
    );
    assertEquals(res.status, 404);
    await res.body?.cancel();
  },
);

dbTest("a foreign KV is detected at boot and rebuilt before the edge serves", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const kv = app.services.kv;
  // KV filled from another database: its marker, a newer snapshot of the same slug, a ghost.
  await kv.set(kvKeys.installation(), { id: "another-database" });
  await writeSnapshot(kv, { ...ghost(slug, []), tenantId: 4242 }, 1e9);
  await writeSnapshot(kv, ghost("elsewhere", ["elsewhere.example"]), 1e9);
  assertEquals(await kvState(app.services, await installationId(app.services.dbHandle)), "foreign");
  const second = await secondInstance(app, SLOW);
  try {
    // no waiting: bootstrap returned, so the edge may serve now
    const snap = await readSnapshot(kv, slug);
    assertEquals(snap?.installation, await installationId(app.services.dbHandle));
    assert(snap?.tenantId !== 4242, "rebuilt from this database");
    assertEquals(await readSnapshot(kv, "elsewhere"), null);
    assertEquals(await readHostRoute(kv, "elsewhere.example"), null);
    // later changes win over the foreign generation
    const gen = await storedGeneration(kv, slug);
    assertEquals(
      (await owner.post(`/api/tenants/${slug}/refresh-cache`, { type: "api" })).status,
      200,
    );
    assert(await storedGeneration(kv, slug) > gen);
  } finally {
    await second.close();
  }
});

dbTest(
  "a database restored behind KV is detected at boot; later changes reach KV again",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const kv = app.services.kv;
    const q = (sql: string) => app.services.dbHandle.query(sql);
    const [{ generation }] = await q(
      `SELECT generation FROM edge_changes WHERE slug = '${slug}'`,
    ) as {
      generation: number;
    }[];
    // "the dump": state at this generation; then two bumps land in the database and KV
    for (let i = 0; i < 2; i++) {
      assertEquals(
        (await owner.post(`/api/tenants/${slug}/refresh-cache`, { type: "api" })).status,
        200,
      );
    }
    assertEquals((await readSnapshot(kv, slug))?.versions.api, 3);
    // "the restore": the database goes back to the dump, KV keeps the newer state
    await q(`UPDATE tenants SET api_cache_version = 1 WHERE slug = '${slug}'`);
    await q(`UPDATE edge_changes SET generation = ${generation} WHERE slug = '${slug}'`);
    await q(`SELECT setval('edge_generation_seq', ${generation})`);
    assertEquals(
      await kvState(app.services, await installationId(app.services.dbHandle)),
      "restored",
    );
    const second = await secondInstance(app, SLOW);
    try {
      assertEquals(
        (await readSnapshot(kv, slug))?.versions.api,
        1,
        "KV follows the restored database",
      );
      const r = await owner.post(`/api/tenants/${slug}/refresh-cache`, { type: "api" });
      assertEquals(r.status, 200);
      assertEquals((await readSnapshot(kv, slug))?.versions.api, 2, "a later change reaches KV");
    } finally {
      await second.close();
    }
  },
);
