/**
 * Each account's log-in budget across all client addresses, so rotating addresses (a botnet,
 * the networks of an IPv6 block) buys no more guesses. An attempt is counted before the
 * password is checked: the first ACCOUNT_THROTTLE.freeFailures are free, then each one starts a
 * wait for the next (1 s, 2 s, 4 s ... up to 60 s) during which every attempt for that email, from
 * anywhere and with any password, is answered 429 with Retry-After and not checked. A delay,
 * never a lock: the owner gets in after at most a minute, while a guesser is held to about one
 * guess a minute. A success clears the budget; one idle for `idleMs` starts over. A browser the
 * owner logged in from before skips it (known_device.ts).
 *
 * Keyed by the submitted email (normalised), registered or not, so the answers say nothing
 * about which addresses have accounts. KV, so every instance agrees; the count and the wait are
 * one versionstamp-checked write (concurrent attempts cannot share one free slot).
 */
import { tooManyRequests } from "../errors.ts";
import { kvRetry } from "../kv/retry.ts";
import { kvCompareAndSet, LOST_RACE } from "../kv/compare_and_set.ts";

export const ACCOUNT_THROTTLE = {
  freeFailures: 10,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  /** A budget with no attempt for this long starts over. */
  idleMs: 15 * 60_000,
};

type Budget = { count: number; until: number; lastAt: number };

const key = (email: string) => ["login_account", email.trim().toLowerCase()] as const;

/** The wait after `count` counted attempts (0 while they are free). */
function accountDelayAfter(count: number): number {
  const { freeFailures, baseDelayMs, maxDelayMs } = ACCOUNT_THROTTLE;
  if (count <= freeFailures) return 0;
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(count - freeFailures - 1, 30));
}

/**
 * Counts one attempt for the email, or refuses it (429, Retry-After naming the wait) while the
 * account is waiting out the delay its earlier attempts started.
 */
export async function takeAccountAttempt(kv: Deno.Kv, email: string, now: number): Promise<void> {
  const k = key(email);
  const { idleMs, maxDelayMs } = ACCOUNT_THROTTLE;
  const wait = await kvCompareAndSet(async () => {
    const cur = await kv.get<Budget>(k);
    const b = cur.value && now - cur.value.lastAt <= idleMs ? cur.value : null;
    if (b && b.until > now) return b.until - now;
    const count = (b?.count ?? 0) + 1;
    const next: Budget = { count, until: now + accountDelayAfter(count), lastAt: now };
    const op = kv.atomic().check(cur).set(k, next, { expireIn: idleMs + maxDelayMs });
    return (await op.commit()).ok ? 0 : LOST_RACE;
  }, {
    attempts: 100,
    // Pathological contention: refuse rather than count past the budget.
    exhausted: () => {
      throw tooManyRequests(1, "Too many log-in attempts");
    },
  });
  if (wait > 0) {
    throw tooManyRequests(Math.max(1, Math.ceil(wait / 1000)), "Too many log-in attempts");
  }
}

/** A successful log-in gives the account its whole budget back. */
export async function clearAccountAttempts(kv: Deno.Kv, email: string): Promise<void> {
  await kvRetry(() => kv.delete(key(email)));
}
