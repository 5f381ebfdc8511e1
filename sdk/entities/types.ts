/**
 * What a CMS answer or a CMS webhook says about entities (entries, documents, stories,
 * assets): the shapes each provider's knowledge fills in (sdk/entities/mod.ts). Ids and
 * content types become cache tags at the edge (edge/entity_tags.ts); a webhook's notice
 * names the tags a publish purges (lib/webhooks/entity_purge.ts).
 *
 * Dependency-free, like sdk/providers.ts.
 *
 * @module
 */

/** Tags one cached answer may carry; past it the answer is tagged tenant-wide. */
export const MAX_ANSWER_TAGS = 256;
/** Ids one webhook may name; past it the webhook purges like a version bump. */
export const MAX_NOTICE_IDS = 100;
/** Longest id or content type kept as a tag (longer ones make the answer tenant-wide). */
export const MAX_ENTITY_NAME = 200;

/** The entities of one API answer. */
export type AnswerEntities = {
  /** Ids of every entity the body holds (entries, assets, documents, stories, included ones). */
  ids: string[];
  /** Content types the request names (a list query's filter). */
  types: string[];
  /** The request is a list query: a newly published entity may belong in it. */
  list: boolean;
  /** Too many ids, or one that cannot be a tag: tag the answer tenant-wide. */
  wide: boolean;
  /**
   * A list of its types filtered by nothing else and holding every match (no further page):
   * a published entity of those types must be in it.
   */
  complete: boolean;
};

/** What a publish, unpublish or delete webhook announces. */
export type EntityNotice = {
  action: "publish" | "unpublish" | "delete" | "change";
  ids: string[];
  /** Content types of the entities; null when the payload names none (every list is purged). */
  types: string[] | null;
  /** The announced revision per id (Contentful sys.revision, Sanity _rev, ...), where given. */
  revisions: Record<string, string | number>;
};

/** A webhook whose payload names no entity it can purge by: why. */
export type NoNotice = { reason: string };

/** One provider's entity knowledge. */
export type EntityKnowledge = {
  /** Entities of an answer to `path?params` whose JSON body is `body`. */
  answer(path: string, params: URLSearchParams, body: unknown): AnswerEntities;
  /** The entities a webhook delivery announces, or why it names none usable. */
  notice(headers: Headers, body: unknown): EntityNotice | NoNotice;
  /**
   * An entity object's id and its ordered revision, where the provider's webhook announces
   * one to compare with (Contentful sys.revision, Sanity _updatedAt); absent otherwise.
   */
  revisionOf?(o: Record<string, unknown>): [string, string | number] | null;
};

/**
 * The lowest revision the body holds of each of `wanted` (an entity may appear more than
 * once: included, linked, per locale). Bounded like collectIds.
 */
export function bodyRevisions(
  body: unknown,
  k: EntityKnowledge,
  wanted: ReadonlySet<string>,
): Map<string, string | number> {
  const out = new Map<string, string | number>();
  if (!k.revisionOf) return out;
  const revisionOf = k.revisionOf;
  collectIds(body, (o) => {
    const r = revisionOf(o);
    if (r === null || !wanted.has(r[0])) return null;
    const cur = out.get(r[0]);
    if (cur === undefined || olderRevision(r[1], cur)) out.set(r[0], r[1]);
    return null;
  });
  return out;
}

/** `a` is older than `b`: numbers by value, strings (ISO times) in order; mixed never. */
export function olderRevision(a: string | number, b: string | number): boolean {
  return typeof a === typeof b && a < b;
}

/** A usable id or type: printable ASCII without spaces or commas, bounded. */
export function usableName(v: unknown): v is string {
  return typeof v === "string" && v.length > 0 && v.length <= MAX_ENTITY_NAME &&
    /^[\x21-\x7e]+$/.test(v) && !v.includes(",");
}

/** A plain JSON object, or null. */
export function record(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? v as Record<string, unknown>
    : null;
}

/**
 * Collects ids from a JSON body: `pick` names the id(s) of one object, or none. The walk is
 * bounded in nodes visited, so a huge body costs a bounded time; past either bound the
 * answer is wide.
 */
export function collectIds(
  body: unknown,
  pick: (o: Record<string, unknown>) => readonly unknown[] | null,
): { ids: string[]; wide: boolean } {
  const ids = new Set<string>();
  let wide = false;
  let budget = 200_000;
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    if (--budget < 0) return { ids: [...ids], wide: true };
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      continue;
    }
    const o = v as Record<string, unknown>;
    for (const id of pick(o) ?? []) {
      if (typeof id === "number" && Number.isSafeInteger(id)) ids.add(String(id));
      else if (usableName(id)) ids.add(id);
      else if (id !== undefined && id !== null) wide = true;
    }
    if (ids.size > MAX_ANSWER_TAGS) return { ids: [...ids], wide: true };
    for (const k in o) {
      const c = o[k];
      if (c !== null && typeof c === "object") stack.push(c);
    }
  }
  return { ids: [...ids], wide };
}

/** The answer's entities with its types, bounded. */
export function answerOf(
  found: { ids: string[]; wide: boolean },
  types: string[],
  list: boolean,
  complete = false,
): AnswerEntities {
  const ok = types.filter(usableName);
  const wide = found.wide || ok.length !== types.length ||
    found.ids.length + ok.length > MAX_ANSWER_TAGS;
  return { ids: found.ids, types: ok, list, wide, complete: complete && !wide && ok.length > 0 };
}

/** Bounds a notice's ids; too many or none is no notice. */
export function noticeOf(
  action: EntityNotice["action"],
  rawIds: readonly unknown[],
  types: string[] | null,
  revisions: Record<string, string | number> = {},
): EntityNotice | NoNotice {
  const ids = [
    ...new Set(
      rawIds.map((v) => typeof v === "number" && Number.isSafeInteger(v) ? String(v) : v)
        .filter(usableName),
    ),
  ];
  if (ids.length === 0) return { reason: "the payload names no entity id" };
  if (ids.length > MAX_NOTICE_IDS) {
    return { reason: `the payload names ${ids.length} ids, more than ${MAX_NOTICE_IDS}` };
  }
  const t = types === null ? null : [...new Set(types.filter(usableName))];
  const revs: Record<string, string | number> = {};
  for (const id of ids) {
    const r = revisions[id];
    if ((typeof r === "number" && Number.isFinite(r)) || usableName(r)) revs[id] = r;
  }
  return { action, ids, types: t !== null && t.length > 0 ? t : null, revisions: revs };
}
