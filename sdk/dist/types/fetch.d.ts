/**
 * createCachelyFetch: a `fetch`-compatible function that sends a CMS's API calls
 * through the tenant's `/~api/` proxy (the credentials stay on the server), rewrites
 * provider asset URLs in JSON answers to the tenant host, passes the preview and
 * transform parameters, and hands every answer to the experiment tracker.
 *
 * Network failures are not wrapped: they reject exactly as the underlying `fetch`.
 */
import type { ProviderEnv } from "./providers.js";
import { type CachelyProvider, type ProviderInput } from "./provider_registry.js";
import { type TenantTarget } from "./tenant_origin.js";
/** The tracker side of experiments: anything with captureFromResponse (createTracker's). */
export type ExperimentCapture = {
    captureFromResponse(response: Response): unknown;
};
/** Options of createCachelyFetch. */
export type CachelyFetchOptions = TenantTarget & {
    /** The CMS: a kind name, its config (`{ cms: "contentful", spaceId }`), or a provider object. */
    provider: ProviderInput;
    /**
     * The tenant's API origin when it is not the provider's derived one (what you set as
     * `apiOrigin` on the tenant). Requests under it go through `/~api/`.
     */
    apiOrigin?: string;
    /** Bypass the edge cache (draft content): adds the preview parameter to proxied calls. */
    preview?: boolean;
    /** The tenant's preview parameter name (default `preview`). */
    previewParam?: string;
    /**
     * An editor's preview-link token (sdk/preview.ts): drafts through the edge, never cached.
     * Server side only (Next.js draft mode, Nuxt preview): it opens drafts to whoever holds it.
     */
    previewToken?: string;
    /** AI transform profile: adds `?transform=<profile>` to proxied calls. */
    transform?: string;
    /** A tracker (createTracker / createCachelyExperimentTracker) to capture assignments. */
    experiments?: ExperimentCapture;
    /** Rewrite provider asset URLs in JSON answers (default true). */
    rewriteAssets?: boolean;
    /** The fetch to wrap (default `globalThis.fetch`). */
    fetch?: typeof fetch;
    /** Image host origins, for a self-hosted image host (cloudinary kind). */
    env?: ProviderEnv;
};
/** The function createCachelyFetch returns: `fetch` plus what it was built from. */
export type CachelyFetch = typeof fetch & {
    /**
     * The tenant origin requests go to, e.g. `https://acme.cachely.app`. With `customDomain:
     * true` and no domain in the environment: the tenant host until the first request has
     * learnt the verified domain, then `https://<domain>`.
     */
    readonly tenantOrigin: string;
    readonly provider: CachelyProvider;
    /** The URL a request to `url` is sent to (unchanged when it is not proxied). */
    proxyUrl(url: string | URL): string;
    /** Rewrites provider asset URLs in a text (JSON, HTML) to clean tenant URLs. */
    rewriteAssets(text: string): string;
};
/**
 * Creates the fetch wrapper. Every option is checked here (an Error names the bad one).
 */
export declare function createCachelyFetch(options: CachelyFetchOptions): CachelyFetch;
