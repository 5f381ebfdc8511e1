/**
 * A wedged snapshot: an invalidation (of any tenant) arriving while a reload runs must not
 * leave the entry un-reloadable. First the reproduction (a global counter served one snapshot
 * for hours) on real KV, then a property test that interleaves writes, invalidations, clock steps,
 * reads and out-of-order read completions at random and checks every answer against
 * the bound.
 */
import { assert, assertEquals } from "../tests/assert.ts";
import { kvSnapshotSource, SnapshotCache, type SnapshotSource } from "./snapshots.ts";
import { ManualClock } from "../lib/clock.ts";
import { type EdgeSnapshot, writeSnapshot } from "../lib/kv/snapshot.ts";
import type { QuotaSnapshot } from "../lib/kv/quota.ts";
import { prng } from "../tests/sequential_sim.ts";

const snap = (slug: string, tenantId: number) =>
  ({ v: 1, slug, tenantId, domains: [] }) as unknown as EdgeSnapshot;

Deno.test("SnapshotCache: an unrelated invalidation during a reload does not wedge the entry (a global counter once served one snapshot for hours)", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const clock = new ManualClock();
    const cache = new SnapshotCache(kvSnapshotSource(kv), clock, 2_000, 10_000); // the defaults
    await writeSnapshot(kv, snap("acme", 1));
    assertEquals((await cache.get("acme"))?.tenantId, 1);
    clock.advance(2_001);
    cache.get("acme"); // expired: old value served, one reload starts...
    cache.invalidate("other"); // ...and a write to another tenant lands meanwhile
    await new Promise((r) => setTimeout(r, 20));
    await writeSnapshot(kv, snap("acme", 2)); // acme changes on another instance
    let seen = 0;
    for (let i = 0; i < 3_600; i++) { // an hour of one request a second
      clock.advance(1_000);
      seen = (await cache.get("acme"))?.tenantId ?? 0;
      if (seen === 2) break;
    }
    assertEquals(seen, 2, "the change is seen, not the old value an hour later");
  } finally {
    kv.close();
  }
});

type Read = { key: string; startVersion: number; settle(ok: boolean): void };

/**
 * A store whose reads finish only when the test says, in any order; a read returns the
 * version current when it started or when it finishes (KV may answer anywhere between).
 */
class ScriptedStore implements SnapshotSource {
  version = new Map<string, number>();
  reads: Read[] = [];
  constructor(private random: () => number) {}
  private read<T>(key: string, make: (v: number) => T): Promise<T> {
    const startVersion = this.version.get(key) ?? 0;
    return new Promise<T>((resolve, reject) => {
      this.reads.push({
        key,
        startVersion,
        settle: (ok) => {
          if (!ok) return reject(new Error("kv unavailable"));
          const v = this.random() < 0.5 ? startVersion : this.version.get(key) ?? 0;
          resolve(make(v));
        },
      });
    });
  }
  snapshot(slug: string) {
    return this.read(`s:${slug}`, (v) => snap(slug, v));
  }
  hostRoute(hostname: string) {
    return this.read(`h:${hostname}`, (v) => `v${v}`);
  }
  quota(userId: string) {
    return this.read(`q:${userId}`, (v) => ({ userId, publishedAt: v }) as QuotaSnapshot);
  }
}

const TTL = 1_000;
const MAX_STALE = 5_000;
const SLUGS = ["acme", "beta"];

async function runOnce(seed: number): Promise<string | null> {
  const random = prng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const clock = new ManualClock();
  const store = new ScriptedStore(random);
  const cache = new SnapshotCache(store, clock, TTL, MAX_STALE);
  // per slug: [time, version] of every write, and the last version announced by invalidate()
  const history = new Map<string, [number, number][]>(SLUGS.map((s) => [s, [[0, 0]]]));
  const announced = new Map<string, number>(SLUGS.map((s) => [s, 0]));
  const trace: string[] = [];
  let failure: string | null = null;
  /** The oldest version an answer to a read made at `at` may carry. */
  const floor = (slug: string, at: number) => {
    let v = 0;
    for (const [t, ver] of history.get(slug)!) if (t < at - MAX_STALE) v = ver; // an answer may be MAX_STALE old, not older
    return Math.max(v, announced.get(slug)!);
  };
  const check = (slug: string, min: number, got: EdgeSnapshot | null, how: string) => {
    if (!failure && (got?.tenantId ?? -1) < min) {
      failure = `${how} ${slug} answered v${got?.tenantId} < v${min}`;
    }
  };
  const drain = async () => {
    for (let i = 0; i < 8; i++) await Promise.resolve();
  };
  for (let step = 0; step < 200 && !failure; step++) {
    const r = random();
    const now = clock.now();
    if (r < 0.15) {
      const slug = pick(SLUGS);
      const v = (store.version.get(`s:${slug}`) ?? 0) + 1;
      store.version.set(`s:${slug}`, v);
      history.get(slug)!.push([now, v]);
      const notify = random() < 0.6; // the projector's listener, or a notification
      trace.push(`write ${slug} v${v}${notify ? " +invalidate" : ""}`);
      if (notify) {
        cache.invalidate(slug);
        announced.set(slug, v);
      }
    } else if (r < 0.25) {
      trace.push("invalidate unrelated");
      if (random() < 0.5) cache.invalidate("zeta");
      else cache.invalidateQuota("u1");
    } else if (r < 0.35) {
      const ms = Math.floor(random() * 2_500);
      trace.push(`advance ${ms}`);
      clock.advance(ms);
    } else if (r < 0.65) {
      const slug = pick(SLUGS);
      const min = floor(slug, now); // what this read must reflect, fixed when it is made
      const got = cache.get(slug);
      trace.push(`get ${slug}${got instanceof Promise ? " (waits)" : ""}`);
      if (got instanceof Promise) {
        got.then((s) => check(slug, min, s, "awaited get"), () => {});
      } else check(slug, min, got, "get");
      if (random() < 0.2) cache.domain("shop.example");
      if (random() < 0.2) cache.quota("u1");
    } else if (store.reads.length > 0) {
      const i = Math.floor(random() * store.reads.length);
      const [read] = store.reads.splice(i, 1);
      const ok = random() < 0.9;
      trace.push(`${ok ? "finish" : "fail"} read ${read.key}@v${read.startVersion}`);
      read.settle(ok);
    }
    await drain();
  }
  // Liveness: once reads complete, a read past the bound returns the latest version.
  for (const slug of SLUGS) {
    if (failure) break;
    clock.advance(MAX_STALE + 1);
    const got = cache.get(slug);
    while (store.reads.length > 0) store.reads.shift()!.settle(true);
    await drain();
    const latest = store.version.get(`s:${slug}`) ?? 0;
    if (((await got)?.tenantId ?? -1) < latest) failure = `final get ${slug} is not v${latest}`;
  }
  return failure ? `seed ${seed}: ${failure}\n  ${trace.slice(-25).join("\n  ")}` : null;
}

Deno.test("SnapshotCache property: no interleaving of writes, invalidations and reloads serves past the bound", async () => {
  const base = Number(Deno.env.get("SNAPSHOT_PROPERTY_SEED") ?? Date.now() % 1_000_000);
  for (let i = 0; i < 400; i++) {
    const failure = await runOnce(base + i);
    assert(failure === null, failure ?? "");
  }
});
