/**
 * @cachely/sdk: client library for Cachely tenant hosts (browsers, Deno, Node).
 *
 * - `createResponseTransformer` / `transformResponse`: rewrite image/video host
 *   URLs in JSON to the tenant host, then run your own transformers;
 *   `transformPrismicAssetUrls` / `transformContentfulAssetUrls` are its original names
 *   for one CMS;
 * - `createUrlRewriter` / `rewriteUrl`: the client-side URL rewriter (keeps the
 *   cloud name as the first path segment);
 * - `compileRewriter`: the rewriting core the edge itself uses;
 * - the provider rule set (`createProviderRewriter`, `deriveOrigins`,
 *   `compileProviderRoutes`, ...): one identifier per CMS kind -> origins and clean
 *   tenant URLs, the same rules the server applies;
 * - `createCachelyFetch`: a fetch that sends CMS API calls through the tenant's
 *   `/~api/` proxy and rewrites asset URLs in JSON answers;
 * - the provider registry (`providerRegistry`, `resolveProvider`,
 *   `createGenericProvider`): every kind the server supports;
 * - the experiment tracker (sdk/tracker.ts), also as `createCachelyExperimentTracker`.
 *
 * CMS helpers are their own entry points: `@cachely/sdk/contentful`,
 * `@cachely/sdk/prismic`.
 *
 * @module
 */

/** Package version (SPEC "Versioning": composable generation requires 0.12.0 or later). */
export const VERSION = "0.14.0";

export {
  createResponseTransformer,
  type TextTransformer,
  type TransformerOptions,
  transformResponse,
} from "./transformer.ts";
export {
  type ContentfulAssetUrlOptions,
  type PrismicAssetUrlOptions,
  transformContentfulAssetUrls,
  transformPrismicAssetUrls,
} from "./legacy_transform.ts";
export {
  createUrlRewriter,
  DEFAULT_ASSET_ORIGIN,
  rewriteUrl,
  type UrlRewriterOptions,
} from "./url.ts";
export {
  ASSET_PREFIX,
  compileRewriter,
  type Rewriter,
  type RewriteRules,
  rewriteUrls,
} from "./rewrite.ts";

export {
  cleanUrlFor,
  compileProviderRoutes,
  createProviderRewriter,
  type DerivedOrigin,
  type DerivedOrigins,
  deriveOrigins,
  describeProvider,
  type FileClass,
  fileClassOf,
  PROVIDER_FIELDS,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderEnv,
  type ProviderKind,
  type ProviderProblem,
  type ProviderRewriterOptions,
  type ProviderRoutes,
  providerSources,
  type QueryPolicy,
  sampleAsset,
  STORYBLOK_REGIONS,
  type UpstreamTarget,
  validateProviderConfig,
} from "./providers.ts";
export { type SourceRule } from "./rewrite.ts";

export {
  type CachelyFetch,
  type CachelyFetchOptions,
  createCachelyFetch,
  type ExperimentCapture,
} from "./fetch.ts";
export {
  type CachelyProvider,
  createGenericProvider,
  type GenericProviderOptions,
  parseApiOrigin,
  type ProviderDefinition,
  type ProviderInput,
  providerRegistry,
  resolveProvider,
} from "./provider_registry.ts";
export {
  DEFAULT_PROXY_DOMAIN,
  resolveTenantOrigin,
  TENANT_SLUG_RE,
  type TenantTarget,
} from "./tenant_origin.ts";

// The experiment tracker (owned by the experiments area) is exported below.
export * from "./tracker.ts";
export {
  nextPreviewRoute,
  nextPreviewToken,
  nuxtPreviewMode,
  PREVIEW_COOKIE,
  PREVIEW_TOKEN_PARAM,
  previewTokenFrom,
  withPreviewToken,
} from "./preview.ts";
