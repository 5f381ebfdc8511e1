/**
 * After a KV loss or restore, an instance that starts rebuilds every snapshot
 * KV no longer holds (or holds at an older generation) by itself: the projector's
 * reconcile pass, no edge-config call or admin resync needed.
 */
import { assert, assertEquals } from "./assert.ts";
import { createTenant, dbTest, secondInstance, signUp } from "./harness.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import { readSnapshot, storedGeneration } from "../lib/kv/snapshot.ts";
import { reconcileKv } from "../lib/edge_config/reconcile.ts";
import { installationId } from "../lib/edge_config/installation.ts";

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

// The loop's interval is long: only the pass at boot can repair KV in this test.
const SLOW = { EDGE_PROJECTOR_INTERVAL_MS: "600000" };

dbTest("an instance started after KV lost snapshots rebuilds them at boot", async (app) => {
  const owner = await signUp(app);
  const lost = await createTenant(owner);
  const kept = await createTenant(owner);
  const older = await createTenant(owner);
  const kv = app.services.kv;
  const olderGen = await storedGeneration(kv, older);
  assertEquals(
    (await owner.post(`/api/tenants/${older}/refresh-cache`, { type: "api" })).status,
    200,
  );
  const keptGen = await storedGeneration(kv, kept);

  // Let the first instance's own boot pass finish: from here only a new instance's pass runs.
  await new Promise((r) => setTimeout(r, 800));
  // KV loses one tenant's head and is "restored" to an older generation for another.
  await kv.delete(kvKeys.snapshotHead(lost));
  const head = await kv.get<{ gen: number }>(kvKeys.snapshotHead(older));
  await kv.set(kvKeys.snapshotHead(older), { ...head.value!, gen: olderGen });
  assertEquals(await readSnapshot(kv, lost), null);

  // A second instance on the same database and KV (closing it leaves both open).
  const second = await secondInstance(app, SLOW);
  try {
    await until("the reconcile pass", async () => (await readSnapshot(kv, lost)) !== null);
    await until("the older generation", async () => (await storedGeneration(kv, older)) > olderGen);
    assertEquals((await readSnapshot(kv, older))?.versions.api, 2, "rebuilt from the database");
    assertEquals(await storedGeneration(kv, kept), keptGen, "an up-to-date snapshot is left alone");
  } finally {
    await second.close();
  }
}, { env: SLOW });

dbTest("a reconcile pass repairs only what KV is behind on", async (app) => {
  const owner = await signUp(app);
  const slugs = [
    await createTenant(owner),
    await createTenant(owner),
    await createTenant(owner),
  ].sort();
  await app.services.kv.delete(kvKeys.snapshotHead(slugs[1]));
  const id = await installationId(app.services.dbHandle);
  const first = await reconcileKv(app.services, id, "current");
  assertEquals([first.projected, first.ghosts, first.routesDeleted], [1, 0, 0]);
  assert((await readSnapshot(app.services.kv, slugs[1])) !== null);
  assertEquals((await reconcileKv(app.services, id, "current")).projected, 0, "nothing left");
}, { env: SLOW });
