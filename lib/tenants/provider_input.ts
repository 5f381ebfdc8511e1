/**
 * Tenant provider set-up: the one identifier per CMS kind, the asset
 * settings (TTL, allowed types, bot protection) and the names customers already
 * use for API settings. Shapes are checked by the zod schema; this module checks
 * them against the kind, normalises synonyms and builds what is stored.
 */
import type { Services } from "../services.ts";
import type { tenants } from "../db/schema/mod.ts";
import {
  type AuthMode,
  deriveOrigins,
  PROVIDER_FIELDS,
  PROVIDER_LIST,
  type ProviderConfig,
  type ProviderEnv,
  type ProviderKind,
  validateProviderConfig,
} from "../providers/mod.ts";
import { badRequest } from "../errors.ts";
import { validateUpstreamOrigin } from "./upstream.ts";

type Tenant = typeof tenants.$inferSelect;

/** Identifier fields other than cloudName (which has its own column). */
export type StoredProvider = Partial<
  Record<
    | "spaceId"
    | "repository"
    | "projectId"
    | "dataset"
    | "storeDomain"
    | "imgixDomain"
    | "region"
    | "originUrl"
    | "videoOrigin",
    string
  >
>;

/** Every identifier field of any kind (a field of another kind is 400). */
const IDENTIFIER_FIELDS = [...new Set(Object.values(PROVIDER_FIELDS).flat())] as (
  | keyof StoredProvider
  | "cloudName"
)[];

/** Default asset TTL: one day. */
export const DEFAULT_ASSET_TTL_SECONDS = 86_400;
/** Default preview bypass parameter (was `cachely-preview`). */
export const DEFAULT_PREVIEW_PARAM = "preview";
/** Default API cache TTL (SPEC). */
export const DEFAULT_API_TTL_SECONDS = 60;

type Synonyms = {
  cacheTTL?: number;
  apiCacheTTL?: number;
  assetCacheTTL?: number;
  apiAuthHeader?: string | null;
  apiTokenHeader?: string | null;
  apiAuthMode?: AuthMode;
  previewParam?: string;
  previewBypassParam?: string;
};

/**
 * Kinds that serve assets only (no API derived): there the original product's `cacheTTL`
 * is the asset lifetime (docs/providers.md "TTLs"); elsewhere it is the API TTL.
 */
export const ASSET_TTL_KINDS: readonly ProviderKind[] = PROVIDER_LIST
  .filter((d) => d.assetsOnly).map((d) => d.kind);

const API_TTL = { min: 10, max: 3600 };
const ASSET_TTL = { min: 60, max: 31_536_000 };

function ttlIn(field: string, v: number | undefined, r: { min: number; max: number }) {
  if (v !== undefined && (v < r.min || v > r.max)) {
    throw badRequest(`Invalid ${field}: must be ${r.min}-${r.max} seconds`);
  }
  return v;
}

/**
 * Resolves the names customers already use for `cms`: cacheTTL (the asset TTL of the
 * asset-only kinds, else the API TTL; the explicit apiCacheTTL / assetCacheTTL win),
 * apiTokenHeader (= apiAuthHeader; given alone, without an auth mode, it moves the
 * credential to that header), previewBypassParam (= previewParam). 400 naming the field.
 */
export function canonicalApiSettings(cms: ProviderKind, input: Synonyms): {
  apiTtl?: number;
  assetTtl?: number;
  apiAuthHeader?: string | null;
  apiAuthMode?: AuthMode;
  previewParam?: string;
} {
  const assetKind = ASSET_TTL_KINDS.includes(cms);
  const cacheTTL = ttlIn("cacheTTL", input.cacheTTL, assetKind ? ASSET_TTL : API_TTL);
  const header = input.apiAuthHeader !== undefined ? input.apiAuthHeader : input.apiTokenHeader;
  return {
    apiTtl: input.apiCacheTTL ?? (assetKind ? undefined : cacheTTL),
    assetTtl: input.assetCacheTTL ?? (assetKind ? cacheTTL : undefined),
    apiAuthHeader: header,
    apiAuthMode: input.apiAuthMode ??
      (input.apiAuthHeader === undefined && input.apiTokenHeader ? "header" : undefined),
    previewParam: input.previewParam ?? input.previewBypassParam,
  };
}

/** The provider config of a stored tenant (identifiers from settings, cloudName column). */
export function providerConfigOf(
  t: Pick<Tenant, "cms" | "cloudName" | "settings">,
): ProviderConfig {
  const p = (t.settings.provider ?? {}) as StoredProvider;
  return { ...p, cms: t.cms as ProviderKind, cloudName: t.cloudName } as ProviderConfig;
}

export function providerEnv(s: Services): ProviderEnv {
  return {
    imageHostOrigin: s.config.imageHostAssetOrigin,
    imageHostApiOrigin: s.config.imageHostApiOrigin,
  };
}

type ProviderInput = Partial<
  Record<keyof StoredProvider | "cloudName", string | null | undefined>
>;

/**
 * The stored identifiers after applying `input` (null clears a field) to
 * `current`, checked against the kind (400 naming the field). Origins of the
 * generic kind go through the SSRF check like any upstream origin.
 */
export async function resolveProvider(
  s: Services,
  cms: ProviderKind,
  input: ProviderInput,
  current: StoredProvider,
  currentCloudName: string | null,
): Promise<{ provider: StoredProvider; cloudName: string | null; config: ProviderConfig }> {
  const checked = await checkProviderOrigins(s, cms, input);
  return mergeProvider(cms, checked, current, currentCloudName, s.config.allowPrivateUpstreams);
}

/**
 * `input` with its originUrl / videoOrigin through the SSRF check (400 naming the field,
 * or a field of another kind). It resolves DNS, so an update runs it before taking the
 * tenant's row lock and merges with `mergeProvider` under the lock.
 */
export async function checkProviderOrigins<T extends ProviderInput>(
  s: Services,
  cms: ProviderKind,
  input: T,
): Promise<T> {
  refuseForeignFields(cms, input);
  const out = { ...input };
  for (const key of ["originUrl", "videoOrigin"] as const) {
    const v = input[key];
    if (v) out[key] = await validateUpstreamOrigin(s, key, v);
  }
  return out;
}

function refuseForeignFields(cms: ProviderKind, input: ProviderInput): void {
  const fields = PROVIDER_FIELDS[cms] as readonly string[];
  for (const k of IDENTIFIER_FIELDS) {
    const v = input[k];
    if (v !== undefined && v !== null && !fields.includes(k)) {
      throw badRequest(`Invalid ${k}: does not apply to cms ${cms}`);
    }
  }
}

/**
 * The identifiers after applying an input whose origins `checkProviderOrigins` already
 * checked to `current` (synchronous: safe under a row lock), checked against the kind.
 * `allowHttp`: ALLOW_PRIVATE_UPSTREAMS (http origins pass).
 */
export function mergeProvider(
  cms: ProviderKind,
  input: ProviderInput,
  current: StoredProvider,
  currentCloudName: string | null,
  allowHttp: boolean,
): { provider: StoredProvider; cloudName: string | null; config: ProviderConfig } {
  refuseForeignFields(cms, input);
  const provider: StoredProvider = {};
  for (const f of PROVIDER_FIELDS[cms]) {
    if (f === "cloudName") continue;
    const key = f as keyof StoredProvider;
    const v = input[key] !== undefined ? input[key] : current[key];
    if (v === null || v === undefined || v === "") continue;
    provider[key] = v;
  }
  const cloudName = input.cloudName !== undefined ? input.cloudName : currentCloudName;
  const config = { ...provider, cms, cloudName } as ProviderConfig;
  const problem = validateProviderConfig(config, { allowHttp });
  if (problem) throw badRequest(`Invalid ${problem.field}: ${problem.message}`);
  return { provider, cloudName: cloudName ?? null, config };
}

/** The API origin derived from a config (null when the kind derives none). */
export function derivedApiOrigin(s: Services, config: ProviderConfig): string | null {
  return deriveOrigins(config, providerEnv(s)).api;
}
