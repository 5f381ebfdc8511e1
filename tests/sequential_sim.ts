/**
 * Simulated A/A experiments: both arms share one true conversion rate, the
 * totals are looked at once a day, and an experiment counts as a false positive if any
 * look declares a difference. A pure, seeded function: the same figures every run.
 */
import { absoluteUplift } from "../lib/experiments/stats.ts";
import { sequentialComparison } from "../lib/experiments/sequential.ts";

/** mulberry32: a small seeded PRNG with uniform output in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function binomial(n: number, p: number, rand: () => number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (rand() < p) k++;
  return k;
}

export type AaOptions = {
  experiments: number;
  days: number;
  perArmPerDay: number;
  rate: number;
  seed: number;
};

/** Share of A/A experiments that any daily look called different, per method. */
export function simulateAA(o: AaOptions): { sequentialFpr: number; fixedFpr: number } {
  const rand = prng(o.seed);
  let seqFalse = 0;
  let fixedFalse = 0;
  for (let e = 0; e < o.experiments; e++) {
    const a = { exposures: 0, events: 0 };
    const b = { exposures: 0, events: 0 };
    let seq = false;
    let fixed = false;
    for (let d = 0; d < o.days; d++) {
      a.exposures += o.perArmPerDay;
      b.exposures += o.perArmPerDay;
      a.events += binomial(o.perArmPerDay, o.rate, rand);
      b.events += binomial(o.perArmPerDay, o.rate, rand);
      const s = sequentialComparison(a, b);
      if (s && (s.verdict === "variant_wins" || s.verdict === "variant_loses")) seq = true;
      const f = absoluteUplift(a, b);
      if (f && (f.ciLower > 0 || f.ciUpper < 0)) fixed = true;
    }
    if (seq) seqFalse++;
    if (fixed) fixedFalse++;
  }
  return { sequentialFpr: seqFalse / o.experiments, fixedFpr: fixedFalse / o.experiments };
}
