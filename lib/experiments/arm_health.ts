/**
 * What guardrails judge (lib/experiments/guardrails.ts): per current variant, over the
 * last GUARDRAIL_HORIZON_MS and since the last restart, the visitor-windows of
 * experiment_visitors (lib/usage/visitor_windows.ts: each visitor once per arm per
 * 10-minute window) - at most VISITORS_PER_NETWORK of them per network per arm and window
 * - and of those, how many saw a 5xx, had an answer certainly slower than maxP95Ms, and
 * sent the goal event (same visitor hash) within the window or the next one.
 */
import { and, count, eq, gte, lte, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { experimentVisitors } from "../db/schema/mod.ts";
import type { Experiment, Variant } from "./queries.ts";
import { LATENCY_BOUNDS_MS } from "../usage/latency.ts";
import { VISITOR_WINDOW_MS } from "../usage/visitor_windows.ts";

/** How far back guardrails look: a day of visitors, however long the experiment runs. */
const GUARDRAIL_HORIZON_MS = 86_400_000;
/** Visitors one network (IPv4 address, IPv6 /64) adds to an arm per window, at most. */
const VISITORS_PER_NETWORK = 3;

export type ArmVisitors = {
  variantKey: string;
  control: boolean;
  visitors: number;
  /** Visitors who got at least one answer >= 500. */
  errored: number;
  /** Visitors with an answer certainly slower than maxP95Ms (0 without it). */
  slow: number;
  /** Visitors who sent the goal event. */
  converted: number;
};

/** The first latency bucket whose answers are all at least `ms` (none: past the last). */
function slowBucket(ms: number | undefined): number {
  if (ms === undefined) return LATENCY_BOUNDS_MS.length + 1;
  const i = LATENCY_BOUNDS_MS.findIndex((b) => b >= ms);
  return i < 0 ? LATENCY_BOUNDS_MS.length + 1 : i + 1;
}

export async function armVisitors(
  s: Services,
  e: Experiment,
  variants: Variant[],
  goal: string,
): Promise<ArmVisitors[]> {
  const now = s.clock.now();
  const v = experimentVisitors;
  const since = e.guardrailSince ? e.guardrailSince.getTime() : 0;
  const ranked = s.db.select({
    variantId: v.variantId,
    variantKey: v.variantKey,
    windowStart: v.windowStart,
    visitorHash: v.visitorHash,
    errored: v.errored,
    slowest: v.slowest,
    nth: sql<number>`row_number() OVER (PARTITION BY ${v.variantId}, ${v.variantKey},
      ${v.windowStart}, ${v.networkHash} ORDER BY ${v.visitorHash})`.as("nth"),
  }).from(v).where(and(
    eq(v.tenantId, e.tenantId),
    eq(v.experimentId, e.id),
    gte(v.windowStart, new Date(now - GUARDRAIL_HORIZON_MS)),
    gte(v.firstSeenAt, new Date(since)),
  )).as("ranked");
  const late = `${2 * VISITOR_WINDOW_MS / 1000} seconds`;
  const rows = await s.db.select({
    variantId: ranked.variantId,
    variantKey: ranked.variantKey,
    visitors: count(),
    errored: sql<number>`count(*) FILTER (WHERE ${ranked.errored})`.mapWith(Number),
    slow: sql<number>`count(*) FILTER (WHERE ${ranked.slowest} >= ${
      slowBucket(e.guardrails?.maxP95Ms)
    })`.mapWith(Number),
    // Qualified by hand: inside sql`` a subquery's column renders unqualified, and would
    // then name the event's own column.
    converted: sql<number>`count(*) FILTER (WHERE EXISTS (SELECT 1 FROM experiment_events ev
      WHERE ev.experiment_id = ${e.id} AND ev.variant_id = ranked.variant_id
        AND ev.visitor_hash = ranked.visitor_hash AND ev.event_name = ${goal}
        AND ev.created_at >= ranked.window_start
        AND ev.created_at < ranked.window_start + ${late}::interval))`.mapWith(Number),
  }).from(ranked).where(lte(ranked.nth, VISITORS_PER_NETWORK))
    .groupBy(ranked.variantId, ranked.variantKey);
  const control = variants.find((x) => x.transformProfile === null)?.id;
  return variants.map((x) => {
    const r = rows.find((r) => r.variantId === x.id && r.variantKey === x.key);
    return {
      variantKey: x.key,
      control: x.id === control,
      visitors: Number(r?.visitors ?? 0),
      errored: r?.errored ?? 0,
      slow: r?.slow ?? 0,
      converted: r?.converted ?? 0,
    };
  });
}
