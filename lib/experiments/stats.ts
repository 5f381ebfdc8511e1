/**
 * Statistics for the exposure summary, beyond SPEC (extra fields keep the response a
 * strict superset): a sample-ratio-mismatch (SRM) check and absolute conversion uplift
 * of each variant against control with a 95% confidence interval. Pure functions.
 */

/** SRM is flagged below this p-value (the customary, deliberately strict threshold). */
export const SRM_P_THRESHOLD = 0.001;
/** Two-sided 95% normal quantile. */
export const Z_95 = 1.959963984540054;

/** ln Gamma(x) for x > 0 (Lanczos, g = 7, n = 9; ~15 significant digits). */
export function lnGamma(x: number): number {
  const c = [
    0.99999999999980993,
    676.5203681218851,
    -1259.1392167224028,
    771.32342877765313,
    -176.61502916214059,
    12.507343278686905,
    -0.13857109526572012,
    9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Regularised upper incomplete gamma Q(a, x) (series below a + 1, continued fraction above). */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const lnPre = a * Math.log(x) - x - lnGamma(a);
  if (x < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return Math.max(0, 1 - sum * Math.exp(lnPre));
  }
  // Lentz's continued fraction for Q.
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return Math.min(1, Math.exp(lnPre) * h);
}

/** P(X >= x) for X ~ chi²(df). */
export function chiSquaredPValue(x: number, df: number): number {
  return gammaQ(df / 2, x / 2);
}

export type SrmCheck = {
  chiSquared: number;
  degreesOfFreedom: number;
  pValue: number;
  threshold: number;
  /** True when the observed split is very unlikely under the configured weights. */
  flagged: boolean;
};

/**
 * Pearson's chi² goodness of fit of observed exposures against the split the weights
 * promise. Null when there is nothing to test (fewer than 2 variants or no exposures).
 */
export function sampleRatioMismatch(observed: number[], weights: number[]): SrmCheck | null {
  const total = observed.reduce((a, b) => a + b, 0);
  const wsum = weights.reduce((a, b) => a + b, 0);
  if (observed.length < 2 || total <= 0 || wsum <= 0) return null;
  let chi = 0;
  for (let i = 0; i < observed.length; i++) {
    const expected = total * weights[i] / wsum;
    chi += (observed[i] - expected) ** 2 / expected;
  }
  const df = observed.length - 1;
  const pValue = chiSquaredPValue(chi, df);
  return {
    chiSquared: chi,
    degreesOfFreedom: df,
    pValue,
    threshold: SRM_P_THRESHOLD,
    flagged: pValue < SRM_P_THRESHOLD,
  };
}

export type Uplift = {
  /** Variant rate minus control rate, in percentage points. */
  absolute: number;
  /** 95% confidence interval of `absolute` (Wald, unpooled), in percentage points. */
  ciLower: number;
  ciUpper: number;
  confidence: 0.95;
};

/**
 * Absolute uplift of a variant's conversion rate over control's. Events are not
 * deduplicated, so a rate can exceed 100%; the variance term caps p at 1 and the
 * interval is then an approximation. Null when either arm has no exposures.
 */
export function absoluteUplift(
  control: { exposures: number; events: number },
  variant: { exposures: number; events: number },
): Uplift | null {
  if (control.exposures <= 0 || variant.exposures <= 0) return null;
  const pc = control.events / control.exposures;
  const pv = variant.events / variant.exposures;
  const cap = (p: number) => Math.min(p, 1);
  const se = Math.sqrt(
    cap(pc) * (1 - cap(pc)) / control.exposures + cap(pv) * (1 - cap(pv)) / variant.exposures,
  );
  const diff = pv - pc;
  return {
    absolute: diff * 100,
    ciLower: (diff - Z_95 * se) * 100,
    ciUpper: (diff + Z_95 * se) * 100,
    confidence: 0.95,
  };
}
