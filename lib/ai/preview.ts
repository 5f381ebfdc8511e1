/**
 * Preview (SPEC "Preview behaviour"): fail-closed. It evaluates a draft or active
 * rule (stored, by id, or given inline) on sample content, at most 5 fields, and
 * refuses with 429 when a token cap is reached. Logged with mode preview.
 */
import type { Services } from "../services.ts";
import type { Tenant } from "../tenants/service.ts";
import { ApiError, badRequest } from "../errors.ts";
import { sha256Hex } from "../crypto/mod.ts";
import { aiEngineFor } from "./engine.ts";
import { getRule, ruleToSnapshot } from "./rules.ts";
import type { PreviewInput } from "./rule_schema.ts";
import { type PipelineRule, runPipeline } from "./pipeline.ts";
import { capReached } from "./usage.ts";
import { tenantAiLimits } from "./settings.ts";
import { MAX_FIELDS_PER_PREVIEW } from "./snapshot_types.ts";
import type { RunStatus } from "./runs.ts";
import type { PreviewResult } from "./view_schema.ts";

async function previewRule(
  s: Services,
  tenant: Tenant,
  input: PreviewInput,
): Promise<PipelineRule> {
  if (input.ruleId !== undefined) {
    const r = await getRule(s, tenant.id, input.ruleId);
    // SPEC: paused rules run in neither preview nor runtime.
    if (r.status === "paused") throw badRequest("Invalid ruleId: rule is paused");
    const snap = ruleToSnapshot(r);
    return { ...snap, cacheKey: `rule:${r.id}:v${r.version}` };
  }
  const cfg = {
    presetId: input.presetId!,
    fieldSelector: input.fieldSelector!,
    tone: input.presetId === "rewrite_tone" ? input.tone ?? null : null,
    targetLanguage: input.presetId === "translate" ? input.targetLanguage ?? null : null,
    customInstruction: input.presetId === "custom" ? input.customInstruction ?? null : null,
    constraints: input.presetId === "custom" ? input.constraints ?? null : null,
    example: input.presetId === "custom" ? input.example ?? null : null,
  };
  // An unsaved configuration is its own cache identity, per tenant (no cross-tenant cache probing).
  const hash = await sha256Hex(JSON.stringify(cfg));
  return { id: null, ...cfg, cacheKey: `inline:${tenant.id}:${hash}` };
}

// Long: the preview's steps in order (rule, model, cap, pipeline, refusals for field limits, token
// count, status, one run-log row, fail-closed error, answer); the log closure's 20 default fields
// and the result's shape are most of the lines, and every step needs the same rule, limits and log.
export async function runPreview(
  s: Services,
  tenant: Tenant,
  input: PreviewInput,
): Promise<PreviewResult> {
  const engine = aiEngineFor(s);
  const rule = await previewRule(s, tenant, input);
  if (!engine.model) {
    throw new ApiError(
      503,
      "ai_not_configured",
      "AI model is not configured: set OPENAI_API_KEY (and OPENAI_BASE_URL, AI_MODEL)",
    );
  }
  const limits = tenantAiLimits(tenant);
  const started = performance.now();
  const log = (
    status: RunStatus,
    reason: string | null,
    extra: Partial<Parameters<typeof engine.logPreview>[0]> = {},
  ) =>
    engine.logPreview({
      tenantId: tenant.id,
      profile: null,
      apiPath: null,
      status,
      reason,
      rulesEvaluated: 1,
      fieldsAttempted: 0,
      fieldsTransformed: 0,
      fieldsFailed: 0,
      fieldsCached: 0,
      modelCalls: 0,
      latencyMs: performance.now() - started,
      inputTokens: 0,
      outputTokens: 0,
      fieldErrors: [],
      ruleSummary: [],
      ...extra,
    });
  const cap = await capReached(s.kv, tenant.id, s.clock.now(), limits);
  if (cap) {
    log("error", cap);
    throw new ApiError(
      429,
      "token_limit_exceeded",
      `Token limit exceeded: the ${
        cap === "token-cap-daily" ? "daily" : "monthly"
      } token cap is reached`,
      { cap: cap === "token-cap-daily" ? "daily" : "monthly" },
    );
  }
  const res = await runPipeline({
    doc: structuredClone(input.sample), // `original` stays as sent
    rules: [rule],
    limits: {
      maxFieldsPerRule: MAX_FIELDS_PER_PREVIEW,
      maxFieldsTotal: MAX_FIELDS_PER_PREVIEW,
      maxCharsPerField: limits.maxCharsPerField,
    },
    model: engine.model,
    cache: engine.cache,
  });
  if (res.kind === "limit") {
    throw badRequest(
      `Invalid sample: selects ${res.stats.fieldsAttempted} fields, preview allows ${MAX_FIELDS_PER_PREVIEW}`,
    );
  }
  const tooLong = res.fieldErrors.find((e) => e.error === "too_long");
  if (tooLong) {
    throw badRequest(
      `Invalid sample: field ${tooLong.path} exceeds ${limits.maxCharsPerField} characters`,
    );
  }
  const { stats } = res;
  const tokens = stats.inputTokens + stats.outputTokens;
  if (tokens > 0) await engine.countTokensNow(tenant.id, tokens);
  const status: RunStatus = stats.fieldsAttempted === 0
    ? "passthrough"
    : stats.fieldsFailed === 0
    ? "applied"
    : stats.fieldsTransformed > 0
    ? "partial"
    : "error";
  const reason = stats.fieldsAttempted === 0
    ? "no-fields"
    : res.modelError?.replaceAll("_", "-") ?? null;
  log(status, reason, {
    fieldsAttempted: stats.fieldsAttempted,
    fieldsTransformed: stats.fieldsTransformed,
    fieldsFailed: stats.fieldsFailed,
    fieldsCached: stats.fieldsCached,
    modelCalls: stats.modelCalls,
    inputTokens: stats.inputTokens,
    outputTokens: stats.outputTokens,
    fieldErrors: res.fieldErrors,
    ruleSummary: res.ruleSummary,
  });
  if (status === "error") {
    // Fail-closed: a preview that transformed nothing says why instead of echoing the input.
    const code = res.modelError ?? "model_error";
    throw new ApiError(502, code, `Model request failed: ${code.replaceAll("_", " ")}`, {
      fieldErrors: res.fieldErrors,
    });
  }
  return {
    original: input.sample,
    transformed: res.doc,
    status,
    fieldErrors: res.fieldErrors,
    usage: {
      inputTokens: stats.inputTokens,
      outputTokens: stats.outputTokens,
      totalTokens: tokens,
    },
  };
}
