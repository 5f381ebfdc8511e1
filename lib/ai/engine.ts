/**
 * The AI engine of one program instance: model client, value cache, run logger and
 * the runtime entry point the edge calls (`TransformRunner`). Runtime is fail-open
 * (SPEC "Errors"): every problem returns the original body with a skip reason.
 */
import type { Services } from "../services.ts";
import type { TransformRunner } from "../../edge/types.ts";
import { sha256Hex } from "../crypto/mod.ts";
import { createModelClient, type ModelClient } from "./llm.ts";
import { ValueCache } from "./value_cache.ts";
import { parseJsonExact } from "./json.ts";
import { RunLogger, type RunRecord, type RunStatus } from "./runs.ts";
import {
  type LeafDecision,
  type PipelineResult,
  type PipelineRule,
  runPipeline,
} from "./pipeline.ts";
import { DecisionCache, decisionKey, type OutputDecision, OutputRecorder } from "./output_store.ts";
import { PRESET_VERSIONS, systemMessage } from "./presets.ts";
import { addTokens, capReached } from "./usage.ts";
import {
  type AiRuleSnapshot,
  type AiSnapshot,
  MAX_FIELDS_PER_RUNTIME_RULE,
} from "./snapshot_types.ts";

/** Outcome of one runtime transform, with what regenerate and the run log need. */
export type RuntimeResult = {
  body: string;
  outcome: RunStatus;
  skipReason: string | null;
  /** Snake-case code of the first model failure (regenerate's `errorCode`), else null. */
  errorCode: string | null;
  stats: PipelineResult["stats"] | null;
};

export type RuntimeInput = {
  tenantId: number;
  ai: AiSnapshot;
  profile: string;
  apiPath: string;
  /** Base path of the tenant's apiOrigin (apiBaseOf); rules may name it. */
  apiBase?: string;
  body: string;
};

/**
 * Path prefix match on the API path without its query (SPEC: routePattern is a path prefix).
 * The path is the one after `/~api`; `apiBase`, the base path of the tenant's apiOrigin
 * (`/spaces/<id>` on Contentful), may lead the pattern too, as in the CMS's own URLs.
 */
export function routeMatches(pattern: string | null, apiPath: string, apiBase = ""): boolean {
  if (!pattern) return true;
  const path = apiPath.split("?")[0];
  return path.startsWith(pattern) || (apiBase !== "" && (apiBase + path).startsWith(pattern));
}

/** The base path of an apiOrigin (`https://cdn.contentful.com/spaces/x` -> `/spaces/x`). */
export function apiBaseOf(apiOrigin: string | null | undefined): string {
  if (!apiOrigin) return "";
  try {
    return new URL(apiOrigin).pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}

export function toPipelineRule(r: AiRuleSnapshot): PipelineRule {
  return { ...r, cacheKey: `rule:${r.id}:v${r.version}` };
}

const kebab = (code: string) => code.replaceAll("_", "-");

/**
 * What a finished pipeline run sends: the transformed document when every field or some were
 * transformed (applied, partial), else the original (`pass`) with the reason.
 */
function runtimeOutcome(
  res: Extract<PipelineResult, { kind: "done" }>,
  pass: (reason: string) => RuntimeResult,
): RuntimeResult {
  const { stats } = res;
  const errorCode = res.modelError ?? (res.fieldErrors[0]?.error ?? null);
  if (stats.fieldsAttempted === 0) return { ...pass("no-fields"), stats };
  // Review mode: a held output was made and recorded, but the source went out in its place.
  const held = res.produced.filter((p) => p.held).length;
  if (held > 0 && held >= stats.fieldsTransformed && stats.fieldsFailed === 0) {
    return { ...pass("review-pending"), stats };
  }
  if (stats.fieldsFailed === 0 || stats.fieldsTransformed > 0) {
    return {
      body: JSON.stringify(res.doc),
      outcome: stats.fieldsFailed === 0 && held === 0 ? "applied" : "partial",
      skipReason: null,
      errorCode,
      stats,
    };
  }
  // Every field failed: the original goes out, logged as passthrough (SPEC runtime behaviour).
  return { ...pass(kebab(errorCode ?? "model_error")), errorCode, stats };
}

export class AiEngine {
  readonly model: ModelClient | null;
  readonly cache = new ValueCache();
  readonly runs: RunLogger;
  readonly outputs: OutputRecorder;
  readonly decisions: DecisionCache;
  #promptHashes = new Map<string, Promise<string>>();
  #inflight = new Map<string, Promise<RuntimeResult>>();

  constructor(readonly s: Services) {
    this.model = createModelClient(s.config, s.fetch);
    this.runs = new RunLogger(s);
    this.outputs = new OutputRecorder(s);
    this.decisions = new DecisionCache(s);
  }

  /** Writes queued runs and outputs (shutdown, and reads that must see this instance's). */
  async flush(): Promise<void> {
    await Promise.all([this.runs.flush(), this.outputs.flush()]);
  }

  /** Hash of the system message a rule version sends (provenance; memoised, bounded). */
  #promptHash(rule: AiRuleSnapshot, maxChars: number): Promise<string> {
    const k = `${rule.id}:${rule.version}:${maxChars}`;
    let h = this.#promptHashes.get(k);
    if (!h) {
      if (this.#promptHashes.size >= 10_000) this.#promptHashes.clear();
      h = sha256Hex(systemMessage(rule, maxChars));
      this.#promptHashes.set(k, h);
    }
    return h;
  }

  /**
   * The per-field decision from stored outputs (docs/decisions.md "AI outputs"): a pinned
   * output is served whatever the source (a new source flags it for review); an approved
   * or edited output, or the source of a rejected one, while the source is unchanged; in
   * review mode anything else is transformed and recorded but the source is served.
   */
  async #decide(
    decisions: Map<string, OutputDecision>,
    tenantId: number,
    apiPath: string,
    rule: AiRuleSnapshot,
    field: string,
    source: string,
  ): Promise<LeafDecision> {
    const d = decisions.get(decisionKey(rule.id, apiPath, field));
    const review = rule.reviewMode === "review";
    if (!d) return review ? { kind: "hold" } : { kind: "transform" };
    const hash = await sha256Hex(source);
    if (d.pinned) {
      if (d.sourceHash !== hash) {
        this.outputs.sourceMoved({ tenantId, id: d.id, source, sourceHash: hash });
      }
      return { kind: "serve", value: d.output };
    }
    if (d.sourceHash === hash) {
      if (d.status === "approved" || d.status === "edited") {
        return { kind: "serve", value: d.output };
      }
      if (d.status === "rejected") return { kind: "serve", value: source };
      if (d.status === "pending" && review) return { kind: "serve", value: source };
    }
    return review ? { kind: "hold" } : { kind: "transform" };
  }

  /** Queues every output the run produced, with its provenance. */
  async #record(
    tenantId: number,
    profile: string,
    apiPath: string,
    rules: AiRuleSnapshot[],
    maxChars: number,
    res: PipelineResult,
  ): Promise<void> {
    if (res.kind !== "done" || !this.model) return;
    for (const p of res.produced) {
      const rule = rules[p.ruleIndex];
      this.outputs.record({
        tenantId,
        ruleId: rule.id,
        ruleVersion: rule.version,
        profile,
        path: apiPath,
        field: p.field,
        source: p.source,
        sourceHash: await sha256Hex(p.source),
        output: p.output,
        status: p.held ? "pending" : "auto",
        model: this.model.model,
        presetId: rule.presetId,
        presetVersion: PRESET_VERSIONS[rule.presetId],
        promptHash: await this.#promptHash(rule, maxChars),
        tokens: p.tokens,
        at: this.s.clock.now(),
      });
    }
  }

  /**
   * Runtime transform for one response. Identical concurrent requests (same tenant,
   * profile, rules, path and body) share one execution, so they make one model call
   * even when the caller does not coalesce.
   */
  async runtime(input: RuntimeInput): Promise<RuntimeResult> {
    const key = await sha256Hex(
      JSON.stringify([
        input.tenantId,
        input.profile,
        input.ai.regenVersions[input.profile] ?? 0,
        input.ai.rules.map((r) => [r.id, r.version]),
        input.apiPath,
      ]) + input.body,
    );
    const running = this.#inflight.get(key);
    if (running) return running;
    const p = this.#runtime(input).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, p);
    return p;
  }

  async #runtime(input: RuntimeInput): Promise<RuntimeResult> {
    const started = performance.now();
    const { ai, profile, apiPath, body, tenantId } = input;
    const pass = (reason: string, outcome: RunStatus = "passthrough"): RuntimeResult => ({
      body,
      outcome,
      skipReason: reason,
      errorCode: null,
      stats: null,
    });
    const withProfile = ai.rules.filter((r) => r.profile === profile);
    // No active rule with the profile: plain passthrough, not logged (any visitor can
    // send ?transform=anything; logging those would let them fill the run log).
    if (withProfile.length === 0) return pass("no-active-rule");
    const rules = withProfile.filter((r) => routeMatches(r.routePattern, apiPath, input.apiBase));
    const base = { tenantId, profile, apiPath, mode: "runtime" as const, started };
    if (rules.length === 0) return this.#log(base, pass("no-matching-rule"), 0);
    let doc: unknown;
    try {
      doc = parseJsonExact(body);
    } catch {
      return this.#log(base, pass("not-json"), rules.length);
    }
    if (!this.model) return this.#log(base, pass("ai-not-configured"), rules.length);
    try {
      const cap = await capReached(this.s.kv, tenantId, this.s.clock.now(), ai.limits);
      if (cap) return this.#log(base, pass(cap), rules.length);
      let decisions: Map<string, OutputDecision>;
      try {
        decisions = await this.decisions.get(
          tenantId,
          profile,
          ai.regenVersions[profile] ?? 0,
          rules.map((r) => r.id),
        );
      } catch (e) {
        // Without the stored decisions a rejected or unapproved output could go out: pass.
        this.s.log.warn("ai output decisions unavailable", { error: String(e) });
        return this.#log(base, pass("outputs-unavailable"), rules.length);
      }
      const res = await runPipeline({
        doc,
        rules: rules.map(toPipelineRule),
        limits: {
          maxFieldsPerRule: MAX_FIELDS_PER_RUNTIME_RULE,
          maxFieldsTotal: ai.limits.maxFieldsPerResponse,
          maxCharsPerField: ai.limits.maxCharsPerField,
        },
        model: this.model,
        cache: this.cache,
        decide: (rule, field, source) =>
          this.#decide(decisions, tenantId, apiPath, rules[rule.index], field, source),
      });
      await this.#record(tenantId, profile, apiPath, rules, ai.limits.maxCharsPerField, res);
      await this.#countTokens(tenantId, res.stats.inputTokens + res.stats.outputTokens);
      if (res.kind === "limit") {
        return this.#log(base, { ...pass("field-limit"), stats: res.stats }, rules.length, res);
      }
      return this.#log(base, runtimeOutcome(res, pass), rules.length, res);
    } catch (e) {
      this.s.log.error("ai runtime failed", { error: e instanceof Error ? e.message : String(e) });
      return this.#log(
        base,
        { ...pass("internal-error", "error"), errorCode: "internal" },
        rules.length,
      );
    }
  }

  /**
   * Adds tokens to the cap counters (one KV atomic, after a model call that took far
   * longer). Awaited so the next run sees them; a KV failure is logged, never thrown.
   */
  async #countTokens(tenantId: number, tokens: number): Promise<void> {
    if (tokens <= 0) return;
    await addTokens(this.s.kv, tenantId, this.s.clock.now(), tokens).catch((e) =>
      this.s.log.warn("ai token counter failed", { error: String(e) })
    );
  }

  /** Waits until token counters are written (preview answers only after that). */
  async countTokensNow(tenantId: number, tokens: number): Promise<void> {
    await addTokens(this.s.kv, tenantId, this.s.clock.now(), tokens);
  }

  #log(
    base: { tenantId: number; profile: string; apiPath: string; mode: "runtime"; started: number },
    out: RuntimeResult,
    rulesEvaluated: number,
    res?: PipelineResult,
  ): RuntimeResult {
    const st = res?.stats;
    this.runs.enqueue({
      tenantId: base.tenantId,
      at: this.s.clock.now(),
      mode: base.mode,
      profile: base.profile,
      apiPath: base.apiPath,
      status: out.outcome,
      reason: out.skipReason ??
        (out.outcome === "partial" ? kebab(out.errorCode ?? "") || null : null),
      model: this.model?.model ?? null,
      rulesEvaluated,
      fieldsAttempted: st?.fieldsAttempted ?? 0,
      fieldsTransformed: st?.fieldsTransformed ?? 0,
      fieldsFailed: st?.fieldsFailed ?? 0,
      fieldsCached: st?.fieldsCached ?? 0,
      modelCalls: st?.modelCalls ?? 0,
      latencyMs: performance.now() - base.started,
      inputTokens: st?.inputTokens ?? 0,
      outputTokens: st?.outputTokens ?? 0,
      fieldErrors: res?.kind === "done" ? res.fieldErrors : [],
      ruleSummary: res?.ruleSummary ?? [],
    });
    return out;
  }

  /** Logs a preview run (the preview route decides its status). */
  logPreview(run: Omit<RunRecord, "mode" | "model" | "at">): void {
    this.runs.enqueue({
      ...run,
      mode: "preview",
      model: this.model?.model ?? null,
      at: this.s.clock.now(),
    });
  }
}

const engines = new WeakMap<Services, AiEngine>();

/** The one engine of a Services instance (routes and the edge share its cache and logger). */
export function aiEngineFor(s: Services): AiEngine {
  let e = engines.get(s);
  if (!e) {
    e = new AiEngine(s);
    engines.set(s, e);
  }
  return e;
}

/** The edge's TransformRunner, backed by the in-process engine (lib/bootstrap.ts). */
export function createTransformRunner(s: Services): TransformRunner {
  const engine = aiEngineFor(s);
  return {
    async runtime({ snapshot, profile, apiPath, body }) {
      const r = await engine.runtime({
        tenantId: snapshot.tenantId,
        ai: snapshot.ai,
        profile,
        apiPath,
        apiBase: apiBaseOf(snapshot.api.origin),
        body,
      });
      return { body: r.body, outcome: r.outcome, skipReason: r.skipReason };
    },
  };
}
