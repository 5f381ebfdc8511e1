// Experiments you can look at any time: the mSPRT confidence sequence keeps
// the false-positive rate under daily looks; the fixed-horizon interval does not.
import { assert, assertEquals } from "./assert.ts";
import { simulateAA } from "./sequential_sim.ts";
import { msprt, sequentialComparison } from "../lib/experiments/sequential.ts";
import { absoluteUplift } from "../lib/experiments/stats.ts";

Deno.test("A/A looked at daily: sequential FPR ≤ 5 %, the fixed interval's above it", () => {
  const started = performance.now();
  const r = simulateAA({ experiments: 2000, days: 28, perArmPerDay: 400, rate: 0.05, seed: 28 });
  const ms = performance.now() - started;
  console.log(
    `A/A, 2000 experiments × 28 daily looks: sequential FPR ${
      (r.sequentialFpr * 100).toFixed(1)
    } %,` +
      ` fixed 95 % interval FPR ${(r.fixedFpr * 100).toFixed(1)} % (${Math.round(ms)} ms)`,
  );
  assert(r.sequentialFpr <= 0.05, `sequential FPR ${r.sequentialFpr}`);
  assert(r.fixedFpr > 0.05, `fixed FPR ${r.fixedFpr}`);
  // Looked at once, at the end, the fixed interval is fine: peeking is what breaks it.
  const once = simulateAA({
    experiments: 2000,
    days: 1,
    perArmPerDay: 400 * 28,
    rate: 0.05,
    seed: 7,
  });
  assert(once.fixedFpr <= 0.065, `one look: ${once.fixedFpr}`);
});

Deno.test("a real effect is found, and the sequence is wider than the fixed interval", () => {
  const control = { exposures: 20_000, events: 1_000 }; // 5 %
  const variant = { exposures: 20_000, events: 1_300 }; // 6.5 %
  const s = sequentialComparison(control, variant)!;
  assertEquals(s.verdict, "variant_wins");
  assert(s.csLower > 0 && s.csUpper > s.csLower);
  const f = absoluteUplift(control, variant)!;
  assert(s.csLower < f.ciLower && s.csUpper > f.ciUpper, "the price of looking any time");
  assertEquals(sequentialComparison(variant, control)!.verdict, "variant_loses");
  assertEquals(
    sequentialComparison(control, { exposures: 20_000, events: 1_001 })!.verdict,
    "keep_running",
    "±0.7 pp is not yet inside ±10 % of 5 %",
  );
  assertEquals(
    sequentialComparison(
      { exposures: 200_000, events: 10_000 },
      { exposures: 200_000, events: 10_010 },
    )!.verdict,
    "no_difference",
  );
  assertEquals(
    sequentialComparison({ exposures: 50, events: 2 }, { exposures: 50, events: 9 })!.verdict,
    "keep_running",
    "too few exposures for a verdict",
  );
  assertEquals(sequentialComparison({ exposures: 0, events: 0 }, variant), null);
  // The interval is exactly where the likelihood ratio crosses 1/alpha.
  const m = msprt(control, variant)!;
  assert(Math.abs(s.csLower / 100 - (m.diff - m.half)) < 1e-12);
  assert(s.pValue < 0.05 && s.likelihoodRatio > 20);
});
