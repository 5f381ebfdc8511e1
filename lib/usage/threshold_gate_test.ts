import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ThresholdGate } from "./threshold_gate.ts";

Deno.test("ThresholdGate.allow() admits an org once per interval", () => {
  const g = new ThresholdGate({ intervalMs: 100 });
  assertEquals(g.allow("a", 0), true);
  assertEquals(g.allow("a", 99), false);
  assertEquals(g.allow("b", 99), true);
  assertEquals(g.allow("a", 100), true);
  assertEquals(g.status(), {
    enabled: true,
    intervalMs: 100,
    allowed: 3,
    skippedThrottled: 1,
    skippedDisabled: 0,
    evictedEntries: 0,
    trackedOrgs: 2,
  });
});

Deno.test("ThresholdGate evicts the least recently allowed org past maxTracked", () => {
  const g = new ThresholdGate({ intervalMs: 1000, maxTracked: 2 });
  g.allow("a", 0);
  g.allow("b", 1);
  g.allow("c", 2);
  assertEquals(g.status().evictedEntries, 1);
  assertEquals(g.status().trackedOrgs, 2);
  assertEquals(g.allow("a", 3), true, "a was evicted, so it is admitted again");
  assertEquals(g.allow("c", 4), false);
});

Deno.test("ThresholdGate counts skips while disabled", () => {
  const g = new ThresholdGate({ enabled: false });
  assertEquals(g.allow("a", 0), false);
  assertEquals(g.status().skippedDisabled, 1);
  assertEquals(g.status().allowed, 0);
});

Deno.test("ThresholdGate rejects a negative interval", () => {
  assertThrows(() => new ThresholdGate({ intervalMs: -1 }));
});
