/**
 * AI experiments management (SPEC "AI experiments management", "AI experiment status").
 * Every query filters by tenant_id. Writes that change what the edge serves (activation,
 * route or variant changes of an active experiment, archiving it) re-sync the tenant's
 * KV snapshot in the same request, after the database commit.
 */
import { and, desc, eq, ne } from "drizzle-orm";
import type { Services } from "../services.ts";
import type { Db } from "../db/client.ts";
import { experiments, experimentVariants, tenants } from "../db/schema/mod.ts";
import { badRequest, conflict } from "../errors.ts";
import { recordAudit } from "../audit/mod.ts";
import { markTenantChanged, projectTenant } from "../edge_config/changes.ts";
import { normalizeRoutePattern } from "./route.ts";
import { activationProblems } from "./activation.ts";
import { type Experiment, findExperiment, type Variant, variantsOf } from "./queries.ts";
import type { CreateExperimentInput, PatchExperimentInput, VariantInput } from "./schema.ts";
import type { ExperimentView, VariantView } from "./view_schema.ts";

export type { Experiment, Variant };
export { findExperiment, variantsOf };

/** A variant as the API shows it: `config` and `transformProfile` mirror each other. */
export function variantView(v: Variant): VariantView {
  return {
    id: v.id,
    key: v.key,
    label: v.label,
    weight: v.weight,
    config: v.transformProfile === null ? null : { transformProfile: v.transformProfile },
    transformProfile: v.transformProfile,
  };
}

export function experimentView(e: Experiment, variants: Variant[]): ExperimentView {
  return {
    id: e.id,
    name: e.name,
    routePattern: e.routePattern,
    routeMatch: e.routeMatch,
    status: e.status,
    variants: variants.map(variantView),
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    archivedAt: e.archivedAt?.toISOString() ?? null,
    guardrails: e.guardrails ?? null,
    stopReason: e.stopReason,
    stoppedAt: e.stoppedAt?.toISOString() ?? null,
    promotedVariantId: e.promotedVariantId,
  };
}
export type { ExperimentView };

/** Non-archived experiments with their variants, newest first (SPEC list). */
export async function listExperiments(s: Services, tenantId: number): Promise<ExperimentView[]> {
  const rows = await s.db.select().from(experiments)
    .where(and(eq(experiments.tenantId, tenantId), ne(experiments.status, "archived")))
    .orderBy(desc(experiments.id));
  const vs = await variantsOf(s.db, tenantId, rows.map((r) => r.id));
  return rows.map((r) => experimentView(r, vs.get(r.id) ?? []));
}

export async function getExperiment(
  s: Services,
  tenantId: number,
  id: number,
): Promise<ExperimentView> {
  const e = await findExperiment(s.db, tenantId, id);
  const vs = await variantsOf(s.db, tenantId, [id]);
  return experimentView(e, vs.get(id) ?? []);
}

async function insertVariants(db: Db, e: Experiment, variants: VariantInput[]): Promise<void> {
  if (variants.length === 0) return;
  await db.insert(experimentVariants).values(variants.map((v, i) => ({
    experimentId: e.id,
    tenantId: e.tenantId,
    key: v.key,
    label: v.label,
    weight: v.weight,
    transformProfile: v.transformProfile,
    position: i,
  })));
}

/** Creates a draft experiment with its optional variants in one transaction. */
export async function createExperiment(
  s: Services,
  tenantId: number,
  userId: string,
  input: CreateExperimentInput,
): Promise<ExperimentView> {
  const now = new Date(s.clock.now());
  const id = await s.db.transaction(async (tx) => {
    const [e] = await tx.insert(experiments).values({
      tenantId,
      name: input.name,
      routePattern: input.routePattern,
      routeMatch: input.routeMatch,
      status: "draft",
      guardrails: input.guardrails,
      createdBy: userId,
      createdAt: now,
      updatedAt: now,
    }).returning();
    await insertVariants(tx as unknown as Db, e, input.variants);
    await recordAudit(tx as unknown as Db, {
      tenantId,
      actorUserId: userId,
      action: "experiment.create",
      target: String(e.id),
      metadata: { name: e.name, variants: input.variants.map((v) => v.key) },
    });
    return e.id;
  });
  return await getExperiment(s, tenantId, id);
}

/**
 * Serialises activation-relevant writes of one tenant (row lock on the tenant), so two
 * concurrent activations cannot both pass the route-overlap check.
 */
async function lockTenant(tx: Db, tenantId: number): Promise<void> {
  await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).for("update");
}

/** Throws the 400 of a failed activation, naming every reason (first one in the message). */
async function assertActivatable(
  s: Services,
  tx: Db,
  e: Pick<Experiment, "id" | "tenantId" | "routePattern" | "routeMatch">,
  variants: Array<Pick<Variant, "key" | "transformProfile">>,
): Promise<void> {
  const reasons = await activationProblems(s, tx, e, variants);
  if (reasons.length > 0) {
    throw badRequest(`Activation failed: ${reasons[0]}`, { reasons });
  }
}

/** PATCH: name, route and status; moving to active runs activation validation (SPEC). */
export async function updateExperiment(
  s: Services,
  tenantId: number,
  id: number,
  userId: string,
  patch: PatchExperimentInput,
): Promise<ExperimentView> {
  const { changedSlug } = await s.db.transaction(async (txAny) => {
    const tx = txAny as unknown as Db;
    await lockTenant(tx, tenantId);
    const before = await findExperiment(tx, tenantId, id);
    const routeMatch = patch.routeMatch ?? before.routeMatch;
    let routePattern = before.routePattern;
    if (patch.routePattern !== undefined || patch.routeMatch !== undefined) {
      const r = normalizeRoutePattern(patch.routePattern ?? before.routePattern, routeMatch);
      if ("problem" in r) throw badRequest(`Invalid routePattern: ${r.problem}`);
      routePattern = r.pattern;
    }
    const status = patch.status ?? before.status;
    const now = new Date(s.clock.now());
    const routeChanged = routePattern !== before.routePattern || routeMatch !== before.routeMatch;
    // Validate on activation and on a route change of an active experiment; a rename alone
    // does not re-check (a rule deactivated meanwhile must not block fixing a typo).
    if (status === "active" && (before.status !== "active" || routeChanged)) {
      const vs = (await variantsOf(tx, tenantId, [id])).get(id) ?? [];
      await assertActivatable(s, tx, { id, tenantId, routePattern, routeMatch }, vs);
    }
    if (before.status === "promoted" && status !== "promoted" && status !== "archived") {
      throw conflict("A promoted experiment can only be archived");
    }
    // A (re)start: guardrails judge only visitors first seen from now on (decisions.md), or
    // the failures that stopped it (by way of draft, too) would stop the fixed variant again.
    const restart = status === "active" && before.status !== "active";
    const [after] = await tx.update(experiments).set({
      name: patch.name ?? before.name,
      routePattern,
      routeMatch,
      status,
      updatedAt: now,
      archivedAt: status === "archived" ? (before.archivedAt ?? now) : null,
      ...(patch.guardrails !== undefined ? { guardrails: patch.guardrails } : {}),
      // A restart forgets why it stopped.
      ...(status === "active" ? { stopReason: null, stoppedAt: null } : {}),
      ...(restart ? { guardrailSince: now } : {}),
      ...(status === "stopped" && before.status !== "stopped"
        ? { stopReason: "stopped by hand", stoppedAt: now }
        : {}),
    }).where(and(eq(experiments.tenantId, tenantId), eq(experiments.id, id))).returning();
    await recordAudit(tx, {
      tenantId,
      actorUserId: userId,
      action: status !== before.status ? `experiment.${status}` : "experiment.update",
      target: String(id),
      metadata: { ...patch, previousStatus: before.status },
    });
    const served = (st: string) => st === "active" || st === "promoted";
    const live = served(before.status) || served(after.status);
    const changedSlug = live ? await markTenantChanged(tx, tenantId) : null;
    return { before, after, changedSlug };
  });
  if (changedSlug) await projectTenant(s, changedSlug);
  return await getExperiment(s, tenantId, id);
}

/** DELETE: archives; rows and variants stay for joins with history (SPEC). Idempotent. */
export function archiveExperiment(
  s: Services,
  tenantId: number,
  id: number,
  userId: string,
): Promise<ExperimentView> {
  return updateExperiment(s, tenantId, id, userId, { status: "archived" });
}

/**
 * PUT variants: deletes every variant and inserts the new set in one transaction (SPEC).
 * New rows get new ids, so exposures and events of the old set stop matching. An active
 * experiment must still pass activation validation with the new set.
 */
export async function replaceVariants(
  s: Services,
  tenantId: number,
  id: number,
  userId: string,
  variants: VariantInput[],
): Promise<ExperimentView> {
  const { changedSlug } = await s.db.transaction(async (txAny) => {
    const tx = txAny as unknown as Db;
    await lockTenant(tx, tenantId);
    const e = await findExperiment(tx, tenantId, id);
    if (e.status === "active") await assertActivatable(s, tx, e, variants);
    await tx.delete(experimentVariants).where(and(
      eq(experimentVariants.tenantId, tenantId),
      eq(experimentVariants.experimentId, id),
    ));
    await insertVariants(tx, e, variants);
    await tx.update(experiments).set({ updatedAt: new Date(s.clock.now()) })
      .where(and(eq(experiments.tenantId, tenantId), eq(experiments.id, id)));
    await recordAudit(tx, {
      tenantId,
      actorUserId: userId,
      action: "experiment.variants.replace",
      target: String(id),
      metadata: {
        variants: variants.map((v) => ({
          key: v.key,
          weight: v.weight,
          profile: v.transformProfile,
        })),
      },
    });
    // SPEC: PUT variants re-syncs the proxy configuration.
    const changedSlug = e.status === "active" ? await markTenantChanged(tx, tenantId) : null;
    return { e, changedSlug };
  });
  if (changedSlug) await projectTenant(s, changedSlug);
  return await getExperiment(s, tenantId, id);
}
