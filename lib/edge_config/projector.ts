/**
 * The edge projector: builds a tenant's snapshot from Postgres and writes it to KV
 * at the tenant's generation (lib/edge_config/changes.ts). It runs after each change
 * in the request that made it, and in the loop every instance runs (lib/edge_config/loop.ts)
 * for any tenant whose KV snapshot is behind (a KV failure, a crash between commit and
 * write). Depends on domain reads; domain code never imports it.
 */
import { cachingOf } from "../tenants/caching.ts";
import { purgeRecords } from "../cache/purge_records.ts";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { domains, edgeChanges, tenants } from "../db/schema/mod.ts";
import {
  deleteSnapshot,
  type EdgeSnapshot,
  readSnapshot,
  storedGeneration,
  writeSnapshot,
} from "../kv/snapshot.ts";
import type { AuthMode, ProviderKind } from "../providers/mod.ts";
import { EVERY_TYPE } from "../providers/content_types.ts";
import { buildAiSnapshot } from "../ai/snapshot.ts";
import { installationId } from "./installation.ts";
import { buildExperimentSnapshots } from "../experiments/snapshot.ts";
import { billingOwner } from "../billing/owners.ts";
import { previewSnapshotOf } from "../preview/snapshot.ts";
import {
  DEFAULT_ASSET_TTL_SECONDS,
  DEFAULT_PREVIEW_PARAM,
  providerConfigOf,
} from "../tenants/provider_input.ts";

type TenantRow = typeof tenants.$inferSelect;

export { DEFAULT_PREVIEW_PARAM };

export async function buildSnapshot(s: Services, tenant: TenantRow): Promise<EdgeSnapshot> {
  const active = await s.db.select({ hostname: domains.hostname }).from(domains)
    .where(and(eq(domains.tenantId, tenant.id), eq(domains.status, "active")))
    // First verified first: the first is the tenant's primary domain (edge/domain.ts).
    .orderBy(asc(domains.verifiedAt), asc(domains.hostname));
  return {
    v: 1,
    builtAt: new Date(s.clock.now()).toISOString(),
    tenantId: tenant.id,
    slug: tenant.slug,
    cms: tenant.cms as ProviderKind,
    cloudName: tenant.cloudName,
    cacheTtl: tenant.cacheTtl,
    api: {
      origin: tenant.apiOrigin,
      authMode: tenant.apiAuthMode as AuthMode,
      authParam: tenant.apiAuthHeader,
      tokenEnc: tenant.apiTokenEnc,
      previewParam: tenant.settings.previewParam ?? DEFAULT_PREVIEW_PARAM,
      rewriteUrls: tenant.settings.transformApiUrls !== false,
    },
    website: {
      origin: tenant.websiteOrigin,
      siteProxy: tenant.websiteOrigin !== null && (tenant.settings.siteProxy ?? true),
    },
    provider: providerConfigOf(tenant),
    assets: {
      ttl: (tenant.settings.assetCacheTtl as number | undefined) ?? DEFAULT_ASSET_TTL_SECONDS,
      // Unset serves every type; null in a snapshot means the safe list (older builds).
      allowedTypes: (tenant.settings.allowedTypes as string[] | undefined) ?? [...EVERY_TYPE],
      blockBots: (tenant.settings.blockBots as boolean | undefined) ?? true,
      allowImageSearchBots: (tenant.settings.allowImageSearchBots as boolean | undefined) ?? false,
      stripQueryTypes: (tenant.settings.stripQueryTypes as string[] | undefined) ?? [],
      referer: tenant.websiteDomain ? `https://${tenant.websiteDomain}/` : null,
    },
    versions: {
      api: tenant.apiCacheVersion,
      assets: tenant.assetCacheVersion,
      html: tenant.htmlCacheVersion,
    },
    domains: active.map((d) => d.hostname),
    ownerId: await billingOwner(s, tenant.id),
    cdnOffload: tenant.settings.cdnOffload === true,
    caching: cachingOf(tenant.settings),
    installation: await installationId(s.dbHandle),
    purges: await purgeRecords(s, tenant.id),
    ai: await buildAiSnapshot(s, tenant),
    experiments: await buildExperimentSnapshots(s, tenant.id),
    preview: previewSnapshotOf(tenant),
  };
}

export type Projection = {
  /** Generation Postgres holds for the tenant. */
  generation: number;
  /** Generation KV held before this projection. */
  before: number;
  /** Whether this projection wrote (false: KV already held a later generation). */
  written: boolean;
};

/**
 * Projects one tenant (by slug: a deleted tenant's snapshot is removed by slug).
 * The generation is read before the state, so the state is at least that new; KV
 * refuses a generation older than the one it holds, so out-of-order projections
 * from several instances converge on the latest.
 */
export async function projectSlug(s: Services, slug: string): Promise<Projection> {
  const [change] = await s.db.select({ generation: edgeChanges.generation }).from(edgeChanges)
    .where(eq(edgeChanges.slug, slug));
  const generation = change?.generation ?? 0;
  const before = await storedGeneration(s.kv, slug);
  const [tenant] = await s.db.select().from(tenants).where(eq(tenants.slug, slug));
  const written = tenant
    ? await writeSnapshot(s.kv, await buildSnapshot(s, tenant), generation)
    : await deleteSnapshot(s.kv, slug, generation);
  if (change) {
    await s.db.update(edgeChanges)
      .set({
        projectedGeneration: sql`GREATEST(${edgeChanges.projectedGeneration}, ${generation})`,
      })
      .where(eq(edgeChanges.slug, slug));
  }
  for (const listener of s.snapshotListeners) listener(slug);
  return { generation, before, written };
}

/** Slugs whose KV snapshot is behind Postgres, oldest change first. */
export async function slugsBehind(s: Services, limit = 100): Promise<string[]> {
  const rows = await s.db.select({ slug: edgeChanges.slug }).from(edgeChanges)
    .where(gt(edgeChanges.generation, edgeChanges.projectedGeneration))
    .orderBy(asc(edgeChanges.changedAt)).limit(limit);
  return rows.map((r) => r.slug);
}

/**
 * POST .../edge-config: rewrites the tenant's snapshot at its current generation and
 * says whether KV was behind (missing, older, or unreadable) and is now repaired.
 */
export async function repairTenantSnapshot(s: Services, slug: string) {
  const unreadable = (await readSnapshot(s.kv, slug).catch(() => null)) === null;
  const p = await projectSlug(s, slug);
  const behind = unreadable || p.before < p.generation;
  const after = await storedGeneration(s.kv, slug);
  return { generation: p.generation, behind, repaired: behind && after >= p.generation };
}
