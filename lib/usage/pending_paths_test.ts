import { assertEquals } from "../../tests/assert.ts";
import { PendingPaths } from "./pending_paths.ts";
import type { UsageRecord } from "../../edge/types.ts";
import { TenantSlots } from "./tenant_slots.ts";

const at = (ts: number, path: string) =>
  ({ tenantId: 1, ts, path, status: 200, bytes: 10 }) as unknown as UsageRecord;

Deno.test("paths are counted per UTC day, across midnight and back", () => {
  const p = new PendingPaths(100, new TenantSlots());
  const midnight = Date.UTC(2026, 10, 28);
  p.add(at(midnight - 1, "/a?x=1"), 0);
  p.add(at(midnight, "/a"), 0);
  p.add(at(midnight + 5, "/a"), 0);
  p.add(at(midnight - 2, "/a"), 0); // a late record of the day before
  const got = p.take(10).map((d) => [d.day, d.path, d.requests]).sort();
  assertEquals(got, [["2026-11-27", "/a", 2], ["2026-11-28", "/a", 2]]);
});
