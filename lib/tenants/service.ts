/** Tenant lifecycle: create, read, update, delete, list. Routes call these; rules live here. */
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenantMembers, tenants } from "../db/schema/mod.ts";
import type { Role } from "../base/roles.ts";
import { slugProblem } from "./slug.ts";
import type { CreateTenantInput, UpdateTenantInput } from "./schema.ts";
import type { ProviderKind } from "../providers/mod.ts";
import { validateUpstreamOrigin } from "./upstream.ts";
import { badRequest, conflict, notFound, planRefusal } from "../errors.ts";
import { definitionOf, describeProvider, providerFor } from "../providers/mod.ts";
import {
  ASSET_TTL_KINDS,
  canonicalApiSettings,
  checkProviderOrigins,
  DEFAULT_API_TTL_SECONDS,
  DEFAULT_ASSET_TTL_SECONDS,
  DEFAULT_PREVIEW_PARAM,
  derivedApiOrigin,
  mergeProvider,
  providerConfigOf,
  providerEnv,
  resolveProvider,
  type StoredProvider,
} from "./provider_input.ts";
import { EVERY_TYPE } from "../providers/content_types.ts";
import { encryptSecret } from "../crypto/mod.ts";
import { recordAudit } from "../audit/mod.ts";
import type { Plan } from "../billing/plans.ts";
import { accountPlan } from "../billing/account.ts";
import { changeTenant, markTenantChanged, projectTenant } from "../edge_config/changes.ts";
import { purgeAfterBump } from "../cdn/purge.ts";
import { settingsPatch } from "./settings_patch.ts";
import { cachingOf, localesOf } from "./caching.ts";

export type Tenant = typeof tenants.$inferSelect;

export function proxyBase(s: Services, slug: string): string {
  const scheme = new URL(s.config.publicUrl).protocol;
  return `${scheme}//${slug}.${s.config.proxyDomain}`;
}

export function previewBase(s: Services, slug: string): string {
  const scheme = new URL(s.config.publicUrl).protocol;
  return `${scheme}//${slug}.preview.${s.config.proxyDomain}`;
}

/** The `{ key, value }` view of a tenant. Never includes the token or any secret. */
export function tenantView(s: Services, t: Tenant, role?: Role) {
  const cfg = providerConfigOf(t);
  const described = describeProvider(cfg, {
    tenantOrigin: proxyBase(s, t.slug),
    env: providerEnv(s),
  });
  const provider = (t.settings.provider ?? {}) as StoredProvider;
  const assetTtl = (t.settings.assetCacheTtl as number | undefined) ?? DEFAULT_ASSET_TTL_SECONDS;
  return {
    key: t.slug,
    value: {
      slug: t.slug,
      cms: t.cms as ProviderKind,
      cloudName: t.cloudName,
      ...provider,
      ...definitionOf(t.cms as ProviderKind).viewDefaults?.(provider),
      /** Derived from the identifier: API and asset origins, a sample clean URL. */
      providerOrigins: { api: described.api, assets: described.assets },
      sampleAsset: described.sample,
      websiteDomain: t.websiteDomain,
      websiteOrigin: t.websiteOrigin,
      // cacheTTL is the asset TTL of the asset-only kinds (provider_input.ts ASSET_TTL_KINDS).
      cacheTTL: ASSET_TTL_KINDS.includes(t.cms as ProviderKind) ? assetTtl : t.cacheTtl,
      apiCacheTTL: t.cacheTtl,
      assetCacheTTL: assetTtl,
      allowedTypes: (t.settings.allowedTypes as string[] | undefined) ?? [...EVERY_TYPE],
      transformApiUrls: t.settings.transformApiUrls !== false,
      blockBots: (t.settings.blockBots as boolean | undefined) ?? true,
      allowImageSearchBots: (t.settings.allowImageSearchBots as boolean | undefined) ?? false,
      stripQueryTypes: (t.settings.stripQueryTypes as string[] | undefined) ?? [],
      apiOrigin: t.apiOrigin,
      apiAuthMode: t.apiAuthMode,
      apiAuthHeader: t.apiAuthHeader,
      hasToken: t.apiTokenEnc !== null,
      tokenUpdatedAt: t.apiTokenUpdatedAt?.toISOString() ?? null,
      previewParam: t.settings.previewParam ?? DEFAULT_PREVIEW_PARAM,
      siteProxy: t.settings.siteProxy ?? t.websiteOrigin !== null,
      cdnOffload: t.settings.cdnOffload === true,
      ...cachingOf(t.settings),
      locales: localesOf(t.settings),
      apiCacheVersion: t.apiCacheVersion,
      assetCacheVersion: t.assetCacheVersion,
      htmlCacheVersion: t.htmlCacheVersion,
      proxyBase: proxyBase(s, t.slug),
      previewBase: previewBase(s, t.slug),
      ...(role ? { role } : {}),
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    },
  };
}

export function requireEncryptionKey(s: Services): string {
  const key = s.config.encryptionKey;
  if (!key) throw new Error("ENCRYPTION_KEY is not configured");
  return key;
}

/**
 * A generic tenant serves nothing it is not told of: without an asset origin (and no API or
 * website either) every request would be a 404, so creating one is refused naming originUrl.
 */
function requireSomeOrigin(input: CreateTenantInput, originUrl: unknown): void {
  if (!definitionOf(input.cms).needsAnOrigin) return;
  if (originUrl || input.apiOrigin || input.websiteOrigin) return;
  throw badRequest(
    `Invalid originUrl: is required for cms ${input.cms} (the asset origin; apiOrigin or websiteOrigin for a tenant without assets)`,
  );
}

export async function createTenant(s: Services, userId: string, input: CreateTenantInput) {
  const problem = slugProblem(input.slug);
  if (problem) throw badRequest(`Invalid slug: ${problem}`);
  // The billing account is the user: tenants they own count against their plan.
  // Plan limits apply whether or not Stripe is configured; QUOTAS=off lifts them.
  const plan = s.config.quotas ? s.config.plans[await accountPlan(s, userId)] : null;
  const ctx = {
    imageHostAssetOrigin: s.config.imageHostAssetOrigin,
    imageHostApiOrigin: s.config.imageHostApiOrigin,
  };
  const provider = providerFor(input.cms, ctx, input.cloudName);
  const api = canonicalApiSettings(input.cms, input);
  const ids = await resolveProvider(s, input.cms, input, {}, null);
  requireSomeOrigin(input, ids.provider.originUrl);
  // An explicit apiOrigin wins over the one derived from the identifier.
  const apiOrigin = input.apiOrigin
    ? await validateUpstreamOrigin(s, "apiOrigin", input.apiOrigin)
    : derivedApiOrigin(s, ids.config) ?? provider.defaultApiOrigin;
  const websiteOrigin = input.websiteOrigin
    ? await validateUpstreamOrigin(s, "websiteOrigin", input.websiteOrigin)
    : null;
  const authMode = api.apiAuthMode ?? provider.defaultAuthMode;
  let token = input.token;
  const fromKeys = definitionOf(input.cms).tokenFromKeys;
  if (fromKeys && input.apiKey && input.apiSecret && !token) {
    token = fromKeys(input.apiKey, input.apiSecret);
  }
  const now = new Date(s.clock.now());
  const tenant = await s.db.transaction(async (tx) => {
    if (plan) await checkTenantLimit(tx, userId, plan);
    const rows = await tx.insert(tenants).values({
      slug: input.slug,
      cms: input.cms,
      cloudName: input.cloudName ?? null,
      websiteDomain: input.websiteDomain ?? null,
      websiteOrigin,
      cacheTtl: api.apiTtl ?? DEFAULT_API_TTL_SECONDS,
      apiOrigin,
      apiAuthMode: authMode,
      apiAuthHeader: api.apiAuthHeader ?? provider.defaultAuthParam ?? null,
      apiTokenEnc: token ? await encryptSecret(requireEncryptionKey(s), token) : null,
      apiTokenUpdatedAt: token ? now : null,
      settings: {
        ...(api.previewParam ? { previewParam: api.previewParam } : {}),
        ...(input.siteProxy !== undefined ? { siteProxy: input.siteProxy } : {}),
        ...(input.cdnOffload ? { cdnOffload: true } : {}),
        ...assetSettingsPatch(input, api.assetTtl),
        ...cachingPatch(input),
        ...(Object.keys(ids.provider).length ? { provider: ids.provider } : {}),
      },
      createdBy: userId,
      createdAt: now,
      updatedAt: now,
    }).onConflictDoNothing().returning();
    if (rows.length === 0) throw conflict(`Slug already used: ${input.slug}`);
    const t = rows[0];
    await tx.insert(tenantMembers).values({ tenantId: t.id, userId, role: "owner" });
    await recordAudit(tx, {
      tenantId: t.id,
      actorUserId: userId,
      action: "tenant.created",
      target: t.slug,
      metadata: {
        cms: t.cms as ProviderKind,
        apiOrigin: t.apiOrigin,
        apiAuthMode: t.apiAuthMode,
        hasToken: !!token,
      },
    });
    await markTenantChanged(tx as unknown as Services["db"], t.id);
    return t;
  });
  await projectTenant(s, tenant.slug);
  return tenant;
}

/**
 * Asset settings from an input (only the fields given; null allowedTypes -> unset, every
 * type) and the asset TTL canonicalApiSettings resolved; transformApiUrls rides along.
 */
function assetSettingsPatch(
  input: UpdateTenantInput,
  assetTtl: number | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (assetTtl !== undefined) out.assetCacheTtl = assetTtl;
  if (input.transformApiUrls !== undefined) out.transformApiUrls = input.transformApiUrls;
  if (input.allowedTypes !== undefined) out.allowedTypes = input.allowedTypes ?? undefined;
  if (input.blockBots !== undefined) out.blockBots = input.blockBots;
  if (input.stripQueryTypes !== undefined) {
    const types = [...new Set(input.stripQueryTypes ?? [])];
    out.stripQueryTypes = types.length ? types : undefined;
  }
  if (input.allowImageSearchBots !== undefined) {
    out.allowImageSearchBots = input.allowImageSearchBots;
  }
  return out;
}

/** HTTP caching settings from an input (only the fields given). */
function cachingPatch(input: UpdateTenantInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (input.cacheMode !== undefined) out.cacheMode = input.cacheMode;
  if (input.staleWhileRevalidate !== undefined) {
    out.staleWhileRevalidate = input.staleWhileRevalidate;
  }
  if (input.ignoreSetCookie !== undefined) out.ignoreSetCookie = input.ignoreSetCookie;
  if (input.staleWhenOriginSilent !== undefined) {
    out.staleWhenOriginSilent = input.staleWhenOriginSilent;
  }
  if (input.locales !== undefined) {
    const list = [...new Set(input.locales ?? [])];
    out.locales = list.length ? list : undefined;
  }
  return out;
}

type Tx = Parameters<Parameters<Services["db"]["transaction"]>[0]>[0];

/**
 * 403 when the user already owns as many tenants as the plan allows. Runs inside the
 * creating transaction after locking the user's row, so concurrent creations by one
 * user are counted one after another and cannot both slip under the limit.
 */
async function checkTenantLimit(tx: Tx, userId: string, plan: Plan): Promise<void> {
  if (plan.tenants === null) return;
  await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
  const [{ n }] = await tx.select({ n: count() }).from(tenantMembers)
    .where(and(eq(tenantMembers.userId, userId), eq(tenantMembers.role, "owner")));
  if (n >= plan.tenants) {
    throw planRefusal(
      `Plan limit reached: ${plan.code} plan allows ${plan.tenants} tenant(s)`,
      "plan_limit",
    );
  }
}

export async function findTenantBySlug(s: Services, slug: string): Promise<Tenant | null> {
  const rows = await s.db.select().from(tenants).where(eq(tenants.slug, slug));
  return rows[0] ?? null;
}

export async function findTenantById(s: Services, id: number): Promise<Tenant | null> {
  const rows = await s.db.select().from(tenants).where(eq(tenants.id, id));
  return rows[0] ?? null;
}

export async function isSlugAvailable(s: Services, slug: string): Promise<boolean> {
  return slugProblem(slug) === null && (await findTenantBySlug(s, slug)) === null;
}

/** Tenants the user is a member of (master admins see all), with the caller's role. */
export async function listTenantsFor(s: Services, userId: string, isAdmin: boolean) {
  const memberships = await s.db.select().from(tenantMembers).where(
    eq(tenantMembers.userId, userId),
  );
  const roleOf = new Map(memberships.map((m) => [m.tenantId, m.role]));
  const rows = isAdmin
    ? await s.db.select().from(tenants).orderBy(tenants.slug)
    : roleOf.size === 0
    ? []
    : await s.db.select().from(tenants).where(inArray(tenants.id, [...roleOf.keys()]))
      .orderBy(tenants.slug);
  return rows.map((t) => ({ tenant: t, role: roleOf.get(t.id) ?? ("owner" as Role) }));
}

export async function updateTenant(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  input: UpdateTenantInput,
  action = "tenant.updated",
): Promise<Tenant> {
  // Origins the input names pass the SSRF check first: it resolves DNS, too slow to hold
  // the row lock over. Everything read from the tenant is read again under the lock.
  const checked = await checkProviderOrigins(s, tenant.cms as ProviderKind, input);
  if (typeof input.apiOrigin === "string") {
    checked.apiOrigin = await validateUpstreamOrigin(s, "apiOrigin", input.apiOrigin);
  }
  if (typeof input.websiteOrigin === "string") {
    checked.websiteOrigin = await validateUpstreamOrigin(s, "websiteOrigin", input.websiteOrigin);
  }
  const now = new Date(s.clock.now());
  const { before, updated } = await changeTenant(s, tenant.id, async (tx) => {
    // changeTenant holds the row lock: this read sees every change committed before ours,
    // so a concurrent PUT of another key (originUrl, videoOrigin...) is never written back.
    const current = await findTenantById(tx, tenant.id);
    if (!current) throw notFound("Tenant");
    const { patch, settings } = updatePatch(s, current, checked);
    const settingsUpdate = settings ? { settings } : {};
    const [updated] = await tx.db.update(tenants)
      .set({ ...patch, ...settingsUpdate, updatedAt: now })
      .where(eq(tenants.id, tenant.id)).returning();
    // A save that changes nothing (the same values again) is no change to audit.
    if (rowChanged(current, updated)) {
      await recordAudit(tx, {
        tenantId: tenant.id,
        actorUserId,
        action,
        target: tenant.slug,
        metadata: { changed: Object.keys(input) },
      });
    }
    return { before: current, updated };
  });
  await purgeAfterSettings(s, before, updated, input);
  return updated;
}

/** Whether any column but updatedAt differs between two reads of a tenant row. */
function rowChanged(before: Tenant, after: Tenant): boolean {
  const { updatedAt: _b, ...a } = before;
  const { updatedAt: _a, ...b } = after;
  return JSON.stringify(a) !== JSON.stringify(b);
}

/**
 * The column and settings changes `input` (origins already checked) makes to `t`, the
 * row as read under its lock. Synchronous, so the lock is held for no I/O but the update.
 */
function updatePatch(s: Services, t: Tenant, input: UpdateTenantInput) {
  const patch: Partial<typeof tenants.$inferInsert> = {};
  const api = canonicalApiSettings(t.cms as ProviderKind, input);
  const before = providerConfigOf(t);
  const ids = mergeProvider(
    t.cms as ProviderKind,
    input,
    (t.settings.provider ?? {}) as StoredProvider,
    t.cloudName,
    s.config.allowPrivateUpstreams,
  );
  if (input.cloudName !== undefined) patch.cloudName = ids.cloudName;
  // A changed identifier moves the API origin along when it was the derived one.
  const oldDerived = derivedApiOrigin(s, before);
  const newDerived = derivedApiOrigin(s, ids.config);
  if (
    input.apiOrigin === undefined && newDerived !== oldDerived &&
    (t.apiOrigin === null || t.apiOrigin === oldDerived)
  ) {
    patch.apiOrigin = newDerived;
  }
  if (input.apiOrigin !== undefined) patch.apiOrigin = input.apiOrigin;
  if (input.websiteOrigin !== undefined) patch.websiteOrigin = input.websiteOrigin;
  if (input.websiteDomain !== undefined) patch.websiteDomain = input.websiteDomain;
  if (api.apiTtl !== undefined) patch.cacheTtl = api.apiTtl;
  if (api.apiAuthMode !== undefined) patch.apiAuthMode = api.apiAuthMode;
  if (api.apiAuthHeader !== undefined) patch.apiAuthHeader = api.apiAuthHeader;
  if (clearsTokenHeader(input) && t.apiAuthMode === "header") {
    // apiTokenHeader moved the credential to a header; clearing it moves it back.
    const def = providerFor(t.cms as ProviderKind, s.config, t.cloudName);
    patch.apiAuthMode = def.defaultAuthMode;
    patch.apiAuthHeader = def.defaultAuthParam ?? null;
  }
  const mode = patch.apiAuthMode ?? t.apiAuthMode;
  const param = patch.apiAuthHeader !== undefined ? patch.apiAuthHeader : t.apiAuthHeader;
  if ((mode === "header" || mode === "query") && !param) {
    throw badRequest(`Invalid apiAuthHeader: is required for auth mode ${mode}`);
  }
  // Key by key in the statement: a concurrent change to another settings key (AI limits,
  // token caps) is never undone by rewriting the JSON this request read.
  const settings = settingsPatch({
    ...(api.previewParam !== undefined ? { previewParam: api.previewParam } : {}),
    ...(input.siteProxy !== undefined ? { siteProxy: input.siteProxy } : {}),
    ...(input.cdnOffload !== undefined ? { cdnOffload: input.cdnOffload } : {}),
    ...assetSettingsPatch(input, api.assetTtl),
    ...cachingPatch(input),
    provider: ids.provider,
  });
  return { patch, settings };
}

/** `{ apiTokenHeader: null }` alone (the original product's way to drop the header). */
function clearsTokenHeader(input: UpdateTenantInput): boolean {
  return input.apiTokenHeader === null && input.apiAuthHeader === undefined &&
    input.apiAuthMode === undefined;
}

/**
 * CDN copies a settings change makes wrong (docs/decisions.md "CDN offload"): switching
 * offload off drops the tenant's copies (else the CDN keeps answering, uncounted, for a
 * TTL); a changed asset allow-list drops its assets (Cachely keys assets by the list, so
 * it stops serving a type at once, and so must the CDN). Passes the settings from before
 * the change, when offload was still on.
 */
async function purgeAfterSettings(
  s: Services,
  before: Tenant,
  after: Tenant,
  input: UpdateTenantInput,
): Promise<void> {
  if (before.settings.cdnOffload !== true) return;
  if (after.settings.cdnOffload !== true) {
    await purgeAfterBump(s, before.id, { kinds: ["api", "assets", "html"] }, before.settings);
  } else if (input.allowedTypes !== undefined) {
    await purgeAfterBump(s, before.id, { kinds: ["assets"] }, before.settings);
  }
}

/** Stores a new upstream token, encrypted; the value never leaves this function in clear. */
export async function setApiToken(s: Services, tenant: Tenant, actorUserId: string, token: string) {
  const now = new Date(s.clock.now());
  const sealed = await encryptSecret(requireEncryptionKey(s), token);
  await changeTenant(s, tenant.id, async (tx) => {
    await tx.db.update(tenants).set({ apiTokenEnc: sealed, apiTokenUpdatedAt: now, updatedAt: now })
      .where(eq(tenants.id, tenant.id));
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId,
      action: "tenant.api_token.updated",
      target: tenant.slug,
    });
  });
  return { ok: true, updatedAt: now.toISOString() };
}

/** Deletes the tenant; the projector then tombstones its snapshot and unroutes its domains. */
export async function deleteTenant(s: Services, tenant: Tenant): Promise<void> {
  await changeTenant(s, tenant.id, async (tx) => {
    await tx.db.delete(tenants).where(eq(tenants.id, tenant.id));
  });
  // Its CDN copies would otherwise be answered for a TTL after the tenant is gone.
  await purgeAfterBump(s, tenant.id, { kinds: ["api", "assets", "html"] }, tenant.settings);
  s.log.info("tenant deleted", { slug: tenant.slug });
}
