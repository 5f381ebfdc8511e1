/**
 * `@cachely/sdk/contentful`: the options to hand to the official `contentful`
 * client so that its calls go through the tenant's `/~api/` proxy (the delivery
 * token stays on the server) and the asset URLs it returns point at the tenant host.
 *
 * @example
 * ```ts
 * import { createClient } from "contentful";
 * import { createContentfulCachelyAdapter } from "@cachely/sdk/contentful";
 *
 * const client = createClient(createContentfulCachelyAdapter({ space: "abc123xyz", tenant: "acme" }));
 * const entries = await client.getEntries({ content_type: "post" });
 * ```
 *
 * @module
 */
import { type CachelyFetch, type ExperimentCapture } from "./fetch.js";
import { type TenantTarget } from "./tenant_origin.js";
/** Options of createContentfulCachelyAdapter. */
export type ContentfulCachelyOptions = TenantTarget & {
    /** The Contentful space ID. */
    space: string;
    /**
     * Your Content Delivery token: used only when Cachely is not in the way (no `tenant`, and
     * `CACHELY_PROXY_URL` unset: straight to Contentful). Through Cachely it is never sent.
     */
    accessToken?: string;
    /** The environment (default `master`). */
    environment?: string;
    /** The tenant's API origin when it is not `https://cdn.contentful.com/spaces/<space>`. */
    apiOrigin?: string;
    preview?: boolean;
    previewParam?: string;
    transform?: string;
    experiments?: ExperimentCapture;
    fetch?: typeof fetch;
};
/** What to pass to `contentful.createClient` (spread it; add your own options beside). */
export type ContentfulClientOptions = {
    space: string;
    environment: string;
    /**
     * A placeholder: the client insists on one, Cachely strips it and injects the
     * tenant's stored token upstream, so no real token ships to the browser.
     */
    accessToken: string;
    /** Routes every call through Cachely (an axios adapter over createCachelyFetch); absent direct. */
    adapter?: (config: any) => Promise<any>;
    /** The fetch the adapter uses (not enumerable); null when talking to Contentful directly. */
    readonly cachelyFetch: CachelyFetch | null;
};
/** The placeholder token sent by the client (stripped before it leaves the browser). */
export declare const CONTENTFUL_PLACEHOLDER_TOKEN = "cachely-proxy";
/** The original product's name for transformResponse on this CMS's asset URLs. */
export { transformContentfulAssetUrls } from "./legacy_transform.js";
/** Builds the contentful client options; every option is checked now. */
export declare function createContentfulCachelyAdapter(options: ContentfulCachelyOptions): ContentfulClientOptions;
