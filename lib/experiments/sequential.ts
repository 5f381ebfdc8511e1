/**
 * Always-valid comparison of a variant's conversion rate with control's: the mixture
 * sequential probability ratio test (mSPRT, Johari, Pekelis & Walsh, "Always valid
 * inference", 2017 - what Optimizely ships) on the difference of two rates with a normal
 * mixing distribution N(0, tau²). Its confidence sequence covers the true difference at
 * every look at once with probability >= 95 % (Ville's inequality), so looking daily, or
 * every minute, does not raise the false-positive rate; a fixed-horizon interval looked
 * at repeatedly does (lib/experiments/sequential_sim.ts measures both). Pure functions.
 */

/** Error rate the whole sequence of looks is held to. */
export const SEQUENTIAL_ALPHA = 0.05;
/**
 * Mixing standard deviation of the difference in rates (0.02 = 2 percentage points): it
 * tunes which effect sizes are found fastest, never validity.
 */
export const SEQUENTIAL_TAU = 0.02;
/** Below this many exposures in either arm there is no verdict (the normal approximation). */
export const SEQUENTIAL_MIN_EXPOSURES = 100;

export type SequentialVerdict = "keep_running" | "variant_wins" | "variant_loses" | "no_difference";

export type Sequential = {
  method: "msprt";
  alpha: number;
  /** Variant rate minus control rate, in percentage points. */
  absolute: number;
  /** The always-valid confidence sequence of `absolute`, in percentage points. */
  csLower: number;
  csUpper: number;
  /** The mixture likelihood ratio against "no difference"; >= 1/alpha means a difference. */
  likelihoodRatio: number;
  /** Always-valid p-value of this look (1 / likelihood ratio, at most 1). */
  pValue: number;
  verdict: SequentialVerdict;
  /** The verdict in words, for people. */
  summary: string;
};

export type Arm = { exposures: number; events: number };

/** Half-width of the margin inside which a difference counts as none (relative to control). */
export const NO_DIFFERENCE_RELATIVE = 0.1;

/** Rate and its Bernoulli variance per exposure (capped at 1: events are not deduplicated). */
function rate(a: Arm): { p: number; v: number } {
  const p = a.events / a.exposures;
  const c = Math.min(p, 1);
  // A floor keeps an all-zero arm from claiming certainty (variance 0).
  return { p, v: Math.max(c * (1 - c), 1 / (4 * a.exposures)) };
}

/** Half-width of the always-valid sequence {theta : Lambda(theta) < 1/alpha} for an estimate of variance V. */
export function mixtureHalfWidth(
  V: number,
  alpha = SEQUENTIAL_ALPHA,
  tau = SEQUENTIAL_TAU,
): number {
  const tau2 = tau * tau;
  return Math.sqrt(V * (V + tau2) / tau2 * (2 * Math.log(1 / alpha) + Math.log((V + tau2) / V)));
}

/** Always-valid bounds of one rate (successes of n), for guardrails. */
export function rateBounds(
  successes: number,
  n: number,
): { rate: number; lower: number; upper: number } {
  const { p, v } = rate({ exposures: n, events: successes });
  const half = mixtureHalfWidth(v / n);
  return { rate: p, lower: p - half, upper: p + half };
}

/** The mSPRT statistics of one variant against control, from the totals so far. */
export function msprt(
  control: Arm,
  variant: Arm,
  alpha = SEQUENTIAL_ALPHA,
  tau = SEQUENTIAL_TAU,
): { diff: number; half: number; lr: number } | null {
  if (control.exposures <= 0 || variant.exposures <= 0) return null;
  const c = rate(control);
  const t = rate(variant);
  const diff = t.p - c.p;
  const V = c.v / control.exposures + t.v / variant.exposures;
  const tau2 = tau * tau;
  const lr = Math.sqrt(V / (V + tau2)) * Math.exp(tau2 * diff * diff / (2 * V * (V + tau2)));
  // {theta : Lambda(theta) < 1/alpha}, solved for theta.
  const half = Math.sqrt(
    V * (V + tau2) / tau2 * (2 * Math.log(1 / alpha) + Math.log((V + tau2) / V)),
  );
  return { diff, half, lr };
}

export function sequentialComparison(control: Arm, variant: Arm): Sequential | null {
  const m = msprt(control, variant);
  if (!m) return null;
  const lo = m.diff - m.half;
  const hi = m.diff + m.half;
  const enough = Math.min(control.exposures, variant.exposures) >= SEQUENTIAL_MIN_EXPOSURES;
  const margin = Math.max(
    NO_DIFFERENCE_RELATIVE * Math.min(control.events / control.exposures, 1),
    0.001,
  );
  let verdict: SequentialVerdict = "keep_running";
  if (enough && lo > 0) verdict = "variant_wins";
  else if (enough && hi < 0) verdict = "variant_loses";
  else if (enough && lo > -margin && hi < margin) verdict = "no_difference";
  return {
    method: "msprt",
    alpha: SEQUENTIAL_ALPHA,
    absolute: m.diff * 100,
    csLower: lo * 100,
    csUpper: hi * 100,
    likelihoodRatio: m.lr,
    pValue: Math.min(1, 1 / m.lr),
    verdict,
    summary: SUMMARY[verdict],
  };
}

const SUMMARY: Record<SequentialVerdict, string> = {
  keep_running: "Keep running: no conclusion yet",
  variant_wins: "Variant wins: it converts better than control",
  variant_loses: "Variant loses: it converts worse than control",
  no_difference: "No difference: any effect is within ±10 % of control's rate",
};
