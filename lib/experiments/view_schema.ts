/**
 * Response shapes of the AI experiments endpoints (routes/api/ai_experiments.ts): the
 * experiment and variant views (service.ts), the exposure summary (exposures.ts) and the
 * stored conversion event's id. The builders are typed from these schemas.
 */
import { z } from "zod";
import { count, isoTime } from "../base/shapes.ts";
import { ROUTE_MATCHES } from "./route.ts";

const id = z.number().int().positive();
/** SPEC percentages: splits and conversion rates, 0 to 100 (a rate may exceed 100: events are not deduplicated). */
const percent = z.number().nonnegative();

/** A variant: `config` and `transformProfile` mirror each other (null for control). */
export const variantViewSchema = z.strictObject({
  id,
  key: z.string(),
  label: z.string(),
  weight: count,
  config: z.strictObject({ transformProfile: z.string() }).nullable(),
  transformProfile: z.string().nullable(),
});
export type VariantView = z.infer<typeof variantViewSchema>;

/** An experiment with its variants (SPEC "AI experiment"). */
export const experimentViewSchema = z.strictObject({
  id,
  name: z.string(),
  routePattern: z.string(),
  routeMatch: z.enum(ROUTE_MATCHES),
  status: z.enum(["draft", "active", "archived", "stopped", "promoted"]),
  variants: z.array(variantViewSchema),
  createdAt: isoTime,
  updatedAt: isoTime,
  archivedAt: isoTime.nullable(),
  guardrails: z.strictObject({
    maxErrorRate: z.number().optional(),
    maxP95Ms: z.number().optional(),
    minConversionRate: z.number().optional(),
    goal: z.string().optional(),
    margin: z.number().optional(),
    minVisitors: z.number().optional(),
  }).nullable(),
  /** Why a guardrail stopped the experiment (status stopped), else null. */
  stopReason: z.string().nullable(),
  stoppedAt: isoTime.nullable(),
  /** The variant served to everyone on the route (status promoted), else null. */
  promotedVariantId: id.nullable(),
});
export type ExperimentView = z.infer<typeof experimentViewSchema>;

/** GET .../ai-experiments: non-archived experiments, newest first. */
export const experimentsListSchema = z.strictObject({
  experiments: z.array(experimentViewSchema),
});

const upliftSchema = z.strictObject({
  absolute: z.number(),
  ciLower: z.number(),
  ciUpper: z.number(),
  confidence: z.literal(0.95),
  baselineVariantId: id,
});

const srmSchema = z.strictObject({
  chiSquared: z.number().nonnegative(),
  degreesOfFreedom: z.number().int().positive(),
  pValue: z.number().min(0).max(1),
  threshold: z.number(),
  flagged: z.boolean(),
});

/** The always-valid comparison with control (lib/experiments/sequential.ts). */
const sequentialSchema = z.strictObject({
  method: z.literal("msprt"),
  alpha: z.number(),
  absolute: z.number(),
  csLower: z.number(),
  csUpper: z.number(),
  likelihoodRatio: z.number().nonnegative(),
  pValue: z.number().min(0).max(1),
  verdict: z.enum(["keep_running", "variant_wins", "variant_loses", "no_difference"]),
  summary: z.string(),
  baselineVariantId: id,
});

/** GET .../ai-experiments/{id}/exposures (SPEC "Exposure summary", plus srm and uplift). */
export const exposureSummarySchema = z.strictObject({
  experimentId: id,
  totalExposures: count,
  totalEvents: count,
  goalEventName: z.string(),
  variants: z.array(z.strictObject({
    variantId: id,
    variantKey: z.string(),
    label: z.string(),
    transformProfile: z.string().nullable(),
    trafficWeight: count,
    exposures: count,
    actualSplit: percent,
    expectedSplit: percent,
    lastSeenAt: isoTime.nullable(),
    eventCount: count,
    conversionRate: percent,
    lastEventAt: isoTime.nullable(),
    /** Answers with status >= 500 (guardrails), their share, and a p95 bound in ms (null: none). */
    errorCount: count,
    errorRate: percent,
    p95Ms: z.number().nullable(),
    /** Fixed-horizon interval against control (secondary: valid for one look only). */
    uplift: upliftSchema.nullable(),
    /** Against control, valid however often it is looked at; null for control or no data. */
    sequential: sequentialSchema.nullable(),
  })),
  /** The first variant without a transform profile, the baseline of `uplift`. */
  controlVariantId: id.nullable(),
  sampleRatioMismatch: srmSchema.nullable(),
});
export type ExposureSummary = z.infer<typeof exposureSummarySchema>;

/** POST /api/ai-experiments/events (SPEC `{ ok: true, id }`). */
export const eventStoredSchema = z.strictObject({ ok: z.literal(true), id });
