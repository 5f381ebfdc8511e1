/**
 * The one compare-and-set loop over Deno KV: a step reads, checks and commits; when another
 * writer got in between (the commit's check failed) it reads again, a bounded number of times.
 * Each step runs under kvRetry, so a transient failure repeats that step, which the check
 * makes exact.
 */
import { kvRetry } from "./retry.ts";

/** What a step returns when its commit lost the race: read again. */
export const LOST_RACE: unique symbol = Symbol("lost race");

export type CompareAndSetOptions<T> = {
  /** Steps in all, the first included. */
  attempts: number;
  /** The outcome (or the throw) when every step lost its race: pathological contention. */
  exhausted: () => T;
};

/** Runs `step` until it returns anything but LOST_RACE, at most `attempts` times. */
export async function kvCompareAndSet<T>(
  step: () => Promise<T | typeof LOST_RACE>,
  opts: CompareAndSetOptions<T>,
): Promise<T> {
  for (let attempt = 0; attempt < opts.attempts; attempt++) {
    const outcome = await kvRetry(step);
    if (outcome !== LOST_RACE) return outcome;
  }
  return opts.exhausted();
}
