/**
 * The counters a usage aggregator holds between flushes (lib/usage/aggregator.ts): one
 * bucket per (tenant, UTC hour) with its latency sketches, summed into per-day rows when a
 * batch is taken, and one exposure counter per experiment arm. Pure memory: no I/O.
 */
import type { UsageRecord } from "../../edge/types.ts";
import type { ExposureDelta, HourBucket, UsageBatch, UsageBucket } from "./types.ts";
import { addBucket, byteCount, copyBucket, emptyBucket } from "./buckets.ts";
import { addLatency, LATENCY_BUCKETS, latencyBucket } from "./latency.ts";
import { sketchBucket } from "./latency_sketch.ts";
import { UtcDayNames } from "./days.ts";
import { SlotRows, type TenantSlots } from "./tenant_slots.ts";

const HOUR_MS = 3_600_000;

/** Counts the answer's 5xx and time into its variant's exposure counter (guardrails). */
function addExposureHealth(e: ExposureDelta, r: UsageRecord): ExposureDelta {
  if (r.status >= 500) e.errors++;
  const b = latencyBucket(r.durationMs);
  e.latency[b] = (e.latency[b] ?? 0) + 1;
  return e;
}

const noLatency = () => new Array<number>(LATENCY_BUCKETS).fill(0);
const exposureKey = (e: { experimentId: number; variantId: number; variantKey: string }) =>
  `${e.experimentId}|${e.variantId}|${e.variantKey}`;

/** Folds one request into its hour bucket (and sketches). */
function count(b: HourBucket, r: UsageRecord): void {
  if (r.blocked) {
    // a refused bot costs the tenant nothing: counted apart, not as a request or bandwidth
    b.blocked++;
  } else if (!r.background) {
    // (a background refresh, edge/usage_record.ts recordBackground, adds its origin request only)
    b.requests++;
    b.bytes += byteCount(r.bytes);
    if (r.cache === "HIT") b.hits++;
    else if (r.cache === "MISS") b.misses++;
    else if (r.cache === "STALE") b.stale++;
    else if (r.cache === "BYPASS") b.bypass++;
    const st = r.status;
    if (st >= 500) {
      b.errors++;
      b.status5xx++;
    } else if (st >= 400) b.status4xx++;
    else if (st >= 300) b.status3xx++;
    else if (st >= 200) b.status2xx++;
    else b.status1xx++;
    b.edgeLatency![sketchBucket(r.durationMs)]++;
  }
  if (r.originRequests) {
    b.originRequests += r.originRequests;
    b.originBytes += byteCount(r.originBytes ?? 0);
    // Records from before origin time was measured (or the ingest API) carry none.
    if (r.originMs !== undefined) b.originLatency![sketchBucket(r.originMs)]++;
  }
}

/** PendingCounters.add's answer for a request not counted at all. */
export const DROPPED = -1;

export class PendingCounters {
  /** Per hour start (ms) and tenant slot. */
  #buckets = new SlotRows<number, HourBucket>();
  #exposures = new Map<string, ExposureDelta>();

  constructor(private readonly slots: TenantSlots) {}

  /** Hour buckets and exposure counters held. */
  get size(): number {
    return this.#buckets.size + this.#exposures.size;
  }

  /**
   * Adds one request. With `full` set no new entry is opened (existing ones still count).
   * Answers DROPPED when the request was not counted at all (its hour bucket was not open),
   * else how many of its deltas were dropped (0, or 1 for its exposure). `slot`: the tenant's
   * (TenantSlots.of).
   */
  add(r: UsageRecord, full: boolean, slot: number): number {
    let dropped = 0;
    const hour = this.#hourOf(r.ts);
    let b = this.#buckets.get(hour, slot);
    if (!b) {
      if (full) return DROPPED;
      b = { ...emptyBucket(r.tenantId, this.#dayNames.of(hour)), hour: this.#hourText };
      this.#buckets.set(hour, slot, b);
    }
    count(b, r);
    const x = r.experiment;
    if (x) {
      const xk = exposureKey(x);
      const e = this.#exposures.get(xk);
      if (e) {
        e.exposures++;
        e.lastSeenAt = Math.max(e.lastSeenAt, r.ts);
        addExposureHealth(e, r);
      } else if (full) dropped++;
      else {
        const fresh = {
          tenantId: r.tenantId,
          experimentId: x.experimentId,
          variantId: x.variantId,
          variantKey: x.variantKey,
          exposures: 1,
          lastSeenAt: r.ts,
        };
        this.#exposures.set(
          xk,
          addExposureHealth({ ...fresh, errors: 0, latency: noLatency() }, r),
        );
      }
    }
    return dropped;
  }

  /**
   * Removes up to `max` entries: hour buckets first (with the day rows they sum to), then
   * exposures. Answers the batch (logs empty) and the room left.
   */
  take(max: number): { batch: UsageBatch; room: number } {
    const hours: HourBucket[] = [];
    const days = new Map<string, UsageBucket>();
    const batch: UsageBatch = { buckets: [], hours, logs: [], exposures: [] };
    let room = max;
    for (const [hour, slot, b] of this.#buckets.entries()) {
      if (room <= 0) break;
      room--;
      hours.push(b);
      this.#buckets.delete(hour, slot);
      const dk = `${b.tenantId}|${b.day}`;
      const d = days.get(dk);
      if (d) addBucket(d, b);
      else {
        // a copy: the day's sketches are added to, the hour's must stay as they are
        const { hour: _h, ...day } = copyBucket(b);
        days.set(dk, day);
      }
    }
    batch.buckets = [...days.values()];
    for (const [k, e] of this.#exposures) {
      if (room <= 0) break;
      room--;
      batch.exposures.push(e);
      this.#exposures.delete(k);
    }
    return { batch, room };
  }

  /** Merges a failed batch's counters back, adding to deltas that arrived meanwhile. */
  putBack(batch: UsageBatch): void {
    // The day rows are sums of the hours: only the hours go back.
    for (const b of batch.hours ?? []) {
      const hour = Date.parse(b.hour);
      const slot = this.slots.of(b.tenantId);
      const cur = this.#buckets.get(hour, slot);
      if (cur) addBucket(cur, b);
      else this.#buckets.set(hour, slot, b);
    }
    for (const e of batch.exposures) {
      const key = exposureKey(e);
      const cur = this.#exposures.get(key);
      if (cur) {
        cur.exposures += e.exposures;
        cur.lastSeenAt = Math.max(cur.lastSeenAt, e.lastSeenAt);
        cur.errors += e.errors;
        addLatency(cur.latency, e.latency);
      } else this.#exposures.set(key, e);
    }
  }

  // The hot path formats an hour once per hour, not once per request (bench/PROFILE.md).
  #hourStart = Number.NaN;
  #hourText = "";
  /** The start (ms) of the UTC hour of `ts`; #hourText is its ISO form. */
  #hourOf(ts: number): number {
    const start = ts - (((ts % HOUR_MS) + HOUR_MS) % HOUR_MS);
    if (start !== this.#hourStart) {
      this.#hourText = new Date(start).toISOString();
      this.#hourStart = start;
    }
    return start;
  }

  #dayNames = new UtcDayNames();
}
