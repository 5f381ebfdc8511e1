/**
 * Fixed-window counters in Deno KV, exact under concurrency: each hit is a
 * check-and-set on the window's counter, retried on conflict, so N concurrent
 * callers against a limit L get exactly L admissions in a window.
 */
import { kvKeys } from "./keys.ts";
import { kvCompareAndSet, LOST_RACE } from "./compare_and_set.ts";

export type RateLimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

export async function hitRateLimit(
  kv: Deno.Kv,
  bucket: string,
  id: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<RateLimitResult> {
  const window = Math.floor(now / windowMs);
  const key = kvKeys.rateLimit(bucket, id, window);
  const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
  // A transient failure (another process holds the KV file) retries this one step: the
  // check makes the retry exact, so the limit is neither exceeded nor turned into a 500.
  return await kvCompareAndSet<RateLimitResult>(async () => {
    const cur = await kv.get<number>(key);
    const count = cur.value ?? 0;
    if (count >= limit) return { allowed: false, count, retryAfterSeconds };
    const res = await kv.atomic().check(cur).set(key, count + 1, { expireIn: windowMs * 2 })
      .commit();
    return res.ok ? { allowed: true, count: count + 1, retryAfterSeconds } : LOST_RACE;
  }, {
    attempts: 1000,
    // Pathological contention: refuse rather than admit beyond the limit.
    exhausted: () => ({ allowed: false, count: limit, retryAfterSeconds }),
  });
}
