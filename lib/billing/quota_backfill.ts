/**
 * POST /api/admin/quota-snapshots/backfill: recomputes and republishes the quota snapshot of
 * every known account (every user). Idempotent: an unchanged snapshot is not rewritten, so a
 * second run changes nothing and sends no mail.
 */
import { asc } from "drizzle-orm";
import type { Services } from "../services.ts";
import { users } from "../db/schema/mod.ts";
import { publishQuota } from "./quota_publish.ts";
import type { QuotaBackfill } from "./admin_view_schema.ts";

export async function backfillQuotaSnapshots(s: Services): Promise<QuotaBackfill> {
  const rows = await s.db.select({ id: users.id }).from(users).orderBy(asc(users.id));
  let processed = 0;
  let changed = 0;
  const failed: string[] = [];
  for (const { id } of rows) {
    try {
      const r = await publishQuota(s, id);
      processed++;
      if (r.changed) changed++;
    } catch (e) {
      failed.push(id);
      s.log.warn("quota backfill failed for an account", { error: String(e) });
    }
  }
  return { ok: failed.length === 0, orgs: rows.length, processed, changed, failed };
}
