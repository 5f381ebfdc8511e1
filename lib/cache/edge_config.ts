/**
 * On-demand edge configuration rebuild (SPEC "Tenants": edge-config): rewrites the
 * tenant's KV snapshot from stored state at its current generation, then reads it
 * back from KV. Idempotent; no data mutation and no cache purge. `kv.wasBehind` says
 * whether KV held an older generation (or none) and `kv.repaired` whether it now
 * holds the latest. The summary holds no secret: only whether a token is set.
 */
import type { Services } from "../services.ts";
import type { Tenant } from "../tenants/service.ts";
import { proxyBase } from "../tenants/service.ts";
import { repairTenantSnapshot } from "../edge_config/projector.ts";
import { type EdgeSnapshot, readSnapshot } from "../kv/snapshot.ts";
import { z } from "zod";
import { str } from "../base/text.ts";
import { AUTH_MODES, PROVIDER_KINDS } from "../providers/mod.ts";
import { cacheVersionsSchema } from "./versions_schema.ts";

/** The response shape of `rebuildEdgeConfig` (POST .../edge-config). */
export const edgeConfigResultSchema = z.strictObject({
  ok: z.boolean().describe("Whether KV holds a snapshot after the rebuild"),
  summary: z.strictObject({
    slug: str(),
    builtAt: str().describe("ISO 8601 time"),
    cms: z.enum(PROVIDER_KINDS),
    cacheTtl: z.number().int(),
    apiOrigin: str().nullable(),
    apiAuthMode: z.enum(AUTH_MODES),
    hasToken: z.boolean(),
    websiteOrigin: str().nullable(),
    siteProxy: z.boolean(),
    versions: cacheVersionsSchema,
    domains: z.array(str()).describe("Active custom domains"),
    activeAiRules: z.number().int(),
    activeExperiments: z.number().int(),
  }).nullable(),
  kv: z.strictObject({
    exists: z.boolean(),
    publicOrigin: str().nullable(),
    generation: z.number().int(),
    wasBehind: z.boolean(),
    repaired: z.boolean(),
  }),
});

export function snapshotSummary(snap: EdgeSnapshot) {
  return {
    slug: snap.slug,
    builtAt: snap.builtAt,
    cms: snap.cms,
    cacheTtl: snap.cacheTtl,
    apiOrigin: snap.api.origin,
    apiAuthMode: snap.api.authMode,
    hasToken: snap.api.tokenEnc !== null,
    websiteOrigin: snap.website.origin,
    siteProxy: snap.website.siteProxy,
    versions: {
      apiCacheVersion: snap.versions.api,
      assetCacheVersion: snap.versions.assets,
      htmlCacheVersion: snap.versions.html,
    },
    domains: snap.domains,
    activeAiRules: snap.ai.rules.length,
    activeExperiments: snap.experiments.length,
  };
}

export async function rebuildEdgeConfig(s: Services, tenant: Tenant) {
  const repair = await repairTenantSnapshot(s, tenant.slug);
  // Read back what the edge will read, not what we just built.
  const stored = await readSnapshot(s.kv, tenant.slug);
  return {
    ok: stored !== null,
    summary: stored ? snapshotSummary(stored) : null,
    kv: {
      exists: stored !== null,
      // The tenant host always serves; custom domains are listed in the summary.
      publicOrigin: stored ? proxyBase(s, stored.slug) : null,
      generation: repair.generation,
      wasBehind: repair.behind,
      repaired: repair.repaired,
    },
  };
}
