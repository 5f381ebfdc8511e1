/** Builds the active-experiment part of a tenant's edge snapshot (lib/edge_config/projector.ts). */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Services } from "../services.ts";
import { experiments } from "../db/schema/mod.ts";
import type { ExperimentSnapshot } from "./snapshot_types.ts";
import { variantsOf } from "./queries.ts";

/**
 * Active experiments, with variants in their defined order (the hash order), and promoted
 * ones with their winner alone (every visitor on the route gets its profile).
 */
export async function buildExperimentSnapshots(
  s: Services,
  tenantId: number,
): Promise<ExperimentSnapshot[]> {
  const rows = await s.db.select().from(experiments)
    .where(and(
      eq(experiments.tenantId, tenantId),
      inArray(experiments.status, ["active", "promoted"]),
    ))
    .orderBy(asc(experiments.id));
  const vs = await variantsOf(s.db, tenantId, rows.map((r) => r.id));
  return rows.map((e) => ({
    id: e.id,
    routePattern: e.routePattern,
    routeMatch: e.routeMatch,
    variants: (vs.get(e.id) ?? []).filter((v) =>
      e.status !== "promoted" || v.id === e.promotedVariantId
    ).map((v) => ({
      id: v.id,
      key: v.key,
      weight: v.weight,
      transformProfile: v.transformProfile,
    })),
  }));
}
