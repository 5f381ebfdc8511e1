/**
 * GET /api/admin/usage-diagnostic: is usage flowing? The aggregator's in-memory
 * counters, what has reached the database, and whether KV answers. The edge cache
 * is not reachable from the services (the edge is built beside them), so it is absent.
 */
import { count, max, min } from "drizzle-orm";
import type { Services } from "../../services.ts";
import type { UsageAggregator } from "../../usage/aggregator.ts";
import { requestLogs, usageDaily } from "../../db/schema/mod.ts";
import type { UsageDiagnostic } from "./view_schema.ts";

export async function usageDiagnostic(
  s: Services,
  aggregator: UsageAggregator,
): Promise<UsageDiagnostic> {
  const [daily] = await s.db.select({
    rows: count(),
    firstDay: min(usageDaily.day),
    lastDay: max(usageDaily.day),
  }).from(usageDaily);
  const [logs] = await s.db.select({
    rows: count(),
    oldestAt: min(requestLogs.ts),
    newestAt: max(requestLogs.ts),
  }).from(requestLogs);
  const [mig] = await s.dbHandle.query<{ n: number | string; latest: string | null }>(
    "SELECT count(*) AS n, max(name) AS latest FROM schema_migrations",
  );
  return {
    generatedAt: new Date(s.clock.now()).toISOString(),
    database: { kind: s.dbHandle.kind, migrations: Number(mig.n), latestMigration: mig.latest },
    aggregator: aggregator.status(),
    usageDaily: {
      rows: Number(daily.rows),
      firstDay: daily.firstDay ?? null,
      lastDay: daily.lastDay ?? null,
    },
    requestLogs: {
      rows: Number(logs.rows),
      oldestAt: iso(logs.oldestAt),
      newestAt: iso(logs.newestAt),
    },
    kv: await probeKv(s.kv),
  };
}

function iso(v: Date | string | null): string | null {
  if (v === null || v === undefined) return null;
  return new Date(v).toISOString();
}

/** A read of a key nobody writes: proves KV answers without touching tenant data. */
async function probeKv(kv: Deno.Kv): Promise<{ reachable: boolean; error: string | null }> {
  try {
    await kv.get(["admin", "diagnostic-probe"]);
    return { reachable: true, error: null };
  } catch (err) {
    return { reachable: false, error: err instanceof Error ? err.message : String(err) };
  }
}
