/**
 * Compatibility entry for callers written before the projection (cli.ts). New code:
 * `changeTenant` / `markTenantChanged` (lib/edge_config/changes.ts), which mark the
 * tenant in the same transaction as the change.
 */
import type { Services } from "../services.ts";
import { type EdgeSnapshot, readSnapshot } from "../kv/snapshot.ts";
import { markTenantChanged } from "./changes.ts";

export { DEFAULT_PREVIEW_PARAM } from "../tenants/provider_input.ts";

/**
 * Marks the tenant changed (in its own statement: the caller's change has committed)
 * and projects it now. Returns what KV holds afterwards.
 */
export async function syncTenantSnapshot(s: Services, tenantId: number): Promise<EdgeSnapshot> {
  const slug = await s.db.transaction((tx) => markTenantChanged(tx as never, tenantId));
  if (!slug) throw new Error(`Tenant ${tenantId} vanished during sync`);
  await s.edgeProjection.project(slug);
  const snap = await readSnapshot(s.kv, slug);
  if (!snap) throw new Error(`Snapshot of ${slug} is not readable after sync`);
  return snap;
}
