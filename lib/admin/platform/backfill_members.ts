/**
 * POST /api/admin/backfill-members: gives member-less tenants their creator back as owner.
 * Only tenants with no member at all are seeded: a creator who left or was removed from a
 * tenant that still has members must not regain ownership through a maintenance call.
 * Idempotent: a second run finds no member-less tenant and seeds 0.
 */
import type { Services } from "../../services.ts";
import type { MembersBackfilled } from "./view_schema.ts";

export async function backfillMembers(
  s: Services,
  actorUserId: string,
): Promise<MembersBackfilled> {
  // One statement, so concurrent runs cannot double-insert (the primary key also guards).
  const rows = await s.dbHandle.query<{ tenant_id: number }>(
    `INSERT INTO tenant_members (tenant_id, user_id, role)
     SELECT t.id, t.created_by, 'owner' FROM tenants t
     JOIN users u ON u.id = t.created_by
     WHERE NOT EXISTS (SELECT 1 FROM tenant_members m WHERE m.tenant_id = t.id)
     ON CONFLICT DO NOTHING
     RETURNING tenant_id`,
  );
  s.log.info("members backfilled", { by: actorUserId, seeded: rows.length });
  return { ok: true, seeded: rows.length };
}
