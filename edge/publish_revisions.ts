/**
 * Read your publish: after a webhook announced an entity at revision R (its entity purge
 * record carries the announcement, lib/webhooks/entity_purge.ts), a refetched answer that
 * still shows the entity as it was (an older revision, still served after an unpublish, or
 * missing from the whole list of its type: the CMS's CDN lags behind) is not kept for the
 * TTL. It is kept for a back-off step only (0.25, 0.5, 1, 2, 4 s ...), marked
 * `x-cachely-behind`, and served STALE past it while one refetch runs; once it shows the
 * publish it is stored as usual. After PUBLISH_WAIT_MS the edge gives up, logs why, and stores
 * what the CMS serves.
 */
import {
  type Announced,
  announcementsOf,
  PUBLISH_WAIT_MS,
  type PurgeRecord,
} from "../lib/kv/snapshot.ts";
import {
  type AnswerEntities,
  bodyRevisions,
  type EntityKnowledge,
  olderRevision,
} from "../sdk/entities/mod.ts";

const FIRST_STEP_MS = 250;

/** The latest announcement per entity id, with the time of its purge. */
type ById = Map<string, { a: Announced; at: number }>;
const announcedMemo = new WeakMap<PurgeRecord[], ById>();

/**
 * The latest announcement per entity id in a tenant's purge records, a merged record's each
 * at its own time (memoised per list).
 */
function announcedOf(purges: PurgeRecord[]): ById {
  let m = announcedMemo.get(purges);
  if (m) return m;
  m = new Map();
  for (const p of purges) {
    for (const a of announcementsOf(p)) for (const id of a.ids) m.set(id, { a, at: a.at });
  }
  announcedMemo.set(purges, m);
  return m;
}

/**
 * How the answer still shows the entities as they were before a publish announced within
 * PUBLISH_WAIT_MS (`id: have < want`, `id: missing`, `id: still served`); null when it does not:
 * - an announced revision newer than the one the body holds;
 * - an unpublished or deleted entity the body still holds;
 * - a published entity of a type whose whole list (AnswerEntities.complete) lacks it.
 */
export function behindPublish(
  purges: PurgeRecord[] | undefined,
  k: EntityKnowledge,
  answer: AnswerEntities,
  body: unknown,
  now: number,
): string | null {
  if (!purges?.length) return null;
  const byId = announcedOf(purges);
  if (byId.size === 0) return null;
  const recent = (id: string) => {
    const e = byId.get(id);
    return e !== undefined && now - e.at <= PUBLISH_WAIT_MS ? e.a : undefined;
  };
  const held = new Set(answer.ids);
  const wanted = new Set<string>();
  for (const id of answer.ids) {
    const a = recent(id);
    if (a === undefined) continue;
    if (a.action === "unpublish" || a.action === "delete") return `${id}: still served`;
    if (a.revisions[id] !== undefined) wanted.add(id);
  }
  if (wanted.size > 0 && k.revisionOf) {
    for (const [id, have] of bodyRevisions(body, k, wanted)) {
      const want = recent(id)!.revisions[id];
      if (olderRevision(have, want)) return `${id}: ${have} < ${want}`;
    }
  }
  if (answer.complete) {
    for (const [id] of byId) {
      const a = recent(id);
      if (a?.action !== "publish" || held.has(id) || a.types === null) continue;
      if (a.types.some((t) => answer.types.includes(t))) return `${id}: missing`;
    }
  }
  return null;
}

/** Per key: when its answer was first seen behind, and how many steps it waited. */
const waits = new Map<string, { first: number; n: number }>();
const MAX_WAITS = 10_000;

/**
 * The next back-off step for `key` (ms to keep the behind copy), or null when the wait since
 * it was first seen behind is over PUBLISH_WAIT_MS (give up).
 */
export function nextStep(key: string, now: number): number | null {
  let w = waits.get(key);
  if (w === undefined) {
    if (waits.size >= MAX_WAITS) waits.clear();
    waits.set(key, w = { first: now, n: 0 });
  }
  if (now - w.first >= PUBLISH_WAIT_MS) {
    waits.delete(key);
    return null;
  }
  const step = Math.min(FIRST_STEP_MS * 2 ** w.n++, PUBLISH_WAIT_MS - (now - w.first));
  return Math.max(step, 1);
}

/** The answer under `key` holds what was announced: its wait is over. */
export function caughtUp(key: string): void {
  if (waits.size > 0) waits.delete(key);
}
