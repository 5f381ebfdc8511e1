/**
 * The provider rule set: ONE definition per kind (sdk/providers/<kind>.ts, listed in
 * sdk/providers/list.ts), shared by the edge, the management app and this SDK. This module
 * derives the per-kind tables and the functions every importer uses from that list:
 * - which identifier each CMS / media kind needs (`validateProviderConfig`),
 * - which origins follow from it (`deriveOrigins`),
 * - which provider URL forms in bodies become which clean tenant URL
 *   (`providerSources`, compiled by `createProviderRewriter`),
 * - where a clean tenant path is fetched upstream and what happens to its query
 *   (`compileProviderRoutes`).
 *
 * Dependency-free: it runs unchanged in browsers, Deno and Node. The table of
 * type routing and query handling is docs/providers.md.
 *
 * @example
 * ```ts
 * const cfg = { cms: "contentful", spaceId: "abc123xyz" } as const;
 * const rewrite = createProviderRewriter(cfg, { tenantOrigin: "https://acme.cachely.example" });
 * rewrite("https://images.ctfassets.net/abc123xyz/id/tok/cat.jpg?w=400");
 * // -> "https://acme.cachely.example/id/tok/cat.jpg?w=400"
 * ```
 *
 * @module
 */
import { type Rewriter, type SourceRule } from "./rewrite.js";
import { type ProviderKind } from "./providers/list.js";
import type { DerivedOrigins, ProviderConfig, ProviderEnv, ProviderKindDefinition, ProviderProblem, ProviderRoutes } from "./providers/types.js";
export { PROVIDER_LIST, type ProviderKind } from "./providers/list.js";
export { type AuthMode, type DerivedOrigin, type DerivedOrigins, type ProviderConfig, type ProviderEnv, type ProviderProblem, type ProviderRoutes, type QueryPolicy, STORYBLOK_REGIONS, type UpstreamTarget, } from "./providers/types.js";
export { type FileClass, fileClassOf, isHostname, parseHttpsOrigin } from "./providers/shared.js";
/** Every CMS / media kind a tenant can be created with, in the list's order. */
export declare const PROVIDER_KINDS: readonly ProviderKind[];
/** The definition of a kind. */
export declare const definitionOf: (kind: ProviderKind) => ProviderKindDefinition<ProviderKind>;
/** A table of one value per kind, from its definition (null where the kind has none). */
export declare function tableOf<T>(pick: (d: ProviderKindDefinition<ProviderKind>) => T): Record<ProviderKind, T>;
/** Per field: the pattern an identifier must match, and what to say when it does not. */
export declare const IDENTIFIER_RULES: Record<"spaceId" | "repository" | "projectId" | "dataset" | "storeDomain" | "cloudName" | "imgixDomain", {
    re: RegExp;
    message: string;
}>;
/** The identifier fields that belong to each kind (the dashboard asks for these). */
export declare const PROVIDER_FIELDS: Record<ProviderKind, readonly (keyof ProviderConfig)[]>;
/** The CLI flag of an identifier field (`spaceId` -> `space-id`), for `setup` and `tenants create`. */
export declare const fieldFlag: (field: string) => string;
/**
 * Checks the identifier fields of a config: the first problem, or null. Fields
 * the kind requires must be present; fields of other kinds are ignored. `allowHttp`:
 * http origins pass too (a server with ALLOW_PRIVATE_UPSTREAMS).
 */
export declare function validateProviderConfig(cfg: ProviderConfig, opts?: {
    allowHttp?: boolean;
}): ProviderProblem | null;
/**
 * Derives API and asset origins from the identifier (the table in
 * docs/providers.md). Without the identifier a kind derives nothing.
 */
export declare function deriveOrigins(cfg: ProviderConfig, env?: ProviderEnv): DerivedOrigins;
/** Options for the rewriter. */
export type ProviderRewriterOptions = {
    /** The tenant host origin, e.g. `https://acme.cachely.example`. */
    tenantOrigin: string;
    env?: ProviderEnv;
    /**
     * Image host only: keep the cloud name as the first path segment (the
     * client-side rewriter's form, SPEC). The edge serves both forms.
     */
    keepCloudName?: boolean;
};
/**
 * The provider URL forms of a config and the clean prefix each becomes. Empty
 * when the kind has no identifier yet (then nothing is rewritten this way).
 */
export declare function providerSources(cfg: ProviderConfig, env?: ProviderEnv, keepCloudName?: boolean): SourceRule[];
/**
 * Compiles the rewriter that turns every provider URL of the config (http,
 * https, protocol-relative, `\/`-escaped in JSON, inside rich text and HTML) into
 * its clean tenant URL. Compile once, apply to many texts.
 */
export declare function createProviderRewriter(cfg: ProviderConfig, opts: ProviderRewriterOptions): Rewriter;
/** One-shot: the clean tenant URL for one provider URL (unchanged when it is not one). */
export declare function cleanUrlFor(cfg: ProviderConfig, sourceUrl: string, opts: ProviderRewriterOptions): string;
/** Compiles how clean paths of a config are routed upstream (docs/providers.md). */
export declare function compileProviderRoutes(cfg: ProviderConfig, env?: ProviderEnv): ProviderRoutes;
/** A sample provider URL for a config and its clean tenant URL (dashboard, demos). */
export declare function sampleAsset(cfg: ProviderConfig, opts: ProviderRewriterOptions): {
    source: string;
    clean: string;
} | null;
/** Everything the dashboard shows for a config: derived origins and one sample clean URL. */
export declare function describeProvider(cfg: ProviderConfig, opts: ProviderRewriterOptions): DerivedOrigins & {
    sample: {
        source: string;
        clean: string;
    } | null;
};
