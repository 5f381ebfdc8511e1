/**
 * The transform pipeline shared by runtime, preview, regenerate and execute:
 * select string leaves per rule, enforce field limits, answer from the value cache,
 * send the rest (identical strings once) in one model call per rule, validate, write
 * back. It never throws for model problems; callers map the result to fail-open
 * (runtime) or fail-closed (preview) behaviour.
 */
import type { AiFieldError, AiRuleSummary } from "../db/schema/ai.ts";
import { type CompiledSelector, formatPath, parseSelector, setAtPath } from "./selector.ts";
import { selectStrings } from "./selector.ts";
import type { ModelClient, ModelErrorCode, RuleConfig } from "./llm.ts";
import { ValueCache } from "./value_cache.ts";

/** A rule as the pipeline runs it; `cacheKey` identifies its id and version (or inline config). */
export type PipelineRule = RuleConfig & {
  id: number | null;
  cacheKey: string;
  fieldSelector: string;
};

export type PipelineLimits = {
  /** Per rule (20 at runtime, 5 in preview where it is also the total). */
  maxFieldsPerRule: number;
  /** Across all rules in one response. */
  maxFieldsTotal: number;
  maxCharsPerField: number;
};

export type PipelineStats = {
  rulesEvaluated: number;
  fieldsAttempted: number;
  fieldsTransformed: number;
  fieldsFailed: number;
  fieldsCached: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
};

/**
 * What the runtime does with one selected field, decided from its stored output:
 * serve a fixed value without the model (an approved, edited or pinned output, or the
 * source of a rejected one), `hold` (transform and record, but serve the source: review
 * mode), or `transform` as usual.
 */
export type LeafDecision = { kind: "serve"; value: string } | { kind: "hold" } | {
  kind: "transform";
};

/** One output the model (or the value cache) produced for a field in this run. */
export type ProducedOutput = {
  ruleIndex: number;
  field: string;
  source: string;
  output: string;
  /** This field's share of its model call's tokens (0 from the value cache). */
  tokens: number;
  /** True when the source was served instead (review mode). */
  held: boolean;
};

export type PipelineResult =
  | {
    /** A field limit was exceeded before any model call; nothing was changed. */
    kind: "limit";
    reason: string;
    stats: PipelineStats;
    ruleSummary: AiRuleSummary[];
  }
  | {
    kind: "done";
    /** The document with transformed values written in (the input document, changed in place). */
    doc: unknown;
    stats: PipelineStats;
    fieldErrors: AiFieldError[];
    ruleSummary: AiRuleSummary[];
    /** The first whole-call model failure, if any. */
    modelError: ModelErrorCode | null;
    produced: ProducedOutput[];
  };

const compiled = new Map<string, CompiledSelector>();

/** Compiles a selector once per process (rules are validated on save, so this cannot throw for stored rules). */
export function compileSelector(source: string): CompiledSelector {
  let c = compiled.get(source);
  if (!c) {
    c = parseSelector(source);
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(source, c);
  }
  return c;
}

export function emptyStats(): PipelineStats {
  return {
    rulesEvaluated: 0,
    fieldsAttempted: 0,
    fieldsTransformed: 0,
    fieldsFailed: 0,
    fieldsCached: 0,
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
  };
}

type Leaf = { path: (string | number)[]; value: string };

/**
 * 1. Selection, on the original document. A leaf claimed by an earlier rule is not selected
 *    again, so two rules never fight over one field (docs/decisions.md). Counts the attempts.
 */
function selectLeaves(
  doc: unknown,
  rules: PipelineRule[],
  stats: PipelineStats,
): { perRule: Leaf[][]; ruleSummary: AiRuleSummary[] } {
  const claimed = new Set<string>();
  const perRule: Leaf[][] = [];
  const ruleSummary: AiRuleSummary[] = [];
  for (const r of rules) {
    const leaves = selectStrings(doc, compileSelector(r.fieldSelector)).filter((l) => {
      const k = JSON.stringify(l.path);
      if (claimed.has(k)) return false;
      claimed.add(k);
      return true;
    });
    perRule.push(leaves);
    stats.fieldsAttempted += leaves.length;
    ruleSummary.push({
      ruleId: r.id,
      presetId: r.presetId,
      fieldSelector: r.fieldSelector,
      fields: leaves.length,
      transformed: 0,
      failed: 0,
      cached: 0,
      error: null,
    });
  }
  return { perRule, ruleSummary };
}

/** 2. Field-count limits (SPEC "Limits"): exceeding one is a passthrough, not a partial. */
function limitReason(
  rules: PipelineRule[],
  perRule: Leaf[][],
  attempted: number,
  limits: PipelineLimits,
): string | null {
  const overRule = perRule.findIndex((l) => l.length > limits.maxFieldsPerRule);
  if (overRule >= 0) {
    return `rule ${rules[overRule].id ?? "(inline)"} selects ${
      perRule[overRule].length
    } fields, limit ${limits.maxFieldsPerRule}`;
  }
  if (attempted > limits.maxFieldsTotal) {
    return `${attempted} fields selected, limit ${limits.maxFieldsTotal}`;
  }
  return null;
}

// Long: step 3 (per rule, concurrently: decisions, cache, one model call for the unique misses) is
// one closure over the document, the stats, the errors and the produced outputs that every rule
// writes to; steps 1 and 2 are selectLeaves and limitReason.
export async function runPipeline(input: {
  doc: unknown;
  rules: PipelineRule[];
  limits: PipelineLimits;
  model: ModelClient;
  cache: ValueCache;
  decide?: (
    rule: PipelineRule & { index: number },
    field: string,
    source: string,
  ) => Promise<LeafDecision>;
}): Promise<PipelineResult> {
  const { rules, limits, model, cache, decide } = input;
  const stats = emptyStats();
  stats.rulesEvaluated = rules.length;
  const doc = input.doc; // written in place: callers pass a document of their own

  const { perRule, ruleSummary } = selectLeaves(doc, rules, stats);
  const over = limitReason(rules, perRule, stats.fieldsAttempted, limits);
  if (over !== null) return { kind: "limit", reason: over, stats, ruleSummary };

  // 3. Per rule, concurrently: cache, then one model call for the unique misses.
  const fieldErrors: AiFieldError[] = [];
  const produced: ProducedOutput[] = [];
  let modelError: ModelErrorCode | null = null;
  await Promise.all(rules.map(async (rule, ri) => {
    const leaves = perRule[ri];
    const summary = ruleSummary[ri];
    const fail = (leaf: Leaf, error: string) => {
      fieldErrors.push({ ruleId: rule.id, path: formatPath(leaf.path), error });
      summary.failed++;
    };
    const pending = new Map<string, Leaf[]>(); // unique input -> leaves waiting for it
    const keys = new Map<string, string>();
    const held = new Set<Leaf>();
    const deliver = (leaf: Leaf, out: string, tokens: number) => {
      const isHeld = held.has(leaf);
      if (!isHeld) setAtPath(doc, leaf.path, out);
      if (decide) {
        const field = formatPath(leaf.path);
        produced.push({
          ruleIndex: ri,
          field,
          source: leaf.value,
          output: out,
          tokens,
          held: isHeld,
        });
      }
    };
    for (const leaf of leaves) {
      if (leaf.value.length > limits.maxCharsPerField) {
        fail(leaf, "too_long");
        continue;
      }
      if (leaf.value.trim() === "") {
        summary.transformed++; // nothing to transform: passes unchanged, counts as done
        continue;
      }
      const d = await decide?.({ ...rule, index: ri }, formatPath(leaf.path), leaf.value);
      if (d?.kind === "serve") {
        setAtPath(doc, leaf.path, d.value);
        summary.cached++;
        summary.transformed++;
        continue;
      }
      if (d?.kind === "hold") held.add(leaf);
      const key = await ValueCache.key(model.model, rule.cacheKey, leaf.value);
      const hit = cache.get(key);
      if (hit !== undefined) {
        deliver(leaf, hit, 0);
        summary.cached++;
        summary.transformed++;
        continue;
      }
      keys.set(leaf.value, key);
      const list = pending.get(leaf.value);
      if (list) list.push(leaf);
      else pending.set(leaf.value, [leaf]);
    }
    if (pending.size > 0) {
      const values = [...pending.keys()];
      const res = await model.transform(rule, values, limits.maxCharsPerField);
      stats.modelCalls++;
      stats.inputTokens += res.inputTokens;
      stats.outputTokens += res.outputTokens;
      if (res.error) {
        summary.error = res.error;
        modelError ??= res.error;
      }
      const share = Math.round((res.inputTokens + res.outputTokens) / values.length);
      values.forEach((v, k) => {
        const out = res.outputs[k];
        for (const leaf of pending.get(v)!) {
          if (out === null) fail(leaf, res.errors[k] ?? "model_error");
          else {
            deliver(leaf, out, share);
            summary.transformed++;
          }
        }
        if (out !== null) cache.set(keys.get(v)!, out);
      });
    }
  }));

  for (const s of ruleSummary) {
    stats.fieldsTransformed += s.transformed;
    stats.fieldsFailed += s.failed;
    stats.fieldsCached += s.cached;
  }
  fieldErrors.sort((a, b) => (a.ruleId ?? 0) - (b.ruleId ?? 0) || a.path.localeCompare(b.path));
  return { kind: "done", doc, stats, fieldErrors, ruleSummary, modelError, produced };
}
