import { assertEquals } from "../../tests/assert.ts";
import { cachedObject } from "./store.ts";

Deno.test("a cached body never pins a larger buffer than its own bytes", () => {
  // fetch hands out views into 64 KB read buffers; the object must own just its bytes.
  const buffer = new ArrayBuffer(65_536);
  const view = new Uint8Array(buffer, 100, 2048);
  view.fill(7);
  const obj = cachedObject(200, [["content-type", "application/json"]], view, 0, 1000);
  assertEquals(obj.body.byteLength, 2048);
  assertEquals(obj.body.buffer.byteLength, 2048);
  assertEquals(obj.body[0], 7);
  const exact = new Uint8Array(16);
  assertEquals(cachedObject(200, [], exact, 0, 1000).body, exact, "an exact buffer is kept as is");
});
