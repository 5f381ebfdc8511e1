/**
 * Requests per path per tenant-day held between usage flushes (the Usage page's Top paths,
 * counted exactly instead of from the sampled logs). Pure memory, bounded: at most
 * PATHS_PER_TENANT_DAY distinct paths per tenant-day and `maxEntries` in all; a request whose
 * path finds no room is not counted per path (its usage counters still are) and is tallied in
 * `dropped`. Between two flushes (seconds apart) a tenant rarely sees more paths than that.
 */
import type { UsageRecord } from "../../edge/types.ts";
import { byteCount, requestPath } from "./buckets.ts";
import type { PathDelta } from "./types.ts";
import { UtcDayNames } from "./days.ts";
import { SlotRows, type TenantSlots } from "./tenant_slots.ts";

/** Distinct paths one tenant-day may hold between two flushes, per instance. */
const PATHS_PER_TENANT_DAY = 1000;

export class PendingPaths {
  /** Per day and tenant slot, per path. */
  #days = new SlotRows<string, Map<string, PathDelta>>();
  #size = 0;
  dropped = 0;

  constructor(readonly maxEntries: number, private readonly slots: TenantSlots) {}

  get size(): number {
    return this.#size;
  }

  #dayNames = new UtcDayNames();

  /**
   * Counts one request on its path (refused bots and background refreshes are not requests).
   * `slot`: the tenant's (TenantSlots.of).
   */
  add(r: UsageRecord, slot: number): void {
    if (r.blocked || r.background) return;
    const day = this.#dayNames.of(r.ts);
    const path = requestPath(r.path);
    let paths = this.#days.get(day, slot);
    let d = paths?.get(path);
    if (!d) {
      if (this.#size >= this.maxEntries || (paths?.size ?? 0) >= PATHS_PER_TENANT_DAY) {
        this.dropped++;
        return;
      }
      if (!paths) this.#days.set(day, slot, paths = new Map());
      d = { tenantId: r.tenantId, day, path, requests: 0, errors: 0, bytes: 0 };
      paths.set(path, d);
      this.#size++;
    }
    d.requests++;
    if (r.status >= 400) d.errors++;
    d.bytes += byteCount(r.bytes);
  }

  /** Removes up to `max` deltas. */
  take(max: number): PathDelta[] {
    const out: PathDelta[] = [];
    for (const [day, slot, paths] of this.#days.entries()) {
      for (const [p, d] of paths) {
        if (out.length >= max) return out;
        out.push(d);
        paths.delete(p);
        this.#size--;
      }
      this.#days.delete(day, slot);
    }
    return out;
  }

  /** Merges deltas of a failed flush back (over the bound: dropped and tallied). */
  putBack(deltas: PathDelta[]): void {
    for (const d of deltas) {
      const slot = this.slots.of(d.tenantId);
      let paths = this.#days.get(d.day, slot);
      const cur = paths?.get(d.path);
      if (cur) {
        cur.requests += d.requests;
        cur.errors += d.errors;
        cur.bytes += d.bytes;
        continue;
      }
      if (this.#size >= this.maxEntries || (paths?.size ?? 0) >= PATHS_PER_TENANT_DAY) {
        this.dropped += d.requests;
        continue;
      }
      if (!paths) this.#days.set(d.day, slot, paths = new Map());
      paths.set(d.path, { ...d });
      this.#size++;
    }
  }
}
