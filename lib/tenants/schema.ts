/** Request schemas for tenant create and update (SPEC "Tenants"; field list in docs/decisions.md). */
import { z } from "zod";
import { str } from "../base/text.ts";
import { isReservedHeaderName } from "../http/header_names.ts";
import {
  AUTH_MODES,
  definitionOf,
  IDENTIFIER_RULES,
  PROVIDER_KINDS,
  STORYBLOK_REGIONS,
} from "../providers/mod.ts";
import { STRIP_QUERY_TYPE } from "../providers/query_types.ts";
import { canonicalLocale, LOCALE_TAG, MAX_LOCALES } from "../base/locales.ts";

export const hostnameSchema = str().trim().toLowerCase().max(253).regex(
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
  "must be a hostname such as www.example.com",
);

const urlString = str().trim().max(2048);
const headerName = str().regex(/^[A-Za-z0-9-]{1,64}$/, "must be an HTTP header name").refine(
  (v) => !isReservedHeaderName(v),
  "must not be a hop-by-hop, forwarding or browser-controlled header",
);
/** A credential goes into a header (or a query): printable ASCII, no CR/LF/NUL, no edge spaces. */
const headerSafe = (max: number) =>
  str().min(1).max(max).regex(
    /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/,
    "must be printable ASCII without line breaks or surrounding spaces",
  );

const identifier = (f: keyof typeof IDENTIFIER_RULES) =>
  str().trim().regex(IDENTIFIER_RULES[f].re, IDENTIFIER_RULES[f].message).nullable()
    .optional();
const hostIdentifier = (f: "storeDomain" | "imgixDomain") =>
  str().trim().toLowerCase().regex(IDENTIFIER_RULES[f].re, IDENTIFIER_RULES[f].message)
    .nullable().optional();
const queryParamName = str().regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be a query parameter name");
const apiTtl = z.number().int().min(10, "must be 10-3600 seconds").max(
  3600,
  "must be 10-3600 seconds",
);
// A MIME type (`image/png`), a family (`image`, `image/*`), or every type (`*/*`, `*`).
const mimeOrFamily = str().trim().toLowerCase().regex(
  /^(?:\*(?:\/\*)?|[a-z]+(?:\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126}))?)$/,
  "must be a MIME type such as image/png, a family such as image, or */*",
);

/**
 * The provider identifiers (one per CMS kind; sdk/providers.ts). Shapes are
 * checked here; which one the kind requires is checked with the kind in
 * lib/tenants/provider_input.ts.
 */
export const providerFields = {
  spaceId: identifier("spaceId"),
  repository: identifier("repository"),
  projectId: identifier("projectId"),
  dataset: identifier("dataset"),
  storeDomain: hostIdentifier("storeDomain"),
  imgixDomain: hostIdentifier("imgixDomain"),
  cloudName: identifier("cloudName"),
  region: z.enum(STORYBLOK_REGIONS).nullable().optional(),
  originUrl: urlString.nullable().optional(),
  videoOrigin: urlString.nullable().optional(),
};

/** HTTP caching (docs/decisions.md "HTTP caching"). Kept together. */
export const CACHE_MODES = ["fixed", "origin"] as const;
export const cachingFields = {
  /** "fixed": the tenant's TTLs; "origin": assets and site pages follow the origin's headers. */
  cacheMode: z.enum(CACHE_MODES).optional(),
  /** Seconds an expired copy is served while one background refresh runs (0: off). */
  staleWhileRevalidate: z.number().int().min(0, "must be 0-86400 seconds").max(
    86_400,
    "must be 0-86400 seconds",
  ).optional(),
  /** Store answers that set a cookie (the cookie itself is never passed on). */
  ignoreSetCookie: z.boolean().optional(),
  /**
   * Origin mode: serve expired copies within the stale window even when the origin sent no
   * stale-while-revalidate / stale-if-error (off: only what the origin allows).
   */
  staleWhenOriginSilent: z.boolean().optional(),
  /**
   * Locales of the website's pages (`["en", "de"]`, the first the default): each visitor's
   * Accept-Language is looked up among them (RFC 4647) before it keys the cache and reaches the
   * origin, so a page has at most one entry per locale. null or [] -> passed on as sent.
   */
  locales: z.array(
    str().trim().regex(LOCALE_TAG, "must be a language tag such as en, de or pt-BR").max(35)
      .transform(canonicalLocale),
  ).max(MAX_LOCALES, `must list at most ${MAX_LOCALES} locales`).nullable().optional(),
};

export const tenantConfigFields = {
  ...providerFields,
  ...cachingFields,
  websiteDomain: hostnameSchema.nullable().optional(),
  websiteOrigin: urlString.nullable().optional(),
  /**
   * The original product's name: the asset TTL for the asset-only kinds (imgix, generic),
   * the API TTL (former name of apiCacheTTL) for the others; range checked with the kind
   * (lib/tenants/provider_input.ts canonicalApiSettings, docs/providers.md).
   */
  cacheTTL: z.number().int().optional(),
  apiCacheTTL: apiTtl.optional(),
  /** Asset cache time-to-live: default one day, at most one year. */
  assetCacheTTL: z.number().int().min(60, "must be 60-31536000 seconds").max(
    31_536_000,
    "must be 60-31536000 seconds",
  ).optional(),
  apiOrigin: urlString.nullable().optional(),
  apiAuthMode: z.enum(AUTH_MODES).optional(),
  apiAuthHeader: headerName.nullable().optional(),
  /** Synonym of apiAuthHeader. */
  apiTokenHeader: headerName.nullable().optional(),
  previewParam: queryParamName.optional(),
  /** Synonym of previewParam. */
  previewBypassParam: queryParamName.optional(),
  siteProxy: z.boolean().optional(),
  cdnOffload: z.boolean().optional(),
  /** Content types served from asset origins; null (or unset) serves every type. */
  allowedTypes: z.array(mimeOrFamily).min(1).max(50).nullable().optional(),
  /**
   * Asset types whose query is stripped from the cache key and the origin request, where the
   * provider would keep it: file classes or extensions (`["image", ".pdf"]`); null or [] -> none.
   */
  stripQueryTypes: z.array(
    str().trim().toLowerCase().regex(
      STRIP_QUERY_TYPE,
      "must be a file class (image, video, audio, font, document, other) or an extension such as .pdf",
    ),
  ).max(50).nullable().optional(),
  /** Provider URLs in API bodies rewritten to the tenant host (default on). */
  transformApiUrls: z.boolean().optional(),
  /** 403 for scrapers and AI crawlers on assets (default on). */
  blockBots: z.boolean().optional(),
  /** Let search engines' image crawlers through when blockBots is on (default off). */
  allowImageSearchBots: z.boolean().optional(),
};

export const createTenantSchema = z.object({
  slug: str().trim().toLowerCase(),
  cms: z.enum(PROVIDER_KINDS),
  apiKey: headerSafe(256).optional(),
  apiSecret: headerSafe(256).optional(),
  token: headerSafe(8192).optional(),
  ...tenantConfigFields,
}).strict().superRefine((v, ctx) => {
  // cloudName is a tenant column, not a provider identifier: checked here for the kinds needing it.
  if (definitionOf(v.cms).required.includes("cloudName") && !v.cloudName) {
    ctx.addIssue({ code: "custom", path: ["cloudName"], message: `is required for ${v.cms}` });
  }
  if ((v.apiKey === undefined) !== (v.apiSecret === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [v.apiKey === undefined ? "apiKey" : "apiSecret"],
      message: "apiKey and apiSecret go together",
    });
  }
});
export type CreateTenantInput = z.infer<typeof createTenantSchema>;

export const updateTenantSchema = z.object(tenantConfigFields).strict();
export type UpdateTenantInput = z.infer<typeof updateTenantSchema>;

/** PUT api-config: the API proxy settings without the token. */
export const apiConfigSchema = z.object({
  apiOrigin: tenantConfigFields.apiOrigin,
  apiAuthMode: tenantConfigFields.apiAuthMode,
  apiAuthHeader: tenantConfigFields.apiAuthHeader,
  apiTokenHeader: tenantConfigFields.apiTokenHeader,
  /** Here always the API TTL (an API context), whatever the kind. */
  cacheTTL: apiTtl.optional(),
  apiCacheTTL: tenantConfigFields.apiCacheTTL,
  transformApiUrls: tenantConfigFields.transformApiUrls,
  previewParam: tenantConfigFields.previewParam,
  previewBypassParam: tenantConfigFields.previewBypassParam,
}).strict();

export const apiTokenSchema = z.object({ token: headerSafe(8192) }).strict();
