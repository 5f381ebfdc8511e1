/**
 * "Promote winner": in one action, the winning variant's profile becomes what
 * every visitor on the experiment's route gets. The experiment becomes `promoted` with
 * that variant; the snapshot then carries it with the winner alone, so the edge's usual
 * assignment sends everyone there (docs/decisions.md "Experiment guardrails").
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Services } from "../services.ts";
import type { Db } from "../db/client.ts";
import { experiments } from "../db/schema/mod.ts";
import { badRequest, conflict, notFound } from "../errors.ts";
import { recordAudit } from "../audit/mod.ts";
import { markTenantChanged, projectTenant } from "../edge_config/changes.ts";
import { findExperiment, getExperiment } from "./service.ts";
import type { ExperimentView } from "./view_schema.ts";
import { variantTotals } from "./exposures.ts";
import { sequentialComparison } from "./sequential.ts";
import { DEFAULT_GOAL } from "./schema.ts";

export async function promoteWinner(
  s: Services,
  tenantId: number,
  id: number,
  userId: string,
  variantId: number,
  goal?: string,
): Promise<ExperimentView> {
  const e = await findExperiment(s.db, tenantId, id);
  if (e.status !== "active" && e.status !== "stopped") {
    throw conflict(
      `Only an active or stopped experiment can be promoted (this one is ${e.status})`,
    );
  }
  // Read before the transaction (PGlite has one connection).
  const judgedOn = goal ?? e.guardrails?.goal ?? DEFAULT_GOAL;
  const totals = await variantTotals(s, tenantId, id, judgedOn);
  const winner = totals.find((t) => t.v.id === variantId);
  if (!winner) throw notFound("Variant");
  if (winner.v.transformProfile === null) {
    throw badRequest("Invalid variantId: control has no profile to promote");
  }
  const control = totals.find((t) => t.v.transformProfile === null);
  const seq = control ? sequentialComparison(control, winner) : null;
  if (seq?.verdict !== "variant_wins") {
    throw conflict(
      `Variant ${winner.v.key} has not won on ${judgedOn} (verdict ${
        seq?.verdict ?? "none: no control"
      })`,
    );
  }
  const slug = await s.db.transaction(async (txAny) => {
    const tx = txAny as unknown as Db;
    const slug = await markTenantChanged(tx, tenantId);
    const [row] = await tx.update(experiments).set({
      status: "promoted",
      promotedVariantId: variantId,
      updatedAt: new Date(s.clock.now()),
    }).where(and(
      eq(experiments.tenantId, tenantId),
      eq(experiments.id, id),
      inArray(experiments.status, ["active", "stopped"]),
    )).returning();
    if (!row) throw conflict("The experiment changed meanwhile; reload and try again");
    await recordAudit(tx, {
      tenantId,
      actorUserId: userId,
      action: "experiment.promoted",
      target: String(id),
      metadata: {
        variantId,
        variantKey: winner.v.key,
        transformProfile: winner.v.transformProfile,
        previousStatus: e.status,
        goal: judgedOn,
        csLower: seq.csLower,
        csUpper: seq.csUpper,
      },
    });
    return slug;
  });
  if (slug) await projectTenant(s, slug);
  return await getExperiment(s, tenantId, id);
}
