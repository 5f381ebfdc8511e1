/**
 * Tenant-level AI limits, kept in tenants.settings (SPEC "Limits"): maxFieldsPerResponse
 * (global across rules in one request), maxCharsPerField (8,000 default, configurable
 * downward only) and the monthly and daily token caps (none by default).
 */
import { eq, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import type { Tenant } from "../tenants/service.ts";
import { tenants } from "../db/schema/mod.ts";
import { recordAudit } from "../audit/mod.ts";
import { changeTenant } from "../edge_config/changes.ts";
import {
  type AiLimits,
  DEFAULT_MAX_FIELDS_PER_RESPONSE,
  MAX_CHARS_PER_FIELD,
} from "./snapshot_types.ts";
import type { SettingsInput } from "./rule_schema.ts";

export function tenantAiLimits(tenant: Pick<Tenant, "settings">): AiLimits {
  const st = tenant.settings ?? {};
  return {
    maxFieldsPerResponse: positiveOr(st.maxFieldsPerResponse, DEFAULT_MAX_FIELDS_PER_RESPONSE),
    // Downward only: a stored value above the SPEC default is clamped.
    maxCharsPerField: Math.min(
      positiveOr(st.maxCharsPerField, MAX_CHARS_PER_FIELD),
      MAX_CHARS_PER_FIELD,
    ),
    monthlyTokenCap: positiveOr(st.monthlyTokenCap, null),
    dailyTokenCap: positiveOr(st.dailyTokenCap, null),
  };
}

function positiveOr<T extends number | null>(v: unknown, fallback: T): number | T {
  return typeof v === "number" && Number.isInteger(v) && v > 0 ? v : fallback;
}

/** Merges the given limits into tenants.settings, audits, and re-syncs the edge snapshot. */
export async function updateAiSettings(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  input: SettingsInput,
): Promise<AiLimits> {
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const row = await changeTenant(s, tenant.id, async (tx) => {
    // `||` merges key by key in the statement: no read-modify-write of the whole JSON.
    const [row] = await tx.db.update(tenants)
      .set({
        settings: sql`${tenants.settings} || ${JSON.stringify(patch)}::jsonb`,
        updatedAt: new Date(s.clock.now()),
      })
      .where(eq(tenants.id, tenant.id))
      .returning();
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId,
      action: "ai_transform.settings_updated",
      // Renamed: audit redaction hides any key containing "token", and caps are not secrets.
      metadata: Object.fromEntries(
        Object.entries(patch).map(([k, v]) => [k.replace("TokenCap", "Cap"), v]),
      ),
    });
    return row;
  });
  return tenantAiLimits(row);
}
