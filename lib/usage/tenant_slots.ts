/**
 * A small integer per tenant, assigned the first time the tenant is counted and kept: the
 * per-request counters (pending_counters.ts, pending_paths.ts) index arrays by it instead of
 * building a `${tenantId}|${hour}` key string per request (a string built, hashed and looked up
 * on every record showed in instruction counts, bench/usage_instructions.ts). One number per
 * tenant the process has counted, so it stays as small as the tenant list.
 */
export class TenantSlots {
  #slots = new Map<number, number>();

  /** The tenant's slot: 0, 1, 2, ... in the order tenants were first seen. */
  of(tenantId: number): number {
    let s = this.#slots.get(tenantId);
    if (s === undefined) this.#slots.set(tenantId, s = this.#slots.size);
    return s;
  }
}

type Row<V> = { values: (V | undefined)[]; held: number };

/**
 * Values per (period, tenant slot): one row per period (an hour, a day) indexed by slot. The
 * row last used is remembered, so a request of the current period finds its value with an
 * identity compare and an array read.
 */
export class SlotRows<P, V> {
  #rows = new Map<P, Row<V>>();
  #at: P | undefined = undefined;
  #row: Row<V> | undefined = undefined;
  #size = 0;

  /** Values held. */
  get size(): number {
    return this.#size;
  }

  get(period: P, slot: number): V | undefined {
    return this.#find(period)?.values[slot];
  }

  set(period: P, slot: number, value: V): void {
    let row = this.#find(period);
    if (row === undefined) {
      this.#rows.set(period, row = { values: [], held: 0 });
      this.#at = period;
      this.#row = row;
    }
    if (row.values[slot] === undefined) {
      row.held++;
      this.#size++;
    }
    row.values[slot] = value;
  }

  delete(period: P, slot: number): void {
    const row = this.#find(period);
    if (row === undefined || row.values[slot] === undefined) return;
    row.values[slot] = undefined;
    this.#size--;
    if (--row.held > 0) return;
    this.#rows.delete(period);
    this.#at = this.#row = undefined;
  }

  /** Every value with its period and slot, oldest period first (deleting as it goes is safe). */
  *entries(): IterableIterator<[P, number, V]> {
    for (const [period, row] of this.#rows) {
      const values = row.values;
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (v !== undefined) yield [period, i, v];
      }
    }
  }

  #find(period: P): Row<V> | undefined {
    if (period === this.#at) return this.#row;
    const row = this.#rows.get(period);
    if (row !== undefined) {
      this.#at = period;
      this.#row = row;
    }
    return row;
  }
}
