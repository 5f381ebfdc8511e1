/**
 * Prismic's entities: documents by `id` (search results and fetched links), lists typed by
 * `document.type` predicates (`[at(document.type, "post")]`, `any(document.type, […])`).
 * Its webhook (`type: "api-update"`) names the changed documents' ids in `documents`, not
 * their types, so it purges every list.
 */
import { answerOf, collectIds, type EntityKnowledge, noticeOf, record } from "./types.ts";

const AT = /(?:at|any)\(\s*document\.type\s*,\s*(\[[^\]]{0,2000}\]|"[^"]{1,200}")/g;
const QUOTED = /"([^"]{1,200})"/g;

/** The document types the `q` predicates of a query name. */
export function prismicTypes(qs: string[]): string[] {
  const out = new Set<string>();
  for (const q of qs) {
    for (const m of q.matchAll(AT)) for (const t of m[1].matchAll(QUOTED)) out.add(t[1]);
  }
  return [...out];
}

export const prismicEntities: EntityKnowledge = {
  answer(path, params, body) {
    const found = collectIds(body, (o) =>
      typeof o.id === "string" && typeof o.type === "string" &&
        (o.link_type === "Document" || "last_publication_date" in o)
        ? [o.id]
        : null);
    const list = /\/documents\/search\/?$/.test(path);
    return answerOf(found, prismicTypes(params.getAll("q")), list);
  },
  notice(_headers, body) {
    const b = record(body);
    if (!b) return { reason: "the payload is not a JSON object" };
    const docs = Array.isArray(b.documents) ? b.documents : [];
    return noticeOf("publish", docs, null);
  },
};
