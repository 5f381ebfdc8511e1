/**
 * The memory guard against a model of the process: RSS = a fixed part + 1.3 × the cache's
 * counted bytes (a 2 KB entry is charged ~2.6 KB and costs ~2.5 KB resident, plus garbage),
 * read through the guard's `rss` hook.
 */
import { assert, assertEquals } from "../../tests/assert.ts";
import { cachedObject, EdgeCache } from "./store.ts";
import { FLOOR_BYTES, HOLD_AT, MemoryGuard, SHRINK_AT } from "./memory_guard.ts";

const MiB = 1024 * 1024;
const body = new Uint8Array(2048).fill(7);
const entry = (i: number) =>
  cachedObject(200, [["content-type", "application/json"]], body, 1.8e12 + i, 60_000);

function modelled(limitMb: number, fixedMb: number) {
  let extra = 0;
  let cache: EdgeCache | undefined = undefined;
  const rss = () => fixedMb * MiB + extra + 1.3 * (cache?.lru.bytes ?? 0);
  cache = new EdgeCache({
    maxBytes: 1024 * MiB,
    clock: { now: () => 0 },
    webCacheName: null,
    memoryLimitBytes: limitMb * MiB,
    rss,
  });
  return { cache, rss, grow: (mb: number) => extra += mb * MiB };
}

Deno.test("the guard keeps a filling cache's process under the limit at every store", () => {
  const m = modelled(256, 120);
  try {
    let peak = 0;
    for (let i = 0; i < 60_000; i++) {
      m.cache.store(`k${i}`, entry(i));
      peak = Math.max(peak, m.rss());
    }
    // Without the guard the bound (1 GiB) lets this model reach 120 + 1.3 × 152 = 318 MiB.
    assert(peak <= 256 * MiB, `peak ${(peak / MiB).toFixed(1)} MiB`);
    // Held at HOLD_AT: (0.75 × 256 − 120) / 1.3 = 55 MiB of cache.
    assert(m.cache.lru.bytes > 45 * MiB, "the cache still uses the room there is");
  } finally {
    m.cache.close();
  }
});

Deno.test("memory taken elsewhere shrinks the bound; freed memory lets it grow back", () => {
  let rss = 0;
  let now = 0;
  const lru = {
    bytes: 0,
    maxBytes: 200 * MiB,
    resize(n: number) {
      this.maxBytes = n;
      this.bytes = Math.min(this.bytes, n);
    },
  };
  const guard = new MemoryGuard(lru, {
    limitBytes: 500 * MiB,
    maxBytes: 200 * MiB,
    rss: () => rss,
    now: () => now,
  });
  lru.bytes = 190 * MiB;
  rss = 300 * MiB; // under every threshold: nothing moves
  guard.check();
  assertEquals(lru.maxBytes, 200 * MiB);
  rss = 400 * MiB; // ≥ HOLD_AT: the bound stops at what the cache holds
  guard.check();
  assertEquals(lru.maxBytes, 190 * MiB);
  rss = 450 * MiB; // ≥ SHRINK_AT: down by the overshoot over HOLD_AT
  guard.check();
  assertEquals(lru.maxBytes, 190 * MiB - (450 - 500 * HOLD_AT) * MiB);
  const once = lru.maxBytes;
  now += 100; // RSS lags behind evictions: no second shrink before it settles
  guard.check();
  assertEquals(lru.maxBytes, once);
  now += 5_000;
  rss = 499 * MiB; // settled and still high: shrinks again, never below the floor
  guard.check();
  assert(lru.maxBytes < once);
  rss = 2_000 * MiB;
  now += 5_000;
  guard.check();
  assertEquals(lru.maxBytes, FLOOR_BYTES);
  rss = 200 * MiB; // memory freed: the bound grows back, at most to EDGE_CACHE_MAX_BYTES
  for (let i = 0; i < 20; i++) guard.check();
  assertEquals(lru.maxBytes, 200 * MiB);
  assert(SHRINK_AT > HOLD_AT);
});

Deno.test("resize() evicts the oldest entries down to the new bound at once", () => {
  const cache = new EdgeCache({ maxBytes: 64 * MiB, clock: { now: () => 0 }, webCacheName: null });
  for (let i = 0; i < 1000; i++) cache.store(`k${i}`, entry(i));
  const per = cache.lru.bytes / 1000;
  cache.lru.resize(per * 100);
  assertEquals(cache.lru.count, 100);
  assertEquals(cache.peek("k899"), undefined);
  assert(cache.peek("k900") !== undefined);
});
