/**
 * The original product's one-shot asset rewriters, kept under their names:
 * `transformPrismicAssetUrls(data, options)` and `transformContentfulAssetUrls(data,
 * options)` are `transformResponse` for that CMS. The repository or space ID is optional:
 * without it every repository's (space's) asset URLs become clean tenant URLs, as
 * `transformResponse(data, { base, provider })` writes them for a known one.
 */
import { type TransformerOptions, transformResponse } from "./transformer.ts";
import type { SourceRule } from "./rewrite.ts";
import { contentful } from "./providers/contentful.ts";
import { prismic } from "./providers/prismic.ts";

/** Options of transformPrismicAssetUrls: transformResponse's, plus the repository. */
export type PrismicAssetUrlOptions<T = unknown> = Omit<TransformerOptions<T>, "provider"> & {
  /** The Prismic repository; absent: any repository's images. */
  repository?: string;
};

/** Options of transformContentfulAssetUrls: transformResponse's, plus the space. */
export type ContentfulAssetUrlOptions<T = unknown> = Omit<TransformerOptions<T>, "provider"> & {
  /** The Contentful space ID; absent: any space's assets. */
  spaceId?: string;
};

/** Prismic's image hosts: `/<repository>/...` there is the clean tenant path as it is. */
const PRISMIC_ANY: SourceRule[] = ["images.prismic.io", "prismic-io.imgix.net"]
  .map((host) => ({ host, path: "", clean: "" }));

/** Contentful's asset hosts: the space segment is dropped from the clean path. */
const CONTENTFUL_ANY: SourceRule[] = ["images", "videos", "assets", "downloads"]
  .map((sub) => ({ host: `${sub}.ctfassets.net`, path: "[A-Za-z0-9]+", clean: "" }));

/** Prismic asset URLs in `data` -> the tenant host at `options.base` (never throws). */
export function transformPrismicAssetUrls<T>(data: T, options: PrismicAssetUrlOptions<T>): T {
  const { repository, ...rest } = options ?? ({} as PrismicAssetUrlOptions<T>);
  return transformResponse(
    data,
    repository
      ? { ...rest, provider: { cms: prismic.kind, repository } }
      : { ...rest, sources: PRISMIC_ANY },
  );
}

/** Contentful asset URLs in `data` -> the tenant host at `options.base` (never throws). */
export function transformContentfulAssetUrls<T>(
  data: T,
  options: ContentfulAssetUrlOptions<T>,
): T {
  const { spaceId, ...rest } = options ?? ({} as ContentfulAssetUrlOptions<T>);
  return transformResponse(
    data,
    spaceId
      ? { ...rest, provider: { cms: contentful.kind, spaceId } }
      : { ...rest, sources: CONTENTFUL_ANY },
  );
}
