/**
 * Usage from an edge deployed apart from the app (POST /api/usage/ingest): validated
 * records are fed to the same in-process aggregator local edge traffic uses, so they
 * land in usage_daily, request_logs and exposure_counts exactly alike. Field names in docs/decisions.md.
 */
import { inArray } from "drizzle-orm";
import { z } from "zod";
import { str } from "../base/text.ts";
import type { Services } from "../services.ts";
import { experimentVariants, tenants } from "../db/schema/mod.ts";
import { ApiError } from "../errors.ts";
import { timingSafeEqual } from "../crypto/mod.ts";
import type { UsageRecord } from "../../edge/types.ts";
import type { UsageAggregator } from "./aggregator.ts";

export const INGEST_MAX_RECORDS = 1000;
/** 1000 records of a few hundred bytes each, with headroom for long paths. */
export const INGEST_MAX_BODY_BYTES = 1024 * 1024;
/** Accepted event-time window: the request-log retention behind, a little clock skew ahead. */
const MAX_AGE_MS = 30 * 24 * 3600_000;
const MAX_SKEW_MS = 5 * 60_000;

/**
 * The X-Ingest-Key check: 403 `ingest_not_configured` without INGEST_KEY, 401 without
 * the header, 403 `invalid_ingest_key` for a wrong one (constant-time comparison).
 */
export function requireIngestKey(configured: string | undefined, given: string | undefined): void {
  if (!configured) {
    throw new ApiError(403, "ingest_not_configured", "Usage ingest is not configured");
  }
  if (!given) throw new ApiError(401, "unauthorized", "Missing X-Ingest-Key header");
  if (!timingSafeEqual(given, configured)) {
    throw new ApiError(403, "invalid_ingest_key", "Invalid ingest key");
  }
}

/** A sanity bound for one response (1 TiB); counters are 64-bit in the database. */
const MAX_RECORD_BYTES = 2 ** 40;

/** One record's schema; `now` bounds the event time. */
export function ingestRecordSchema(now: number) {
  return z.object({
    tenant: str().min(1).max(100),
    bytes: z.number().int().min(0).max(MAX_RECORD_BYTES),
    method: str().regex(/^[A-Za-z]{1,16}$/, "must be an HTTP method").default("GET"),
    path: str().min(1).max(2048).startsWith("/", "must start with /"),
    status: z.number().int().min(100).max(599),
    cache: z.enum(["HIT", "MISS", "STALE", "BYPASS"]).nullable().default(null),
    kind: z.enum(["api", "asset", "site", "other"]).default("other"),
    durationMs: z.number().int().min(0).max(3_600_000).default(0),
    /** A bot refused on the asset path: counted as blocked, not as a request. */
    blocked: z.boolean().optional(),
    /** The experiment arm the edge served, as in UsageRecord; feeds exposure_counts. */
    experiment: z.object({
      experimentId: z.number().int().min(1).max(2_147_483_647),
      variantId: z.number().int().min(1).max(2_147_483_647),
      variantKey: str().min(1).max(100),
    }).strict().nullable().default(null),
    /** Event time in epoch milliseconds; defaults to the time of receipt. */
    ts: z.number().int().min(now - MAX_AGE_MS, "must be within the last 30 days")
      .max(now + MAX_SKEW_MS, "must not be in the future").optional(),
  }).strict();
}

export type IngestRecord = z.output<ReturnType<typeof ingestRecordSchema>>;

export function isBatchBody(body: unknown): boolean {
  return typeof body === "object" && body !== null && "records" in body;
}

/**
 * A single record, or `{ records: [...] }` with 1 to 1000 of them. Picked by shape, so
 * errors name `bytes` for a single record and `records.3.bytes` in a batch.
 */
export function ingestSchemaFor(
  body: unknown,
  now: number,
): z.ZodType<{ records: IngestRecord[] }> {
  const record = ingestRecordSchema(now);
  return isBatchBody(body)
    ? z.object({ records: z.array(record).min(1).max(INGEST_MAX_RECORDS) }).strict()
    : record.transform((r) => ({ records: [r] }));
}

/**
 * Resolves every record's tenant and experiment arm before recording any (a batch is all or nothing: an
 * unknown tenant is a 404 and nothing is counted), then records them all.
 */
export async function ingestRecords(
  s: Services,
  aggregator: UsageAggregator,
  records: IngestRecord[],
  /** Field path prefix of record i in error details: `records.i.` in a batch, `` for one record. */
  fieldPrefix: (i: number) => string,
): Promise<number> {
  const now = s.clock.now();
  const slugs = [...new Set(records.map((r) => r.tenant.toLowerCase()))];
  const rows = await s.db.select({ id: tenants.id, slug: tenants.slug }).from(tenants)
    .where(inArray(tenants.slug, slugs));
  const idOf = new Map(rows.map((r) => [r.slug, r.id]));
  const unknown = slugs.find((slug) => !idOf.has(slug));
  if (unknown !== undefined) {
    throw new ApiError(404, "not_found", "Tenant not found", { tenant: unknown });
  }
  await checkExperiments(s, records, idOf, fieldPrefix);
  for (const r of records) {
    const rec: UsageRecord = {
      tenantId: idOf.get(r.tenant.toLowerCase())!,
      ts: r.ts ?? now,
      method: r.method.toUpperCase(),
      path: r.path,
      status: r.status,
      bytes: r.bytes,
      cache: r.cache,
      kind: r.kind,
      durationMs: r.durationMs,
      ...(r.blocked ? { blocked: true } : {}),
      experiment: r.experiment,
    };
    aggregator.record(rec);
  }
  return records.length;
}

/** Every experiment arm must be a variant of that experiment in the record's own tenant (400). */
async function checkExperiments(
  s: Services,
  records: IngestRecord[],
  idOf: Map<string, number>,
  fieldPrefix: (i: number) => string,
): Promise<void> {
  const ids = [...new Set(records.flatMap((r) => r.experiment ? [r.experiment.variantId] : []))];
  if (ids.length === 0) return;
  const rows = await s.db.select({
    id: experimentVariants.id,
    experimentId: experimentVariants.experimentId,
    tenantId: experimentVariants.tenantId,
    key: experimentVariants.key,
  }).from(experimentVariants).where(inArray(experimentVariants.id, ids));
  const byId = new Map(rows.map((v) => [v.id, v]));
  records.forEach((r, i) => {
    const x = r.experiment;
    if (!x) return;
    const v = byId.get(x.variantId);
    const ok = v && v.experimentId === x.experimentId && v.key === x.variantKey &&
      v.tenantId === idOf.get(r.tenant.toLowerCase());
    if (!ok) {
      const path = `${fieldPrefix(i)}experiment`;
      const message = "is not a variant of this tenant's experiment";
      throw new ApiError(400, "bad_request", `Invalid ${path}: ${message}`, {
        fields: [{ path, message }],
      });
    }
  });
}
