/**
 * Response shapes of the AI transform endpoints (routes/api/ai_transform.ts; field names in
 * docs/decisions.md). The builders (rules.ts ruleView, runs.ts runView, usage.ts
 * usageView, preview.ts, regenerate.ts, settings.ts) are typed from these schemas.
 */
import { z } from "zod";
import { count, isoTime } from "../base/shapes.ts";
import { PRESET_IDS } from "./rule_schema.ts";
import { RUN_MODES, RUN_STATUSES } from "./runs.ts";
import { AI_OUTPUT_STATUSES } from "../db/schema/ai.ts";

/** Transformed content is whatever JSON the sample or the upstream held. */
const anyJson = z.unknown().describe("Any JSON value");

/** An AI transform rule (SPEC "AI transform rule"). */
export const ruleViewSchema = z.strictObject({
  id: z.number().int().positive(),
  presetId: z.enum(PRESET_IDS),
  fieldSelector: z.string(),
  routePattern: z.string().nullable(),
  profile: z.string(),
  tone: z.string().nullable(),
  targetLanguage: z.string().nullable(),
  customInstruction: z.string().nullable(),
  constraints: z.string().nullable(),
  example: z.strictObject({ input: z.string(), output: z.string() }).nullable(),
  status: z.enum(["draft", "active", "paused"]),
  version: z.number().int().positive(),
  reviewMode: z.enum(["auto", "review"]),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type RuleView = z.infer<typeof ruleViewSchema>;

export const rulesListSchema = z.strictObject({ rules: z.array(ruleViewSchema) });

/** A field the pipeline could not transform, and why. */
export const fieldErrorSchema = z.strictObject({
  ruleId: z.number().int().nullable(),
  path: z.string(),
  error: z.string(),
});

/** A transform run (SPEC "Transform run"). */
export const runViewSchema = z.strictObject({
  id: z.number().int().positive(),
  timestamp: isoTime,
  mode: z.enum(RUN_MODES),
  profile: z.string().nullable(),
  apiPath: z.string().nullable(),
  status: z.enum(RUN_STATUSES),
  reason: z.string().nullable(),
  model: z.string().nullable(),
  rulesEvaluated: count,
  fieldsAttempted: count,
  fieldsTransformed: count,
  fieldsFailed: count,
  fieldsCached: count,
  modelCalls: count,
  latencyMs: count,
  tokens: z.strictObject({ input: count, output: count, total: count }),
  fieldErrors: z.array(fieldErrorSchema),
  rules: z.array(z.strictObject({
    ruleId: z.number().int().nullable(),
    presetId: z.string(),
    fieldSelector: z.string(),
    fields: count,
    transformed: count,
    failed: count,
    cached: count,
    error: z.string().nullable(),
  })),
});
export type RunView = z.infer<typeof runViewSchema>;

/** GET .../ai-transform/runs (SPEC `{ runs[], total }`). */
export const runsPageSchema = z.strictObject({ runs: z.array(runViewSchema), total: count });
export type RunsPage = z.infer<typeof runsPageSchema>;

/** A tenant's AI limits (caps null = none). */
export const aiLimitsSchema = z.strictObject({
  maxFieldsPerResponse: z.number().int().positive(),
  maxCharsPerField: z.number().int().positive(),
  monthlyTokenCap: z.number().int().positive().nullable(),
  dailyTokenCap: z.number().int().positive().nullable(),
});

/** GET/PUT .../ai-transform/settings. */
export const aiSettingsSchema = z.strictObject({ settings: aiLimitsSchema });

const usagePeriodSchema = z.strictObject({
  period: z.string(),
  inputTokens: count,
  outputTokens: count,
  totalTokens: count,
  modelCalls: count,
});
export type UsagePeriod = z.infer<typeof usagePeriodSchema>;

/** GET .../ai-transform/usage (SPEC "Token usage": `{ monthly, daily, limits }`). */
export const aiUsageViewSchema = z.strictObject({
  monthly: usagePeriodSchema,
  daily: usagePeriodSchema,
  limits: z.strictObject({
    ...aiLimitsSchema.shape,
    monthlyRemaining: count.nullable(),
    dailyRemaining: count.nullable(),
    maxFieldsPerRuntimeRule: z.number().int().positive(),
    maxFieldsPerPreview: z.number().int().positive(),
  }),
});
export type AiUsageView = z.infer<typeof aiUsageViewSchema>;

/** GET .../ai-transform/profiles: distinct profiles with at least one active rule. */
export const profilesSchema = z.strictObject({ profiles: z.array(z.string()) });

/** POST .../ai-transform/preview (SPEC `{ original, transformed }`, plus what happened). */
export const previewResultSchema = z.strictObject({
  original: anyJson,
  transformed: anyJson,
  status: z.enum(RUN_STATUSES),
  fieldErrors: z.array(fieldErrorSchema),
  usage: z.strictObject({ inputTokens: count, outputTokens: count, totalTokens: count }),
});
export type PreviewResult = z.infer<typeof previewResultSchema>;

/** POST .../ai-transform/regenerate (SPEC lists the top-level fields; `stats` is ours). */
export const regenerateResultSchema = z.strictObject({
  profile: z.string(),
  apiPath: z.string(),
  regenVersion: z.number().int().positive(),
  status: z.enum(RUN_STATUSES),
  skipReason: z.string().nullable(),
  errorCode: z.string().nullable(),
  stats: z.strictObject({
    rulesEvaluated: count,
    fieldsAttempted: count,
    fieldsTransformed: count,
    fieldsFailed: count,
    fieldsCached: count,
    modelCalls: count,
    inputTokens: count,
    outputTokens: count,
    upstreamStatus: z.number().int(),
    durationMs: count,
  }),
  body: anyJson,
});
export type RegenerateResult = z.infer<typeof regenerateResultSchema>;

/** POST /api/ai-transform/execute: the transformed payload, or the original (fail-open). */
export const transformedJsonSchema = z.unknown().describe(
  "The payload with the profile's active rules applied, or as sent when nothing applied",
);

/** A stored AI output with its provenance (docs/decisions.md "AI outputs"). */
export const outputViewSchema = z.strictObject({
  id: z.number().int().positive(),
  ruleId: z.number().int().positive(),
  ruleVersion: z.number().int().positive(),
  profile: z.string(),
  path: z.string(),
  field: z.string(),
  source: z.string(),
  output: z.string(),
  status: z.enum(AI_OUTPUT_STATUSES),
  pinned: z.boolean(),
  model: z.string(),
  presetId: z.enum(PRESET_IDS),
  presetVersion: z.number().int().positive(),
  promptHash: z.string(),
  sourceHash: z.string(),
  tokens: count,
  version: z.number().int().positive(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type OutputView = z.infer<typeof outputViewSchema>;

export const outputsPageSchema = z.strictObject({
  outputs: z.array(outputViewSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type OutputsPage = z.infer<typeof outputsPageSchema>;

/** Outputs per status, for the review queue. */
export const outputCountsSchema = z.strictObject({
  counts: z.record(z.enum(AI_OUTPUT_STATUSES), count),
  byRule: z.array(z.strictObject({
    ruleId: z.number().int().positive(),
    counts: z.record(z.enum(AI_OUTPUT_STATUSES), count),
  })),
});
export type OutputCounts = z.infer<typeof outputCountsSchema>;

export const bulkApproveResultSchema = z.strictObject({
  approved: z.array(z.number().int().positive()),
  /** Ids that were not approved: not this tenant's, gone, or changed since (stale version). */
  skipped: z.array(z.number().int().positive()),
});
