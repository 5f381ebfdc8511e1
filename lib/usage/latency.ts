/**
 * Answer-time buckets of experiment exposures (for people; guardrails count visitors): counts per bucket
 * sum across instances and flushes, and a p95 bound is read off them. Bucket i holds
 * answers below LATENCY_BOUNDS_MS[i] (and at least the previous bound); the last holds
 * the rest.
 */
export const LATENCY_BOUNDS_MS = [25, 50, 100, 200, 400, 800, 1600, 3200, 6400] as const;
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

export function latencyBucket(ms: number): number {
  for (let i = 0; i < LATENCY_BOUNDS_MS.length; i++) if (ms < LATENCY_BOUNDS_MS[i]) return i;
  return LATENCY_BOUNDS_MS.length;
}

/** Element-wise sum into `into` (arrays may be shorter than LATENCY_BUCKETS: missing = 0). */
export function addLatency(into: number[], add: readonly number[]): void {
  for (let i = 0; i < add.length; i++) into[i] = (into[i] ?? 0) + add[i];
}

/** Upper bound of the 95th percentile (the bound of its bucket; null above the last bound). */
export function p95UpperMs(buckets: readonly number[]): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i];
    if (seen >= 0.95 * total) return i < LATENCY_BOUNDS_MS.length ? LATENCY_BOUNDS_MS[i] : null;
  }
  return null;
}
