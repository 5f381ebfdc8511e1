/**
 * Which requests the usage aggregator keeps a request log of (docs/decisions.md "Request
 * logs"): every error (status >= 400, upstream failures included: they answer 502/504),
 * refused bots up to a cap per tenant per minute, and successes sampled at a rate under an
 * optional cap per tenant per second. Pure memory, per instance.
 */
import type { UsageRecord } from "../../edge/types.ts";

export type LogSamplerOptions = {
  /** Share of successes kept, 0 ... 1. */
  sampleRate: number;
  /** Sampled successes kept per tenant per second (0 = no cap). */
  maxPerSecond: number;
  /** Refused-bot logs kept per tenant per minute. */
  botsPerMinute: number;
  /** Uniform [0, 1) source. */
  random: () => number;
};

/** Tracked tenants per cap before the map is cleared (a new window starts everywhere). */
const MAX_TRACKED = 10_000;

/** Counts per tenant within the current window: [window number, kept in it]. */
class WindowCap {
  #counts = new Map<number, [number, number]>();
  constructor(readonly windowMs: number, readonly cap: number) {}

  /** True while `tenantId` has kept fewer than `cap` in the window of `ts`; counts it. */
  allow(tenantId: number, ts: number): boolean {
    const w = Math.floor(ts / this.windowMs);
    const c = this.#counts.get(tenantId);
    if (!c || c[0] !== w) {
      // A new window: old windows of other tenants are dropped now and then, so the map
      // stays as small as the set of tenants logging right now.
      if (this.#counts.size > MAX_TRACKED) this.#counts.clear();
      this.#counts.set(tenantId, [w, 1]);
      return this.cap > 0;
    }
    return c[1]++ < this.cap;
  }
}

export class LogSampler {
  #o: LogSamplerOptions;
  #bots: WindowCap;
  #perSecond: WindowCap | null;

  constructor(o: LogSamplerOptions) {
    this.#o = o;
    this.#bots = new WindowCap(60_000, o.botsPerMinute);
    this.#perSecond = o.maxPerSecond > 0 ? new WindowCap(1000, o.maxPerSecond) : null;
  }

  get sampleRate(): number {
    return this.#o.sampleRate;
  }

  /** True when `r` is to be logged (a background refresh never is). */
  keep(r: UsageRecord): boolean {
    if (r.background) return false;
    if (r.blocked) return this.#bots.allow(r.tenantId, r.ts);
    if (r.status >= 400) return true;
    const rate = this.#o.sampleRate;
    return rate > 0 && this.#o.random() < rate &&
      (this.#perSecond === null || this.#perSecond.allow(r.tenantId, r.ts));
  }
}
