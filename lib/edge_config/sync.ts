/**
 * Rebuilds a tenant's edge snapshot from Postgres and writes it to KV. Every
 * management change that affects the edge calls this in the same request, after
 * its database write (DESIGN "Request flow").
 */
import { and, eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { domains, tenants } from "../db/schema/mod.ts";
import {
  deleteSnapshot,
  type EdgeSnapshot,
  nextSnapshotGeneration,
  readSnapshot,
  writeHostRoute,
  writeSnapshot,
} from "../kv/snapshot.ts";
import type { AuthMode, CmsKind } from "../providers/mod.ts";
import { buildAiSnapshot } from "../ai/snapshot.ts";
import { buildExperimentSnapshots } from "../experiments/snapshot.ts";
import type { Tenant } from "../tenants/service.ts";
import {
  DEFAULT_ASSET_TTL_SECONDS,
  DEFAULT_PREVIEW_PARAM,
  providerConfigOf,
} from "../tenants/provider_input.ts";
import { billingOwner } from "../billing/owners.ts";

export { DEFAULT_PREVIEW_PARAM };

export async function buildSnapshot(s: Services, tenant: Tenant): Promise<EdgeSnapshot> {
  const active = await s.db.select({ hostname: domains.hostname }).from(domains)
    .where(and(eq(domains.tenantId, tenant.id), eq(domains.status, "active")));
  return {
    v: 1,
    builtAt: new Date(s.clock.now()).toISOString(),
    tenantId: tenant.id,
    slug: tenant.slug,
    cms: tenant.cms as CmsKind,
    cloudName: tenant.cloudName,
    cacheTtl: tenant.cacheTtl,
    api: {
      origin: tenant.apiOrigin,
      authMode: tenant.apiAuthMode as AuthMode,
      authParam: tenant.apiAuthHeader,
      tokenEnc: tenant.apiTokenEnc,
      previewParam: tenant.settings.previewParam ?? DEFAULT_PREVIEW_PARAM,
    },
    website: {
      origin: tenant.websiteOrigin,
      siteProxy: tenant.websiteOrigin !== null && (tenant.settings.siteProxy ?? true),
    },
    provider: providerConfigOf(tenant),
    assets: {
      ttl: (tenant.settings.assetCacheTtl as number | undefined) ?? DEFAULT_ASSET_TTL_SECONDS,
      allowedTypes: (tenant.settings.allowedTypes as string[] | undefined) ?? null,
      blockBots: (tenant.settings.blockBots as boolean | undefined) ?? true,
      allowImageSearchBots: (tenant.settings.allowImageSearchBots as boolean | undefined) ?? false,
      referer: tenant.websiteDomain ? `https://${tenant.websiteDomain}/` : null,
    },
    versions: {
      api: tenant.apiCacheVersion,
      assets: tenant.assetCacheVersion,
      html: tenant.htmlCacheVersion,
    },
    domains: active.map((d) => d.hostname).sort(),
    ownerId: await billingOwner(s, tenant.id),
    ai: await buildAiSnapshot(s, tenant),
    experiments: await buildExperimentSnapshots(s, tenant.id),
  };
}

/** Rebuilds, writes and returns the snapshot; notifies in-process edges to drop their memo. */
export async function syncTenantSnapshot(s: Services, tenantId: number): Promise<EdgeSnapshot> {
  const [row] = await s.db.select({ slug: tenants.slug }).from(tenants)
    .where(eq(tenants.id, tenantId));
  if (!row) throw new Error(`Tenant ${tenantId} vanished during sync`);
  // The generation is taken before the state is read, so a later build has newer state
  // and an earlier build that finishes last cannot overwrite it.
  const generation = await nextSnapshotGeneration(s.kv, row.slug);
  const [tenant] = await s.db.select().from(tenants).where(eq(tenants.id, tenantId));
  if (!tenant) throw new Error(`Tenant ${tenantId} vanished during sync`);
  const snap = await buildSnapshot(s, tenant);
  const previous = await readSnapshot(s.kv, tenant.slug).catch(() => null);
  if (!await writeSnapshot(s.kv, snap, generation)) {
    return await readSnapshot(s.kv, tenant.slug) ?? snap; // a newer build already wrote
  }
  for (const host of snap.domains) await writeHostRoute(s.kv, host, tenant.slug);
  for (const host of previous?.domains ?? []) {
    if (!snap.domains.includes(host)) await writeHostRoute(s.kv, host, null);
  }
  for (const listener of s.snapshotListeners) listener(tenant.slug);
  return snap;
}

/** Removes a tenant's snapshot and host routes; returns the hostnames unrouted. */
export async function removeTenantFromEdge(s: Services, tenant: Tenant): Promise<string[]> {
  const rows = await s.db.select({ hostname: domains.hostname }).from(domains)
    .where(eq(domains.tenantId, tenant.id));
  for (const r of rows) await writeHostRoute(s.kv, r.hostname, null);
  await deleteSnapshot(s.kv, tenant.slug);
  for (const listener of s.snapshotListeners) listener(tenant.slug);
  return rows.map((r) => r.hostname);
}
