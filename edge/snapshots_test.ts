import { assertEquals } from "../tests/assert.ts";
import { kvSnapshotSource, SnapshotCache } from "./snapshots.ts";
import { ManualClock } from "../lib/clock.ts";
import { type EdgeSnapshot, writeHostRoute, writeSnapshot } from "../lib/kv/snapshot.ts";

const snap = (tenantId: number) =>
  ({ v: 1, slug: "acme", tenantId, domains: [] }) as unknown as EdgeSnapshot;

Deno.test("SnapshotCache.get() memoises, then serves the old value while one reload runs", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const clock = new ManualClock();
    const cache = new SnapshotCache(kvSnapshotSource(kv), clock, 1000);
    await writeSnapshot(kv, snap(1));
    assertEquals((await cache.get("acme"))?.tenantId, 1);
    await writeSnapshot(kv, snap(2));
    assertEquals((cache.get("acme") as EdgeSnapshot).tenantId, 1, "fresh memo, synchronous");
    clock.advance(1001);
    assertEquals((cache.get("acme") as EdgeSnapshot).tenantId, 1, "expired: old value at once");
    await new Promise((r) => setTimeout(r, 20)); // the background reload lands
    assertEquals((cache.get("acme") as EdgeSnapshot).tenantId, 2);
  } finally {
    kv.close();
  }
});

Deno.test("SnapshotCache.invalidate() makes the next read go to KV; domains resolve to slugs", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const cache = new SnapshotCache(kvSnapshotSource(kv), new ManualClock(), 60_000);
    await writeSnapshot(kv, snap(1));
    await cache.get("acme");
    await writeSnapshot(kv, snap(3));
    cache.invalidate("acme");
    assertEquals((await cache.get("acme"))?.tenantId, 3);
    assertEquals(await cache.domain("shop.example"), null);
    await writeHostRoute(kv, "shop.example", "acme");
    cache.invalidate("acme");
    assertEquals(await cache.domain("shop.example"), "acme");
    assertEquals(await cache.get("nosuch"), null);
  } finally {
    kv.close();
  }
});

Deno.test("SnapshotCache.get() never serves a value older than the staleness bound", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const clock = new ManualClock();
    const cache = new SnapshotCache(kvSnapshotSource(kv), clock, 1000, 5000);
    await writeSnapshot(kv, snap(1));
    assertEquals((await cache.get("acme"))?.tenantId, 1);
    await writeSnapshot(kv, snap(2));
    clock.advance(10_000); // an idle instance: its memo is past the bound
    const got = cache.get("acme");
    assertEquals(got instanceof Promise, true, "waits for KV instead of answering stale");
    assertEquals((await got)?.tenantId, 2);
  } finally {
    kv.close();
  }
});

Deno.test("SnapshotCache: a background reload that fails after invalidate() is never an unhandled rejection", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  const cache = new SnapshotCache(kvSnapshotSource(kv), clock, 1000);
  await writeSnapshot(kv, snap(1));
  assertEquals((await cache.get("acme"))?.tenantId, 1);
  clock.advance(1001);
  // the old value is served at once while one reload runs in the background...
  assertEquals((cache.get("acme") as EdgeSnapshot).tenantId, 1);
  // ...which then fails (the store closes, as on shutdown) after the value was invalidated
  cache.invalidate("acme");
  kv.close();
  await new Promise((r) => setTimeout(r, 20));
  // the next read waits for KV and reports the failure to its caller
  let err: unknown;
  try {
    await cache.get("acme");
  } catch (e) {
    err = e;
  }
  assertEquals(err instanceof Error, true);
});
