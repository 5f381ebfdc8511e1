/**
 * Guardrail checks: is a variant worse than control, with confidence, by more than the
 * margin - and beyond the configured threshold? Both arms are counted in visitors (each
 * once per arm per window, lib/experiments/arm_health.ts), so one client repeating a
 * request moves nothing, and a failure control sees as much (an origin-wide outage) never
 * stops a variant. Each comparison is the always-valid mSPRT sequence
 * (lib/experiments/sequential.ts), so a loop looking every few seconds does not stop a
 * healthy experiment by chance. No verdict below the minimum sample in either arm. Pure.
 */
import type { Guardrails } from "../db/schema/experiments.ts";
import { msprt, rateBounds, SEQUENTIAL_MIN_EXPOSURES } from "./sequential.ts";
import type { ArmVisitors } from "./arm_health.ts";

/** How much worse than control (a share of visitors) a variant may be: 1 point. */
export const DEFAULT_MARGIN = 0.01;
/** Visitors each arm needs before any verdict. */
export const DEFAULT_MIN_VISITORS = SEQUENTIAL_MIN_EXPOSURES;
/** p95 above a bound <=> more than this share slower than it. */
const P95_SHARE = 0.05;

export type Breach = {
  variantKey: string;
  metric: "maxErrorRate" | "maxP95Ms" | "minConversionRate";
  /** The variant's share of visitors (with a 5xx, a slow answer, or a conversion). */
  observed: number;
  /** Control's share. */
  control: number;
  /** The confidence bound of (variant - control) that passed the margin. */
  bound: number;
  margin: number;
  threshold: number;
  reason: string;
};

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const pts = (x: number) => `${(x * 100).toFixed(1)} points`;

type Share = (a: ArmVisitors) => number;

/** The always-valid interval of variant - control for one share of visitors. */
function compare(c: ArmVisitors, a: ArmVisitors, share: Share) {
  const m = msprt(
    { exposures: c.visitors, events: share(c) },
    { exposures: a.visitors, events: share(a) },
  )!;
  return {
    variant: share(a) / a.visitors,
    control: share(c) / c.visitors,
    lower: m.diff - m.half,
    upper: m.diff + m.half,
    own: rateBounds(share(a), a.visitors),
  };
}

export function findBreach(g: Guardrails, arms: ArmVisitors[]): Breach | null {
  const c = arms.find((a) => a.control);
  const min = g.minVisitors ?? DEFAULT_MIN_VISITORS;
  const margin = g.margin ?? DEFAULT_MARGIN;
  // Without control (or enough of it) there is nothing to judge against.
  if (!c || c.visitors < min) return null;
  for (const a of arms) {
    if (a.control || a.visitors < min) continue;
    const worse = (metric: Breach["metric"], x: ReturnType<typeof compare>, bound: number) => ({
      variantKey: a.variantKey,
      metric,
      observed: x.variant,
      control: x.control,
      bound,
      margin,
      threshold: metric === "maxP95Ms" ? g.maxP95Ms! : g[metric]!,
    });
    if (g.maxErrorRate !== undefined) {
      const x = compare(c, a, (v) => v.errored);
      if (x.lower > margin && x.own.lower > g.maxErrorRate) {
        return {
          ...worse("maxErrorRate", x, x.lower),
          reason: `variant ${a.variantKey}: ${pct(x.variant)} of its visitors got a 5xx against ${
            pct(x.control)
          } on control (at least ${pts(x.lower)} more with 95 % confidence; margin ${
            pts(margin)
          }), above maxErrorRate ${pct(g.maxErrorRate)}`,
        };
      }
    }
    if (g.maxP95Ms !== undefined) {
      const x = compare(c, a, (v) => v.slow);
      if (x.lower > margin && x.own.lower > P95_SHARE) {
        return {
          ...worse("maxP95Ms", x, x.lower),
          reason: `variant ${a.variantKey}: ${
            pct(x.variant)
          } of its visitors had an answer slower than ${g.maxP95Ms} ms against ${
            pct(x.control)
          } on control (at least ${pts(x.lower)} more with 95 % confidence; margin ${
            pts(margin)
          }), so its p95 is above maxP95Ms`,
        };
      }
    }
    if (g.minConversionRate !== undefined) {
      const x = compare(c, a, (v) => v.converted);
      if (x.upper < -margin && x.own.upper < g.minConversionRate) {
        return {
          ...worse("minConversionRate", x, x.upper),
          reason: `variant ${a.variantKey}: ${pct(x.variant)} of its visitors converted against ${
            pct(x.control)
          } on control (at least ${pts(-x.upper)} fewer with 95 % confidence; margin ${
            pts(margin)
          }), below minConversionRate ${pct(g.minConversionRate)}`,
        };
      }
    }
  }
  return null;
}
