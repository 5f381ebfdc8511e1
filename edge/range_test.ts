import { assertEquals } from "../tests/assert.ts";
import { ifRangeMatches, planRange } from "./range.ts";
import { cachedObject } from "./cache/store.ts";

Deno.test("planRange() parses single, suffix, open and clamped ranges", () => {
  assertEquals(planRange("bytes=0-8", 1000), { kind: "ranges", ranges: [[0, 8]] });
  assertEquals(planRange("bytes=-10", 1000), { kind: "ranges", ranges: [[990, 999]] });
  assertEquals(planRange("bytes=990-", 1000), { kind: "ranges", ranges: [[990, 999]] });
  assertEquals(planRange("bytes=990-1990", 1000), { kind: "ranges", ranges: [[990, 999]] });
  assertEquals(planRange("bytes=-5000", 1000), { kind: "ranges", ranges: [[0, 999]] });
  assertEquals(planRange("BYTES = 1-2", 1000), { kind: "ranges", ranges: [[1, 2]] });
});

Deno.test("planRange() drops unsatisfiable members and refuses when none is left", () => {
  assertEquals(planRange("bytes=0-9, 100000-, 10-19", 1000), {
    kind: "ranges",
    ranges: [[0, 9], [10, 19]],
  });
  assertEquals(planRange("bytes=100000-", 1000), { kind: "unsatisfiable" });
  assertEquals(planRange("bytes=-0", 1000), { kind: "unsatisfiable" });
  assertEquals(planRange("bytes=0-0", 0), { kind: "unsatisfiable" });
});

Deno.test("planRange() answers invalid syntax with 416 and ignores other units and oversized sets", () => {
  for (
    const bad of [
      "bytes=alpha",
      "bytes=10-alpha",
      "bytes=10",
      "bytes=10-11 12-",
      "bytes=5-1",
      "bytes",
    ]
  ) {
    assertEquals(planRange(bad, 1000), { kind: "unsatisfiable" }, bad);
  }
  assertEquals(planRange("items=0-1", 1000), { kind: "full" });
  assertEquals(planRange("bytes=0-10001, 0-0", 1000), { kind: "full" });
});

Deno.test("ifRangeMatches() needs a strong ETag match or the exact Last-Modified", () => {
  const obj = cachedObject(
    200,
    [["etag", '"abc"'], ["last-modified", "Tue, 01 Jan 2030 00:00:00 GMT"]],
    new Uint8Array(1),
    0,
    1,
  );
  assertEquals(ifRangeMatches(null, obj), true);
  assertEquals(ifRangeMatches('"abc"', obj), true);
  assertEquals(ifRangeMatches('W/"abc"', obj), false);
  assertEquals(ifRangeMatches('"other"', obj), false);
  assertEquals(ifRangeMatches("Tue, 01 Jan 2030 00:00:00 GMT", obj), true);
  assertEquals(ifRangeMatches("Wed, 02 Jan 2030 00:00:00 GMT", obj), false);
});
