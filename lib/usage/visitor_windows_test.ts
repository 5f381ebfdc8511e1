import { assert, assertEquals } from "../../tests/assert.ts";
import {
  MAX_PENDING_VISITORS,
  MAX_VISITORS_PER_ARM_WINDOW,
  PendingVisitors,
  VISITOR_WINDOW_MS,
} from "./visitor_windows.ts";
import type { UsageRecord } from "../../edge/types.ts";

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

function rec(visitor: number, p: Partial<UsageRecord> = {}, variantId = 2): UsageRecord {
  return {
    tenantId: 1,
    ts: T0,
    method: "GET",
    path: "/~api/posts",
    status: 200,
    bytes: 1,
    cache: "HIT",
    kind: "api",
    durationMs: 10,
    experiment: { experimentId: 1, variantId, variantKey: "v", visitor, network: 7 },
    ...p,
  };
}

Deno.test("a visitor counts once per arm per window, with any 5xx and the slowest answer", () => {
  const v = new PendingVisitors();
  for (let i = 0; i < 300; i++) v.add(rec(42, { status: i === 5 ? 503 : 200 }));
  v.add(rec(42, { durationMs: 900 }));
  v.add(rec(42, {}, 3)); // the other arm
  v.add(rec(42, { ts: T0 + VISITOR_WINDOW_MS })); // the next window
  v.add(rec(43, { experiment: null }));
  v.add(rec(44, { background: true }));
  assertEquals(v.size, 3);
  const rows = v.take(10);
  assertEquals(v.size, 0);
  const first = rows.find((r) => r.variantId === 2 && r.windowStart === T0)!;
  assertEquals([first.errored, first.slowest, first.network], [true, 6, 7]);
  assertEquals(rows.filter((r) => r.visitor === 42).length, 3);
});

Deno.test("visitors are bounded per arm and window and in all; a failed batch merges back", () => {
  const v = new PendingVisitors();
  for (let i = 0; i < MAX_VISITORS_PER_ARM_WINDOW + 10; i++) v.add(rec(i));
  assertEquals([v.size, v.dropped], [MAX_VISITORS_PER_ARM_WINDOW, 10]);
  for (let w = 1; v.size < MAX_PENDING_VISITORS; w++) {
    for (let i = 0; i < MAX_VISITORS_PER_ARM_WINDOW; i++) {
      v.add(rec(i, { ts: T0 + w * VISITOR_WINDOW_MS }));
    }
  }
  v.add(rec(1, { ts: T0 - VISITOR_WINDOW_MS }));
  assertEquals(v.size, MAX_PENDING_VISITORS);
  assertEquals(v.dropped, 11);
  const batch = v.take(100);
  assertEquals([batch.length, v.size], [100, MAX_PENDING_VISITORS - 100]);
  v.add(rec(batch[0].visitor, { ts: batch[0].windowStart, status: 500 }));
  v.putBack(batch);
  assertEquals(v.size, MAX_PENDING_VISITORS);
  const again = v.take(MAX_PENDING_VISITORS);
  const merged = again.filter((r) =>
    r.visitor === batch[0].visitor && r.windowStart === batch[0].windowStart
  );
  assertEquals(merged.length, 1);
  assert(merged[0].errored, "the 5xx seen meanwhile is kept");
});

Deno.test("a visitor flushed already is written again only when a 5xx or a slower answer adds", () => {
  const v = new PendingVisitors();
  v.add(rec(1));
  v.add(rec(2));
  assertEquals(v.take(10).length, 2);
  v.add(rec(1));
  v.add(rec(2, { durationMs: 1 })); // faster: nothing new
  assertEquals(v.size, 0);
  v.add(rec(1, { status: 502 }));
  v.add(rec(2, { durationMs: 3000 }));
  v.add(rec(3));
  const again = v.take(10);
  assertEquals(again.map((r) => [r.visitor, r.errored, r.slowest]), [
    [1, true, 0],
    [2, false, 7],
    [3, false, 0],
  ]);
  // The cap counts what was sent: an arm's window takes no more than the cap in all.
  for (let i = 0; i < MAX_VISITORS_PER_ARM_WINDOW; i++) v.add(rec(10 + i));
  assertEquals(v.size, MAX_VISITORS_PER_ARM_WINDOW - 3);
  v.take(MAX_VISITORS_PER_ARM_WINDOW);
  v.add(rec(99_999));
  assertEquals(v.size, 0, "past the cap");
  // Two windows later the old windows are forgotten.
  v.add(rec(1, { ts: T0 + 2 * VISITOR_WINDOW_MS }));
  v.take(10);
  assertEquals(v.sentSize, 1);
});
