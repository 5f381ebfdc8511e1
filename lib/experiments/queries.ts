/**
 * The experiment reads every experiments module shares (service, exposures, guardrails),
 * apart from service.ts so that it can use the exposure totals without an import cycle.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { experiments, experimentVariants } from "../db/schema/mod.ts";
import { notFound } from "../errors.ts";

export type Experiment = typeof experiments.$inferSelect;
export type Variant = typeof experimentVariants.$inferSelect;

/** Variants of the given experiments (all of one tenant), in their defined order. */
export async function variantsOf(
  db: Db,
  tenantId: number,
  experimentIds: number[],
): Promise<Map<number, Variant[]>> {
  const out = new Map<number, Variant[]>(experimentIds.map((id) => [id, []]));
  if (experimentIds.length === 0) return out;
  const rows = await db.select().from(experimentVariants).where(and(
    eq(experimentVariants.tenantId, tenantId),
    inArray(experimentVariants.experimentId, experimentIds),
  )).orderBy(asc(experimentVariants.position), asc(experimentVariants.id));
  for (const r of rows) out.get(r.experimentId)?.push(r);
  return out;
}

/** The tenant's experiment `id` (any status), or 404. */
export async function findExperiment(db: Db, tenantId: number, id: number): Promise<Experiment> {
  const [row] = await db.select().from(experiments)
    .where(and(eq(experiments.tenantId, tenantId), eq(experiments.id, id)));
  if (!row) throw notFound("Experiment");
  return row;
}
