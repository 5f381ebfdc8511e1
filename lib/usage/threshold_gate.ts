/**
 * A small in-memory gate in front of threshold (plan-limit) evaluations: after a
 * usage flush, each org whose usage moved may be re-checked at most once per
 * interval, so a busy tenant cannot turn every flush into a quota query.
 * Reported under `thresholdGate` by GET /api/admin/usage-aggregator-status.
 */

import type { z } from "zod";
import type { thresholdGateStatusSchema } from "./aggregator_schema.ts";

export type ThresholdGateStatus = z.infer<typeof thresholdGateStatusSchema>;

export type ThresholdGateOptions = {
  /** Minimum time between two allowed checks of one org. @default 60_000 */
  intervalMs?: number;
  /** Orgs remembered at once; the least recently allowed is evicted past this. @default 10_000 */
  maxTracked?: number;
  enabled?: boolean;
};

export class ThresholdGate {
  enabled: boolean;
  readonly intervalMs: number;
  readonly maxTracked: number;
  #last = new Map<string, number>();
  #allowed = 0;
  #skippedThrottled = 0;
  #skippedDisabled = 0;
  #evicted = 0;

  constructor(opts: ThresholdGateOptions = {}) {
    this.intervalMs = opts.intervalMs ?? 60_000;
    this.maxTracked = opts.maxTracked ?? 10_000;
    this.enabled = opts.enabled ?? true;
    if (this.intervalMs < 0) throw new RangeError("intervalMs must be >= 0");
    if (this.maxTracked < 1) throw new RangeError("maxTracked must be >= 1");
  }

  /** True when `org` may be checked now (and records that it was). */
  allow(org: string, now: number): boolean {
    if (!this.enabled) {
      this.#skippedDisabled++;
      return false;
    }
    const last = this.#last.get(org);
    if (last !== undefined && now - last < this.intervalMs) {
      this.#skippedThrottled++;
      return false;
    }
    // Re-insert so Map order is least-recently-allowed first (eviction order).
    this.#last.delete(org);
    this.#last.set(org, now);
    while (this.#last.size > this.maxTracked) {
      this.#last.delete(this.#last.keys().next().value!);
      this.#evicted++;
    }
    this.#allowed++;
    return true;
  }

  status(): ThresholdGateStatus {
    return {
      enabled: this.enabled,
      intervalMs: this.intervalMs,
      allowed: this.#allowed,
      skippedThrottled: this.#skippedThrottled,
      skippedDisabled: this.#skippedDisabled,
      evictedEntries: this.#evicted,
      trackedOrgs: this.#last.size,
    };
  }
}
