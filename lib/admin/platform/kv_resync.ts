/**
 * POST /api/admin/migrate-kv-to-d1: the predecessor copied KV into its database. Here the
 * database is the source of truth and KV holds derived edge snapshots, so the honest
 * equivalent is the other direction: rebuild every tenant's snapshot from the database
 * into KV at its current generation (lib/edge_config/projector.ts). One tenant's failure does
 * not stop the others.
 */
import { asc } from "drizzle-orm";
import type { Services } from "../../services.ts";
import { tenants } from "../../db/schema/mod.ts";
import { projectSlug } from "../../edge_config/projector.ts";
import type { SnapshotsResynced } from "./view_schema.ts";

export async function resyncEdgeSnapshots(
  s: Services,
  actorUserId: string,
  opts: { dryRun: boolean },
): Promise<SnapshotsResynced> {
  const all = await s.db.select({ id: tenants.id, slug: tenants.slug }).from(tenants)
    .orderBy(asc(tenants.id));
  let synced = 0;
  const failed: { slug: string; error: string }[] = [];
  if (!opts.dryRun) {
    for (const t of all) {
      try {
        await projectSlug(s, t.slug);
        synced++;
      } catch (err) {
        failed.push({ slug: t.slug, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  s.log.info("edge snapshots resynced", {
    by: actorUserId,
    dryRun: opts.dryRun,
    tenants: all.length,
    synced,
    failed: failed.length,
  });
  return { ok: failed.length === 0, dryRun: opts.dryRun, tenants: all.length, synced, failed };
}
