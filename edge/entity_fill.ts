/**
 * Tagging at fill time: an API answer fetched for the cache is tagged with the entities its
 * JSON body holds and the content types its request lists (the provider's knowledge,
 * sdk/entities/), so a webhook in "entities" scope purges exactly the answers a publish
 * touched (edge/cache/entity_tags.ts). An answer still holding an entity older than a
 * publish announced is kept only for a back-off step (edge/publish_revisions.ts). Runs on
 * misses and refreshes only, never on a hit.
 */
import type { Loaded } from "./cache/through.ts";
import { type EdgeSnapshot, PUBLISH_WAIT_MS } from "../lib/kv/snapshot.ts";
import type { Logger } from "../lib/log.ts";
import { ENTITIES } from "../sdk/entities/mod.ts";
import { answerTags } from "../lib/cache/entity_tags.ts";
import { tagObject } from "./cache/entity_tags.ts";
import { type CachedObject, cachedObject } from "./cache/object.ts";
import { behindPublish, caughtUp, nextStep } from "./publish_revisions.ts";

/** Bodies parsed for tags at most; a larger answer is tagged tenant-wide. */
const MAX_PARSED_BYTES = 4 * 1024 * 1024;
const dec = new TextDecoder();

export type Fill = {
  snap: EdgeSnapshot;
  apiPath: string;
  query: string;
  /** The cache key the answer is stored under. */
  key: string;
  log: Logger;
};

/** The answer's knowledge and entities, or null when it is tagged tenant-wide (done here). */
function parsed(f: Fill, obj: CachedObject) {
  const knowledge = ENTITIES[f.snap.cms];
  if (knowledge === null || knowledge === undefined) return null; // untagged: tenant-wide
  if (obj.bodyLength > MAX_PARSED_BYTES || !/json/i.test(obj.contentType)) {
    tagObject(obj, null);
    return null;
  }
  let body: unknown;
  try {
    body = JSON.parse(dec.decode(obj.body));
  } catch {
    tagObject(obj, null);
    return null;
  }
  return { knowledge, body, a: knowledge.answer(f.apiPath, new URLSearchParams(f.query), body) };
}

/**
 * Tags an answer read from the Web Cache tier (which keeps no tags): without them it would
 * count as tenant-wide, and every entity purge would drop it.
 */
export function tagPromoted(f: Fill, obj: CachedObject): void {
  const p = parsed(f, obj);
  if (p !== null) tagObject(obj, answerTags(p.a));
}

/** Tags a loaded API answer and hands it on (a copy kept briefly when behind a publish). */
export function tagLoaded(f: Fill, r: Loaded): Loaded {
  if (r.kind !== "object" || !r.cacheable) return r;
  const obj = r.obj;
  const p = parsed(f, obj);
  if (p === null) return r;
  const { knowledge, body, a } = p;
  const tags = answerTags(a);
  const behind = behindPublish(f.snap.purges, knowledge, a, body, obj.storedAt);
  if (behind === null) {
    caughtUp(f.key);
    tagObject(obj, tags);
    return r;
  }
  const step = nextStep(f.key, obj.storedAt);
  if (step === null) {
    f.log.warn("publish not visible upstream: stored what the CMS serves", {
      tenant: f.snap.slug,
      path: f.apiPath,
      behind,
      waitedMs: PUBLISH_WAIT_MS,
    });
    tagObject(obj, tags);
    return r;
  }
  const brief = behindCopy(obj, step, behind);
  tagObject(brief, tags);
  return { ...r, obj: brief };
}

/**
 * The answer kept for one back-off step, marked, never offered to a CDN; past the step it is
 * served STALE while one refetch runs (edge/cache/through.ts stale-while-revalidate).
 */
function behindCopy(obj: CachedObject, stepMs: number, behind: string): CachedObject {
  const headers: [string, string][] = [...obj.headers, ["x-cachely-behind", behind]];
  const copy = cachedObject(obj.status, headers, obj.body, obj.storedAt, stepMs, true);
  copy.swrMs = PUBLISH_WAIT_MS;
  copy.sieMs = obj.sieMs;
  return copy;
}
