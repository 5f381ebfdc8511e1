/**
 * Failed log-ins per (email, client IP): the first LOGIN_THROTTLE.freeFailures are free,
 * then each further failure doubles a wait (1 s, 2 s, 4 s ... up to 15 min) during which
 * that pair is answered 429. Keyed by the pair, so an attacker guessing from one address
 * slows only themselves: the owner logging in from anywhere else is never locked out
 * (docs/decisions.md "Log-in limits"). A success clears the pair. KV, so every
 * instance agrees; each update is a versionstamp-checked write, retried on a transient KV
 * error like every KV write (lib/kv/retry.ts).
 */
import { tooManyRequests } from "../errors.ts";
import { kvRetry } from "../kv/retry.ts";
import { kvCompareAndSet, LOST_RACE } from "../kv/compare_and_set.ts";

export const LOGIN_THROTTLE = {
  freeFailures: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  /** A pair with no failure for this long starts over. */
  memoryMs: 24 * 3_600_000,
};

type Failures = { count: number; until: number };

const key = (email: string, ip: string) =>
  ["login_throttle", email.trim().toLowerCase(), ip] as const;

/** 429 with Retry-After while the pair is waiting out its delay. */
export async function assertNotThrottled(
  kv: Deno.Kv,
  email: string,
  ip: string,
  now: number,
): Promise<void> {
  const f = (await kv.get<Failures>(key(email, ip))).value;
  if (f && f.until > now) {
    throw tooManyRequests(
      Math.max(1, Math.ceil((f.until - now) / 1000)),
      "Too many log-in attempts",
    );
  }
}

/** The delay after `count` failures (0 while they are free). */
export function delayAfter(count: number): number {
  const { freeFailures, baseDelayMs, maxDelayMs } = LOGIN_THROTTLE;
  if (count <= freeFailures) return 0;
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(count - freeFailures - 1, 30));
}

/** Counts one failure for the pair and starts its delay. */
export async function recordLoginFailure(
  kv: Deno.Kv,
  email: string,
  ip: string,
  now: number,
): Promise<void> {
  const k = key(email, ip);
  // read, count and write again as one step, so a retried step is exact
  await kvCompareAndSet(async () => {
    const cur = await kv.get<Failures>(k);
    const count = (cur.value?.count ?? 0) + 1;
    const next: Failures = { count, until: now + delayAfter(count) };
    const op = kv.atomic().check(cur).set(k, next, { expireIn: LOGIN_THROTTLE.memoryMs });
    return (await op.commit()).ok ? true : LOST_RACE;
  }, { attempts: 100, exhausted: () => false });
}

/** A successful log-in forgets the pair's failures. */
export async function clearLoginFailures(kv: Deno.Kv, email: string, ip: string): Promise<void> {
  await kvRetry(() => kv.delete(key(email, ip)));
}
