/**
 * Every provider kind, in the order the dashboard, the CLI, the API schema and the OpenAPI
 * document list them. A new kind is its own file beside this one, added here
 * (docs/contributing.md "Adding a provider kind"); every per-kind table is derived from it.
 *
 * @module
 */
import { contentful } from "./contentful.ts";
import { prismic } from "./prismic.ts";
import { sanity } from "./sanity.ts";
import { shopify } from "./shopify.ts";
import { cloudinary } from "./cloudinary.ts";
import { imgix } from "./imgix.ts";
import { storyblok } from "./storyblok.ts";
import { generic } from "./generic.ts";

export const PROVIDER_LIST = [
  contentful,
  prismic,
  sanity,
  shopify,
  cloudinary,
  imgix,
  storyblok,
  generic,
] as const;

/** Every CMS / media kind a tenant can be created with. */
export type ProviderKind = typeof PROVIDER_LIST[number]["kind"];
