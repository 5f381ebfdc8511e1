/**
 * Entity knowledge per provider kind, from each kind's definition (sdk/providers/<kind>.ts):
 * which ids an answer holds and which content types it lists, and what a webhook delivery
 * announces. docs/providers.md "Entity tags" is the table in prose.
 *
 * @module
 */
import { type ProviderKind, tableOf } from "../providers.ts";
import type { EntityKnowledge } from "./types.ts";

export * from "./types.ts";

/** Each kind's entity knowledge; null where the kind has no entities (assets only, generic). */
export const ENTITIES: Record<ProviderKind, EntityKnowledge | null> = tableOf((d) =>
  d.entities ?? null
);
