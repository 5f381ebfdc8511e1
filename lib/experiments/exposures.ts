/**
 * The exposure summary (SPEC "Exposure summary", GET .../ai-experiments/{id}/exposures).
 * All-time. Exposures come from exposure_counts (flushed by the usage aggregator from
 * the edge), events from experiment_events with the goal name. Rows whose stored
 * (variant id, key) no longer match the current variants are excluded from both, so
 * splits total about 100%. Extra fields (srm, uplift, sequential) keep the shape a strict
 * superset.
 */
import { and, count, eq, max, sum } from "drizzle-orm";
import type { Services } from "../services.ts";
import { experimentEvents, exposureCounts } from "../db/schema/mod.ts";
import { findExperiment, type Variant, variantsOf } from "./queries.ts";
import { p95UpperMs } from "../usage/latency.ts";
import { absoluteUplift, sampleRatioMismatch } from "./stats.ts";
import { sequentialComparison } from "./sequential.ts";
import type { ExposureSummary } from "./view_schema.ts";

const iso = (d: Date | string | null | undefined): string | null =>
  d == null ? null : new Date(d).toISOString();
const pct = (part: number, whole: number) => whole > 0 ? part / whole * 100 : 0;

/** Per-variant all-time totals of the current variants (summary and guardrails). */
export type VariantTotals = {
  v: Variant;
  exposures: number;
  lastSeenAt: string | null;
  errors: number;
  latency: number[];
  events: number;
  lastEventAt: string | null;
};

export async function variantTotals(
  s: Services,
  tenantId: number,
  experimentId: number,
  goal: string,
): Promise<VariantTotals[]> {
  const variants = (await variantsOf(s.db, tenantId, [experimentId])).get(experimentId) ?? [];
  const exposureRows = await s.db.select({
    variantId: exposureCounts.variantId,
    variantKey: exposureCounts.variantKey,
    exposures: sum(exposureCounts.exposures).mapWith(Number),
    lastSeenAt: max(exposureCounts.lastSeenAt),
    errors: sum(exposureCounts.errors).mapWith(Number),
    // one row per (variant id, key) is the primary key's remainder: no sum over arrays needed
    latency: max(exposureCounts.latencyBuckets),
  }).from(exposureCounts).where(and(
    eq(exposureCounts.tenantId, tenantId),
    eq(exposureCounts.experimentId, experimentId),
  )).groupBy(exposureCounts.variantId, exposureCounts.variantKey);
  const eventRows = await s.db.select({
    variantId: experimentEvents.variantId,
    variantKey: experimentEvents.variantKey,
    events: count(),
    lastEventAt: max(experimentEvents.createdAt),
  }).from(experimentEvents).where(and(
    eq(experimentEvents.tenantId, tenantId),
    eq(experimentEvents.experimentId, experimentId),
    eq(experimentEvents.eventName, goal),
  )).groupBy(experimentEvents.variantId, experimentEvents.variantKey);

  const k = (id: number, key: string) => `${id}\u0000${key}`;
  const exp = new Map(exposureRows.map((r) => [k(r.variantId, r.variantKey), r]));
  const ev = new Map(eventRows.map((r) => [k(r.variantId, r.variantKey), r]));
  return variants.map((v) => {
    const e = exp.get(k(v.id, v.key));
    const c = ev.get(k(v.id, v.key));
    return {
      v,
      exposures: Number(e?.exposures ?? 0),
      lastSeenAt: iso(e?.lastSeenAt),
      errors: Number(e?.errors ?? 0),
      latency: (e?.latency as unknown as (number | string)[] | null ?? []).map(Number),
      events: Number(c?.events ?? 0),
      lastEventAt: iso(c?.lastEventAt),
    };
  });
}

export async function exposureSummary(
  s: Services,
  tenantId: number,
  experimentId: number,
  goal: string,
): Promise<ExposureSummary> {
  await findExperiment(s.db, tenantId, experimentId);
  const rows = await variantTotals(s, tenantId, experimentId, goal);
  const totalWeight = rows.reduce((a, r) => a + r.v.weight, 0);
  const totalExposures = rows.reduce((a, r) => a + r.exposures, 0);
  const totalEvents = rows.reduce((a, r) => a + r.events, 0);
  const control = rows.find((r) => r.v.transformProfile === null) ?? null;

  return {
    experimentId,
    totalExposures,
    totalEvents,
    goalEventName: goal,
    variants: rows.map((r) => {
      const vs = control && r !== control
        ? [
          { exposures: control.exposures, events: control.events },
          { exposures: r.exposures, events: r.events },
        ] as const
        : null;
      const up = vs ? absoluteUplift(...vs) : null;
      const seq = vs ? sequentialComparison(...vs) : null;
      return {
        variantId: r.v.id,
        variantKey: r.v.key,
        label: r.v.label,
        transformProfile: r.v.transformProfile,
        trafficWeight: r.v.weight,
        exposures: r.exposures,
        actualSplit: pct(r.exposures, totalExposures),
        expectedSplit: pct(r.v.weight, totalWeight),
        lastSeenAt: r.lastSeenAt,
        eventCount: r.events,
        conversionRate: pct(r.events, r.exposures),
        lastEventAt: r.lastEventAt,
        errorCount: r.errors,
        errorRate: pct(r.errors, r.exposures),
        p95Ms: p95UpperMs(r.latency),
        uplift: up && control ? { ...up, baselineVariantId: control.v.id } : null,
        sequential: seq && control ? { ...seq, baselineVariantId: control.v.id } : null,
      };
    }),
    controlVariantId: control?.v.id ?? null,
    sampleRatioMismatch: sampleRatioMismatch(
      rows.map((r) => r.exposures),
      rows.map((r) => r.v.weight),
    ),
  };
}
