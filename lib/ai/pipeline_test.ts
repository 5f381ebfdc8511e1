import { assertEquals } from "../../tests/assert.ts";
import { type PipelineRule, runPipeline } from "./pipeline.ts";
import type { ModelClient } from "./llm.ts";
import { ValueCache } from "./value_cache.ts";

/** A model stand-in for pure pipeline logic (the real SDK path is tested in tests/ai_*). */
function upperModel(): ModelClient & { seen: string[][] } {
  const seen: string[][] = [];
  return {
    model: "unit",
    seen,
    transform(_rule, values) {
      seen.push(values);
      return Promise.resolve({
        outputs: values.map((v) => v.toUpperCase()),
        errors: values.map(() => null),
        error: null,
        inputTokens: 1,
        outputTokens: 1,
      });
    },
  };
}

const rule = (id: number, fieldSelector: string): PipelineRule => ({
  id,
  cacheKey: `rule:${id}:v1`,
  fieldSelector,
  presetId: "shorten",
  tone: null,
  targetLanguage: null,
  customInstruction: null,
  constraints: null,
  example: null,
});
const limits = { maxFieldsPerRule: 20, maxFieldsTotal: 50, maxCharsPerField: 8000 };

Deno.test("runPipeline() gives an overlapping leaf to the first rule only", async () => {
  const model = upperModel();
  const res = await runPipeline({
    doc: { a: { b: "x", c: "y" } },
    rules: [rule(1, "a.b"), rule(2, "a[*]")],
    limits,
    model,
    cache: new ValueCache(),
  });
  assertEquals(res.kind, "done");
  if (res.kind !== "done") return;
  // Rules call the model concurrently, so the calls may arrive in either order.
  assertEquals([...model.seen].sort(), [["x"], ["y"]]);
  assertEquals(res.doc, { a: { b: "X", c: "Y" } });
  assertEquals(res.stats.fieldsAttempted, 2);
  assertEquals(res.ruleSummary.map((r) => r.fields), [1, 1]);
});

Deno.test("runPipeline() passes whitespace-only values unchanged without a model call", async () => {
  const model = upperModel();
  const res = await runPipeline({
    doc: { items: [{ t: "  " }, { t: "" }] },
    rules: [rule(1, "items[*].t")],
    limits,
    model,
    cache: new ValueCache(),
  });
  if (res.kind !== "done") throw new Error(res.kind);
  assertEquals(model.seen, []);
  assertEquals(res.stats.fieldsTransformed, 2);
  assertEquals(res.stats.fieldsFailed, 0);
  assertEquals(res.stats.modelCalls, 0);
});

Deno.test("runPipeline() refuses before any model call when a field limit is exceeded", async () => {
  const model = upperModel();
  const res = await runPipeline({
    doc: { a: ["1", "2", "3"] },
    rules: [rule(1, "a[*]")],
    limits: { ...limits, maxFieldsPerRule: 2 },
    model,
    cache: new ValueCache(),
  });
  assertEquals(res.kind, "limit");
  assertEquals(model.seen, []);
});
