import { assertEquals } from "../../tests/assert.ts";
import { FlushLedger } from "./flush_ledger.ts";
import { emptyBucket } from "./buckets.ts";
import type { UsageBatch } from "./types.ts";

const bucket = (tenantId: number, requests: number) => ({
  ...emptyBucket(tenantId, "2026-11-26"),
  requests,
  bytes: requests * 10,
});
const log = (tenantId: number) => ({
  tenantId,
  ts: 1,
  method: "GET",
  path: "/",
  status: 200,
  bytes: 1,
  cache: "MISS",
  durationMs: 1,
  kind: "api",
  experimentId: null,
  variantId: null,
});

Deno.test("a counted doubt is deducted from later batches, key by key, once", () => {
  const ledger = new FlushLedger();
  const l1 = log(1);
  const cut: UsageBatch = {
    buckets: [bucket(1, 5), bucket(2, 7)],
    exposures: [{
      tenantId: 1,
      experimentId: 9,
      variantId: 1,
      variantKey: "a",
      exposures: 4,
      lastSeenAt: 1,
      errors: 0,
      latency: [],
    }],
    logs: [l1],
  };
  ledger.doubt(ledger.nextSeq(), cut);
  ledger.settle(1, true);
  // The aggregator merged it back (plus new deltas) and now flushes tenant 1 only.
  const first = ledger.deduct({
    buckets: [bucket(1, 6)],
    exposures: [{ ...cut.exposures[0], exposures: 4 }],
    logs: [l1, log(1)],
  });
  assertEquals(first.batch.buckets.map((b) => [b.requests, b.bytes]), [[1, 10]]);
  assertEquals(first.batch.exposures, []);
  assertEquals(first.batch.logs.length, 1);
  // Not written (failed): tenant 1 is still owed when its batch comes back.
  assertEquals(
    ledger.deduct({ buckets: [bucket(1, 6)], exposures: [], logs: [] })
      .batch.buckets[0].requests,
    1,
  );
  first.done();
  const second = ledger.deduct({ buckets: [bucket(1, 2), bucket(2, 9)], exposures: [], logs: [] });
  assertEquals(second.batch.buckets.map((b) => [b.tenantId, b.requests]), [[1, 2], [2, 2]]);
  second.done();
  const third = ledger.deduct({ buckets: [bucket(2, 3)], exposures: [], logs: [] });
  assertEquals(third.batch.buckets[0].requests, 3);
});

Deno.test("a doubt settled as not counted deducts nothing", () => {
  const ledger = new FlushLedger();
  ledger.doubt(ledger.nextSeq(), { buckets: [bucket(1, 5)], exposures: [], logs: [] });
  assertEquals(ledger.doubts, [1]);
  ledger.settle(1, false);
  assertEquals(ledger.doubts, []);
  assertEquals(
    ledger.deduct({ buckets: [bucket(1, 5)], exposures: [], logs: [] })
      .batch.buckets[0].requests,
    5,
  );
});
