/** Transform profiles: the distinct profiles that have at least one active rule (SPEC). */
import { and, asc, eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { aiRules } from "../db/schema/mod.ts";

/**
 * Distinct profiles with at least one active rule, sorted. Used by the profiles
 * endpoint and by experiment activation ("profile existence").
 */
export async function listActiveProfiles(s: Services, tenantId: number): Promise<string[]> {
  const rows = await s.db.selectDistinct({ profile: aiRules.profile }).from(aiRules)
    .where(and(eq(aiRules.tenantId, tenantId), eq(aiRules.status, "active")))
    .orderBy(asc(aiRules.profile));
  return rows.map((r) => r.profile);
}
