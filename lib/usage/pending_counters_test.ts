import { assertEquals } from "../../tests/assert.ts";
import { DROPPED, PendingCounters } from "./pending_counters.ts";
import { TenantSlots } from "./tenant_slots.ts";
import type { UsageRecord } from "../../edge/types.ts";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 28, 23); // the last hour of a day
const rec = (tenantId: number, ts: number, status = 200) =>
  ({ tenantId, ts, status, bytes: 10, cache: "HIT", durationMs: 1 }) as unknown as UsageRecord;

/** Counts like the aggregator does: the tenant's slot looked up once per record. */
function adder(c: PendingCounters, slots: TenantSlots) {
  return (r: UsageRecord, full = false) => c.add(r, full, slots.of(r.tenantId));
}

const requestsOf = (rows: { tenantId: number; requests: number; hour?: string; day?: string }[]) =>
  rows.map((b) => [b.tenantId, b.hour ?? b.day, b.requests]).sort();

Deno.test("slots are dense and kept: 0, 1, 2 in the order tenants were first seen", () => {
  const s = new TenantSlots();
  assertEquals([s.of(900_001), s.of(7), s.of(900_001), s.of(42), s.of(7)], [0, 1, 0, 2, 1]);
});

Deno.test("tenants and hours interleaved are counted apart, and summed per day", () => {
  const slots = new TenantSlots();
  const c = new PendingCounters(slots);
  const add = adder(c, slots);
  for (const id of [900_001, 7, 900_001, 3]) add(rec(id, T0 + 5));
  add(rec(7, T0 + HOUR)); // the next hour, the next UTC day
  add(rec(900_001, T0 + HOUR + 1, 503));
  add(rec(7, T0 - 1)); // a late record of the hour before
  add(rec(7, T0 + 10));
  assertEquals(c.size, 6);
  const { batch, room } = c.take(100);
  assertEquals(room, 94);
  const h = (ms: number) => new Date(ms).toISOString();
  assertEquals(
    requestsOf(batch.hours!),
    [
      [3, h(T0), 1],
      [7, h(T0), 2],
      [7, h(T0 + HOUR), 1],
      [7, h(T0 - HOUR), 1],
      [900_001, h(T0), 2],
      [900_001, h(T0 + HOUR), 1],
    ].sort(),
  );
  assertEquals(requestsOf(batch.buckets), [
    [3, "2026-11-28", 1],
    [7, "2026-11-28", 3],
    [7, "2026-11-29", 1],
    [900_001, "2026-11-28", 2],
    [900_001, "2026-11-29", 1],
  ]);
  assertEquals(batch.hours!.find((b) => b.tenantId === 900_001 && b.errors)!.status5xx, 1);
  assertEquals(c.size, 0);
});

Deno.test("a partial take leaves the rest; a batch put back adds to what arrived meanwhile", () => {
  const slots = new TenantSlots();
  const c = new PendingCounters(slots);
  const add = adder(c, slots);
  for (const id of [1, 2, 3, 4]) add(rec(id, T0));
  const first = c.take(3);
  assertEquals([first.batch.hours!.length, first.room, c.size], [3, 0, 1]);
  for (const id of [1, 2, 3, 4]) add(rec(id, T0 + 1));
  c.putBack(first.batch); // the flush failed
  assertEquals(c.size, 4);
  assertEquals(requestsOf(c.take(10).batch.buckets), [
    [1, "2026-11-28", 2],
    [2, "2026-11-28", 2],
    [3, "2026-11-28", 2],
    [4, "2026-11-28", 2],
  ]);
  add(rec(2, T0 + 2)); // after the hour's buckets all went, the hour opens again
  assertEquals(requestsOf(c.take(10).batch.hours!), [[2, new Date(T0).toISOString(), 1]]);
});

Deno.test("full: no bucket is opened, open ones still count", () => {
  const slots = new TenantSlots();
  const c = new PendingCounters(slots);
  const add = adder(c, slots);
  add(rec(1, T0));
  assertEquals(add(rec(2, T0), true), DROPPED);
  assertEquals(add(rec(1, T0 + HOUR), true), DROPPED);
  assertEquals(add(rec(1, T0 + 1), true), 0);
  assertEquals(requestsOf(c.take(10).batch.hours!), [[1, new Date(T0).toISOString(), 2]]);
});
