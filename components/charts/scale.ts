/** Axis arithmetic for the server-rendered charts: a "nice" upper bound and its ticks. */

/** The smallest 1/2/2.5/5 × 10^k at or above `max` (1 when there is nothing to show). */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const mag = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * mag >= max) return step * mag;
  return 10 * mag;
}

/** `count + 1` evenly spaced tick values from 0 to `max`. */
export function ticks(max: number, count = 4): number[] {
  return Array.from({ length: count + 1 }, (_, i) => (max / count) * i);
}

/** Which of `n` category labels to print so at most `most` appear (first and last kept). */
export function labelEvery(n: number, most = 7): (i: number) => boolean {
  if (n <= most) return () => true;
  const step = Math.ceil((n - 1) / (most - 1));
  return (i) => i === n - 1 || (i % step === 0 && n - 1 - i >= step / 2);
}
