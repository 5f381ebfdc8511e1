/**
 * The provider registry: every kind the server supports, each turning its one
 * identifier into a `CachelyProvider` (API origin to proxy, asset URL rewriter).
 * The rules themselves are sdk/providers.ts, shared with the server, so the SDK
 * produces the same URLs as the edge.
 */
import {
  deriveOrigins,
  parseHttpsOrigin,
  PROVIDER_FIELDS,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderEnv,
  type ProviderKind,
  providerSources,
  validateProviderConfig,
} from "./providers.ts";
import { compileRewriter, escapePathLiteral, type Rewriter, type SourceRule } from "./rewrite.ts";
import { optionError } from "./tenant_origin.ts";

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
  rewriter(tenantOrigin: string, opts?: { keepCloudName?: boolean }): Rewriter;
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

const def = (
  kind: ProviderKind,
  label: string,
  required: (keyof ProviderConfig)[],
  packages: string[],
): ProviderDefinition => ({ kind, label, fields: PROVIDER_FIELDS[kind], required, packages });

/** Every provider kind the server supports. */
export const providerRegistry: Readonly<Record<ProviderKind, ProviderDefinition>> = {
  contentful: def("contentful", "Contentful", ["spaceId"], [
    "contentful",
    "@contentful/rich-text-react-renderer",
  ]),
  prismic: def("prismic", "Prismic", ["repository"], [
    "@prismicio/client",
    "@prismicio/next",
    "@prismicio/react",
    "@prismicio/vue",
    "@nuxtjs/prismic",
  ]),
  sanity: def("sanity", "Sanity", ["projectId"], [
    "@sanity/client",
    "next-sanity",
    "@sanity/image-url",
  ]),
  shopify: def("shopify", "Shopify", ["storeDomain"], [
    "@shopify/hydrogen",
    "@shopify/storefront-api-client",
    "shopify-buy",
  ]),
  cloudinary: def("cloudinary", "Cloudinary", ["cloudName"], [
    "cloudinary",
    "@cloudinary/url-gen",
    "next-cloudinary",
  ]),
  imgix: def("imgix", "imgix", ["imgixDomain"], ["@imgix/js-core", "react-imgix", "imgix-core-js"]),
  storyblok: def("storyblok", "Storyblok", [], [
    "@storyblok/js",
    "@storyblok/react",
    "@storyblok/vue",
    "@storyblok/nuxt",
    "storyblok-js-client",
  ]),
  generic: def("generic", "Generic origin (S3, R2, GCS, any HTTPS origin)", [], []),
};

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

const FN = "createGenericProvider";

/** A provider for any HTTPS origin (S3, R2, GCS, your own API). */
export function createGenericProvider(opts: GenericProviderOptions = {}): CachelyProvider {
  if (opts === null || typeof opts !== "object") {
    throw optionError(FN, "options", "must be an object");
  }
  const origins = (opts.assetHosts ?? []).map((raw, i) => {
    const s = String(raw).trim();
    const o = parseHttpsOrigin(/^https:\/\//i.test(s) ? s : `https://${s}`);
    if (!o) {
      throw optionError(
        FN,
        `assetHosts[${i}]`,
        `${JSON.stringify(raw)} is not an https origin or host`,
      );
    }
    return o;
  });
  let apiOrigin: string | null = null;
  if (opts.apiHost !== undefined) {
    apiOrigin = parseApiOrigin(opts.apiHost);
    if (!apiOrigin) {
      throw optionError(FN, "apiHost", `${JSON.stringify(opts.apiHost)} is not an https origin`);
    }
  }
  const config: ProviderConfig = {
    cms: "generic",
    originUrl: origins[0] ? `https://${origins[0].host}${origins[0].base}` : null,
    videoOrigin: origins[1] ? `https://${origins[1].host}${origins[1].base}` : null,
  };
  // Every listed origin keeps its path on the tenant host, as the edge's generic rule does.
  const sources: SourceRule[] = origins.map((o) => ({
    host: o.host,
    path: o.base.split("/").slice(1).map(escapePathLiteral).join("/"),
    clean: "",
  }));
  return {
    kind: "generic",
    config,
    apiOrigin,
    rewriter: (tenantOrigin) => compileRewriter({ tenantOrigin, sources }),
  };
}

/**
 * `https://host[:port][/base]` without query, fragment or credentials, as an origin
 * with its base path and no trailing slash; http only for localhost. Null otherwise.
 */
export function parseApiOrigin(raw: unknown): string | null {
  const s = String(raw).trim();
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    return null;
  }
  if (u.search || u.hash || u.username || u.password) return null;
  const local = /^(localhost|127\.0\.0\.1|\[::1\])$/.test(u.hostname);
  if (u.protocol !== "https:" && !(u.protocol === "http:" && local)) return null;
  return (u.origin + u.pathname).replace(/\/+$/, "");
}

/** What `provider` options accept: a kind name, a config, or a resolved provider. */
export type ProviderInput = ProviderKind | ProviderConfig | CachelyProvider;

function isResolved(p: unknown): p is CachelyProvider {
  return typeof p === "object" && p !== null &&
    typeof (p as CachelyProvider).rewriter === "function";
}

/**
 * Resolves a `provider` option, checking it now: an unknown kind or a missing or
 * malformed identifier throws an Error naming the option (e.g. `provider.spaceId`).
 */
export function resolveProvider(
  input: ProviderInput,
  opts: { fn?: string; option?: string; env?: ProviderEnv; apiOrigin?: string } = {},
): CachelyProvider {
  const fn = opts.fn ?? "resolveProvider";
  const option = opts.option ?? "provider";
  if (isResolved(input)) return input;
  const cfg: ProviderConfig = typeof input === "string" ? { cms: input as ProviderKind } : input;
  if (!cfg || typeof cfg !== "object") {
    throw optionError(
      fn,
      option,
      `must be one of ${PROVIDER_KINDS.join(", ")}, or a provider config`,
    );
  }
  if (!(PROVIDER_KINDS as readonly string[]).includes(cfg.cms)) {
    throw optionError(
      fn,
      typeof input === "string" ? option : `${option}.cms`,
      `${JSON.stringify(cfg.cms)} is not a provider kind (one of ${PROVIDER_KINDS.join(", ")})`,
    );
  }
  let apiOrigin: string | null = null;
  if (opts.apiOrigin !== undefined) {
    apiOrigin = parseApiOrigin(opts.apiOrigin);
    if (!apiOrigin) {
      throw optionError(
        fn,
        "apiOrigin",
        `${JSON.stringify(opts.apiOrigin)} is not an https origin`,
      );
    }
  }
  if (cfg.cms === "generic") {
    const assetHosts = [cfg.originUrl, cfg.videoOrigin].filter((v): v is string => !!v);
    for (const f of ["originUrl", "videoOrigin"] as const) {
      if (cfg[f] && !parseHttpsOrigin(String(cfg[f]))) {
        throw optionError(
          fn,
          `${option}.${f}`,
          "must be an https:// origin without query or fragment",
        );
      }
    }
    return createGenericProvider({ assetHosts, apiHost: apiOrigin ?? undefined });
  }
  for (const f of providerRegistry[cfg.cms].required) {
    if (!cfg[f]) throw optionError(fn, `${option}.${f}`, `is required for ${cfg.cms}`);
  }
  const problem = validateProviderConfig(cfg);
  if (problem) throw optionError(fn, `${option}.${problem.field}`, problem.message);
  const env = opts.env ?? {};
  apiOrigin ??= deriveOrigins(cfg, env).api;
  return {
    kind: cfg.cms,
    config: { ...cfg },
    apiOrigin: apiOrigin ? apiOrigin.replace(/\/+$/, "") : null,
    rewriter: (tenantOrigin, o = {}) =>
      compileRewriter({ tenantOrigin, sources: providerSources(cfg, env, o.keepCloudName) }),
  };
}
