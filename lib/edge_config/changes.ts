/**
 * "Tenant T changed": the only thing domain code needs to know about the edge.
 *
 * A write that affects what the edge serves (tenant config or token, domains, cache
 * versions, AI rules and limits, experiments) runs inside `changeTenant`, which bumps
 * the tenant's generation in `edge_changes` in the same transaction. After commit the
 * projector (lib/edge_config/projector.ts, reached through Services so this module
 * imports no domain code) rebuilds the snapshot and writes it to KV with that
 * generation. If that KV step fails the write still succeeds: it committed, and the
 * projector loop every instance runs retries until KV holds the latest generation.
 *
 *   await changeTenant(s, tenant.id, async (tx) => {
 *     await tx.db.update(tenants).set(...).where(...); // tx: Services on the transaction
 *     await recordAudit(tx, {...});
 *   });
 *
 * Code that already runs its own transaction calls `markTenantChanged(tx, id)` in it
 * and `projectTenant(s, slug)` after commit.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { Services } from "../services.ts";
import { edgeChanges, tenants } from "../db/schema/mod.ts";

export const NEXT_GENERATION = sql<number>`nextval('edge_generation_seq')`;

/**
 * Bumps the tenant's edge generation; call inside the transaction that changes it.
 * Locks the tenant row, then its generation row: changes to one tenant are serialised
 * (a read-check-write inside `changeTenant` sees the previous change committed) and
 * commit in generation order. Returns the slug (to project after commit), or null for a missing tenant.
 */
export async function markTenantChanged(tx: Db, tenantId: number): Promise<string | null> {
  // Tenant row first, then the generation row: every writer takes them in this order.
  const [t] = await tx.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId))
    .for("update");
  if (!t) return null;
  // One sequence for every slug (migration 0010): KV's high-water mark can then tell a
  // database restored from an older dump (lib/edge_config/reconcile.ts).
  await tx.insert(edgeChanges).values({ slug: t.slug, tenantId, generation: NEXT_GENERATION })
    .onConflictDoUpdate({
      target: edgeChanges.slug,
      set: {
        generation: NEXT_GENERATION,
        tenantId,
        changedAt: sql`now()`,
      },
    });
  return t.slug;
}

/**
 * Runs `change` in one transaction with the tenant marked changed, then projects the
 * tenant to KV. `change` receives Services bound to the transaction: use it (not the
 * outer `s`) for every query inside, or embedded PGlite waits on itself.
 */
export async function changeTenant<T>(
  s: Services,
  tenantId: number,
  change: (tx: Services) => Promise<T>,
): Promise<T> {
  let slug: string | null = null;
  const result = await s.db.transaction(async (tx) => {
    slug = await markTenantChanged(tx as unknown as Db, tenantId);
    return await change({ ...s, db: tx as unknown as Db });
  });
  if (slug) await projectTenant(s, slug);
  return result;
}

/**
 * After commit: writes the tenant's snapshot to KV now, so this instance and the next
 * request see the change. Never throws: the change is committed, and the projector
 * loop retries what failed here.
 */
export async function projectTenant(s: Services, slug: string): Promise<void> {
  try {
    await s.edgeProjection.project(slug);
  } catch (e) {
    s.log.warn("edge projection deferred to the projector loop", {
      slug,
      error: e instanceof Error ? e.message : String(e),
    });
  }
}

/**
 * Whether KV holds the tenant's latest generation: after `changeTenant` this says if
 * the projection succeeded (false: it was deferred to the projector loop, or another
 * change came in since).
 */
export async function isProjected(s: Services, tenantId: number): Promise<boolean> {
  const [row] = await s.db.select({
    generation: edgeChanges.generation,
    projected: edgeChanges.projectedGeneration,
  }).from(edgeChanges).where(eq(edgeChanges.tenantId, tenantId))
    .orderBy(desc(edgeChanges.changedAt)).limit(1);
  return row !== undefined && row.projected >= row.generation;
}
