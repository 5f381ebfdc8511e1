/**
 * Visitors per experiment arm per window (guardrails, docs/decisions.md "Experiment
 * guardrails"): each visitor the edge counted (edge/experiments.ts, a hash of IP and user
 * agent) once per (experiment, variant, VISITOR_WINDOW_MS window), with whether any of
 * their answers was a 5xx and their slowest answer's lib/usage/latency.ts bucket. The
 * flush upserts them into experiment_visitors, where the row's key dedupes across flushes
 * and instances; the merge (OR, GREATEST) is idempotent, so a flush written twice counts
 * nothing twice. A visitor already flushed is written again only when a 5xx or a slower
 * answer adds to what was sent. Pure memory, bounded: MAX_PENDING_VISITORS rows pending,
 * and at most MAX_VISITORS_PER_ARM_WINDOW visitors per arm and window from one instance
 * (remembered for the current and previous window only).
 */
import type { UsageRecord } from "../../edge/types.ts";
import { latencyBucket } from "./latency.ts";

/** A visitor counts once per arm per window of this length. */
export const VISITOR_WINDOW_MS = 600_000;
/** Visitors one instance stores per (experiment, variant, window): a sample, enough for a verdict. */
export const MAX_VISITORS_PER_ARM_WINDOW = 1_000;
/** Visitor rows one instance holds between flushes (~100 bytes each). */
export const MAX_PENDING_VISITORS = 20_000;
/**
 * Flushed visitors remembered (~50 bytes each). Past it the memory is cleared: visitors are
 * then written again (harmless, the merge is idempotent) and an arm's window may take
 * more than its cap from this instance.
 */
const MAX_SENT_VISITORS = 100_000;

/** One experiment_visitors row (or the part of it one flush saw). */
export type VisitorDelta = {
  tenantId: number;
  experimentId: number;
  variantId: number;
  variantKey: string;
  /** Start of the window, epoch ms. */
  windowStart: number;
  visitor: number;
  network: number;
  firstSeenAt: number;
  errored: boolean;
  /** Index of the slowest answer's latency bucket. */
  slowest: number;
};

/** `slowest` and `errored` in one number: a row is news when this grows. */
const flagsOf = (d: { errored: boolean; slowest: number }) => (d.errored ? 16 : 0) | d.slowest;

export class PendingVisitors {
  /** Per arm and window, per visitor hash. */
  #arms = new Map<string, Map<number, VisitorDelta>>();
  #size = 0;
  /**
   * What this instance already flushed for the current windows, per arm and window: a
   * visitor is written again only when their flags grow, and an arm's window takes at
   * most MAX_VISITORS_PER_ARM_WINDOW visitors from this instance (the database needs no
   * count). Windows older than the previous one are forgotten.
   */
  #sent = new Map<string, { windowStart: number; flags: Map<number, number> }>();
  #sentSize = 0;
  /** Visitors not held because a bound was reached. */
  dropped = 0;

  get size(): number {
    return this.#size;
  }

  add(r: UsageRecord): void {
    const x = r.experiment;
    if (!x || x.visitor === undefined || r.background || r.blocked) return;
    const windowStart = r.ts - (((r.ts % VISITOR_WINDOW_MS) + VISITOR_WINDOW_MS) %
      VISITOR_WINDOW_MS);
    const key = `${x.experimentId}|${x.variantId}|${x.variantKey}|${windowStart}`;
    let arm = this.#arms.get(key);
    const cur = arm?.get(x.visitor);
    const errored = r.status >= 500;
    const slowest = latencyBucket(r.durationMs);
    if (cur) {
      cur.errored ||= errored;
      cur.slowest = Math.max(cur.slowest, slowest);
      cur.firstSeenAt = Math.min(cur.firstSeenAt, r.ts);
      return;
    }
    const sent = this.#sent.get(key)?.flags;
    const before = sent?.get(x.visitor);
    if (before !== undefined && (before | flagsOf({ errored, slowest })) === before) return;
    const held = (arm?.size ?? 0) + (sent?.size ?? 0);
    if (
      this.#size >= MAX_PENDING_VISITORS ||
      (before === undefined && held >= MAX_VISITORS_PER_ARM_WINDOW)
    ) {
      this.dropped++;
      return;
    }
    if (!arm) this.#arms.set(key, arm = new Map());
    arm.set(x.visitor, {
      tenantId: r.tenantId,
      experimentId: x.experimentId,
      variantId: x.variantId,
      variantKey: x.variantKey,
      windowStart,
      visitor: x.visitor,
      network: x.network ?? 0,
      firstSeenAt: r.ts,
      errored,
      slowest,
    });
    this.#size++;
  }

  /** Removes up to `max` rows, remembering them as sent. */
  take(max: number): VisitorDelta[] {
    const out: VisitorDelta[] = [];
    for (const [k, arm] of this.#arms) {
      for (const [v, d] of arm) {
        if (out.length >= max) return out;
        out.push(d);
        arm.delete(v);
        this.#size--;
        this.#remember(k, d);
      }
      this.#arms.delete(k);
    }
    return out;
  }

  #remember(key: string, d: VisitorDelta): void {
    let s = this.#sent.get(key);
    if (!s) {
      // A new window: forget those before the previous one (records arrive in time order,
      // give or take a flush).
      for (const [k, o] of this.#sent) {
        if (o.windowStart < d.windowStart - VISITOR_WINDOW_MS) {
          this.#sentSize -= o.flags.size;
          this.#sent.delete(k);
        }
      }
      this.#sent.set(key, s = { windowStart: d.windowStart, flags: new Map() });
    }
    if (this.#sentSize >= MAX_SENT_VISITORS) {
      for (const o of this.#sent.values()) o.flags.clear();
      this.#sentSize = 0;
    }
    if (!s.flags.has(d.visitor)) this.#sentSize++;
    s.flags.set(d.visitor, flagsOf(d));
  }

  /** Visitors remembered as sent (bounded by the arms and two windows). */
  get sentSize(): number {
    return this.#sentSize;
  }

  /** Merges rows of a failed flush back (bounded like add). */
  putBack(rows: readonly VisitorDelta[]): void {
    for (const d of rows) {
      const key = `${d.experimentId}|${d.variantId}|${d.variantKey}|${d.windowStart}`;
      let arm = this.#arms.get(key);
      const cur = arm?.get(d.visitor);
      if (cur) {
        cur.errored ||= d.errored;
        cur.slowest = Math.max(cur.slowest, d.slowest);
        cur.firstSeenAt = Math.min(cur.firstSeenAt, d.firstSeenAt);
      } else if (this.#size >= MAX_PENDING_VISITORS) this.dropped++;
      else {
        if (!arm) this.#arms.set(key, arm = new Map());
        arm.set(d.visitor, d);
        this.#size++;
      }
    }
  }
}
