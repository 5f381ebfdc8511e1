/**
 * Sanity's entities: every document by `_id` (drafts never reach visitors), query answers
 * typed by the GROQ filters `_type == "…"` and `_type in […]` where they parse. Webhooks:
 * GROQ-powered ones whose projection carries `_id`, `_type` and `_updatedAt` (the default
 * projection, the whole document, does; `{_id, _type, _updatedAt}` is the least to project), with the operation in the sanity-operation header;
 * or the legacy shape `{ ids: { created, updated, deleted, all } }`.
 */
import { answerOf, collectIds, type EntityKnowledge, noticeOf, record } from "./types.ts";

const TYPE_EQ = /_type\s*==\s*(["'])([^"']{1,200})\1/g;
const TYPE_IN = /_type\s+in\s*\[([^\]]{1,2000})\]/g;
const QUOTED = /(["'])([^"']{1,200})\1/g;

/** The content types a GROQ query filters on (none when it names none it can parse). */
export function groqTypes(query: string): string[] {
  const out = new Set<string>();
  for (const m of query.matchAll(TYPE_EQ)) out.add(m[2]);
  for (const m of query.matchAll(TYPE_IN)) for (const q of m[1].matchAll(QUOTED)) out.add(q[2]);
  return [...out];
}

const published = (id: unknown) =>
  typeof id === "string" && !id.startsWith("drafts.") && !id.startsWith("versions.");

export const sanityEntities: EntityKnowledge = {
  answer(path, params, body) {
    const found = collectIds(body, (o) => (typeof o._id === "string" ? [o._id] : null));
    const query = params.get("query");
    const list = query !== null;
    return answerOf(found, query ? groqTypes(query) : [], list && !/\/data\/doc\//.test(path));
  },
  notice(headers, body) {
    const b = record(body);
    if (!b) return { reason: "the payload is not a JSON object" };
    const op = headers.get("sanity-operation") ?? "";
    const legacy = record(b.ids);
    if (legacy) {
      const all = Array.isArray(legacy.all) ? legacy.all : [];
      return noticeOf("change", all.filter(published), null);
    }
    if (!published(b._id)) {
      return { reason: typeof b._id === "string" ? "a draft changed" : "the payload has no _id" };
    }
    const id = b._id as string;
    // _updatedAt, not _rev: a _rev is a transaction id, which has no order to compare by.
    const revisions: Record<string, string> = {};
    if (typeof b._updatedAt === "string") revisions[id] = b._updatedAt;
    const action = op === "delete"
      ? "delete"
      : op === "create" || op === "update"
      ? "publish"
      : "change";
    return noticeOf(action, [id], typeof b._type === "string" ? [b._type] : null, revisions);
  },
  revisionOf(o) {
    return typeof o._id === "string" && typeof o._updatedAt === "string"
      ? [o._id, o._updatedAt]
      : null;
  },
};
