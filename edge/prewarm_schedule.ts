/**
 * How often the prewarm (edge/prewarm.ts) asks again, as a share of how long it has waited so
 * far: a CMS's CDN lags anything from nothing to a minute, so a fixed step is either late on a
 * short lag or a burst of origin fetches on a long one. A tenth of the wait keeps the answer at
 * most about 10 % late while the number of probes grows with the log of the lag.
 */

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The claimer's next refetch while the CMS still serves the old revision (ms). */
export function probeDelay(elapsedMs: number): number {
  return clamp(elapsedMs / 10, 25, 2_000);
}

/**
 * The next read of the copies other instances claimed (ms): KV reads cost no origin fetch,
 * so half the probe's share and a quarter of its floor.
 */
export function copyPollDelay(elapsedMs: number): number {
  return clamp(elapsedMs / 20, 25, 500);
}
