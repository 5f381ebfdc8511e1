/**
 * The latency sketch of usage counters: fixed log-scale buckets whose counts
 * add up across requests, instances, flushes, hours and days, so a quantile of any sum is
 * read off the merged counts (docs/decisions.md "Usage figures"). Bucket 0 holds [0, 1) ms;
 * then every power of two from 1 ms to 2^16 ms is split in four equal parts (at most 25 %
 * wide: [16, 20), [20, 24), [24, 28), [28, 32) ...); the last bucket holds 65.5 s and more.
 *
 * Not lib/usage/latency.ts: those ten guardrail buckets (25 ms ... 6.4 s) are stored in
 * exposure_counts and are too coarse for an edge that answers hits in under a millisecond.
 */

/** Sub-buckets per power of two. */
const STEPS = 4;
/** Powers of two covered: 1 ms ... 2^16 ms. */
const OCTAVES = 16;
export const SKETCH_BUCKETS = 1 + OCTAVES * STEPS + 1;
const TOP = 2 ** OCTAVES;

/** The bucket of a duration in ms (negative and NaN count as 0). */
export function sketchBucket(ms: number): number {
  if (!(ms >= 1)) return 0;
  if (ms >= TOP) return SKETCH_BUCKETS - 1;
  let e = Math.floor(Math.log2(ms));
  if (2 ** e > ms) e--; // log2 rounded up just below a power of two
  const base = 2 ** e;
  const s = Math.min(STEPS - 1, Math.max(0, Math.floor((ms / base - 1) * STEPS)));
  return 1 + e * STEPS + s;
}

/** The lower bound (ms) of bucket i; bucket i spans [lower(i), lower(i + 1)). */
export function bucketLowerMs(i: number): number {
  if (i <= 0) return 0;
  if (i >= SKETCH_BUCKETS - 1) return TOP;
  const e = Math.floor((i - 1) / STEPS);
  return 2 ** e * (1 + ((i - 1) % STEPS) / STEPS);
}

export const emptySketch = (): number[] => new Array<number>(SKETCH_BUCKETS).fill(0);

/** Element-wise sum into `into`; `add` may be shorter (trimmed) or longer (grown into). */
export function mergeSketch(into: number[], add: readonly number[]): number[] {
  for (let i = 0; i < add.length; i++) into[i] = (into[i] ?? 0) + (Number(add[i]) || 0);
  return into;
}

/** Without trailing zeros (what a flush sends and stores; absent buckets read as 0). */
export function trimSketch(s: readonly number[]): number[] {
  let n = s.length;
  while (n > 0 && !s[n - 1]) n--;
  return s.slice(0, n);
}

/**
 * The q-quantile (0 < q < 1) of the durations counted, in ms: found in the bucket where the
 * cumulative count reaches q × total and interpolated linearly inside it (as Prometheus'
 * histogram_quantile does), so the true value lies in the same bucket. The open last bucket
 * answers its lower bound. Null when nothing was counted.
 */
export function sketchQuantile(s: readonly number[], q: number): number | null {
  let total = 0;
  for (const n of s) total += Number(n) || 0;
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < s.length; i++) {
    const n = Number(s[i]) || 0;
    if (n === 0 || seen + n < rank) {
      seen += n;
      continue;
    }
    const lo = bucketLowerMs(i);
    if (i >= SKETCH_BUCKETS - 1) return lo;
    const hi = bucketLowerMs(i + 1);
    return lo + (hi - lo) * Math.max(0, rank - seen) / n;
  }
  return bucketLowerMs(s.length - 1);
}

export type LatencyQuantiles = { p50Ms: number; p95Ms: number; p99Ms: number } | null;

/** p50, p95 and p99 (ms, 0.1 ms precision) of a sketch; null when it is empty. */
export function quantiles(s: readonly number[]): LatencyQuantiles {
  const p50 = sketchQuantile(s, 0.5);
  if (p50 === null) return null;
  const r = (v: number | null) => Math.round((v ?? 0) * 10) / 10;
  return { p50Ms: r(p50), p95Ms: r(sketchQuantile(s, 0.95)), p99Ms: r(sketchQuantile(s, 0.99)) };
}

/** Edge and origin quantiles of a pair of sketches (the usage API's `latency`). */
export function latencyOf(
  edge: readonly number[],
  origin: readonly number[],
): { edge: LatencyQuantiles; origin: LatencyQuantiles } {
  return { edge: quantiles(edge), origin: quantiles(origin) };
}
