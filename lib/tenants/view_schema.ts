/**
 * The response shape of the tenant view built by `tenantView` (lib/tenants/service.ts), for
 * the route declarations and the OpenAPI document (docs/architecture.md "Declaring an API
 * route"). Kept next to the builder so a field added there and not here fails the tests
 * (response validation is on in tests/harness.ts).
 */
import { z } from "zod";
import { AUTH_MODES, PROVIDER_KINDS } from "../providers/mod.ts";
import { ROLES } from "../base/roles.ts";
import { CACHE_MODES } from "./schema.ts";
import { isoTime } from "../base/shapes.ts";

export const tenantValueSchema = z.strictObject({
  slug: z.string(),
  cms: z.enum(PROVIDER_KINDS),
  cloudName: z.string().nullable(),
  // The one identifier of the CMS kind (lib/tenants/provider_input.ts StoredProvider).
  spaceId: z.string().optional(),
  repository: z.string().optional(),
  projectId: z.string().optional(),
  dataset: z.string().optional(),
  storeDomain: z.string().optional(),
  imgixDomain: z.string().optional(),
  region: z.string().optional(),
  originUrl: z.string().optional(),
  videoOrigin: z.string().optional(),
  providerOrigins: z.strictObject({
    api: z.string().nullable(),
    assets: z.array(z.strictObject({ role: z.string(), url: z.string() })),
  }).describe("Derived from the identifier"),
  sampleAsset: z.strictObject({ source: z.string(), clean: z.string() }).nullable(),
  websiteDomain: z.string().nullable(),
  websiteOrigin: z.string().nullable(),
  cacheTTL: z.number().int().describe(
    "assetCacheTTL for the asset-only kinds (imgix, generic), else apiCacheTTL",
  ),
  apiCacheTTL: z.number().int(),
  assetCacheTTL: z.number().int(),
  allowedTypes: z.array(z.string()).describe('["*/*"]: every type (the default)'),
  transformApiUrls: z.boolean().describe("Provider URLs in API bodies rewritten"),
  blockBots: z.boolean(),
  allowImageSearchBots: z.boolean(),
  stripQueryTypes: z.array(z.string()).describe(
    "Asset file classes or .extensions whose query is stripped ([]: the provider's rule)",
  ),
  apiOrigin: z.string().nullable(),
  apiAuthMode: z.enum(AUTH_MODES),
  apiAuthHeader: z.string().nullable(),
  hasToken: z.boolean().describe("The token itself is write-only"),
  tokenUpdatedAt: isoTime.nullable(),
  previewParam: z.string(),
  siteProxy: z.boolean(),
  cdnOffload: z.boolean(),
  cacheMode: z.enum(CACHE_MODES).describe(
    "fixed: the TTLs; origin: assets and pages follow the origin",
  ),
  staleWhileRevalidate: z.number().int().describe(
    "Seconds a stale copy is served while it refreshes",
  ),
  ignoreSetCookie: z.boolean().describe("Answers that set a cookie are cached (cookie dropped)"),
  staleWhenOriginSilent: z.boolean().describe(
    "Origin mode: the stale window applies even where the origin did not allow stale answers",
  ),
  locales: z.array(z.string()).describe(
    "Locales website pages are negotiated to (Accept-Language lookup; the first is the default); [] passes Accept-Language on as sent",
  ),
  apiCacheVersion: z.number().int(),
  assetCacheVersion: z.number().int(),
  htmlCacheVersion: z.number().int(),
  proxyBase: z.string(),
  previewBase: z.string(),
  role: z.enum(ROLES).optional().describe("The caller's role, where the route knows it"),
  createdAt: isoTime,
  updatedAt: isoTime,
});

/** `{ key, value }`: GET/PUT /api/tenants/{slug} and each item of GET /api/tenants. */
export const tenantViewSchema = z.strictObject({ key: z.string(), value: tenantValueSchema });

/** `{ ok, key }`: answers of deletions and creations keyed by slug. */
export const okKeySchema = z.strictObject({ ok: z.literal(true), key: z.string() });
