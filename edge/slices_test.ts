import { assertEquals } from "../tests/assert.ts";
import { closedRange, parseContentRange, SLICE_BYTES, sliceRange, streamRange } from "./slices.ts";
import { assetKey, sliceKey } from "./cache/keys.ts";

Deno.test("streamRange() takes bytes=a- and any closed range, nothing else", () => {
  assertEquals(streamRange("bytes=10-"), [10, Infinity]);
  assertEquals(streamRange("bytes=0-"), [0, Infinity]);
  assertEquals(streamRange(" BYTES = 10 - "), [10, Infinity]);
  assertEquals(streamRange("bytes=10-99999999"), [10, 99999999]);
  for (const h of ["bytes=-10", "bytes=0-9,20-29", "bytes=9-0", "items=10-"]) {
    assertEquals(streamRange(h), null, h);
  }
});

Deno.test("closedRange() takes one closed range within the bound, nothing else", () => {
  assertEquals(closedRange("bytes=0-9", 100), [0, 9]);
  assertEquals(closedRange(" BYTES = 10 - 109 ", 100), [10, 109]);
  for (
    const h of [
      "bytes=10-",
      "bytes=-10",
      "bytes=0-9,20-29",
      "bytes=9-0",
      "items=0-9",
      "bytes=0-100",
    ]
  ) {
    assertEquals(closedRange(h, 100), null, h);
  }
});

Deno.test("parseContentRange() needs a known total and an end inside it", () => {
  assertEquals(parseContentRange("bytes 0-1048575/52428800"), [0, 1048575, 52428800]);
  for (const v of [undefined, "bytes 0-9/*", "bytes */100", "bytes 9-0/100", "bytes 0-100/100"]) {
    assertEquals(parseContentRange(v), null, String(v));
  }
});

Deno.test("slice keys live in their own namespace and carry the whole asset key", () => {
  const k = assetKey(7, 3, "https://acme.example", "/v/a.mp4", "");
  assertEquals(sliceKey(k, SLICE_BYTES, SLICE_BYTES), `r|1048576+1048576|${k}`);
  assertEquals(sliceRange(SLICE_BYTES), "bytes=1048576-2097151");
});
