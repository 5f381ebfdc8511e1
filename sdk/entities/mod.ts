/**
 * Entity knowledge per provider kind (one entry per kind, like DRAFT_SWITCHES in
 * sdk/drafts.ts): which ids an answer holds and which content types it lists, and what a
 * webhook delivery announces. docs/providers.md "Entity tags" is the table in prose.
 *
 * @module
 */
import type { ProviderKind } from "../providers.ts";
import type { EntityKnowledge } from "./types.ts";
import { contentfulEntities } from "./contentful.ts";
import { sanityEntities } from "./sanity.ts";
import { storyblokEntities } from "./storyblok.ts";
import { prismicEntities } from "./prismic.ts";

export * from "./types.ts";

/** Each kind's entity knowledge; null where the kind has no entities (assets only, generic). */
export const ENTITIES: Record<ProviderKind, EntityKnowledge | null> = {
  contentful: contentfulEntities,
  prismic: prismicEntities,
  sanity: sanityEntities,
  storyblok: storyblokEntities,
  shopify: null,
  cloudinary: null,
  imgix: null,
  generic: null,
};
