/**
 * Entity tags: the names under which the edge tags a cached API answer with the entities it
 * holds (sdk/entities/), and a webhook in "entities" scope purges them. Pure, shared by the
 * edge (tagging at fill, edge/cache/entity_tags.ts) and the receiver (the purge record).
 *
 * A tag is in the tenant's namespace, `cachely-t<id>-...` (lib/cdn/tags.ts), so the purge API
 * may name one too. The edge keeps only the part after the namespace ("short" tags):
 * - `e-<id>` an entity the answer holds;
 * - `ct-<type>` a content type the request filters on;
 * - `lists` any list query; `lists-untyped` a list naming no content type;
 * - `entities`: named by every entity purge, so it reaches answers tagged tenant-wide.
 */
import type { AnswerEntities, EntityNotice } from "../../sdk/entities/mod.ts";
import { tenantTag } from "../cdn/tags.ts";

/** Named by every entity purge: matches the answers tagged tenant-wide (or never tagged). */
export const WIDE_TAG = "entities";
const LISTS = "lists";
const UNTYPED = "lists-untyped";

/** A short tag as the purge record and the purge API name it. */
export const fullEntityTag = (tenantId: number, short: string) => `${tenantTag(tenantId)}-${short}`;

/** The short tags of an answer; null when it is tagged tenant-wide. */
export function answerTags(a: AnswerEntities): string[] | null {
  if (a.wide) return null;
  const tags = a.ids.map((id) => `e-${id}`);
  for (const t of a.types) tags.push(`ct-${t}`);
  if (a.list) tags.push(LISTS);
  if (a.list && a.types.length === 0) tags.push(UNTYPED);
  return tags;
}

/**
 * The short tags a notice purges: its entities, the lists of its content types and the
 * untyped lists (a published entity may newly belong in them), or every list when the
 * payload names no type; and the tenant-wide answers.
 */
export function noticeTags(n: EntityNotice): string[] {
  const tags = n.ids.map((id) => `e-${id}`);
  if (n.types === null) tags.push(LISTS);
  else tags.push(...n.types.map((t) => `ct-${t}`), UNTYPED);
  tags.push(WIDE_TAG);
  return tags;
}
