/**
 * The prewarm's claims in KV (edge/prewarm.ts): which instance refetches each purged answer.
 * CLAIM_BATCH claims go in one atomic operation (each checked absent, then set), not one
 * operation per answer: every instance claims the same up to 100 answers per publish at the
 * same moment, and on a shared KV file each commit waits for the others' locks. The claims are
 * read first and only the open ones raced for: a late instance usually finds all taken and
 * writes nothing. The operation fails as a whole when any claim is taken meanwhile; the loser
 * then reads the claims and races again for those still open only.
 */
import { kvCommit, kvRetry } from "../lib/kv/retry.ts";

/** Claims per atomic operation (KV allows 100 checks per operation). */
export const CLAIM_BATCH = 50;
/** Races per batch: each one after the first follows a read that found some claims taken. */
const ROUNDS = 4;

/** For each key, true when this instance (`me`) won its claim. */
export async function claimAll(
  kv: Deno.Kv,
  keys: Deno.KvKey[],
  me: string,
  expireIn: number,
): Promise<boolean[]> {
  const won = keys.map(() => false);
  const batches: number[][] = [];
  for (let i = 0; i < keys.length; i += CLAIM_BATCH) {
    batches.push(keys.slice(i, i + CLAIM_BATCH).map((_, k) => i + k));
  }
  // Read first: usually another instance has claimed them all already, and a read takes no
  // write lock on the shared KV file (a failed atomic operation did, while the claimer writes).
  const open0 = new Set(await stillOpen(kv, keys, keys.map((_, i) => i)));
  await Promise.all(batches.map(async (whole) => {
    const batch = whole.filter((i) => open0.has(i));
    let open = batch;
    for (let round = 0; open.length > 0 && round < ROUNDS; round++) {
      const r = await kvCommit(() => {
        const op = kv.atomic();
        for (const i of open) {
          op.check({ key: keys[i], versionstamp: null }).set(keys[i], me, { expireIn });
        }
        return op;
      });
      if (r.ok) {
        for (const i of open) won[i] = true;
        return;
      }
      open = await stillOpen(kv, keys, open);
    }
  }));
  return won;
}

/** The claims of `open` nobody holds yet (read 10 at a time, KV's getMany limit). */
async function stillOpen(kv: Deno.Kv, keys: Deno.KvKey[], open: number[]): Promise<number[]> {
  const parts: number[][] = [];
  for (let i = 0; i < open.length; i += 10) parts.push(open.slice(i, i + 10));
  const read = await Promise.all(parts.map(async (part) => {
    const got = await kvRetry(() => kv.getMany(part.map((i) => keys[i])));
    return part.filter((_, k) => got[k].value === null);
  }));
  return read.flat();
}
