/**
 * The provider registry: every kind the server supports, each turning its one
 * identifier into a `CachelyProvider` (API origin to proxy, asset URL rewriter).
 * The rules themselves are sdk/providers.ts, shared with the server, so the SDK
 * produces the same URLs as the edge.
 */
import {
  definitionOf,
  deriveOrigins,
  isHostname,
  parseHttpsOrigin,
  PROVIDER_FIELDS,
  PROVIDER_KINDS,
  PROVIDER_LIST,
  type ProviderConfig,
  type ProviderEnv,
  type ProviderKind,
  providerSources,
  tableOf,
  validateProviderConfig,
} from "./providers.ts";
import type { FieldName } from "./providers/types.ts";
import { generic } from "./providers/generic.ts";
import { compileRewriter, escapePathLiteral, type Rewriter, type SourceRule } from "./rewrite.ts";
import { optionError } from "./tenant_origin.ts";

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
  rewriter(tenantOrigin: string, opts?: { keepCloudName?: boolean }): Rewriter;
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
export const providerRegistry: Readonly<Record<ProviderKind, ProviderDefinition>> = tableOf((
  d,
) => ({
  kind: d.kind,
  label: d.sdk?.label ?? d.label,
  fields: PROVIDER_FIELDS[d.kind],
  required: d.sdkRequired,
  packages: d.setup.packages,
}));

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

const FN = "createGenericProvider";
const ID_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The source rules of one asset host for a provider id: the clean form the edge serves
 * for that kind whatever the identifier (another project's URL is rewritten too, and the
 * edge answers it 404 as it would have), else the generic rule (path below the origin kept).
 */
function sourcesFor(id: string, o: { host: string; base: string }): SourceRule[] {
  const kept = o.base.split("/").slice(1).map(escapePathLiteral).join("/");
  const generic = [{ host: o.host, path: kept, clean: "" }];
  if (o.base || !isKind(id)) return generic;
  return definitionOf(id).sdk?.hostSources?.(o.host) ?? generic;
}

/**
 * The API origin of a bare API host for a provider id, where its kind maps one (Shopify's
 * tenant apiOrigin is `https://<store>/api`).
 */
function kindApiOrigin(id: string, o: { host: string; base: string; origin: string }): string {
  if (o.base || !isKind(id)) return o.origin;
  return definitionOf(id).sdk?.apiOriginOfHost?.(o.host) ?? o.origin;
}

const isKind = (id: string): id is ProviderKind =>
  (PROVIDER_KINDS as readonly string[]).includes(id);

/** `host[:port]` or `http(s)://host[:port][/base]` -> origin parts; null when neither. */
function parseHostOrOrigin(raw: unknown): { host: string; base: string; origin: string } | null {
  const s = String(raw ?? "").trim();
  if (/^https?:\/\//i.test(s)) {
    const api = parseApiOrigin(s);
    if (!api) return null;
    const u = new URL(api);
    return { host: u.host, base: u.pathname.replace(/\/+$/, ""), origin: api };
  }
  const m = /^([a-z0-9.-]+)(:\d{1,5})?$/i.exec(s);
  if (!m || !(isHostname(m[1].toLowerCase()) || /^(localhost|127\.0\.0\.1)$/i.test(m[1]))) {
    return null;
  }
  const host = s.toLowerCase();
  const local = /^(localhost|127\.0\.0\.1)(:|$)/.test(host) ||
    host.split(":")[0].endsWith(".localhost");
  return { host, base: "", origin: `${local ? "http" : "https"}://${host}` };
}

/**
 * A provider from hosts (the original product's `createGenericProvider({ id, apiHosts,
 * assetHosts })`): the way to use Sanity, Shopify, imgix, Storyblok or any origin. Every
 * option is checked now (an Error names it).
 */
export function createGenericProvider(opts: GenericProviderOptions = {}): CachelyProvider {
  if (opts === null || typeof opts !== "object") {
    throw optionError(FN, "options", "must be an object");
  }
  const id = opts.id === undefined ? generic.kind : String(opts.id);
  if (!ID_RE.test(id)) {
    throw optionError(
      FN,
      "id",
      `${JSON.stringify(opts.id)} is not a provider id (a-z, 0-9, - and _)`,
    );
  }
  const list = (name: string, v: unknown): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw optionError(FN, name, "must be an array of hostnames");
    return v;
  };
  const origins = list("assetHosts", opts.assetHosts).map((raw, i) => {
    const o = parseHostOrOrigin(raw);
    if (!o) {
      throw optionError(FN, `assetHosts[${i}]`, `${JSON.stringify(raw)} is not a hostname`);
    }
    return o;
  });
  const apiOrigins = list("apiHosts", opts.apiHosts).map((raw, i) => {
    const o = parseHostOrOrigin(raw);
    if (!o) throw optionError(FN, `apiHosts[${i}]`, `${JSON.stringify(raw)} is not a hostname`);
    return kindApiOrigin(id, o);
  });
  if (opts.apiHost !== undefined) {
    const api = parseApiOrigin(opts.apiHost);
    if (!api) {
      throw optionError(FN, "apiHost", `${JSON.stringify(opts.apiHost)} is not an https origin`);
    }
    apiOrigins.push(api);
  }
  const config: ProviderConfig = {
    cms: generic.kind,
    originUrl: origins[0] ? `https://${origins[0].host}${origins[0].base}` : null,
    videoOrigin: origins[1] ? `https://${origins[1].host}${origins[1].base}` : null,
  };
  const sources = origins.flatMap((o) => sourcesFor(id, o));
  return {
    kind: generic.kind,
    id,
    config,
    apiOrigin: apiOrigins[0] ?? null,
    apiOrigins,
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

/** The provider ids createCachelyFetch takes by name (the original product's); others: createGenericProvider. */
export const BUILT_IN_IDS: readonly ProviderKind[] = PROVIDER_LIST.filter((d) => d.sdk?.builtIn)
  .map((d) => d.kind);

/** What `provider` options accept: a built-in id, a config, or a resolved provider. */
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
  if (typeof input === "string" && !(BUILT_IN_IDS as readonly string[]).includes(input)) {
    throw optionError(
      fn,
      option,
      `${JSON.stringify(input)} is not a built-in provider (${BUILT_IN_IDS.join(", ")}); ` +
        "build it with createGenericProvider({ id, apiHosts, assetHosts })",
    );
  }
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
  const def = definitionOf(cfg.cms);
  if (def.sdk?.fromOrigins) {
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
  const fromApiUrl = def.sdk?.identifierFromApiUrl;
  const field = PROVIDER_FIELDS[cfg.cms][0] as FieldName;
  if (fromApiUrl && !cfg[field] && apiOrigin === null) {
    return fromApiUrls(cfg, field, fromApiUrl, opts.env);
  }
  for (const f of def.sdkRequired) {
    if (!cfg[f]) throw optionError(fn, `${option}.${f}`, `is required for ${cfg.cms}`);
  }
  const problem = validateProviderConfig(cfg);
  if (problem) throw optionError(fn, `${option}.${problem.field}`, problem.message);
  const env = opts.env ?? {};
  apiOrigin ??= deriveOrigins(cfg, env).api;
  const api = apiOrigin ? apiOrigin.replace(/\/+$/, "") : null;
  return {
    kind: cfg.cms,
    id: cfg.cms,
    config: { ...cfg },
    apiOrigin: api,
    apiOrigins: api ? [api] : [],
    rewriter: (tenantOrigin, o = {}) =>
      compileRewriter({ tenantOrigin, sources: providerSources(cfg, env, o.keepCloudName) }),
  };
}

/**
 * A provider without its identifier whose every API URL names it (the original docs'
 * `provider: "prismic"`: `<repo>.cdn.prismic.io`): the identifier is read from each API URL,
 * and that identifier's provider proxies and rewrites it.
 */
function fromApiUrls(
  cfg: ProviderConfig,
  field: FieldName,
  identifierOf: (url: URL) => string | null,
  env?: ProviderEnv,
): CachelyProvider {
  const known = new Map<string, CachelyProvider>();
  return {
    kind: cfg.cms,
    id: cfg.cms,
    config: { ...cfg },
    apiOrigin: null,
    apiOrigins: [],
    rewriter: (tenantOrigin, o = {}) =>
      compileRewriter({ tenantOrigin, sources: providerSources(cfg, env, o.keepCloudName) }),
    fromApiUrl(url) {
      const id = identifierOf(url);
      if (id === null) return null;
      let p = known.get(id);
      if (!p) {
        p = resolveProvider({ ...cfg, [field]: id }, { env });
        // one entry per identifier a page talks to: a handful
        if (known.size < 64) known.set(id, p);
      }
      return p;
    },
  };
}
