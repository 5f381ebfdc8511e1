/**
 * The change log every instance follows to drop what it memoised (edge/change_feed.ts):
 * a write the edge reads (tenant snapshot, host routes, quota snapshot) adds an entry
 * `{ kind, id }` and touches the bell key in the same atomic operation, so a committed
 * change is always announced. Followers read the bell (one small key) and, when its
 * versionstamp moved, list the entries of the last few seconds. Entries expire on their
 * own; a follower that missed them falls back to the snapshot TTL and staleness bound.
 */
import { kvKeys } from "./keys.ts";

export type ChangeKind = "tenant" | "quota";
export type Change = { kind: ChangeKind; id: string };

/** How long an entry stays; a follower cut off for longer forgets everything it memoised. */
export const CHANGE_ENTRY_TTL_MS = 10 * 60_000;

/**
 * Adds the announcement of a change to `op` (call it inside the retry loop that builds
 * the operation: the entry's time is the attempt's, close to its commit).
 */
export function announceChange(op: Deno.AtomicOperation, change: Change): Deno.AtomicOperation {
  const at = Date.now();
  return op
    .set(kvKeys.changeEntry(at, crypto.randomUUID()), change, { expireIn: CHANGE_ENTRY_TTL_MS })
    .set(kvKeys.changeBell(), at);
}

/** The bell's versionstamp: it moves with every announced change. */
export async function changeBell(kv: Deno.Kv): Promise<string | null> {
  return (await kv.get(kvKeys.changeBell())).versionstamp;
}

/** Entries written at or after `since` (wall-clock ms), with the id that tells them apart. */
export async function changesSince(
  kv: Deno.Kv,
  since: number,
): Promise<{ at: number; id: string; change: Change }[]> {
  const out = [];
  const iter = kv.list<Change>({
    prefix: kvKeys.changeLog(),
    start: kvKeys.changeEntry(since, ""),
  });
  for await (const e of iter) {
    out.push({ at: e.key[2] as number, id: e.key[3] as string, change: e.value });
  }
  return out;
}
