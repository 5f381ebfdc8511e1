/**
 * The provider rule set: ONE definition, shared by the edge, the management app
 * and this SDK, of
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
 * // → "https://acme.cachely.example/id/tok/cat.jpg?w=400"
 * ```
 *
 * @module
 */
import { type Rewriter, type SourceRule } from "./rewrite.js";
/** Every CMS / media kind a tenant can be created with. */
export declare const PROVIDER_KINDS: readonly ["contentful", "prismic", "sanity", "shopify", "cloudinary", "imgix", "storyblok", "generic"];
export type ProviderKind = typeof PROVIDER_KINDS[number];
/** Storyblok regions (`region`); absent means the EU default. */
export declare const STORYBLOK_REGIONS: readonly ["eu", "us", "ap", "ca", "cn"];
export type StoryblokRegion = typeof STORYBLOK_REGIONS[number];
/**
 * A tenant's provider set-up: its kind plus the one identifier that kind needs.
 * Fields that do not belong to the kind are ignored.
 */
export type ProviderConfig = {
    cms: ProviderKind;
    /** contentful: the space ID. */
    spaceId?: string | null;
    /** prismic: the repository name. */
    repository?: string | null;
    /** sanity: the project ID. */
    projectId?: string | null;
    /** sanity: the dataset (default `production`). */
    dataset?: string | null;
    /** shopify: `x.myshopify.com` or the store's own domain. */
    storeDomain?: string | null;
    /** cloudinary: the cloud name. */
    cloudName?: string | null;
    /** imgix: `x.imgix.net` or a custom source domain. */
    imgixDomain?: string | null;
    /** storyblok: the space region (default `eu`). */
    region?: StoryblokRegion | null;
    /** generic: the HTTPS origin (S3, R2, GCS, …), optionally with a base path. */
    originUrl?: string | null;
    /** generic: optional origin for video files. */
    videoOrigin?: string | null;
};
/** Where things of other providers live; only the image host is configurable. */
export type ProviderEnv = {
    /** The image/video host origin (default `https://res.cloudinary.com`). */
    imageHostOrigin?: string;
    /** The image/video host API origin (default `https://api.cloudinary.com`). */
    imageHostApiOrigin?: string;
};
/** Per field: the pattern an identifier must match, and what to say when it does not. */
export declare const IDENTIFIER_RULES: Record<"spaceId" | "repository" | "projectId" | "dataset" | "storeDomain" | "cloudName" | "imgixDomain", {
    re: RegExp;
    message: string;
}>;
/** A problem with one field of a provider config (the server answers 400 naming it). */
export type ProviderProblem = {
    field: string;
    message: string;
};
/** True for a hostname such as `www.example.com` (lower case, at least one dot). */
export declare function isHostname(value: string): boolean;
/**
 * The identifier field(s) each kind requires. contentful, prismic and sanity
 * tenants created before identifiers existed have none and keep the legacy
 * `/~assets/<host>/` scheme (docs/providers.md), so only the kinds that cannot
 * work without one require it.
 */
export declare const REQUIRED_FIELDS: Record<ProviderKind, readonly (keyof ProviderConfig)[]>;
/** The identifier fields that belong to each kind (the dashboard asks for these). */
export declare const PROVIDER_FIELDS: Record<ProviderKind, readonly (keyof ProviderConfig)[]>;
/**
 * `http(s)://host[:port][/base]`, no query, fragment or credentials; else null. http only
 * where the server allows private upstreams (ALLOW_PRIVATE_UPSTREAMS; a self-hoster's MinIO).
 */
export declare function parseOrigin(value: string): {
    scheme: "http" | "https";
    host: string;
    base: string;
} | null;
/** `https://host[:port][/base]`, no query, fragment or credentials; else null. */
export declare function parseHttpsOrigin(value: string): {
    host: string;
    base: string;
} | null;
/**
 * Checks the identifier fields of a config: the first problem, or null. Fields
 * the kind requires must be present; fields of other kinds are ignored. `allowHttp`:
 * http origins pass too (a server with ALLOW_PRIVATE_UPSTREAMS).
 */
export declare function validateProviderConfig(cfg: ProviderConfig, opts?: {
    allowHttp?: boolean;
}): ProviderProblem | null;
/** What a file is, by extension: decides the origin (docs/providers.md). */
export type FileClass = "image" | "video" | "audio" | "document" | "font" | "other";
/** The class of a path by its last extension (`/a/b/cat.JPG` → image). */
export declare function fileClassOf(path: string): FileClass;
/** One asset origin of a provider, as shown to the user. */
export type DerivedOrigin = {
    /** What it serves: images, videos, files, … */
    role: string;
    /** `https://host[/base]`, no trailing slash. */
    url: string;
};
/** The origins a config implies: API origin (null when none) and asset origins. */
export type DerivedOrigins = {
    api: string | null;
    assets: DerivedOrigin[];
};
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
/** What the query of a clean URL does upstream and in the cache key. */
export type QueryPolicy = 
/** sorted, tracking and preview parameters dropped, forwarded and in the key */
"keep"
/** dropped from the key and from the upstream request */
 | "drop";
/** Where a clean tenant path is fetched. */
export type UpstreamTarget = {
    /** `https://host[/base]` without a trailing slash. */
    origin: string;
    /** Path appended to origin, starting with `/`. */
    path: string;
    query: QueryPolicy;
    /** Which derived origin serves it (for docs and tests). */
    role: string;
};
/** A compiled router of clean tenant paths, built once per config. */
export type ProviderRoutes = {
    /**
     * The upstream of a clean path, or null when it is not an asset path of this
     * provider. `strict` accepts only paths with the provider's recognisable
     * shape (used beside a site proxy, where any other path is the website's).
     */
    route(path: string, strict?: boolean): UpstreamTarget | null;
};
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
