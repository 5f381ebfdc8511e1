/**
 * Master-admin maintenance: pruning request logs on demand. The aggregator prunes
 * the same table hourly with REQUEST_LOG_RETENTION_DAYS; this runs it now, with a
 * retention of the operator's choosing, through the same flush-target statement.
 */
import type { Services } from "../services.ts";
import { postgresFlushTarget } from "../usage/pg_target.ts";
import type { LogsPruned } from "./view_schema.ts";

const DAY_MS = 86_400_000;

/** Deletes request logs older than now - retentionDays (app clock); returns the count. */
export async function pruneRequestLogs(
  s: Services,
  actorUserId: string,
  retentionDays: number,
): Promise<LogsPruned> {
  const now = s.clock.now();
  const before = new Date(now - retentionDays * DAY_MS);
  const deleted = await postgresFlushTarget(s.db).pruneLogs!(before, now);
  s.log.info("request logs pruned", { by: actorUserId, retentionDays, deleted });
  return { ok: true, deleted, retentionDays, before: before.toISOString() };
}
