/** Builds the AI part of a tenant's edge snapshot: active rules, regenerate versions, limits. */
import { and, asc, eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import type { Tenant } from "../tenants/service.ts";
import { aiRules } from "../db/schema/mod.ts";
import type { AiSnapshot } from "./snapshot_types.ts";
import { ruleToSnapshot } from "./rules.ts";
import { getRegenVersions, INITIAL_REGEN_VERSION } from "./regen.ts";
import { tenantAiLimits } from "./settings.ts";

export async function buildAiSnapshot(s: Services, tenant: Tenant): Promise<AiSnapshot> {
  const rows = await s.db.select().from(aiRules)
    .where(and(eq(aiRules.tenantId, tenant.id), eq(aiRules.status, "active")))
    .orderBy(asc(aiRules.id));
  const stored = await getRegenVersions(s, tenant.id);
  // Every active profile gets an explicit version so the edge never has to guess a default.
  const regenVersions: Record<string, number> = {};
  for (const r of rows) regenVersions[r.profile] = stored[r.profile] ?? INITIAL_REGEN_VERSION;
  return { rules: rows.map(ruleToSnapshot), regenVersions, limits: tenantAiLimits(tenant) };
}
