/**
 * The entity tags of cached API answers (lib/cache/entity_tags.ts), kept beside the objects
 * rather than on them: only tagged answers pay for them, and an object dropped from the
 * cache drops its tags. An API object without an entry (read from the Web Cache tier,
 * transformed, stored before tagging, or of a provider without entity knowledge) is treated
 * as tagged tenant-wide: an entity purge reaches it.
 *
 * Cost: nothing while the tenant has no entity purge (no `...-entities` tag in its index);
 * after one, an object older than it is checked once per purge list (the clear is noted on
 * the entry), not on every hit.
 */
import type { CachedObject } from "./object.ts";
import { WIDE_TAG } from "../../lib/cache/entity_tags.ts";
import { tenantTag } from "../../lib/cdn/tags.ts";

type Entry = { tags: string[] | null; clearedAt: number };
const tagged = new WeakMap<CachedObject, Entry>();

/** Tags `obj` with its short entity tags (null: tenant-wide). */
export function tagObject(obj: CachedObject, tags: string[] | null): void {
  tagged.set(obj, { tags, clearedAt: -1 });
}

/**
 * True when an entity purge newer than `obj` names one of its entity tags. `index` maps tag
 * -> time of the latest purge naming it; `latest` is the tenant's latest purge time.
 */
export function entityPurged(
  index: Map<string, number>,
  obj: CachedObject,
  tenantId: number,
  latest: number,
): boolean {
  const e = tagged.get(obj);
  if (e !== undefined && e.clearedAt === latest) return false; // checked against this list
  const ns = namespaceOf(tenantId);
  const wideAt = index.get(ns + WIDE_TAG);
  const at = obj.storedAt;
  if (wideAt === undefined || at > wideAt) return false; // no entity purge since it was stored
  if (e === undefined || e.tags === null) return true;
  for (const t of e.tags) {
    const p = index.get(ns + t);
    if (p !== undefined && at <= p) return true;
  }
  e.clearedAt = latest;
  return false;
}

/**
 * The full tags under which an entity purge reaches `obj` (the Cache page's "last purge"): its
 * own, or the tenant-wide tag when it has none. Not on the hit path.
 */
export function entityTagsOf(obj: CachedObject, tenantId: number): string[] {
  const ns = namespaceOf(tenantId);
  const e = tagged.get(obj);
  return e === undefined || e.tags === null ? [ns + WIDE_TAG] : e.tags.map((t) => ns + t);
}

/** `cachely-t<id>-`, kept per tenant (no string built per check). */
const namespaces = new Map<number, string>();
function namespaceOf(tenantId: number): string {
  let ns = namespaces.get(tenantId);
  if (ns === undefined) {
    if (namespaces.size >= 10_000) namespaces.clear();
    namespaces.set(tenantId, ns = `${tenantTag(tenantId)}-`);
  }
  return ns;
}
