/**
 * Response shapes of the master-admin platform endpoints (routes/api/admin_platform.ts),
 * built by the modules of this folder, which are typed from these schemas.
 */
import { z } from "zod";
import { count, isoTime } from "../../base/shapes.ts";
import { PERIOD_RE } from "../../usage/query.ts";
import { LOG_LEVELS } from "../../log.ts";
import { aggregatorStatusSchema } from "../../usage/aggregator_schema.ts";

const usd = z.number().nonnegative();

/** GET /api/admin/cloudflare-cost: always modeled (cost_model.ts says why). */
export const platformCostSchema = z.strictObject({
  period: z.string().regex(PERIOD_RE),
  costSource: z.enum(["live", "modeled"]),
  costConfidence: z.enum(["high", "medium", "low"]),
  fetchedAt: isoTime,
  cacheAgeMs: count,
  cost: z.strictObject({ workersCost: usd, d1Cost: usd, kvCost: usd, totalCost: usd }),
  inputs: z.strictObject({
    requests: count,
    bytes: count,
    usageDailyRows: count,
    requestLogRows: count,
    tenants: count,
    daysInPeriod: count,
    kvReads: count,
    kvWrites: count,
  }),
  unitPrices: z.strictObject({
    computePerMillionRequests: usd,
    databasePerMillionRowsWritten: usd,
    kvPerMillionReads: usd,
    kvPerMillionWrites: usd,
  }),
  currency: z.literal("USD"),
  fallbackReason: z.string().nullable(),
});
export type PlatformCost = z.infer<typeof platformCostSchema>;

/** GET /api/admin/usage-stream: sampled request logs of every tenant, newest first. */
export const usageStreamSchema = z.strictObject({
  items: z.array(z.strictObject({
    id: z.number().int().positive(),
    tenant: z.string(),
    ts: isoTime,
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    bytes: count,
    cache: z.string().nullable(),
    durationMs: z.number().nonnegative().nullable(),
    kind: z.string().nullable(),
  })),
  nextCursor: z.number().int().positive().nullable(),
  hasMore: z.boolean(),
  generatedAt: isoTime,
});
export type UsageStream = z.infer<typeof usageStreamSchema>;

/** GET /api/admin/usage-diagnostic: is usage flowing? */
export const usageDiagnosticSchema = z.strictObject({
  generatedAt: isoTime,
  database: z.strictObject({
    kind: z.enum(["pglite", "postgres"]),
    migrations: count,
    latestMigration: z.string().nullable(),
  }),
  aggregator: aggregatorStatusSchema.nullable(),
  usageDaily: z.strictObject({
    rows: count,
    firstDay: z.iso.date().nullable(),
    lastDay: z.iso.date().nullable(),
  }),
  requestLogs: z.strictObject({
    rows: count,
    oldestAt: isoTime.nullable(),
    newestAt: isoTime.nullable(),
  }),
  kv: z.strictObject({ reachable: z.boolean(), error: z.string().nullable() }),
});
export type UsageDiagnostic = z.infer<typeof usageDiagnosticSchema>;

/** One entry of the in-memory log ring (lib/log.ts); `fields` are whatever the caller logged. */
export const logEntrySchema = z.strictObject({
  seq: z.number().int().positive(),
  t: isoTime,
  level: z.enum(LOG_LEVELS),
  msg: z.string(),
  fields: z.record(z.string(), z.unknown()),
});

/** GET /api/admin/logs: newest first, paged by `seq`. */
export const logsPageSchema = z.strictObject({
  entries: z.array(logEntrySchema),
  nextCursor: z.number().int().positive().nullable(),
  hasMore: z.boolean(),
  capacity: count,
  minLevel: z.enum(LOG_LEVELS),
  generatedAt: isoTime,
});
export type LogsPage = z.infer<typeof logsPageSchema>;

/** POST /api/admin/logs-test: `seq` is null when the level is below LOG_LEVEL (not kept). */
export const testLogWrittenSchema = z.strictObject({
  ok: z.literal(true),
  seq: z.number().int().positive().nullable(),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  at: isoTime,
});
export type TestLogWritten = z.infer<typeof testLogWrittenSchema>;

/** POST /api/admin/d1-init: the migrations this run applied, and how many are recorded. */
export const databaseInitSchema = z.strictObject({
  ok: z.literal(true),
  database: z.enum(["pglite", "postgres"]),
  applied: z.array(z.string()),
  total: count,
});
export type DatabaseInit = z.infer<typeof databaseInitSchema>;

/** POST /api/admin/migrate-kv-to-d1: every tenant's edge snapshot rebuilt from the database. */
export const snapshotsResyncedSchema = z.strictObject({
  ok: z.boolean(),
  dryRun: z.boolean(),
  tenants: count,
  synced: count,
  failed: z.array(z.strictObject({ slug: z.string(), error: z.string() })),
});
export type SnapshotsResynced = z.infer<typeof snapshotsResyncedSchema>;

/** POST /api/admin/backfill-members (SPEC `{ ok, seeded }`). */
export const membersBackfilledSchema = z.strictObject({
  ok: z.literal(true),
  seeded: count,
});
export type MembersBackfilled = z.infer<typeof membersBackfilledSchema>;
