/**
 * A single pending mailed token per user (email verification, password reset): the token's
 * SHA-256 is a KV key holding its entry, and a per-user pointer names the current hash. A new
 * token replaces the pointer and deletes the entry it pointed to, in one atomic checked
 * against the pointer read: of two issues at once, one retries, so exactly one link works.
 */
import { kvCompareAndSet, LOST_RACE } from "./compare_and_set.ts";

export async function replacePendingToken(
  kv: Deno.Kv,
  o: {
    /** The entry key of a token hash. */
    entryKey: (hash: string) => Deno.KvKey;
    /** The user's pointer to the current hash. */
    pointerKey: Deno.KvKey;
    hash: string;
    entry: unknown;
    ttlMs: number;
  },
): Promise<void> {
  const ttl = { expireIn: o.ttlMs };
  await kvCompareAndSet(async () => {
    const previous = await kv.get<string>(o.pointerKey);
    const op = kv.atomic().check(previous)
      .set(o.entryKey(o.hash), o.entry, ttl)
      .set(o.pointerKey, o.hash, ttl);
    if (previous.value) op.delete(o.entryKey(previous.value));
    return (await op.commit()).ok ? true : LOST_RACE;
  }, {
    attempts: 10,
    exhausted: () => {
      throw new Error("pending token: too much contention");
    },
  });
}
