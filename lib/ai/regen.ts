/**
 * Per-(tenant, profile) regenerate versions. The edge keys transformed responses by
 * this version, so bumping it invalidates exactly that pair (SPEC "Regenerate behaviour").
 */
import { eq, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { aiRegenVersions } from "../db/schema/mod.ts";

/** Version a profile has before its first bump. */
export const INITIAL_REGEN_VERSION = 1;

export async function getRegenVersions(
  s: Services,
  tenantId: number,
): Promise<Record<string, number>> {
  const rows = await s.db.select().from(aiRegenVersions)
    .where(eq(aiRegenVersions.tenantId, tenantId));
  return Object.fromEntries(rows.map((r) => [r.profile, r.version]));
}

/** Increments the (tenant, profile) version atomically and returns the new value. */
export async function bumpRegenVersion(
  s: Services,
  tenantId: number,
  profile: string,
): Promise<number> {
  const [row] = await s.db.insert(aiRegenVersions)
    .values({ tenantId, profile, version: INITIAL_REGEN_VERSION + 1 })
    .onConflictDoUpdate({
      target: [aiRegenVersions.tenantId, aiRegenVersions.profile],
      set: { version: sql`${aiRegenVersions.version} + 1`, updatedAt: new Date(s.clock.now()) },
    })
    .returning({ version: aiRegenVersions.version });
  return row.version;
}
