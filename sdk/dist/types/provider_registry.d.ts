/**
 * The provider registry: every kind the server supports, each turning its one
 * identifier into a `CachelyProvider` (API origin to proxy, asset URL rewriter).
 * The rules themselves are sdk/providers.ts, shared with the server, so the SDK
 * produces the same URLs as the edge.
 */
import { type ProviderConfig, type ProviderEnv, type ProviderKind } from "./providers.js";
import { type Rewriter } from "./rewrite.js";
/** A resolved provider: what createCachelyFetch and the adapters work from. */
export type CachelyProvider = {
    readonly kind: ProviderKind;
    /** The provider id (`contentful`, `prismic`, or createGenericProvider's `id`). */
    readonly id: string;
    /** The config it was made from (kind plus identifier). */
    readonly config: ProviderConfig;
    /**
     * The provider API origin (`https://host[/base]`) whose URLs go through the
     * tenant's `/~api/` proxy; it must equal the tenant's `apiOrigin`. Null: none.
     */
    readonly apiOrigin: string | null;
    /** Every API origin proxied under `/~api/` (createGenericProvider's `apiHosts`). */
    readonly apiOrigins: readonly string[];
    /** Compiles the rewriter of this provider's asset URLs to clean tenant URLs. */
    rewriter(tenantOrigin: string, opts?: {
        keepCloudName?: boolean;
    }): Rewriter;
    /**
     * Set when the identifier was not given and every API URL carries it (Prismic's
     * `<repo>.cdn.prismic.io`): the provider a URL names, null for a URL of no such API.
     */
    readonly fromApiUrl?: (url: URL) => CachelyProvider | null;
};
/** What a registry entry says about a kind. */
export type ProviderDefinition = {
    kind: ProviderKind;
    label: string;
    /** Identifier fields of the kind (the first is the one to ask for). */
    fields: readonly (keyof ProviderConfig)[];
    /** Fields the SDK needs to know the provider's URLs. */
    required: readonly (keyof ProviderConfig)[];
    /** npm packages that mean a project uses this kind (setup's detection). */
    packages: readonly string[];
};
/** Every provider kind the server supports, from the kinds' definitions. */
export declare const providerRegistry: Readonly<Record<ProviderKind, ProviderDefinition>>;
/** Options of createGenericProvider (the original product's names). */
export type GenericProviderOptions = {
    /**
     * The provider's id: a kind the server knows (`sanity`, `shopify`, `imgix`, `storyblok`, ...)
     * makes asset URLs the clean URLs a tenant of that kind serves; any other id (`s3`,
     * `my-cms`) keeps the path below the asset host, as a generic tenant serves it.
     */
    id?: string;
    /**
     * API hosts whose calls go through the tenant's `/~api/` proxy: hostnames
     * (`p1x2.apicdn.sanity.io`; the path is kept) or origins with a base path
     * (`https://acme.myshopify.com/api`, the base is dropped). Set the tenant's `apiOrigin` to it.
     */
    apiHosts?: readonly string[];
    /** Asset hosts (or `https://host/base` origins) whose URLs are rewritten to the tenant host. */
    assetHosts?: readonly string[];
    /** Former name of a single `apiHosts` entry (0.13). */
    apiHost?: string;
};
/**
 * A provider from hosts (the original product's `createGenericProvider({ id, apiHosts,
 * assetHosts })`): the way to use Sanity, Shopify, imgix, Storyblok or any origin. Every
 * option is checked now (an Error names it).
 */
export declare function createGenericProvider(opts?: GenericProviderOptions): CachelyProvider;
/**
 * `https://host[:port][/base]` without query, fragment or credentials, as an origin
 * with its base path and no trailing slash; http only for localhost. Null otherwise.
 */
export declare function parseApiOrigin(raw: unknown): string | null;
/** The provider ids createCachelyFetch takes by name (the original product's); others: createGenericProvider. */
export declare const BUILT_IN_IDS: readonly ProviderKind[];
/** What `provider` options accept: a built-in id, a config, or a resolved provider. */
export type ProviderInput = ProviderKind | ProviderConfig | CachelyProvider;
/**
 * Resolves a `provider` option, checking it now: an unknown kind or a missing or
 * malformed identifier throws an Error naming the option (e.g. `provider.spaceId`).
 */
export declare function resolveProvider(input: ProviderInput, opts?: {
    fn?: string;
    option?: string;
    env?: ProviderEnv;
    apiOrigin?: string;
}): CachelyProvider;
