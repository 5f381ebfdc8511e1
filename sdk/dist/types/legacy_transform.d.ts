/**
 * The original product's one-shot asset rewriters, kept under their names:
 * `transformPrismicAssetUrls(data, options)` and `transformContentfulAssetUrls(data,
 * options)` are `transformResponse` for that CMS. The repository or space ID is optional:
 * without it every repository's (space's) asset URLs become clean tenant URLs, as
 * `transformResponse(data, { base, provider })` writes them for a known one.
 */
import { type TransformerOptions } from "./transformer.js";
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
/** Prismic asset URLs in `data` -> the tenant host at `options.base` (never throws). */
export declare function transformPrismicAssetUrls<T>(data: T, options: PrismicAssetUrlOptions<T>): T;
/** Contentful asset URLs in `data` -> the tenant host at `options.base` (never throws). */
export declare function transformContentfulAssetUrls<T>(data: T, options: ContentfulAssetUrlOptions<T>): T;
