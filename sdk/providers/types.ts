/**
 * The shape of a provider kind's definition (one file per kind in sdk/providers/, listed in
 * list.ts) and the config and result types its rules use. Dependency-free.
 *
 * @module
 */
import type { SourceRule } from "../rewrite.ts";
import type { EntityKnowledge } from "../entities/types.ts";
import type { CanonicalPair, DraftRefusal } from "./draft_query.ts";
import type { ProviderKind } from "./list.ts";

/** Storyblok regions (`region`); absent means the EU default. */
export const STORYBLOK_REGIONS = ["eu", "us", "ap", "ca", "cn"] as const;
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
  /** generic: the HTTPS origin (S3, R2, GCS, ...), optionally with a base path. */
  originUrl?: string | null;
  /** generic: optional origin for video files. */
  videoOrigin?: string | null;
};

/** An identifier field of some kind. */
export type FieldName = keyof Omit<ProviderConfig, "cms">;

/** Where things of other providers live; only the image host is configurable. */
export type ProviderEnv = {
  /** The image/video host origin (default `https://res.cloudinary.com`). */
  imageHostOrigin?: string;
  /** The image/video host API origin (default `https://api.cloudinary.com`). */
  imageHostApiOrigin?: string;
};

/** A problem with one field of a provider config (the server answers 400 naming it). */
export type ProviderProblem = { field: string; message: string };

/** One identifier field of a kind: how it is checked and how the dashboard asks for it. */
export type FieldSpec = {
  /** The pattern a value must match, and what to say when it does not. */
  rule?: { re: RegExp; message: string };
  /** A check beyond a pattern: the message of the problem, or null. */
  check?: (value: string, opts: { allowHttp?: boolean }) => string | null;
  /** Dashboard form text. */
  label: string;
  hint: string;
  placeholder: string;
};

/** One asset origin of a provider, as shown to the user. */
export type DerivedOrigin = {
  /** What it serves: images, videos, files, ... */
  role: string;
  /** `https://host[/base]`, no trailing slash. */
  url: string;
};

/** The origins a config implies: API origin (null when none) and asset origins. */
export type DerivedOrigins = { api: string | null; assets: DerivedOrigin[] };

/** What the query of a clean URL does upstream and in the cache key. */
export type QueryPolicy =
  /** sorted, tracking and preview parameters dropped, forwarded and in the key */
  | "keep"
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

/**
 * How the stored token reaches the upstream: `Authorization: Bearer`, `Authorization: Basic`,
 * `Authorization: Token` (the `token` synonym customers know), a named header
 * (`apiAuthHeader`), a named query parameter, or not at all.
 */
export const AUTH_MODES = ["bearer", "basic", "token", "header", "query", "none"] as const;
export type AuthMode = typeof AUTH_MODES[number];

/** The server's upstream defaults of a kind. */
type UpstreamDefaults = {
  /**
   * Legacy: hosts served under `/~assets/<host>/` (URLs issued before clean URLs;
   * still answered, or 301 to the clean form when the tenant's identifier maps them).
   */
  assetHosts: string[];
  defaultApiOrigin: string | null;
  defaultAuthMode: AuthMode;
  /** Header or query parameter name for the `header` and `query` auth modes. */
  defaultAuthParam?: string;
};

/** One documented draft switch of a provider (docs/providers.md). */
type DraftSwitchDoc = { name: string; visitor: string; preview: string };

/** A provider's draft switches (sdk/drafts.ts compiles them into a tenant's guard). */
export type DraftSwitches = {
  /** The switches as documented: what a visitor and what a preview link gets. */
  switches: readonly DraftSwitchDoc[];
  /**
   * API hosts of this CMS: a tenant of another kind (`generic`) whose API origin is one of
   * them gets this guard too.
   */
  apiHost: RegExp;
  /** Hosts whose every answer may be a draft (a preview API): visitors are refused. */
  previewHosts: readonly string[];
  /** Refuses a visitor's path and canonical query pairs, or null. */
  check(path: string, pairs: readonly CanonicalPair[]): DraftRefusal | null;
  /** Parameters added (when absent) so the CMS answers published content. */
  published: readonly [string, string][];
  /** A parameter naming a content version that must be a published (master) ref. */
  refParam: string | null;
};

/** What a preview request (a valid preview link) forwards beyond the visitor's query. */
type PreviewRules = {
  /** The switch added when the request names none (drafts, not published). */
  defaultSwitch?: [string, string];
  /** The ref a preview cookie names (Prismic's `io.prismic.preview`): [parameter, value]. */
  cookieRef?(cookie: string): [string, string] | null;
};

/** Static, realistic sample of what the provider's API returns (demos, docs). */
export type DemoSample = {
  /** The tenant's provider set-up: the one identifier of its kind. */
  provider: ProviderConfig;
  /** Upstream API origin of the example (project-specific ones use a made-up project). */
  apiOrigin: string;
  /** Path and query, the same upstream and on the tenant host. */
  path: string;
  body: unknown;
  /** One asset URL on the provider's asset host, or null when the kind rewrites none. */
  assetUrl: string | null;
};

/** What `cachely setup` writes for the helper file (sdk/setup_files.ts). */
type HelperContext = {
  cfg: ProviderConfig;
  nuxt: boolean;
  hasUtilsDir: boolean;
  /** The proxy URL variable (CACHELY_PROXY_URL with the framework's prefix). */
  variable: string;
  /** How the framework's code reads an env variable. */
  envRead(name: string): string;
};

/** What `cachely setup` knows of a kind. */
type SetupHints = {
  /** npm packages that mean a project uses this kind (detection). */
  packages: readonly string[];
  /** Env variable stem of the identifier (the kind's first field). */
  envName?: string;
  /** Env variables the browser must no longer hold (the token moves to the tenant). */
  secrets?: readonly string[];
  /** False: setup does not ask for the first field (it is optional). */
  ask?: false;
  /** Asset hosts keep their base path (createGenericProvider origins, not hosts). */
  keepAssetPath?: true;
  /** The code `setup` prints, when the kind has its own adapter: identifier and target. */
  snippet?(idExpr: string, target: string): string;
  /** The helper file's text after its head, when the kind has its own adapter. */
  helper?(h: HelperContext): string;
  /** Nuxt: the composable the helper is written to, and whether a client file is patched. */
  nuxtComposable?: string;
};

/** The SDK registry's hooks of a kind (sdk/provider_registry.ts). */
type SdkHints = {
  /** `createCachelyFetch({ provider: "<kind>" })` takes the kind by name. */
  builtIn?: true;
  /** The registry's label where it says more than `label`. */
  label?: string;
  /** createGenericProvider({ id: kind }): the source rules of one bare asset host, or null. */
  hostSources?(host: string): SourceRule[] | null;
  /** createGenericProvider({ id: kind }): the API origin of a bare API host, or null. */
  apiOriginOfHost?(host: string): string | null;
  /** The kind is its origins (resolved through createGenericProvider). */
  fromOrigins?: true;
  /** The identifier (first field) an API URL names, where every API URL names it. */
  identifierFromApiUrl?(url: URL): string | null;
};

/** A provider kind, in one module: everything Cachely knows of it. */
export type ProviderKindDefinition<K extends string = string> = {
  kind: K;
  /** The name shown in the dashboard, demos and the server. */
  label: string;
  /** The identifier fields (the first is the one to ask for), in the order shown. */
  fields: { readonly [F in FieldName]?: FieldSpec };
  /** Fields a tenant cannot work without (the rest are optional or legacy). */
  required: readonly FieldName[];
  /** Fields the SDK needs to know the provider's URLs. */
  sdkRequired: readonly FieldName[];
  /** API and asset origins of a config; nothing without the identifier. */
  origins(cfg: ProviderConfig, env: ProviderEnv): DerivedOrigins;
  /** Provider URL forms and the clean prefix each becomes; none without the identifier. */
  sources(cfg: ProviderConfig, env: ProviderEnv, keepCloudName: boolean): SourceRule[];
  /** Where a clean path is fetched and what happens to its query. */
  routes(cfg: ProviderConfig, env: ProviderEnv): ProviderRoutes;
  /** A sample asset below the first derived asset origin (dashboard). */
  samplePath: string;
  upstream: UpstreamDefaults;
  /** Server defaults that need the environment and the cloud name (the image host). */
  upstreamFor?(env: ProviderEnv, cloudName: string): UpstreamDefaults & {
    privateHost: string | null;
  };
  /** The upstream token from an API key and secret (the image host's Basic credential). */
  tokenFromKeys?(apiKey: string, apiSecret: string): string;
  /** Stored identifiers shown with defaults filled in (Sanity's dataset). */
  viewDefaults?(cfg: { [F in FieldName]?: string | null }): { [F in FieldName]?: string };
  /** Serves assets only: the cache TTL shown is the asset TTL. */
  assetsOnly?: true;
  /** A tenant needs some origin (asset, API or website) to serve anything. */
  needsAnOrigin?: true;
  /** Cache-refresh webhooks: the event type of a delivery (null: not named). */
  webhook?: { eventType(headers: Headers, body: unknown): string | null };
  /** Entity ids of answers and webhook notices (publish purges). */
  entities?: EntityKnowledge;
  /** Request parts that read unpublished content. */
  drafts?: DraftSwitches;
  preview?: PreviewRules;
  /** Published price per GB of asset bandwidth (USD), for the savings estimate. */
  bandwidthUsdPerGb?: number;
  demo: DemoSample;
  setup: SetupHints;
  sdk?: SdkHints;
};
