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
    /** The config it was made from (kind plus identifier). */
    readonly config: ProviderConfig;
    /**
     * The provider API origin (`https://host[/base]`) whose URLs go through the
     * tenant's `/~api/` proxy; it must equal the tenant's `apiOrigin`. Null: none.
     */
    readonly apiOrigin: string | null;
    /** Compiles the rewriter of this provider's asset URLs to clean tenant URLs. */
    rewriter(tenantOrigin: string, opts?: {
        keepCloudName?: boolean;
    }): Rewriter;
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
/** Every provider kind the server supports. */
export declare const providerRegistry: Readonly<Record<ProviderKind, ProviderDefinition>>;
/** Options of createGenericProvider. */
export type GenericProviderOptions = {
    /**
     * Asset origins served from the tenant host with their path kept: `https://host[/base]`
     * or a bare host. The first is the tenant's `originUrl`, the second its `videoOrigin`.
     */
    assetHosts?: readonly string[];
    /** The API origin proxied under `/~api/` (`https://api.example.com/v1`); the tenant's `apiOrigin`. */
    apiHost?: string;
};
/** A provider for any HTTPS origin (S3, R2, GCS, your own API). */
export declare function createGenericProvider(opts?: GenericProviderOptions): CachelyProvider;
/**
 * `https://host[:port][/base]` without query, fragment or credentials, as an origin
 * with its base path and no trailing slash; http only for localhost. Null otherwise.
 */
export declare function parseApiOrigin(raw: unknown): string | null;
/** What `provider` options accept: a kind name, a config, or a resolved provider. */
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
