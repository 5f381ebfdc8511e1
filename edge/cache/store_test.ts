import { assert, assertEquals } from "../../tests/assert.ts";
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

Deno.test("objects with the same header pairs share one list; validators keep a list per object", () => {
  const fresh = (): [string, string][] => [
    ["content-type", "application/json"],
    ["cache-control", "max-age=60"],
  ];
  const body = () => new Uint8Array(4);
  const a = cachedObject(200, fresh(), body(), 0, 1000);
  const b = cachedObject(200, fresh(), body(), 0, 1000);
  assert(a.headers === b.headers, "one shared list");
  assertEquals(a.headers, fresh());
  const c = cachedObject(200, [...fresh(), ["etag", '"1"']], body(), 0, 1000);
  const d = cachedObject(200, [...fresh(), ["etag", '"2"']], body(), 0, 1000);
  assert(c.headers !== d.headers, "an ETag makes the list the object's own");
  assert(c.headers[0] === a.headers[0], "its other pairs are still the shared ones");
  assertEquals([c.etag, d.etag], ['"1"', '"2"']);
});
