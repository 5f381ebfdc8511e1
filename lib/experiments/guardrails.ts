/**
 * Guardrail checks (issue 28): does a variant breach a threshold with confidence? Each
 * bound is an always-valid confidence sequence (lib/experiments/sequential.ts), so the
 * loop that looks every few seconds does not stop healthy experiments by chance.
 * Control is the baseline and is never the breaching variant. Pure.
 */
import type { Guardrails } from "../db/schema/experiments.ts";
import { rateBounds, SEQUENTIAL_MIN_EXPOSURES } from "./sequential.ts";
import { slowerThan } from "../usage/latency.ts";

export type ArmHealth = {
  variantKey: string;
  control: boolean;
  exposures: number;
  errors: number;
  latency: number[];
  events: number;
};

export type Breach = {
  variantKey: string;
  metric: "maxErrorRate" | "maxP95Ms" | "minConversionRate";
  /** Observed rate (errors, answers slower than maxP95Ms, or conversions) as a fraction. */
  observed: number;
  /** The confidence bound that crossed the threshold. */
  bound: number;
  threshold: number;
  reason: string;
};

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function findBreach(g: Guardrails, arms: ArmHealth[]): Breach | null {
  for (const a of arms) {
    if (a.control || a.exposures < SEQUENTIAL_MIN_EXPOSURES) continue;
    if (g.maxErrorRate !== undefined) {
      const b = rateBounds(a.errors, a.exposures);
      if (b.lower > g.maxErrorRate) {
        return {
          variantKey: a.variantKey,
          metric: "maxErrorRate",
          observed: b.rate,
          bound: b.lower,
          threshold: g.maxErrorRate,
          reason: `variant ${a.variantKey}: error rate ${pct(b.rate)} (at least ${
            pct(b.lower)
          } with 95 % confidence) is above maxErrorRate ${pct(g.maxErrorRate)}`,
        };
      }
    }
    if (g.maxP95Ms !== undefined) {
      // p95 above the threshold ⇔ more than 5 % of answers slower than it.
      const timed = a.latency.reduce((x, y) => x + y, 0);
      const b = rateBounds(slowerThan(a.latency, g.maxP95Ms), timed);
      if (timed >= SEQUENTIAL_MIN_EXPOSURES && b.lower > 0.05) {
        return {
          variantKey: a.variantKey,
          metric: "maxP95Ms",
          observed: b.rate,
          bound: b.lower,
          threshold: g.maxP95Ms,
          reason:
            `variant ${a.variantKey}: ${pct(b.rate)} of answers are slower than ${g.maxP95Ms} ms` +
            ` (at least ${pct(b.lower)} with 95 % confidence), so its p95 is above maxP95Ms`,
        };
      }
    }
    if (g.minConversionRate !== undefined) {
      const b = rateBounds(a.events, a.exposures);
      if (b.upper < g.minConversionRate) {
        return {
          variantKey: a.variantKey,
          metric: "minConversionRate",
          observed: b.rate,
          bound: b.upper,
          threshold: g.minConversionRate,
          reason: `variant ${a.variantKey}: conversion ${pct(b.rate)} (at most ${
            pct(b.upper)
          } with 95 % confidence) is below minConversionRate ${pct(g.minConversionRate)}`,
        };
      }
    }
  }
  return null;
}
