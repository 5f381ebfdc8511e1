/**
 * GET /api/admin/usage-stream: sampled request logs of every tenant, newest first,
 * paged by a keyset cursor on the row id.
 */
import { desc, eq, lt } from "drizzle-orm";
import type { Services } from "../../services.ts";
import { requestLogs, tenants } from "../../db/schema/mod.ts";
import type { UsageStream } from "./view_schema.ts";

export async function usageStream(
  s: Services,
  q: { limit: number; cursor?: number },
): Promise<UsageStream> {
  const rows = await s.db.select({
    id: requestLogs.id,
    tenant: tenants.slug,
    ts: requestLogs.ts,
    method: requestLogs.method,
    path: requestLogs.path,
    status: requestLogs.status,
    bytes: requestLogs.bytes,
    cache: requestLogs.cache,
    durationMs: requestLogs.durationMs,
    kind: requestLogs.kind,
  }).from(requestLogs)
    // inner join: logs of a deleted tenant have no slug to show
    .innerJoin(tenants, eq(tenants.id, requestLogs.tenantId))
    .where(q.cursor === undefined ? undefined : lt(requestLogs.id, q.cursor))
    .orderBy(desc(requestLogs.id))
    .limit(q.limit + 1);
  const hasMore = rows.length > q.limit;
  const items = rows.slice(0, q.limit).map((r) => ({
    ...r,
    id: Number(r.id),
    bytes: Number(r.bytes),
    ts: r.ts.toISOString(),
  }));
  return {
    items,
    nextCursor: hasMore ? items[items.length - 1].id : null,
    hasMore,
    generatedAt: new Date(s.clock.now()).toISOString(),
  };
}
