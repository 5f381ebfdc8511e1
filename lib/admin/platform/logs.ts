/**
 * GET /api/admin/logs and POST /api/admin/logs-test: reads and writes the process's
 * in-memory log ring (lib/log.ts). Entries are per instance and lost on restart.
 */
import type { Services } from "../../services.ts";
import { LOG_LEVEL_ORDER, type LogEntry, type LogLevel } from "../../log.ts";
import type { LogsPage, TestLogWritten } from "./view_schema.ts";

export type LogsQuery = { limit: number; cursor?: number; level?: LogLevel };

/** Newest first; `cursor` is the seq of the last entry seen (entries below it come next). */
export function listLogs(s: Services, q: LogsQuery): LogsPage {
  const min = q.level ? LOG_LEVEL_ORDER[q.level] : 0;
  const matching = s.logRing.newestFirst().filter((e) =>
    (q.cursor === undefined || e.seq < q.cursor) && LOG_LEVEL_ORDER[e.level] >= min
  );
  const entries: LogEntry[] = matching.slice(0, q.limit);
  const hasMore = matching.length > q.limit;
  return {
    entries,
    nextCursor: hasMore ? entries[entries.length - 1].seq : null,
    hasMore,
    capacity: s.logRing.capacity,
    minLevel: s.config.logLevel,
    generatedAt: new Date(s.clock.now()).toISOString(),
  };
}

/** Writes one entry through the app's logger, so the whole pipeline is exercised. */
export function writeTestLog(
  s: Services,
  actorUserId: string,
  level: LogLevel,
  message: string,
): TestLogWritten {
  const before = s.logRing.lastSeq;
  s.log[level](message, { test: true, by: actorUserId });
  const after = s.logRing.lastSeq;
  return {
    ok: true,
    // null when the level is below LOG_LEVEL: the entry was not kept.
    seq: after > before ? after : null,
    level,
    message,
    at: new Date(s.clock.now()).toISOString(),
  };
}
